"""Never lost on the phone during and after play (docs/playing.md "A live table: where a tap
lands, the next step under the thumb"), by touch at 360x740 on two phones: the newest log line
under the turn card is read whole enough (two lines, the whole line in its title), a fight
waiting for my Apply is linked from the thumb bar until answered (DemLoc rulebook 7.3.2), and
"Continue" to another mission stays armed for a slow second tap (6.4.1). Every test prints
what it measured."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_landing import in_view, open_sheet, scroll_y, view_kept
from tests.e2e.test_never_lost import other_looks_at

LINES = """e => { const lh = parseFloat(getComputedStyle(e).lineHeight);
  return {lines: Math.round(e.getBoundingClientRect().height / lh), wide: e.scrollWidth > e.clientWidth + 1,
          text: e.textContent}; }"""


def test_the_status_line_under_the_turn_card_wraps_to_two_lines_5_6(new_phone):
    """Korr's shot strays (its test die fails, 5.6): the newest log line, under the turn card,
    says so. Found by a new user: on one line it was cut after "Korr Halfhand's shot at"; it
    wraps to two lines (an ellipsis only past them), the whole line in its title."""
    ann, ben = open_table(new_phone, "demloc")
    form = open_sheet(ann, "s0-korr", "shoot").locator("form")
    form.locator('select[name="d.target"]').select_option("s1-bram")
    form.locator('input[name="d.test_roll"]').fill("6")
    form.locator('input[name="d.dice"]').fill("6 6 6")
    form.get_by_role("button", name="Work it out").tap()
    expect(ann.locator("#dl-notice")).to_contain_text("missed: the test failed")
    in_sync([ann, ben])
    for name, phone in (("ann", ann), ("ben", ben)):
        status = phone.locator("#dl-status")
        expect(status).to_contain_text("Korr")
        phone.evaluate("window.scrollTo(0, 0)")
        phone.wait_for_timeout(200)
        m = status.evaluate(LINES)
        whole = status.get_attribute("title")
        phone.screenshot(path=f"test-artifacts/never-lost-status-{name}.png")
        print(f"{name}: the status line in {m['lines']} line(s), cut sideways: {m['wide']};"
              f" title {whole!r}")
        assert m["lines"] == 2 and not m["wide"], m
        assert whole == m["text"].strip(), (whole, m["text"])

"""What a DemLoc control says, by touch at 360x740 (docs/playing.md "A live table: where a tap
lands"): an arcane test's result is at its Test form and the acting phone lands on it
(7.2.3.5); a Summon the rules would refuse is a disabled button with the command's own reason
beside it, on screen (7.2, 7.2.3.2). Every test prints what it measured."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_landing import in_view, open_sheet, scroll_y, view_kept, view_mark


def test_an_arcane_test_lands_on_its_result_line_at_the_test_form_7_2_3_5(new_phone):
    """Vesna channels (the setup channelling, 6.4.1), then makes an arcane test with a fate
    point: the form starts afresh and Ann's phone shows the test's result line just above it
    (it was only in the log at the top of the page); Ben's view does not move."""
    ann, ben = open_table(new_phone, "demloc")
    arcane = open_sheet(ann, "s0-vesna", "arcane")
    channel = arcane.locator("form", has=ann.locator('input[value="demloc.mana.channel"]'))
    channel.get_by_label("Common", exact=True).fill("1")
    channel.get_by_label("setup channelling (seals have no effect)").check()
    v = version(ann)
    channel.get_by_role("button", name="Channel").tap()
    expect(ann.locator("#live")).not_to_have_attribute("data-version", str(v))
    test = arcane.locator('form[data-test="arcane"]')
    test.get_by_label("Die").fill("3")
    test.get_by_label(re.compile(r"^Fate \(of")).fill("1")
    button = test.get_by_role("button", name="Test")
    button.evaluate("e => e.scrollIntoView({block: 'center'})")
    in_sync([ann, ben])
    ben.evaluate("window.scrollTo(0, 500)")
    ben.wait_for_timeout(100)
    mark, before = view_mark(ben), scroll_y(ann)
    button.tap()
    result = ann.locator("#dl-test-s0-vesna")
    expect(result).to_contain_text("Vesna the Gray's arcane test: rolled 3 − 1 fate point → 2")
    expect(result).to_contain_text("against Arcane 2: passed.")
    in_sync([ann, ben])
    ann.wait_for_timeout(300)
    box = in_view(ann, result)
    in_view(ann, test.get_by_label("Die"))  # the Test form, afresh, just under it
    expect(test.get_by_label("Die")).to_have_value("")
    ann.screenshot(path="test-artifacts/control-says-arcane-test-ann.png")
    kept = view_kept(ben, mark)
    print(f"arcane test: Ann scrollY {before} -> {scroll_y(ann)}, {result.inner_text()!r} at"
          f" y={box['y']:.0f}; Ben's view kept: {kept}")

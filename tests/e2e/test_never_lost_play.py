"""Never lost on the phone during and after play (docs/playing.md "A live table: where a tap
lands, the next step under the thumb"), by touch at 360x740 on two phones: the newest log line
under the turn card is read whole enough (two lines, the whole line in its title), a fight
waiting for my Apply is linked from the thumb bar until answered (DemLoc rulebook 7.3.2), and
"Continue" to another mission stays armed for a slow second tap (6.4.1). Every test prints
what it measured."""

import re

from playwright.sync_api import expect

from missions.models import Mission
from missions.services import mission_close
from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_landing import aim_brawl, aim_shot, in_view, scroll_y, view_kept
from tests.e2e.test_never_lost import guild_mission_phones, other_looks_at
from tests.missions.lifecycle_flow import cmd

LINES = """e => { const lh = parseFloat(getComputedStyle(e).lineHeight);
  return {lines: Math.round(e.getBoundingClientRect().height / lh), wide: e.scrollWidth > e.clientWidth + 1,
          text: e.textContent}; }"""


def test_the_status_line_under_the_turn_card_wraps_to_two_lines_7_2_2(new_phone):
    """Korr's shot at Bram is worked out (7.2.2): the newest log line, under the turn card,
    says so, at length. Found by a new user on a stray shot's line (5.6; that line now gives
    way to the stray shot's notice, which says it in full): on one line it was cut after
    "Korr Halfhand's shot at"; it wraps to two lines (an ellipsis only past them), the whole
    line in its title."""
    ann, ben = open_table(new_phone, "demloc")
    aim_shot(ann, "s0-korr", "s1-bram", 1, "6 6 6").tap()
    expect(ann.locator("#dl-pending")).to_contain_text("Shot: proposed result")
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


COVERED = """e => { const r = e.getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !!at && (at === e || e.contains(at)); }"""


def test_a_fight_waiting_for_me_is_linked_from_the_thumb_bar_until_answered_7_3_2(new_phone):
    """Ann works out Korr's fight against Ben's Bram (7.3.2) while Ben reads the bottom of his
    page: Ben's view does not move; his thumb bar says "A fight waits for you: check it", still
    after the alert folded; its link brings Apply between the bars, uncovered; Apply applies
    the fight and the line goes (the shot's variant: test_never_lost.py)."""
    ann, ben = open_table(new_phone, "demloc")
    work = aim_brawl(ann, "s0-korr", "s1-bram")
    in_sync([ann, ben])
    expect(ben.locator("#dl-pending-go")).to_have_count(0)  # nothing waits for Ben yet
    mark = other_looks_at(ben, 700)
    work.tap()
    pending = ben.locator("#dl-pending")
    expect(pending).to_contain_text("Fight: proposed result")
    in_sync([ann, ben])
    kept = view_kept(ben, mark)
    go = ben.locator("#dl-thumb #dl-pending-go")
    expect(go).to_contain_text("A fight waits for you: check it")
    expect(ann.locator("#dl-pending-go")).to_have_count(0)  # Ann's own fight: she is on it
    ben.wait_for_timeout(4500)  # the alert folds to a line; the bar's link stays
    expect(ben.locator("#dl-alert.dl-alert-quiet")).to_have_count(1)
    link = go.get_by_role("link")
    in_view(ben, link)
    before = scroll_y(ben)
    link.tap()
    ben.wait_for_timeout(300)
    apply = pending.get_by_role("button", name="Apply")
    at = in_view(ben, apply)
    assert apply.evaluate(COVERED), at  # what is at Apply's centre is Apply: not under a bar
    ben.screenshot(path="test-artifacts/never-lost-pending-fight-link-ben.png")
    print(f"fight on Bram: Ben's view kept {kept}; after the bar's link scrollY {before} ->"
          f" {scroll_y(ben)}, Apply at y={at['y']:.0f}")
    hearts = ben.locator("#piece-s1-bram .dl-hearts > span")
    whole = hearts.get_attribute("aria-label")
    apply.tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    expect(ben.locator("#dl-pending-go")).to_have_count(0)
    expect(hearts).not_to_have_attribute("aria-label", whole)  # the fight's wounds, applied
    print(f"applied: Bram's hearts {whole} -> {hearts.get_attribute('aria-label')}")


def test_continue_to_another_mission_waits_for_a_slow_second_tap_6_4_1(new_phone):
    """A closed Guild mission: Bob taps Another mission in his thumb bar, then Continue. Found
    by a new user: the first tap's text went after 5 s, before his second tap (reading what it
    does, the phone in one hand), which then only armed it again. The button says what the
    second tap does; a tap elsewhere disarms it; armed again, it waits 6.5 s and more, and the
    slow second tap opens the next mission."""
    table, seats, (ann, bob) = guild_mission_phones(new_phone)
    for seat in seats:
        cmd(table, seat, "surrender.vote", agree=True)
    mission_close(mission_id=Mission.objects.get(table=table).pk)
    expect(bob.locator("#dl-closed")).to_be_visible()
    bob.wait_for_timeout(400)  # Bob sees the new button, then taps it (not a race: app.js)
    bob.locator("#dl-thumb #dl-another").tap()
    go = bob.locator("#dl-continue button")
    bob.wait_for_timeout(300)
    in_view(bob, go)
    go.tap()
    said = "Tap again to open it: the mission chosen above, with every Guild of this one"
    expect(go).to_contain_text(said)
    bob.locator("#dl-continue h3").tap()  # a tap elsewhere: disarmed
    expect(go).to_have_text("Continue")
    go.tap()
    expect(go).to_contain_text(said)
    bob.wait_for_timeout(6500)  # slower than the 5 s it used to wait
    expect(go).to_contain_text(said)
    in_view(bob, go)
    bob.screenshot(path="test-artifacts/never-lost-continue-armed-bob.png")
    armed_for = bob.evaluate("() => !!document.querySelector('#dl-continue[data-armed]')")
    here = re.compile(f"/t/{table.code}/$")
    go.tap()
    expect(bob).not_to_have_url(here)
    expect(bob.locator("#live")).to_have_attribute("data-status", "playing")
    expect(ann.locator("#dl-thumb #dl-another")).to_have_text("Go to the next mission")
    print(f"continue: still armed after 6.8 s: {armed_for}; the slow second tap opened"
          f" {bob.url}")

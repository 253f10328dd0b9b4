"""A double tap's second tap never acts on what the first tap's answer put under the thumb
(app.js, ghost-tap guard; docs/playing.md). Found by a new user at 360x740: a double tap on
DemLoc's "Next turn" also passed the next phase (the bar then held "Next: pass" in the same
spot, rulebook 7.2: passing ends the phase for that player), and a double tap on the Realm's
End turn beat its "Tap again to end your turn ... (no undo)" confirmation (rulebook "Step 3 -
End Your Turn"). Taps are touch taps at one point of the screen, 80 ms apart, as a thumb's
double tap; a deliberate tap after the guard (700 ms) still works."""

from playwright.sync_api import expect

from tabletop.models import Table
from tabletop.realm.rules import RealmRuleset
from tabletop.registry import get_ruleset
from tests.e2e.conftest import open_table, shot, table_code
from tests.e2e.demloc_turns import in_sync, play_to_turn_end, version
from tests.e2e.test_realm import tick

R = RealmRuleset()


def double_tap(phone, locator, gap_ms: int = 80) -> tuple[float, float]:
    """Two touch taps ``gap_ms`` apart at the centre of ``locator`` (where it is at the first
    tap): the second lands on whatever is there by then. Returns the point."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(gap_ms)
    phone.touchscreen.tap(x, y)
    return x, y


def at_turn_end(new_phone):
    """A two-phone DemLoc table of three turns played to turn 1's end (7.4): ``(phones, table,
    [each phone's Next turn centre])``, each Next turn wholly in view."""
    phones = open_table(new_phone, "demloc", options={"#opt-turn_limit": "3"}, inset=0)
    table = Table.objects.get(code=table_code(phones[0]))
    play_to_turn_end(phones)
    points = []
    for phone in phones:
        next_turn = phone.locator("#bottom-bar").get_by_role("button", name="Next turn")
        expect(next_turn).to_be_in_viewport(ratio=1)
        box = next_turn.bounding_box()
        points.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    return phones, table, points

def test_double_tap_on_next_turn_does_not_pass_the_next_phase(new_phone):
    # Both phones double-tap Next turn (who plays first in turn 2 is drawn, 7.1): the one whose
    # bar then shows Next: pass under the finger must not pass with the second tap.
    phones, table, points = at_turn_end(new_phone)
    ann, ben = phones
    game = get_ruleset("demloc")
    before = version(ann)
    ann.wait_for_timeout(600)  # past the guard of the last pass's tap (Next turn came under it)

    for phone, (x, y) in zip(phones, points, strict=True):
        phone.touchscreen.tap(x, y)
    ann.wait_for_timeout(80)
    for phone, (x, y) in zip(phones, points, strict=True):
        phone.touchscreen.tap(x, y)
    ann.wait_for_timeout(1200)  # every tap answered (or refused) by now
    shot(ann, "ghost-tap-next-turn")
    table.refresh_from_db()
    state = game.load(table.state)
    assert (state["turn"], state["phase"], state["acting_index"]) == (2, "strategic", 0), (
        state["turn"], state["phase"], state["acting_index"])
    in_sync(phones)
    after = version(ann)
    assert after > before

    # A deliberate tap after the guard passes the phase as always.
    acting = next(p for p in phones if p.locator("#bottom-bar").get_by_role("button", name="Next: pass").count())
    acting.wait_for_timeout(700)
    acting.locator("#bottom-bar").get_by_role("button", name="Next: pass").tap()
    expect(acting.locator("#live")).not_to_have_attribute("data-version", str(after))
    table.refresh_from_db()
    assert game.load(table.state)["acting_index"] == 1


def test_double_tap_does_not_confirm_the_realm_end_turn(new_phone):
    ann, ben = open_table(new_phone, "realm", inset=0)
    table = Table.objects.get(code=table_code(ann))
    for phone in (ann, ben):
        expect(phone.locator("#rl-hand .realm-pick").first).to_be_attached()
    state = R.load(table.state)
    turn = state["turn"]
    phone = (ann, ben)[turn]
    hand = state["players"][turn]["hand"]
    needed = R.view(state, turn)["me"]["discard_needed"]
    for card in hand[:needed]:
        tick(phone, card)
    end = phone.locator("#rl-end")
    expect(end).to_be_in_viewport(ratio=1)

    x, y = double_tap(phone, end)
    phone.wait_for_timeout(300)
    expect(end).to_contain_text("Tap again")  # armed, not confirmed
    # The new label is ringed while taps on it go nowhere.
    shot(phone, "ghost-tap-realm-end-armed")
    phone.wait_for_timeout(1000)
    table.refresh_from_db()
    assert R.load(table.state)["turn"] == turn, "the double tap ended the turn"

    phone.touchscreen.tap(x, y)  # a deliberate second tap, 1.3 s later: confirmed
    expect(phone.locator("#rl-end-check")).to_have_count(0)
    expect((ann, ben)[1 - turn].locator("#rl-end")).to_be_visible()
    table.refresh_from_db()
    assert R.load(table.state)["turn"] == 1 - turn


MOVED_ON = "Someone acted just before you: the table already moved on."


def test_a_tap_on_a_control_the_other_phone_just_took_away_says_the_table_moved_on_7_1(new_phone):
    """Found by a second new user: Next turn tapped on both phones at once; the server moved
    on one turn (good), but the second phone's tap came just after the first one's push, its
    button was redrawn under the finger, and the tap went nowhere with no word (had the bar
    then held Next: pass, it would have passed: rulebook 7.2). The tap is not sent, and the
    spot says what the race refusal says."""
    phones, table, points = at_turn_end(new_phone)
    ann, ben = phones
    game = get_ruleset("demloc")
    ann.wait_for_timeout(600)  # past the guard of the last pass's tap
    before = version(ann)

    ann.touchscreen.tap(*points[0])
    # Ben's thumb is on its way to his Next turn when Ann's push redraws his bar.
    expect(ann.locator("#dl-turn-no")).to_contain_text("Turn 2")
    moved_on = version(ann)  # the table after Ann's Next turn
    expect(ben.locator("#dl-turn-no")).to_contain_text("Turn 2")
    ben.touchscreen.tap(*points[1])
    ben.wait_for_timeout(800)
    shot(ben, "ghost-tap-moved-on")
    ben.screenshot(path="test-artifacts/ghost-tap-moved-on-screen.png")

    note = ben.locator(".alert.at-control", has_text=MOVED_ON)
    expect(note).to_be_visible()
    expect(note).to_be_in_viewport(ratio=1)
    assert ben.locator("#bottom-bar").locator(".alert.at-control").count() == 1  # at the bar tapped
    table.refresh_from_db()
    state = game.load(table.state)
    # one action: Ann's Next turn; Ben's tap passed nothing
    assert (state["turn"], state["phase"], state["acting_index"]) == (2, "strategic", 0), (
        state["turn"], state["phase"], state["acting_index"])
    assert table.version == moved_on > before, (table.version, moved_on, before)
    expect(ben.locator("#dl-stop-count")).to_have_text("0/2")  # nor agreed to stop
    in_sync(phones)
    # The line only tells: Ben's next tap on a control (a character's sheet opened) takes it
    # away (a new user saw it stay above the thumb bar several taps later).
    ben.wait_for_timeout(600)
    sheet = ben.locator("#live details > summary").first
    sheet.scroll_into_view_if_needed()
    sheet.tap()
    expect(note).to_have_count(0)

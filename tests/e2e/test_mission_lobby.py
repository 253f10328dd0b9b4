"""Two Guild Masters open a mission on their phones (DemLoc rulebook 6.4, 6.4.1): one opens it
in the lobby, the other joins with the code, both bring their Guilds, pass the raffle and the
objective with Next, choose their characters. Live over the websocket, no reload."""

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from tests.e2e.conftest import ARTIFACTS, login, shot
from tests.e2e.demloc_turns import achieve_objective, deploy_and_start, seat_and_bring
from tests.missions.lifecycle_flow import build_guild


def tap_next(phone):
    """Tap Next and wait until the table moved on, so the other phone's tap never lands on a
    button that a push is replacing at that very moment (a real player would tap again)."""
    before = phone.locator("#live").get_attribute("data-version")
    phone.get_by_role("button", name="Next").tap()
    expect(phone.locator("#live")).not_to_have_attribute("data-version", before)


def test_two_phones_open_a_mission_and_prepare_it(new_phone):
    load_demo_missions()
    a = build_guild("House Ash", "red", ("Rook", "Wren"), feods=80)
    b = build_guild("House Birch", "red", ("Ash", "Birch"), feods=80)
    ann, bob = new_phone(), new_phone()
    login(ann, a.master.username)
    login(bob, b.master.username)

    ann.goto("/missions/")
    ann.get_by_text("The Drowned Bell").tap()
    # A table option like the others (6.4.2 kill counter): this group enters kills by hand.
    ann.get_by_text("Table rules where the rulebook hesitates").tap()
    expect(ann.locator("#opt-kills")).to_have_value("app")
    ann.locator("#opt-kills").screenshot(path=str(ARTIFACTS / "mission-lobby-kills.png"))
    ann.select_option("#opt-kills", "hand")
    ann.locator("#opt-kills").scroll_into_view_if_needed()
    shot(ann, "mission-lobby")
    seat_and_bring(ann, bob)
    for phone in (ann, bob):
        expect(phone.locator("#dl-guilds")).to_contain_text("House Ash")
        expect(phone.locator("#dl-guilds")).to_contain_text("House Birch")

    def next_on_both(stage):
        for phone in (ann, bob):
            tap_next(phone)
        for phone in (ann, bob):
            expect(phone.locator(f'[data-stage="{stage}"]')).to_be_visible()

    next_on_both("raffle")
    expect(bob.locator("#dl-raffle")).to_contain_text("No control spot")
    next_on_both("objective")
    expect(bob.locator("#dl-objective")).to_contain_text("ring the bell")
    shot(bob, "mission-objective")
    next_on_both("map")
    next_on_both("characters")
    ann.get_by_role("button", name="Choose").first.tap()
    expect(ann.locator(".dl-picks")).to_contain_text("Rook")
    expect(bob.locator("#dl-characters")).to_contain_text("House Ash: Rook")
    bob.get_by_role("button", name="Choose").first.tap()
    shot(ann, "mission-characters")
    next_on_both("mana")
    next_on_both("miniatures")
    expect(ann.locator("#dl-minis")).to_contain_text("blue sub-bases")  # Bob's red was taken
    # and the page says so, on both phones
    for phone in (ann, bob):
        expect(phone.locator("#dl-minis [data-colour-taken]")).to_have_text(
            "Blue, not its own red: a Guild seated before it plays red (each Guild's sub-bases"
            " have a colour of their own, 5.2).")
    shot(bob, "mission-miniatures")

    # Deployment: the app names the first player; one miniature each, clockwise.
    next_on_both("deployment")
    deploy_and_start([ann, bob])
    expect(ann.locator("#dl-mission")).to_contain_text("ring the bell")
    # The option chosen in the lobby, said next to "Count a kill"; nobody has a kill yet.
    for phone in (ann, bob):
        expect(phone.locator("#dl-kill-help")).to_contain_text("by hand")
        expect(phone.locator(".dl-kills").first).to_have_text("Kills: none")
    bob.locator("#dl-players").screenshot(path=str(ARTIFACTS / "mission-kills.png"))
    achieve_objective(ann, [bob])  # at the end of the turn, Bob confirms (7.3.2.3)
    expect(bob.locator("#dl-winner")).to_contain_text("House Ash wins")
    # Ended, not closed (6.4.1): the badge says so, not "Playing" (found by a new user).
    expect(bob.locator("#table-status")).to_have_text("Ended: close to write the results")
    bob.evaluate("window.scrollTo(0, 0)")
    bob.screenshot(path="test-artifacts/mission-ended-not-closed.png")
    bob.locator("#dl-close").tap()  # armed: "Tap again to close" (app.js data-two-step)
    expect(bob.locator("#dl-close")).to_contain_text("Tap again to close")
    bob.locator("#dl-close").tap()
    expect(ann.locator("#dl-closed")).to_be_visible()
    expect(ann.locator("#table-status")).to_have_text("Finished")
    shot(ann, "mission-resolution")
    # Another mission, same players (6.4.1): Bob continues; Ann's phone shows the way there
    # without a reload (the old table has no new version: a data-refresh frame, app.js).
    expect(ann.locator("#dl-next-mission")).to_have_count(0)
    # Asked in place (app.js data-two-step), not by the browser's dialog: the first tap says
    # what the second does on the button and sends nothing.
    go = bob.locator("#dl-continue").get_by_role("button", name="Continue")
    go.tap()
    expect(bob.locator("#dl-continue button")).to_contain_text("takes their Guild out")
    expect(ann.locator("#dl-next-mission")).to_have_count(0)
    bob.locator("#dl-continue button").tap()
    expect(ann.locator("#dl-next-mission")).to_be_visible()
    expect(ann.locator("#dl-next-mission")).to_be_visible()
    shot(ann, "mission-next")
    ann.get_by_role("link", name="Battle report").tap()
    expect(ann.locator("#report-timeline")).to_contain_text("plays first")
    shot(ann, "mission-report")

"""Once the turn is over nothing more is played in it (DemLoc rulebook 7.3.2.3: "When all
players have finished their brawl phase, the turn is over"), on the phone, by touch at 360x740:
the attack's Work it out is disabled and says why beside it, inside the screen, and the next
control (Next turn) is there; after Next turn the same form works again. Found by a new user:
after the last turn of a mission a fight was worked out and applied and written into the
Guild (tests/missions/test_demloc_turn_over.py has the rules)."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot
from tests.e2e.test_landing import in_view, open_sheet
from tests.e2e.test_never_lost import guild_mission_phones
from tests.missions.lifecycle_flow import cmd, piece_of, state


def at_version(table, phones) -> None:
    """Every phone shows the table's committed version (commands made on the server)."""
    for phone in phones:
        expect(phone.locator("#live")).to_have_attribute(
            "data-version", str(state(table)["version"]))


def test_no_fight_once_the_turn_is_over_and_next_turn_opens_it_again_7_3_2_3(new_phone):
    table, seats, (ann, bob) = guild_mission_phones(new_phone)
    while (s := state(table))["phase"] != "end":
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    at_version(table, [ann, bob])
    rook = piece_of(table, seats[0], "Rook")
    box = open_sheet(ann, rook, "brawl")
    work = box.get_by_role("button", name="Work it out")
    why = box.locator(f"#brawl-blocked-{rook}")
    work.evaluate("e => e.scrollIntoView({block: 'center'})")
    expect(work).to_be_disabled()
    expect(why).to_have_text("Turn 1 is over (7.3.2.3): Rook cannot attack until the next turn.")
    in_view(ann, why)
    in_view(ann, work)
    assert work.get_attribute("aria-describedby") == f"brawl-blocked-{rook}"
    shot(ann, "turn-over-brawl-refused")
    before = state(table)["version"]
    work.tap(force=True)  # a thumb on the disabled button: nothing is sent
    ann.wait_for_timeout(500)
    assert state(table)["version"] == before
    # The way on is under the thumb: Next turn.
    next_turn = ann.locator("#dl-thumb").get_by_role("button", name="Next turn")
    expect(next_turn).to_be_visible()
    in_view(ann, next_turn)
    next_turn.tap()
    expect(ann.locator("#dl-turn-no")).to_contain_text("Turn 2")
    at_version(table, [ann, bob])
    box = open_sheet(ann, rook, "brawl")
    work = box.get_by_role("button", name="Work it out")
    expect(work).to_be_enabled()
    expect(box.locator(f"#brawl-blocked-{rook}")).to_have_count(0)
    shot(ann, "turn-over-brawl-open-again")


def test_a_character_killed_by_poison_says_so_on_every_phone_6_4_2(new_phone):
    """Ben poisons his own Ash by touch; a second token is refused at the control (already
    poisoned, 6.4.2); the poison grows each turn (8.2) until it passes Ash's hit factor: both
    phones show its card "killed by poison" (it said "killed", with no broken heart to say
    why), the badge inside the screen once the card is scrolled to."""
    table, seats, (ann, ben) = guild_mission_phones(new_phone)
    ash = piece_of(table, seats[1], "Ash")
    card = ben.locator(f"#piece-{ash}")
    card.locator("summary.dl-summary").tap()
    plus = card.locator('[data-token="poison"]').get_by_role("button", name="add poison tokens")
    plus.scroll_into_view_if_needed()
    before = state(table)["version"]
    plus.tap()
    expect(ben.locator("#live")).to_have_attribute("data-version", str(before + 1))
    expect(card.locator(".dl-toks")).to_contain_text("poison 1")
    ben.wait_for_timeout(600)  # a second, deliberate tap
    plus.tap()
    refusal = ben.locator('[data-code="already_poisoned"]')
    expect(refusal).to_contain_text("Ash is already poisoned: no new poison tokens (6.4.2).")
    in_view(ben, refusal)
    assert state(table)["version"] == before + 1
    shot(ben, "poison-second-token-refused")
    while state(table)["pieces"][ash]["status"] == "in_play":
        s = state(table)
        if s["phase"] == "end":
            cmd(table, seats[0], "turn.next")
        else:
            cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    at_version(table, [ann, ben])
    # Ann unfolds the other Guild's characters (folded on her page) by touch.
    ann.locator("details", has=ann.locator(f"#piece-{ash}")).locator("> summary").tap()
    for phone, name in ((ben, "ben"), (ann, "ann")):
        badge = phone.locator(f"#piece-{ash} .dl-status")
        expect(badge).to_have_text("killed by poison")
        badge.scroll_into_view_if_needed()
        expect(badge).to_be_visible()
        in_view(phone, badge)
        shot(phone, f"killed-by-poison-{name}")

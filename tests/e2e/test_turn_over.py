"""Once the turn is over nothing more is played in it (DemLoc rulebook 7.3.2.3: "When all
players have finished their brawl phase, the turn is over"), on the phone, by touch at 360x740:
the attack's Work it out is disabled and says why beside it, inside the screen, and the next
control (Next turn) is there; after Next turn the same form works again. Found by a new user:
after the last turn of a mission a fight was worked out and applied and written into the
Guild (tests/missions/test_demloc_turn_over.py has the rules)."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_landing import in_view, open_sheet
from tests.e2e.test_never_lost import guild_mission_phones
from tests.missions.lifecycle_flow import cmd, piece_of, state


def test_no_fight_once_the_turn_is_over_and_next_turn_opens_it_again_7_3_2_3(new_phone):
    table, seats, (ann, bob) = guild_mission_phones(new_phone)
    while (s := state(table))["phase"] != "end":
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    in_sync([ann, bob])
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
    in_sync([ann, bob])
    box = open_sheet(ann, rook, "brawl")
    work = box.get_by_role("button", name="Work it out")
    expect(work).to_be_enabled()
    expect(box.locator(f"#brawl-blocked-{rook}")).to_have_count(0)
    shot(ann, "turn-over-brawl-open-again")

"""Pixel Demon's Realm's End turn by touch at 360x740 (rulebook "Step 3 - End Your Turn
(Reset)": "make sure you reset your hand to 5 cards"). Found by a new user: the hint said "To
end, tick 1 to discard"; End turn then asked "Tap again to end your turn ... (no undo)" and
only after that second tap refused the count. The count the hint says is checked first, at the
button, and nothing is armed until it is right."""

from playwright.sync_api import expect

from tabletop.models import Table
from tabletop.realm.rules import RealmRuleset
from tests.e2e.conftest import open_table, table_code, tap_twice
from tests.e2e.test_realm import tick

R = RealmRuleset()


def test_end_turn_checks_the_discard_count_the_hint_says_before_the_second_tap(new_phone):
    ann, ben = open_table(new_phone, "realm", inset=0)
    code = table_code(ann)
    for phone in (ann, ben):
        expect(phone.locator("#rl-hand .realm-pick").first).to_be_attached()
    table = Table.objects.get(code=code)
    state = R.load(table.state)
    turn = state["turn"]
    phone = (ann, ben)[turn]
    hand = state["players"][turn]["hand"]
    needed = R.view(state, turn)["me"]["discard_needed"]
    assert needed == len(hand) - 5 and needed >= 1, hand  # the turn's draw: one over 5
    expect(phone.locator("#rl-bar-prompt")).to_contain_text(f"tick {needed} to discard")
    end = phone.locator("#rl-end")

    # Nothing ticked: said at the button, and End turn is not armed.
    end.tap()
    check = phone.locator("#rl-end-check")
    expect(check).to_contain_text(f"Tick exactly {needed} card")
    expect(check).to_be_in_viewport()
    expect(end).not_to_contain_text("Tap again")
    version = table.version

    # Two ticked for one to discard: the same.
    for card in hand[: needed + 1]:
        tick(phone, card)
    end.tap()
    expect(check).to_contain_text(f"(ticked: {needed + 1})")
    expect(end).not_to_contain_text("Tap again")
    table.refresh_from_db()
    assert table.version == version

    # The count the hint says: armed, then sent; the turn passes.
    phone.locator(f'#rl-hand label:has(input[value="{hand[needed]}"])').tap()  # untick one
    expect(phone.locator(f'#rl-hand input[value="{hand[needed]}"]')).not_to_be_checked()
    tap_twice(end)
    expect(phone.locator("#rl-end-check")).to_have_count(0)
    other = (ann, ben)[1 - turn]
    expect(other.locator("#rl-end")).to_be_visible()
    table.refresh_from_db()
    assert R.load(table.state)["turn"] == 1 - turn

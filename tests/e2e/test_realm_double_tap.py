"""Pixel Demon's Realm: a double tap on a hand action is one action (rulebook "Vessels":
summon with three cards of one suit or one rank). Found by a new user: Summon Vessel tapped
twice quickly made the Vessel, then showed the red refusal "Summon with three cards of one
suit or one rank." under the button, as if the summon had failed. The second tap, on the same
button redrawn under the thumb with the cards gone from the hand, is silent."""

from django.utils import timezone
from playwright.sync_api import expect

from tabletop.models import Table
from tabletop.realm.rules import RealmRuleset
from tabletop.realm.rules import cards as C
from tests.e2e.conftest import open_table, shot, table_code
from tests.e2e.test_realm import tick

R = RealmRuleset()


def _three_alike(table, seat):
    """The seat's first three hand cards become three Daggers from the deck (swapped, so the
    cards of the game stay the same). Returns them."""
    state = R.load(table.state)
    hand, deck = state["players"][seat]["hand"], state["deck"]
    daggers = [c for c in deck if not C.is_vessel(c) and not C.is_mimic(c) and c.endswith("D")][:3]
    assert len(daggers) == 3, deck
    for i, card in enumerate(daggers):
        j = deck.index(card)
        hand[i], deck[j] = card, hand[i]
    # a new updated_at: the page's views of this state are not the ones kept for the old one
    Table.objects.filter(pk=table.pk).update(state=R.dump(state), updated_at=timezone.now())
    return daggers


def test_a_double_tap_on_summon_vessel_summons_once_and_shows_no_refusal(new_phone):
    ann, ben = open_table(new_phone, "realm", inset=0)
    table = Table.objects.get(code=table_code(ann))
    turn = R.load(table.state)["turn"]
    phone = (ann, ben)[turn]
    daggers = _three_alike(table, turn)
    phone.reload()
    for card in daggers:
        tick(phone, card)
    summon = phone.locator("#rl-summon")
    summon.scroll_into_view_if_needed()
    box = summon.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    version = int(phone.locator("#live").get_attribute("data-version"))
    phone.touchscreen.tap(x, y)
    # the first tap's answer is in (the Vessel in the hand, the Daggers gone) ...
    expect(phone.locator('#rl-hand .realm-pick[value^="vessel-"]')).to_have_count(1)
    expect(phone.locator(f'#rl-hand .realm-pick[value="{daggers[0]}"]')).to_have_count(0)
    # ... and the thumb's second tap lands on the same button, redrawn in the same place
    assert phone.locator("#rl-summon").bounding_box()["y"] == box["y"]
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(1200)
    expect(phone.locator("#rl-me .alert")).to_have_count(0)
    shot(phone, "realm-double-tap-summon")
    table.refresh_from_db()
    assert table.version == version + 1
    state = R.load(table.state)
    assert sum(C.is_vessel(c) for c in state["players"][turn]["hand"]) == 1

    # A deliberate tap with nothing ticked, later, is still refused at the button.
    phone.locator("#rl-summon").tap()
    refusal = phone.locator("#rl-me .alert:visible").first
    expect(refusal).to_contain_text("Summon with three cards of one suit or one rank.")
    expect(refusal).to_be_in_viewport()


def test_a_refusal_goes_at_the_next_tap_that_gets_through(new_phone):
    """Found by a new user: "Play 1 to 4 cards that meet the corners." stayed under Bind after
    ticking a card and tapping End turn (whose first tap asks for a second). A refusal goes at
    this phone's next tap that gets through: a card ticked, a two-step's first tap."""
    ann, ben = open_table(new_phone, "realm", inset=0)
    table = Table.objects.get(code=table_code(ann))
    state = R.load(table.state)
    turn = state["turn"]
    phone = (ann, ben)[turn]
    hand = state["players"][turn]["hand"]
    refusal = phone.locator("#rl-me .rl-error")

    # Bind with nothing ticked: refused at the button; ticking a card takes the line away.
    phone.locator("#rl-bind-active").tap()
    expect(refusal).to_have_count(1)
    tick(phone, hand[0])
    expect(refusal).to_have_count(0)

    # Summon with one card ticked: refused (the card stays ticked); End turn's first tap, with
    # the one card to discard ticked, gets through (it asks for the second): the line goes.
    phone.locator("#rl-summon").tap()
    expect(refusal).to_have_count(1)
    expect(phone.locator(f'#rl-hand input[value="{hand[0]}"]')).to_be_checked()
    end = phone.locator("#rl-end")
    end.tap()
    expect(end).to_contain_text("Tap again")
    expect(refusal).to_have_count(0)
    shot(phone, "realm-refusal-gone")

"""Never lost on the phone, the leftovers of a new user's evening, by touch at 360x740 (docs/
playing.md "A live table: where a tap lands, the next step under the thumb"): the Realm's hand
and its controls in view at the top of my turn, DemLoc's turn-end odds read whole, the join
page saying who joins and what no Guild means, and the offline banner clear of the control
about to be tapped. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_between_bars import BAND


def test_the_realms_hand_and_its_controls_are_in_view_at_the_top_of_my_turn(new_phone):
    """Pixel Demon's Realm rulebook "Step 2 - Act": on my turn I tick hand cards, then Bind,
    Summon or play a power. Found by a new user: at scrollY 0 the hand sat under the fixed
    bottom bar (153 px: the prompt, End turn, Undo/Redo/Log; 187 px over an iPhone's home
    indicator, as here). Opening the page at its top, every card of my hand (the turn's draw:
    six) and Bind and Summon are between the bars, each tappable at its centre; a tapped card
    ticks in place, the page not moved."""
    phones = open_table(new_phone, "realm", 2)
    acting = next(p for p in phones if "Your turn" in p.locator("#rl-bar-prompt").inner_text())
    acting.reload()
    expect(acting.locator("#rl-end")).to_be_visible()
    acting.evaluate("window.scrollTo(0, 0)")
    acting.wait_for_timeout(300)
    acting.screenshot(path="test-artifacts/leftovers-realm-my-turn.png")
    controls = [("bind", acting.get_by_role("button", name="Bind Active Demon"))]
    personal = acting.get_by_role("button", name="Bind your Demon")
    if personal.count():
        controls.append(("bind personal", personal))
    controls.append(("summon", acting.get_by_role("button", name="Summon Vessel (3 alike)")))
    cards = acting.locator("#rl-hand label:has(input)")
    assert cards.count() >= 6, cards.count()
    seen = {f"card {n}": cards.nth(n).evaluate(BAND) for n in range(cards.count())}
    seen.update({name: control.evaluate(BAND) for name, control in controls})
    print("realm, my turn at scrollY 0:", {k: (v["y"], v["bottom"]) for k, v in seen.items()},
          "band", next(iter(seen.values()))["top"], "..", next(iter(seen.values()))["bar"])
    outside = {k: v for k, v in seen.items() if not (v["inside"] and v["hit"])}
    assert not outside, outside
    cards.first.tap()
    expect(acting.locator("#rl-hand .realm-pick").first).to_be_checked()
    assert acting.evaluate("scrollY") == 0

"""Never lost on the phone, the leftovers of a new user's evening, by touch at 360x740 (docs/
playing.md "A live table: where a tap lands, the next step under the thumb"): the Realm's hand
and its controls in view at the top of my turn, DemLoc's turn-end odds read whole, the join
page saying who joins and what no Guild means, and the offline banner clear of the control
about to be tapped. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e import test_between_bars as bars  # (its BAND; it imports turn_end_figures)


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
    seen = {f"card {n}": cards.nth(n).evaluate(bars.BAND) for n in range(cards.count())}
    seen.update({name: control.evaluate(bars.BAND) for name, control in controls})
    print("realm, my turn at scrollY 0:", {k: (v["y"], v["bottom"]) for k, v in seen.items()},
          "band", next(iter(seen.values()))["top"], "..", next(iter(seen.values()))["bar"])
    outside = {k: v for k, v in seen.items() if not (v["inside"] and v["hit"])}
    assert not outside, outside
    cards.first.tap()
    expect(acting.locator("#rl-hand .realm-pick").first).to_be_checked()
    assert acting.evaluate("scrollY") == 0


#: Each match of the pattern (default: a "NN%" figure) in the element's text: its box, and
#: whether it is wholly visible (not past the element's edge nor any clipping ancestor's, as a
#: CSS ellipsis leaves it, nor squeezed to nothing).
FIGURES = r"""(e, pattern) => {
  const clips = [];
  for (let a = e; a && a !== document.body; a = a.parentElement)
    if (getComputedStyle(a).overflowX !== 'visible' || a === e) clips.push(a.getBoundingClientRect());
  const out = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(new RegExp(pattern || '\\d+%', 'g'))) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const q = r.getBoundingClientRect();
      out.push({text: m[0], left: Math.round(q.left), right: Math.round(q.right),
        whole: q.width > 0 && q.left >= 0 && q.right <= innerWidth
          && clips.every(c => q.left >= c.left - 0.5 && q.right <= c.right + 0.5)});
    }
  }
  return out;
}"""


def turn_end_figures(phone, names: tuple[str, ...] = ()) -> list[dict]:
    """The next first player's odds as ``phone`` shows them at a turn's end, each asserted
    wholly visible, as is each of ``names`` (short names, not ellipsized)."""
    expect(phone.locator("#dl-phase")).to_have_text("Turn end")
    figures = phone.locator("#dl-acting").evaluate(FIGURES)
    assert figures and all(f["whole"] for f in figures), figures
    if names:
        seen = phone.locator("#dl-acting").evaluate(FIGURES, "|".join(names))
        assert sorted(f["text"] for f in seen if f["whole"]) == sorted(names), seen
    return figures


def test_the_turn_ends_odds_are_read_whole_at_360_px_7_3_2_3(new_phone):
    """DemLoc 7.3.2.3 (the turn's end: movement tokens back to active) and "First player
    playing" (a new first player drawn, whoever was first less likely). Found by a new user: the
    turn end's line "Turn end: tokens back to active. Next first player: Ann 50% · Ben 50%" was
    cut by an ellipsis at 360 px, the odds, the figures that matter, past it. With three players
    each player's percentage is wholly in view on every phone, and they add up to 100."""
    from tabletop.models import Table
    from tests.e2e.conftest import table_code
    from tests.missions.lifecycle_flow import cmd, state

    phones = open_table(new_phone, "demloc", 3)
    table = Table.objects.get(code=table_code(phones[0]))
    while state(table)["phase"] != "end":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    seen = {}
    for name, phone in zip(("ann", "ben", "cat"), phones, strict=True):
        seen[name] = turn_end_figures(phone, ("Ann", "Ben", "Cat"))
        phone.screenshot(path=f"test-artifacts/leftovers-turn-end-{name}.png")
    print("turn end odds at 360 px:", {k: [(f["text"], f["left"], f["right"]) for f in v]
                                       for k, v in seen.items()})
    assert len(seen["ann"]) == 3
    assert sum(int(f["text"][:-1]) for f in seen["ann"]) in (99, 100, 101)

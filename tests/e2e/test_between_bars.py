"""Nothing under the fixed bars (docs/playing.md "A live table: where a tap lands, the next step
under the thumb"; tabletop/KIT.md "Where the page lands"), by touch at 360x740: a control the
page brings into view, or shows at a refusal, lands between the sticky top parts (header,
connection banner, DemLoc's turn bar) and the fixed bottom bar, measured when it lands; what
is at its centre is the control itself. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, turn_end_figures
from tests.e2e.test_landing import aim_shot, scroll_y
from tests.e2e.test_never_lost import A60, B60, guild_mission_phones
from tests.e2e.test_never_lost_prep import bell_at
from tests.missions.lifecycle_flow import cmd, state

# The visible band between the sticky top parts and the fixed bottom bar, and whether the
# control's centre hits the control itself (not a bar over it).
BAND = """e => {
  const r = e.getBoundingClientRect();
  let top = 0;
  document.querySelectorAll('body *').forEach(n => {
    const s = getComputedStyle(n);
    // a top bar sticks by its top (an open Shoot's Work it out sticks by its bottom, above
    // the thumb bar, and scrolls on with its form)
    if (((s.position === 'sticky' && s.top !== 'auto') || s.position === 'fixed') && n.id !== 'bottom-bar'
        && !n.closest('#bottom-bar') && n.getClientRects().length && s.visibility !== 'hidden') {
      const q = n.getBoundingClientRect();
      if (q.top < 200 && q.bottom > top && q.height < 600) top = q.bottom;
    }
  });
  const bar = document.getElementById('bottom-bar');
  const bottom = bar && bar.getClientRects().length ? bar.getBoundingClientRect().top : innerHeight;
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {y: Math.round(r.top), bottom: Math.round(r.bottom), top: Math.round(top),
          bar: Math.round(bottom), hit: !!at && (at === e || e.contains(at)),
          inside: r.top >= top - 1 && r.bottom <= bottom + 1};
}"""


def between_bars(phone, locator) -> dict:
    """``locator``'s box and the band the bars leave, asserted: wholly inside the band and its
    centre hits it."""
    m = locator.evaluate(BAND)
    assert m["inside"] and m["hit"], m
    return m


def test_a_refused_next_leaves_the_first_choose_between_the_bars_6_4_1(new_phone):
    """Characters step (6.4.1), nobody chosen: Bob taps Next and is refused ("Choose at least
    one character"). Found by a new user: the refusal line made the bar grow (top 564 -> 538)
    and the page jump (scrollY 2 -> 85), the first Choose ending under the bar. The page does
    not jump, and the first Choose is between the bars, tappable."""
    ann, bob = bell_at(new_phone, "characters")
    bob.wait_for_timeout(400)
    choose = bob.locator(".dl-roster").get_by_role("button", name="Choose").first
    before = (scroll_y(bob), bob.locator("#bottom-bar").bounding_box()["y"], choose.evaluate(BAND))
    bob.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    expect(bob.locator("#bottom-bar .alert")).to_contain_text("at least one character")
    bob.wait_for_timeout(400)
    after = (scroll_y(bob), bob.locator("#bottom-bar").bounding_box()["y"])
    bob.screenshot(path="test-artifacts/between-bars-refused-next-bob.png")
    m = between_bars(bob, choose)
    print(
        f"refused Next: scrollY {before[0]} -> {after[0]}, bar top {before[1]:.0f} ->"
        f" {after[1]:.0f}, first Choose {before[2]['y']}..{before[2]['bottom']} ->"
        f" {m['y']}..{m['bottom']} (band {m['top']}..{m['bar']})"
    )
    choose.tap()
    expect(bob.locator("#dl-my-slots .dl-picks .row")).to_have_count(1)


def test_the_turn_bar_stays_compact_at_turn_end_with_long_names_offline_too_7_1(new_phone):
    """Two Guilds with 60-character names reach the end of turn 1 (7.1: tokens back, the next
    first player's odds). Found by a new user: the turn end's line took three lines, the sticky
    turn bar 158 px (400 px left to the page; 294 with the offline banner). The turn bar keeps
    one line per part (the whole line in its title), the bars leave at least 60% of the 740 px
    screen (over half with the offline banner), and a card brought into view lands between
    them, tappable."""
    table, seats, (ann, bob) = guild_mission_phones(new_phone, names=(A60, B60))
    while state(table)["phase"] != "end":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    measured = {}
    for name, phone in (("ann", ann), ("bob", bob)):
        expect(phone.locator("#dl-phase")).to_have_text("Turn end")
        phone.evaluate("window.scrollTo(0, 700)")
        phone.wait_for_timeout(300)
        free = phone.evaluate(FREE)
        phone.screenshot(path=f"test-artifacts/between-bars-turn-end-{name}.png")
        card = phone.locator(".dl-piece summary").first
        card.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        phone.wait_for_timeout(200)
        at = between_bars(phone, card)
        measured[name] = {"turn bar": free["turn"], "left": free["left"], "card": at["y"]}
        assert free["left"] >= 0.6 * 740, (name, free)
        whole = phone.locator("#dl-acting").get_attribute("title") or ""
        assert B60 in whole and A60 in whole, whole  # the whole line, in its title
        # the names give way, never the odds (each percentage wholly visible)
        measured[name]["odds"] = [f["text"] for f in turn_end_figures(phone)]
    bob.context.set_offline(True)
    expect(bob.locator(".net")).to_be_visible()
    bob.wait_for_timeout(500)
    bob.evaluate("window.scrollTo(0, 700)")
    bob.wait_for_timeout(300)
    free = bob.evaluate(FREE)
    bob.screenshot(path="test-artifacts/between-bars-turn-end-offline-bob.png")
    card = bob.locator(".dl-piece summary").first
    card.evaluate("e => e.scrollIntoView({block: 'nearest'})")
    bob.wait_for_timeout(200)
    at = between_bars(bob, card)
    measured["bob offline"] = {"turn bar": free["turn"], "left": free["left"], "card": at["y"]}
    print("turn end, 60-character names:", measured)
    assert free["left"] >= 0.5 * 740, free
    bob.context.set_offline(False)


FREE = """() => { const t = document.getElementById('dl-turn').getBoundingClientRect();
  const b = document.getElementById('bottom-bar').getBoundingClientRect();
  return {turn: Math.round(t.height), left: Math.round(b.top - t.bottom)}; }"""


def test_the_realms_hand_and_bind_clear_a_compact_bottom_bar(new_phone):
    """Pixel Demon's Realm, the start of my turn. Found by a new user: the bottom bar was 168 px
    tall (its two-line prompt, End turn, Undo/Redo/Log) over the hand's first row and "Bind
    Active Demon". The bar is compact (the page keeps over 79% of the 740 px screen), and the
    first hand card and Bind, each brought into view as the browser does (scroll-padding from
    the bar's measured height), land between the bars, tappable; the page's end clears it."""
    phones = open_table(new_phone, "realm", 2, inset=0)
    acting = next(p for p in phones if "Your turn" in p.locator("#rl-bar-prompt").inner_text())
    expect(acting.locator("#rl-end")).to_be_visible()
    acting.wait_for_timeout(300)
    bar = acting.locator("#bottom-bar").bounding_box()
    acting.screenshot(path="test-artifacts/between-bars-realm-turn.png")
    seen = {"bar": round(bar["height"])}
    for what, locator in (
        ("hand", acting.locator("#rl-hand label:has(input)").first),
        ("bind", acting.get_by_role("button", name="Bind Active Demon")),
    ):
        acting.evaluate("window.scrollTo(0, 0)")
        locator.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        acting.wait_for_timeout(200)
        seen[what] = between_bars(acting, locator)
    print("realm, my turn:", seen)
    assert bar["height"] <= 0.21 * 740, bar
    acting.get_by_role("button", name="Bind Active Demon").tap()
    expect(
        acting.locator("#live .alert.at-control")
    ).to_be_visible()  # nothing ticked: refused, at Bind


def propose_shot(ann, ben) -> None:
    """Ann works out Korr's shot at Ben's Bram (5.6, the test die passes); Ben's phone shows
    the calculation waiting for his Apply."""
    work = aim_shot(ann, "s0-korr", "s1-bram", 1, "6 6 6")
    in_sync([ann, ben])
    work.tap()
    expect(ben.locator("#dl-pending")).to_contain_text("Shot: proposed result")
    in_sync([ann, ben])
    ben.wait_for_timeout(300)


APPLY_AT = """() => ({y: scrollY, bar: document.getElementById('bottom-bar').getBoundingClientRect().top,
  apply: document.querySelector('#dl-pending [data-keep-above-bar]').getBoundingClientRect().bottom})"""


def test_the_shot_targets_apply_never_peeks_from_under_the_turn_bar_7_2_2(new_phone):
    """Ann's shot at Ben's Bram arrives while Ben reads the page above where the
    calculation goes (7.2.2). Found by a new user: Ben's view was kept, as it should, but that
    left Apply and Cancel at y=102..150 under the sticky turn bar (61..135), only their bottom
    strip showing. A calculation waiting for this phone whose Apply would straddle a bar edge,
    or hide wholly under one (the calculation with its "Apply kills" line is taller than the
    band: Apply was at y=97..145 under the turn bar), is brought between the bars: whole if it
    fits, else its head at the band's top and on until Apply clears the bottom bar; Apply is
    tappable and applies it."""
    ann, ben = open_table(new_phone, "demloc")
    ben.evaluate("window.scrollTo(0, 0)")
    propose_shot(ann, ben)  # arrives below what Ben reads: his view is kept
    first = ben.evaluate(APPLY_AT)
    ann.locator("#dl-pending").get_by_role("button", name="Cancel").tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    in_sync([ann, ben])
    ben.wait_for_timeout(300)
    # Ben scrolls so that the calculation, back in the same place, would show Apply's top
    # above the bottom bar and its lower 20 px under it.
    y = first["y"] + first["apply"] - first["bar"] - 20
    ben.evaluate(f"window.scrollTo(0, {y})")
    ben.wait_for_timeout(300)
    y = scroll_y(ben)
    propose_shot(ann, ben)
    apply = ben.locator("#dl-pending").get_by_role("button", name="Apply")
    ben.screenshot(path="test-artifacts/between-bars-shot-target-ben.png")
    m = between_bars(ben, apply)
    print(
        f"shot at Bram: Ben at scrollY {y} -> {scroll_y(ben)}, Apply at y={m['y']}..{m['bottom']}"
        f" (band {m['top']}..{m['bar']})"
    )
    apply.tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)

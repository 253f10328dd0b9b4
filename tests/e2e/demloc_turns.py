"""Browser steps shared by the DemLoc mission tests: playing a turn to its end on the phones
and achieving the objective the way the rules allow (DemLoc rulebook 7.2, 7.3, 7.3.2.3)."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot, tap_twice, unguarded


def seat_and_bring(ann, bob, bob_name: str = "Bob of Birch") -> str:
    """From a mission lobby on Ann's phone (two Guild Masters logged in): Ann opens the
    mission table, Bob takes a seat by its code, Ann starts it and both tap Bring my Guild
    (6.4.1). Returns the table's code; every phone then shows the Guilds step."""
    ann.get_by_role("button", name="Open the mission table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    bob.goto(f"/j/{code}/")
    bob.fill("#name", bob_name)
    bob.get_by_role("button", name="Join table").tap()
    expect(ann.locator(".seats")).to_contain_text(bob_name)
    ann.get_by_role("button", name="Start the game").tap()
    for phone in (ann, bob):
        # The Guilds step's next step is in the thumb bar (not under it), Next only after it.
        bring = phone.locator("#dl-thumb").get_by_role("button", name="Bring my Guild")
        expect(bring).to_be_in_viewport(ratio=1)
        expect(phone.locator("#dl-thumb").get_by_role("button", name="Next")).to_have_count(0)
        bring.tap()
        expect(phone.locator("#dl-thumb").get_by_role("button", name="Next")).to_be_in_viewport()
    return code


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version") or 0)


def in_sync(phones) -> None:
    """Every phone shows the newest version any of them shows."""
    newest = max(version(p) for p in phones)
    for p in phones:
        expect(p.locator("#live")).to_have_attribute("data-version", str(newest))


def deploy_and_start(phones) -> None:
    """Deployment (6.4.1): whoever is asked taps Placed, one miniature each, and every phone
    sees each one placed; then every phone taps Next at the start stage."""
    for placed in range(1, len(phones) + 1):
        acting = next(p for p in phones if p.get_by_role("button", name="Placed").count())
        acting.get_by_role("button", name="Placed").tap()
        for phone in phones:
            expect(phone.locator("#dl-minis .badge.ok")).to_have_count(placed)
    for phone in phones:
        expect(phone.locator('[data-stage="start"]')).to_be_visible()
        phone.get_by_role("button", name="Next").tap()


def play_to_turn_end(phones) -> None:
    """Whoever acts taps Next: pass until both phases are over (2 passes per player)."""
    for _ in range(2 * len(phones)):
        in_sync(phones)
        acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
        before = version(acting)
        acting.get_by_role("button", name="Next: pass").tap()
        expect(acting.locator("#live")).not_to_have_attribute("data-version", str(before))
    in_sync(phones)


def achieve_objective(claimer, others) -> None:
    """7.3.2.3: at the end of the turn the claimer taps Objective achieved (twice: the second
    tap in place confirms it); every other phone confirms the claim."""
    play_to_turn_end([claimer, *others])
    tap_twice(claimer.get_by_role("button", name="Objective achieved"))
    for phone in others:
        expect(phone.locator("#dl-claim")).to_be_visible()
        shot(phone, "mission-objective-claim")
        for label in ("Confirm the claim", "Dispute it"):  # one line each, half the bar wide
            box = phone.get_by_role("button", name=label).bounding_box()
            assert box["height"] <= 56, (label, box)
        confirm = phone.get_by_role("button", name="Confirm the claim")
        unguarded(phone, confirm)  # it came with the claim, where the bar held Next: pass
        confirm.tap()


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

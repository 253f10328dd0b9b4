"""The fixed bottom bar of a table page (the kit's Undo/Redo/Log toolbar, and DemLoc's turn
actions above it) never covers the page's last control: the page is padded by the bar's real
height, safe-area inset included (phones first, 360 px, one hand). Checked at 360x740
on a phone with a 34 px home-indicator inset (emulated) on the DemLoc mission page and on each
card game: scrolled to the bottom, the last control is wholly above the bar and a tap at its
centre lands on it. And DemLoc's primary turn action (Next: pass) is in thumb reach at the
bottom of the screen, its refusal shown next to it (DemLoc rulebook 7.2, the turn sequence)."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table

LAST_CONTROL = """() => {
  const bars = [...document.querySelectorAll('.topbar, .toolbar, .bottom-bar')];
  const inBar = e => bars.some(b => b.contains(e));
  const picks = 'main button, main a[href], main summary, main select, main textarea,'
    + ' main input:not([type=hidden])';
  let last = null, lowest = -Infinity;
  for (const e of document.querySelectorAll(picks)) {
    if (inBar(e) || !e.checkVisibility({visibilityProperty: true})) continue;  // folded too
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;  // a visually hidden checkbox (its label counts)
    if (r.bottom + window.scrollY > lowest) { lowest = r.bottom + window.scrollY; last = e; }
  }
  const r = last.getBoundingClientRect();
  const barTop = Math.min(...bars.filter(b => !b.classList.contains('topbar'))
    .map(b => b.getBoundingClientRect().top));
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {control: last.tagName + ' ' + (last.textContent || last.name || '').trim().slice(0, 40),
          bottom: r.bottom, barTop: barTop, tapped: !!hit && last.contains(hit),
          hit: hit ? hit.tagName + '.' + hit.className : null};
}"""


def last_control_clear(phone, name: str) -> dict:
    """Scroll to the very bottom and describe the page's last control against the bar; also a
    screenshot ``test-artifacts/bottom-bar-<name>.png`` to look at."""
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.wait_for_function(
        "() => Math.abs(window.scrollY + window.innerHeight"
        " - document.documentElement.scrollHeight) < 2"
    )
    found = phone.evaluate(LAST_CONTROL)
    phone.screenshot(path=f"test-artifacts/bottom-bar-{name}.png")
    return found


def assert_clear(found: dict) -> None:
    assert found["tapped"], found  # elementFromPoint at its centre is the control
    assert found["bottom"] <= found["barTop"], found  # wholly above the bar


def test_the_demloc_turn_action_is_in_thumb_reach_and_the_bar_covers_nothing(new_phone):
    phones = open_table(new_phone, "demloc")
    for phone in phones:
        expect(phone.locator("#dl-turn-no")).to_have_text("Turn 1")
    acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    next_pass = acting.get_by_role("button", name="Next: pass")
    acting.evaluate("window.scrollTo(0, 0)")
    box = next_pass.bounding_box()
    # in thumb reach: the bottom third of the screen, above the kit's toolbar
    assert box["y"] >= 740 * 2 / 3, box
    toolbar = acting.locator("nav.toolbar").bounding_box()
    assert box["y"] + box["height"] <= toolbar["y"], (box, toolbar)
    expect(acting.locator("#dl-turn-no")).to_be_in_viewport()  # the status stays at the top
    acting.screenshot(path="test-artifacts/bottom-bar-demloc-top.png")
    for n, phone in enumerate(phones):
        assert_clear(last_control_clear(phone, f"demloc-{n}"))

    # A refused tap (the phone's version is behind): the line is next to Next: pass.
    acting.evaluate("window.scrollTo(0, 0)")
    version = int(acting.locator("#live").get_attribute("data-version"))
    acting.evaluate(f"document.getElementById('live').dataset.version = '{version - 1}'")
    next_pass.tap()
    refusal = acting.locator('.alert.at-control[data-code="stale_version"]')
    expect(refusal).to_have_text("Someone acted just before you: look, then tap again.")
    expect(refusal).to_be_in_viewport()
    acting.screenshot(path="test-artifacts/bottom-bar-demloc-refused.png")
    line, box = refusal.bounding_box(), next_pass.bounding_box()
    assert line["height"] <= 40, line  # a small line or two (wrapped, never cut off)
    assert abs(line["y"] + line["height"] - box["y"]) <= 10, (line, box)  # just above it
    assert_clear(last_control_clear(acting, "demloc-refused-bottom"))


def test_the_bottom_bar_covers_no_last_control_of_a_card_game(new_phone):
    found = {}
    for ruleset, players in (
        ("personimo", 2),
        ("realm", 2),
        ("personal_demons", 2),
        ("espionage", 3),
    ):
        phones = open_table(new_phone, ruleset, players)
        for n, phone in enumerate(phones[:2]):  # the host (Seats in the bar) and a guest
            found[f"{ruleset}-{n}"] = last_control_clear(phone, f"{ruleset}-{n}")
        for phone in phones:
            phone.context.close()
    covered = {k: f for k, f in found.items() if not f["tapped"] or f["bottom"] > f["barTop"]}
    assert covered == {}, found


def test_a_refused_undo_is_shown_above_the_toolbar(new_phone):
    """Found by a new user: two phones tapping Redo at once, the losing phone showed nothing.
    A refused tap of the kit's toolbar (Undo here, refused as stale: the phone's version is
    behind) shows its one line at the control, on its own row above the toolbar's buttons,
    wholly on screen, the buttons keeping their size (kit: errors at the control)."""
    phones = open_table(new_phone, "demloc")
    acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    acting.get_by_role("button", name="Next: pass").tap()
    undo = acting.locator("nav.toolbar").get_by_role("button", name="↶ Undo")
    expect(undo).to_be_enabled()
    before = undo.bounding_box()
    version = int(acting.locator("#live").get_attribute("data-version"))
    acting.evaluate(f"document.getElementById('live').dataset.version = '{version - 1}'")
    undo.tap()
    refusal = acting.locator('.alert.at-control[data-code="stale_version"]')
    expect(refusal).to_have_text("Someone acted just before you: look, then tap again.")
    expect(refusal).to_be_in_viewport(ratio=1)
    acting.screenshot(path="test-artifacts/bottom-bar-undo-refused.png")
    line, box = refusal.bounding_box(), undo.bounding_box()
    assert line["width"] >= 300, line  # its own row across the bar, not a squeezed cell
    assert line["y"] + line["height"] <= box["y"] + 1, (line, box)  # above the buttons
    assert abs(box["width"] - before["width"]) <= 1, (before, box)  # the buttons keep their size


def test_the_demloc_turn_bar_stays_short_and_its_notices_scroll_away(new_phone):
    """The sticky turn bar holds turn, phase, first player and whose move only; its notices
    (the last log line here; possession orders, a claim, an event) follow it in the page and
    scroll away: with them in the bar it took ~200 px of the 740 px screen above a ~120 px
    bottom bar and covered the field being typed in (found by a new user). At most 110 px on
    both phones: the acting player's "Your move: move, shoot or cast, then pass." takes a line
    more than the other's "Ann is acting." (who plays first follows the dice, so both are
    checked). A push that redraws the page keeps it so."""
    phones = open_table(new_phone, "demloc")
    ann, ben = phones

    def short(phone) -> None:
        bar = phone.locator("#dl-turn")
        assert bar.bounding_box()["height"] <= 110, bar.inner_text()

    ann.evaluate("window.scrollTo(0, 0)")
    expect(ann.locator("#dl-turn-notes #dl-status")).to_be_visible()  # read at the top
    for phone in phones:
        phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        expect(phone.locator("#dl-turn-no")).to_be_in_viewport()
        expect(phone.locator("#dl-acting")).to_be_in_viewport()
        expect(phone.locator("#dl-status")).not_to_be_in_viewport()
        short(phone)
    ann.screenshot(path="test-artifacts/bottom-bar-demloc-stuck.png")
    version = ann.locator("#live").get_attribute("data-version")
    ben.get_by_role("button", name="+1 fate point").first.tap()
    expect(ann.locator("#live")).not_to_have_attribute("data-version", version)
    expect(ann.locator("#dl-turn-no")).to_be_in_viewport()
    short(ann)


def test_a_focused_control_is_brought_clear_of_the_bars(new_phone):
    """A control scrolled into view (a link to it, the browser bringing the next field up, a
    test driver) lands clear of the sticky top and turn bars and the fixed bottom bar
    (scroll-padding, app.css / missions.css), not under them: a new user's taps landed on the
    bars."""
    phones = open_table(new_phone, "demloc")
    ann = phones[0]
    for role, name, block in (("link", "Whole log", "end"), ("button", "+1 fate point", "start")):
        ann.evaluate("window.scrollTo(0, 0)" if block == "end" else
                     "window.scrollTo(0, document.documentElement.scrollHeight)")
        if name == "Whole log":  # inside the folded log: opened, as a player does
            ann.locator("#dl-log > summary").tap()
        control = ann.get_by_role(role, name=name).first
        control.evaluate(f"e => e.scrollIntoView({{block: '{block}'}})")  # as a link to it does
        box = control.bounding_box()
        bar_top = ann.locator("#bottom-bar").bounding_box()["y"]
        turn = ann.locator("#dl-turn").bounding_box()
        assert box["y"] + box["height"] <= bar_top, (name, box, bar_top)
        assert box["y"] >= turn["y"] + turn["height"], (name, box, turn)

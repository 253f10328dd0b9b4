"""Never lost on the phone during a mission's preparation (docs/playing.md "A live table: where
a tap lands, the next step under the thumb"; tabletop/KIT.md "Where the page lands"), by touch at
360x740 on two phones: when the preparation moves to the next step (6.4.1) every phone, the one
whose Next moved it and the one that tapped Next before, lands on the step's own card with its
first control above the fixed thumb bar (the first Choose of the characters step, 5.1; the Area
of the first deployment placement); and at every step the end of the page clears the bar. Every
test prints what it measured."""

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from missions.models import MissionFollower
from tests.e2e.conftest import login, open_at_stage
from tests.e2e.test_landing import in_view, scroll_y
from tests.guilds.factories import FollowerCardFactory
from tests.missions.lifecycle_flow import build_guild, cmd, roster_id, to_stage
from tests.missions.lifecycle_flow import open_table as open_mission

NEXT = {"map": "characters", "characters": "mana", "mana": "miniatures", "miniatures": "deployment"}


def bell_at(new_phone, stage: str):
    """Ann's Ravens and Bob's Wolves (two mercenaries each) at a standard mission (The Drowned
    Bell), the preparation at ``stage`` (past the characters step: Rook and Ash chosen); each Guild Master's phone on it: ``(ann, bob)``."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Rook", "Wren"), feods=80)
    b = build_guild("Bob's Wolves", "blue", ("Ash", "Birch"), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    if stage not in ("map", "characters"):
        to_stage(table, seats, "characters")
        for seat, name in zip(seats, ("Rook", "Ash"), strict=True):
            cmd(table, seat, "setup.pick", character=roster_id(table, seat, name))
    to_stage(table, seats, stage)
    return open_at_stage(new_phone, table, (a, b), stage)


def both_tap_next(first, last, stage: str) -> None:
    """``first`` taps Next in its thumb bar (then waits for the other), ``last`` taps it and
    moves the preparation on: both phones show the next step."""
    first.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    expect(first.locator("#dl-thumb-wait")).to_contain_text("waiting for")
    last.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    for phone in (first, last):
        expect(phone.locator(f'[data-stage="{NEXT[stage]}"]')).to_be_visible()
    for phone in (first, last):
        phone.wait_for_timeout(400)


def test_the_characters_step_lands_every_phone_on_its_first_choose_6_4_1(new_phone):
    """Map -> Characters: Ann taps Next first, Bob's Next moves the preparation on. Found by a
    new user: Ann's phone stayed at the top of the page (scrollY 2) with its Choose buttons
    under the thumb bar (Choose at y=604, the bar's top at 564). Both phones land on the
    characters step, "Your slots" and the first Choose on screen, above the bar."""
    ann, bob = bell_at(new_phone, "map")
    both_tap_next(ann, bob, "map")
    seen = {}
    for name, phone in (("ann", ann), ("bob", bob)):
        choose = phone.locator(".dl-roster").get_by_role("button", name="Choose").first
        box = in_view(phone, choose)
        in_view(phone, phone.locator("#dl-my-slots h2"))
        bar = phone.locator("#bottom-bar").bounding_box()["y"]
        phone.screenshot(path=f"test-artifacts/never-lost-prep-characters-{name}.png")
        seen[name] = f"scrollY {scroll_y(phone)}, Choose at y={box['y']:.0f}, bar at {bar:.0f}"
    print("characters step:", seen)
    # The first Choose taken by touch where it landed: the pick is in my slots.
    ann.locator(".dl-roster").get_by_role("button", name="Choose").first.tap()
    expect(ann.locator("#dl-my-slots .dl-picks")).to_contain_text("Rook")


def test_the_first_deployment_placement_shows_its_area_menu_6_4_1(new_phone):
    """Miniatures -> Deployment: the Guild asked to place its first miniature (6.4.1) lands on
    the deployment card with the Character and Area menus above the thumb bar (the Area menu
    was under it: only the bar's link brought it up); Placed in the bar places it."""
    ann, bob = bell_at(new_phone, "miniatures")
    both_tap_next(ann, bob, "miniatures")
    acting = next(p for p in (ann, bob) if p.locator("#dl-deploy").count())
    other = bob if acting is ann else ann
    area = acting.locator('#dl-deploy select[name="d.area"]')
    box = in_view(acting, area)
    in_view(acting, acting.locator('#dl-deploy select[name="d.character"]'))
    in_view(other, other.locator("#dl-minis h2"))
    acting.screenshot(path="test-artifacts/never-lost-prep-deploy-acting.png")
    other.screenshot(path="test-artifacts/never-lost-prep-deploy-other.png")
    print(f"first deployment: Area at y={box['y']:.0f} (scrollY {scroll_y(acting)}), the bar"
          f" at {acting.locator('#bottom-bar').bounding_box()['y']:.0f}")
    acting.locator("#dl-thumb").get_by_role("button", name="Placed").tap()
    for phone in (ann, bob):
        expect(phone.locator("#dl-minis .badge.ok")).to_have_count(1)


END_CLEAR = """() => {
  scrollTo(0, document.documentElement.scrollHeight);
  const bar = document.getElementById('bottom-bar').getBoundingClientRect();
  const shown = Array.from(document.querySelectorAll('.page *')).filter(e =>
    e.getClientRects().length && e.checkVisibility() && !e.closest('#bottom-bar')
    && getComputedStyle(e).position !== 'fixed');
  const last = shown.reduce((a, e) => e.getBoundingClientRect().bottom > a.getBoundingClientRect().bottom ? e : a);
  return {bar: bar.top, barHeight: bar.height, last: last.getBoundingClientRect().bottom,
          what: last.id || last.tagName, pad: parseFloat(getComputedStyle(document.querySelector('.page')).paddingBottom)};
}"""


def test_every_preparation_step_ends_above_the_thumb_bar_6_4_1(new_phone):
    """Map, Characters, Mana, Miniatures, Deployment on both phones: scrolled to the end of the
    page, the last thing the page shows ends above the fixed thumb bar (the page is padded by
    the bar's measured height, app.js --bottom-bar-h), and the padding is at least the bar's
    height."""
    ann, bob = bell_at(new_phone, "map")
    measured = {}
    stage = "map"
    while True:
        for name, phone in (("ann", ann), ("bob", bob)):
            end = phone.evaluate(END_CLEAR)
            phone.screenshot(path=f"test-artifacts/never-lost-prep-end-{stage}-{name}.png")
            measured[f"{stage}/{name}"] = f"{end['what']} ends at {end['last']:.0f}, bar at {end['bar']:.0f}"
            assert end["last"] <= end["bar"], (stage, name, end)
            assert end["pad"] >= end["barHeight"], (stage, name, end)
        if stage == "deployment":
            break
        if stage == "characters":
            for phone in (ann, bob):
                phone.locator(".dl-roster").get_by_role("button", name="Choose").first.tap()
                expect(phone.locator("#dl-my-slots .dl-picks .row")).to_have_count(1)
        both_tap_next(ann, bob, stage)
        stage = NEXT[stage]
    print("the end of each step:", measured)


INSIDE = """b => { const r = b.getBoundingClientRect(), w = b.querySelector('.undo-why');
  const q = w.getBoundingClientRect();
  return {button: [r.left, r.right, r.top, r.bottom], why: [q.left, q.right, q.top, q.bottom],
          overflow: w.scrollWidth > w.clientWidth + 1, lines: Math.round(q.height / parseFloat(getComputedStyle(w).lineHeight))}; }"""


def test_undos_reason_stays_inside_its_button_at_360_px_6_4_1(new_phone):
    """Deployment: the first player is drawn (a final event), so Undo greys and says why under
    its label. On the host's phone (four buttons in the toolbar: Undo, Redo, Log, Seats) the
    reason "first player drawn" ran out of the 80 px button over Redo (found by a new user): it
    stays inside the button (two lines at most), the whole reason in its title (and read whole by a screen reader)."""
    ann, _bob = bell_at(new_phone, "deployment")
    why = ann.locator("#undo-why")
    expect(why).to_have_text("first player drawn")
    undo = ann.locator("#bottom-bar").get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    m = undo.evaluate(INSIDE)
    (bl, br, bt, bb), (wl, wr, wt, wb) = m["button"], m["why"]
    ann.locator("#bottom-bar").screenshot(path="test-artifacts/never-lost-prep-undo-why.png")
    print(f"Undo's reason: button x {bl:.0f}-{br:.0f}, reason x {wl:.0f}-{wr:.0f} in"
          f" {m['lines']} line(s); cut: {m['overflow']}")
    assert bl - 0.5 <= wl and wr <= br + 0.5 and bt - 0.5 <= wt and wb <= bb + 0.5, m
    assert not m["overflow"] and m["lines"] <= 2, m
    in_view(ann, why)
    expect(undo).to_have_attribute("title", "Undo: not now, first player drawn")
    expect(undo).to_have_accessible_name("↶ Undo first player drawn")  # read whole, not cut


def test_a_guild_masters_seat_is_named_after_the_guild_from_the_start_6_4(new_phone):
    """Bob, a Guild Master, joins Ann's Guild mission by its code. Found by a new user: his
    seat read his account's name ("bob_...") in the lobby, at the Guilds step and in the
    missions lobby until he brought his Guild, then the Guild's. The join page offers his
    Guild's name; the table's lobby, the Guilds step (before he brings it) and the missions
    lobby say "Bob's Wolves" from the start. Until he brings it, his page says to tap Bring my
    Guild (his thumb bar's button), not Next (it said "Tap Next below" over it)."""
    load_demo_missions()
    a = build_guild("Ann's Ravens", "red", ("Rook",), feods=80)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    ann, bob = new_phone(), new_phone()
    login(ann, a.master.username)
    login(bob, b.master.username)
    ann.goto("/missions/")
    ann.get_by_text("The Drowned Bell").first.tap()
    ann.get_by_role("button", name="Open the mission table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    bob.goto(f"/j/{code}/")
    expect(bob.locator("#name")).to_have_value("Bob's Wolves")
    bob.get_by_role("button", name="Join table").tap()
    expect(ann.locator(".seats")).to_contain_text("Bob's Wolves")
    assert b.master.username not in ann.locator(".seats").inner_text()
    for phone in (ann, bob):
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")
    ann.get_by_role("button", name="Start the game").tap()
    for phone in (ann, bob):
        guilds = phone.locator("#dl-guilds")
        expect(guilds).to_contain_text("Bob's Wolves")  # before he brought it
        assert b.master.username not in guilds.inner_text()
    # Bob's next tap is Bring my Guild (his thumb bar): the page does not say "Tap Next below"
    expect(bob.locator("#dl-thumb").get_by_role("button", name="Bring my Guild")).to_be_visible()
    expect(bob.locator("#dl-next")).to_have_count(0)
    expect(bob.locator("#dl-bring-hint")).to_contain_text("Bring my Guild")
    bob.screenshot(path="test-artifacts/never-lost-prep-seat-name-bob.png")
    bob.goto("/missions/")
    running = bob.locator("p.small", has_text=f"table {code}")
    expect(running).to_contain_text("Ann's Ravens, Bob's Wolves")
    print(f"seat names: {running.inner_text()!r}")


def test_a_follower_not_in_the_card_database_links_to_the_city_gate_5_1_2(new_phone):
    """Found by a new user: the Characters step said a follower was "not in your card
    database: redeem its set at the City Gate" with no way there from the mission. A link to
    the Gate sits under the followers; a tap opens it in a new tab, and the table stays open on
    the phone's first tab at the same step."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Rook",), feods=80)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    blade = FollowerCardFactory(name="Hired blade", feods_per_mission=12)
    MissionFollower.objects.create(definition=definition, card=blade, copies=2)  # in no database
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "characters")
    ann, _bob = open_at_stage(new_phone, table, (a, b), "characters")
    pool = ann.locator(".dl-pool")
    expect(pool).to_contain_text("not in your card database")
    gate = ann.get_by_role("link", name="Redeem a set at the City Gate")
    gate.scroll_into_view_if_needed()
    ann.evaluate("window.scrollBy(0, 120)")  # clear of the sticky bar at the top
    box = in_view(ann, gate)
    assert box["height"] >= 44, box  # a thumb's target
    with ann.context.expect_page() as opened:
        gate.tap()
    tab = opened.value
    tab.wait_for_load_state()
    assert tab.url.endswith("/guild/gate/"), tab.url
    expect(tab.get_by_role("heading", name="City Gate").first).to_be_visible()
    tab.screenshot(path="test-artifacts/never-lost-prep-gate-tab.png")
    expect(ann.locator('[data-stage="characters"]')).to_be_visible()  # the table, where it was
    ann.screenshot(path="test-artifacts/never-lost-prep-gate-link.png")

"""Where a table page lands after a tap, by touch at 360x740 (tabletop/KIT.md "Where the page
lands"): the acting phone shows the result of its tap (the worked calculation
with Apply and Cancel, the summoned daemon, the claim, the mission's result) or its refusal at
the control it tapped, inside the viewport; another phone's scroll does not move and what it is
typing survives the update (found by a new user: the shooter's phone jumped from scrollY 1,440
to the bottom of the page; a half-filled Shoot form was reset by the other phone's tap; the
loser of two Next turn taps at once had its refusal put at viewport y = -2,965). The next step
of every stage is in the thumb bar (DemLoc rulebook 6.4.1 preparation, 7.2 the turn sequence,
7.3.2.3 objective achieved). Every test prints the scroll positions it asserts."""

import re

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from tests.e2e.conftest import host_lobby, open_at_stage, open_table, tap_twice
from tests.e2e.demloc_turns import in_sync, play_to_turn_end, version
from tests.missions.lifecycle_flow import (
    all_next,
    build_guild,
    cmd,
    roster_id,
    to_stage,
)
from tests.missions.lifecycle_flow import open_table as open_mission

TOLERANCE = 2  # px: "did not move"


def scroll_y(phone) -> float:
    return phone.evaluate("window.scrollY")


# The element's box and the band it must be in, read in one go. The turn bar covers the page
# only once it is stuck under the top bar; below the mission's result (a mission over) it is
# still in the flow, under what it shows. The connection banner, where it sits just above the
# bottom bar (the play page), ends the band while it shows: a phone offline reads what is above
# it. ``null``: not shown at this moment.
IN_VIEW = """e => {
  if (!e.getClientRects().length) return null;
  const r = e.getBoundingClientRect(), bar = document.getElementById('bottom-bar');
  if (e.closest('#bottom-bar, #dl-turn, #net')) return {x: r.x, y: r.y, width: r.width,
                                                        height: r.height, top: 0, bottom: 740};
  const t = document.getElementById('dl-turn');
  let top = 56;
  if (t) { const q = t.getBoundingClientRect();
           if (q.top <= parseFloat(getComputedStyle(t).top) + 1) top = q.bottom; }
  let bottom = bar && bar.getClientRects().length ? bar.getBoundingClientRect().top : null;
  const net = document.getElementById('net');
  if (bottom !== null && net && !net.hidden && net.getClientRects().length) {
    const n = net.getBoundingClientRect();
    if (n.top > innerHeight / 2) bottom = Math.min(bottom, n.top);
  }
  return {x: r.x, y: r.y, width: r.width, height: r.height, top: top, bottom: bottom};
}"""


def in_view(phone, locator) -> dict:
    """The locator's box, asserted wholly inside the part of the screen the bars leave (under
    the sticky top and turn bars, above the fixed bottom bar), unless it is in a bar itself."""
    # The box and the bars are measured together, in one script on the element found at that
    # moment: a push that swaps in the same region (the socket's first message re-sends the
    # whole lobby) took the element away between a lookup and a later measure ("no box"), or
    # the bottom bar between the element's measure and the bar's (under load). An element not
    # shown at that moment is measured again; one that stays hidden still fails.
    m = locator.evaluate(IN_VIEW)
    for _ in range(20):
        if m is not None:
            break
        phone.wait_for_timeout(50)
        m = locator.evaluate(IN_VIEW)
    assert m is not None, locator
    top, bottom = m.pop("top"), m.pop("bottom")
    assert bottom is not None, "no bottom bar"
    box = m
    assert box["y"] >= top - 1 and box["y"] + box["height"] <= bottom + 1, (box, top, bottom)
    return box


def hold_pushes(phone):
    """Route ``phone``'s websocket through the test so that its pushes can be held back (two
    phones tapping "at once": the second taps before the first one's push reached it). Returns
    ``(hold, release)``; the page is reloaded so that its socket goes through the route."""
    state = {"on": False, "queue": [], "page": None}

    def handler(ws):
        server = ws.connect_to_server()

        def from_server(message):
            if state["on"]:
                state["queue"].append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))
        state["page"] = ws

    phone.route_web_socket(re.compile(r"/ws/tables/"), handler)
    phone.reload()
    expect(phone.locator("body")).to_have_attribute("data-ws", "open")

    def hold():
        state["on"] = True

    def release():
        state["on"] = False
        for message in state["queue"]:
            state["page"].send(message)
        state["queue"].clear()

    return hold, release


# The first element with an id whose top is on screen below the bars (else the innermost one
# across the top of the screen): what the phone shows.
VIEW_MARK = """() => {
  const top = (document.getElementById('dl-turn') || {getBoundingClientRect: () => ({bottom: 56})})
    .getBoundingClientRect().bottom;
  let across = null;
  for (const e of document.querySelectorAll('#live [id]')) {
    if (e.closest('#bottom-bar, #dl-turn') || !e.checkVisibility()) continue;  // folded: not shown
    const r = e.getBoundingClientRect();
    if (r.height && r.top >= top && r.top < 600) return {id: e.id, top: r.top};
    if (r.height && r.top < top && r.bottom > top) across = {id: e.id, top: r.top};
  }
  return across;  // else the innermost one across the top of the screen
}"""


def view_mark(phone) -> dict:
    mark = phone.evaluate(VIEW_MARK)
    assert mark, "nothing with an id on screen"
    mark["scrollY"] = scroll_y(phone)
    return mark


def view_kept(phone, mark: dict) -> str:
    """Another phone's update did not move this phone's view: the element that was on screen
    is at the same height on screen (scrollY may differ by what was added or removed above)."""
    phone.wait_for_timeout(300)  # a late push must not move it either
    top = phone.locator(f"#{mark['id']}").evaluate("e => e.getBoundingClientRect().top")
    assert abs(top - mark["top"]) <= TOLERANCE, (mark, top)
    return f"#{mark['id']} at y={top:.0f} (scrollY {mark['scrollY']} -> {scroll_y(phone)})"


def open_sheet(phone, pid: str, act: str):
    """By touch: the character's sheet, then one of its actions (Shoot, Brawl, Arcane...)."""
    card = phone.locator(f"#piece-{pid}")
    if card.locator("details.dl-sheet").get_attribute("open") is None:
        card.locator("summary.dl-summary").tap()
    box = card.locator(f"#{act}-{pid}")
    if box.get_attribute("open") is None:
        box.locator("> summary").tap()
    return box


def aim_shot(phone, shooter: str, target: str, test_roll: int, dice: str):
    """By touch: ``shooter``'s Shoot form aimed at ``target``, its test die and dice typed,
    Work it out centred on the screen (not tapped). Returns that button."""
    form = open_sheet(phone, shooter, "shoot").locator("form")
    form.locator('select[name="d.target"]').select_option(target)
    form.locator('input[name="d.test_roll"]').fill(str(test_roll))
    form.locator('input[name="d.dice"]').fill(dice)
    work = form.get_by_role("button", name="Work it out")
    work.evaluate("e => e.scrollIntoView({block: 'center'})")
    return work


def aim_brawl(phone, attacker: str, defender: str):
    """By touch: ``attacker``'s Brawl form against ``defender`` (7.3.2), as many dice typed on
    each side as its option says ("4 v 3 dice · Korr"), the attacker's high (6 5 4 ...), the
    defender's low (2 1 1 ...), Work it out centred on the screen (not tapped). Returns that
    button."""
    box = open_sheet(phone, attacker, "brawl")
    form = box.locator("form", has=phone.locator('input[value="demloc.brawl.propose"]'))
    form.locator('select[name="d.defender"]').select_option(defender)
    option = form.locator(f'select[name="d.defender"] option[value="{defender}"]').inner_text()
    mine, theirs = map(int, re.match(r"(\d+) v (\d+)", option).groups())
    form.get_by_label(re.compile("^My dice")).fill(" ".join(["6", "5", "4", "3", "2"][:mine]))
    form.get_by_label("Defender's dice").fill(" ".join(["2", "1", "1", "1"][:theirs]))
    work = form.get_by_role("button", name="Work it out")
    work.evaluate("e => e.scrollIntoView({block: 'center'})")
    return work


def channel_by_touch(phone, pid: str, common: int = 1, dark: int = 0, *, setup: bool = True):
    """By touch: the character's Arcane section, ``common`` and ``dark`` mana typed in its
    Channel form (the setup channelling, 6.4.1, unless ``setup=False``: an activation, 7.2.3),
    Channel tapped, until the table's version moves. Returns the Arcane section."""
    arcane = open_sheet(phone, pid, "arcane")
    channel = arcane.locator("form", has=phone.locator('input[value="demloc.mana.channel"]'))
    channel.get_by_label("Common", exact=True).fill(str(common))
    if dark:
        channel.get_by_label("Dark", exact=True).fill(str(dark))
    if setup:
        channel.get_by_label("setup channelling (seals have no effect)").check()
    v = version(phone)
    channel.get_by_role("button", name="Channel").tap()
    expect(phone.locator("#live")).not_to_have_attribute("data-version", str(v))
    return arcane


def test_a_shot_and_a_summon_land_on_their_result_and_leave_the_other_phone_alone(new_phone):
    ann, ben = open_table(new_phone, "demloc")

    # Ben half fills a Shoot form (target, test die, dice, a ticked box) and keeps it in view.
    shoot = open_sheet(ben, "s1-gunner", "shoot").locator("form")
    shoot.locator('select[name="d.target"]').select_option("s0-vesna")
    shoot.locator('input[name="d.test_roll"]').fill("3")
    shoot.locator('input[name="d.dice"]').fill("4 2")
    shoot.locator('input[name="d.positioned"]').check()
    shoot.locator('input[name="d.dice"]').scroll_into_view_if_needed()
    ben_y = scroll_y(ben)
    # What Ben looks at: the card whose form he is typing in.
    top = ben.locator("#piece-s1-gunner").evaluate("e => e.getBoundingClientRect().top")
    mark = {"id": "piece-s1-gunner", "top": top, "scrollY": ben_y}

    # Ann shoots with Korr, scrolled well down her page: she lands on the calculation.
    form = open_sheet(ann, "s0-korr", "shoot").locator("form")
    form.locator('select[name="d.target"]').select_option("s1-bram")
    form.locator('input[name="d.test_roll"]').fill("1")
    form.locator('input[name="d.dice"]').fill("6 6 6")
    work = form.get_by_role("button", name="Work it out")
    work.scroll_into_view_if_needed()
    before = scroll_y(ann), version(ann)
    work.tap()
    pending = ann.locator("#dl-pending")
    expect(pending).to_be_visible()
    in_sync([ann, ben])
    ann.wait_for_timeout(300)  # a late push must not move it either
    box = in_view(ann, pending.locator("h2"))
    apply_box = pending.get_by_role("button", name="Apply").bounding_box()
    bar_top = ann.locator("#bottom-bar").bounding_box()["y"]
    assert box["y"] < apply_box["y"] < bar_top - 24, (apply_box, bar_top)  # Apply tappable
    ann.screenshot(path="test-artifacts/landing-shot-ann.png")
    print(f"shot: Ann scrollY {before[0]} -> {scroll_y(ann)}, calculation at y={box['y']:.0f}")

    # Ben: his scroll did not move, his form kept what he typed, the alert links to the panel.
    expect(ben.locator("#dl-pending")).to_be_attached()
    kept = view_kept(ben, mark)
    ben.screenshot(path="test-artifacts/landing-shot-ben.png")
    print(f"shot: Ben's view kept: {kept} (from scrollY {ben_y})")
    expect(ben.locator("#dl-alert a")).to_contain_text("waits for you")
    ben.locator("#dl-alert a").tap()
    apply = ben.locator("#dl-pending").get_by_role("button", name="Apply")
    in_view(ben, apply)
    ann_y, panel = scroll_y(ann), ann.locator("#dl-pending").bounding_box()["height"]
    apply.tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    in_view(ben, ben.locator("#dl-turn"))
    expect(ann.locator("#dl-pending")).to_have_count(0)
    ann.wait_for_timeout(300)
    # The panel Ann was reading left the page: what was under it stays where it was on her
    # screen (at most the panel's height of scrolling, never a jump down the page).
    assert scroll_y(ann) <= ann_y and ann_y - scroll_y(ann) <= panel + TOLERANCE, (ann_y, panel)
    print(f"apply: Ann scrollY {ann_y} -> {scroll_y(ann)} (panel of {panel:.0f} px removed)")
    ben.screenshot(path="test-artifacts/landing-applied-ben.png")
    # The actions, hidden while the calculation waited, are back with what Ben had typed.
    expect(shoot).to_be_visible()
    expect(shoot.locator('select[name="d.target"]')).to_have_value("s0-vesna")
    expect(shoot.locator('input[name="d.test_roll"]')).to_have_value("3")
    expect(shoot.locator('input[name="d.dice"]')).to_have_value("4 2")
    expect(shoot.locator('input[name="d.positioned"]')).to_be_checked()
    print("shot: Ben's half-filled Shoot form kept through the calculation and its Apply")

    # Ben summons with Maud (setup channelling first): he lands on the daemon's card.
    arcane = open_sheet(ben, "s1-maud", "arcane")
    channel = arcane.locator("form", has=ben.locator('input[value="demloc.mana.channel"]'))
    channel.get_by_label("Common", exact=True).fill("1")
    channel.get_by_label("Dark", exact=True).fill("1")
    channel.get_by_label("setup channelling (seals have no effect)").check()
    v = version(ben)
    button = channel.get_by_role("button", name="Channel")
    button.scroll_into_view_if_needed()
    at = button.bounding_box()["y"]
    button.tap()
    expect(ben.locator("#live")).not_to_have_attribute("data-version", str(v))
    expect(arcane.locator("[data-mana]")).to_contain_text("1 common, 1 dark")
    ben.wait_for_timeout(300)
    # A tap whose result is in its own form (the mana held): the form stays where it was.
    assert abs(button.bounding_box()["y"] - at) <= TOLERANCE, (at, button.bounding_box())
    summon = open_sheet(ben, "s1-maud", "summon")
    button = summon.get_by_role("button", name="Summon a daemon with Codex of Salted Ash")
    button.scroll_into_view_if_needed()
    in_sync([ann, ben])
    ann.evaluate("window.scrollTo(0, 600)")
    mark, ben_before = view_mark(ann), scroll_y(ben)
    button.tap()
    daemon = ben.locator('[data-piece="d1"]')
    expect(daemon).to_contain_text("Unclean daemon")
    in_view(ben, daemon.locator("summary.dl-summary"))
    expect(ann.locator('[data-piece="d1"]')).to_be_attached()
    kept = view_kept(ann, mark)
    ben.screenshot(path="test-artifacts/landing-summon-ben.png")
    print(
        f"summon: Ben scrollY {ben_before} -> {scroll_y(ben)}, the daemon's card on screen;"
        f" Ann's view kept: {kept}"
    )


def test_two_next_turn_taps_at_once_then_claim_confirm_and_close_from_the_thumb_bar(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    hold, release = hold_pushes(ben)
    play_to_turn_end([ann, ben])

    # Both phones scrolled down the page; Ann's Next turn wins, Ben's (his page not yet told)
    # is refused: the line is at the thumb bar, on screen.
    for phone in (ann, ben):
        phone.evaluate("window.scrollTo(0, 900)")
        in_view(phone, phone.get_by_role("button", name="Next turn"))
    hold()
    v = version(ann)
    ann.get_by_role("button", name="Next turn").tap()
    expect(ann.locator("#live")).not_to_have_attribute("data-version", str(v))
    ben.get_by_role("button", name="Next turn").tap()
    refusal = ben.locator('.alert.at-control[data-code="stale_version"]')
    # his Next turn is gone: nothing to tap again
    expect(refusal).to_have_text("Someone acted just before you: the table already moved on.")
    box = in_view(ben, refusal)
    release()
    ben.screenshot(path="test-artifacts/landing-two-next-ben.png")
    print(
        f"two Next turn taps: Ben's refusal at viewport y={box['y']:.0f}, scrollY {scroll_y(ben)}"
    )
    expect(ben.locator("#dl-turn-no")).to_contain_text("Turn 2")

    # The claim (7.3.2.3): Ann claims from her thumb bar and lands on it; Ben confirms from his.
    play_to_turn_end([ann, ben])
    ben.evaluate("window.scrollTo(0, 500)")
    mark = view_mark(ben)
    claim = ann.get_by_role("button", name="Objective achieved")
    in_view(ann, claim)
    tap_twice(claim)  # the second tap, in place, confirms it (app.js data-two-step)
    # the push may show the claim a moment before the answer lands the phone on it
    expect(ann.locator("#dl-claim")).to_be_in_viewport()
    ann.wait_for_timeout(300)
    in_view(ann, ann.locator("#dl-claim"))
    confirm = ben.get_by_role("button", name="Confirm the claim")
    expect(confirm).to_be_visible()
    in_view(ben, confirm)
    print(
        f"claim: Ann on her claim at y={ann.locator('#dl-claim').bounding_box()['y']:.0f};"
        f" Ben's view kept: {view_kept(ben, mark)}"
    )
    confirm.tap()

    # Mission over (a table of its own: nothing to close): said in the turn bar, on screen.
    for phone in (ann, ben):
        expect(phone.locator("#dl-turn .dl-ended")).to_contain_text("objective achieved")
        in_view(phone, phone.locator("#dl-turn .dl-ended"))
    ben.screenshot(path="test-artifacts/landing-over-ben.png")


def test_lobby_start_and_preparation_next_and_deployment_from_the_thumb_bar(new_phone):
    """The lobby's Start in view with the table options folded (a 13-option lobby was a
    3,264 px page); then a Guild mission's preparation (6.4.1): Next in the thumb bar of the
    phone that did not tap last, saying whom it waits for; the deployment turn's Placed in the
    bar and an alert on the phone whose turn it becomes."""
    host, _code = host_lobby(new_phone)
    start = host.get_by_role("button", name="Start the game")
    expect(start).to_be_visible()
    in_view(host, start)
    expect(host.locator("#table-options")).to_be_hidden()  # folded: one line with Change
    height = host.evaluate("document.documentElement.scrollHeight")
    host.screenshot(path="test-artifacts/landing-lobby-host.png")
    # Change, by touch: the options open under it, Start still under the thumb.
    host.locator("#table-options-fold > summary").tap()
    first = host.locator("#table-options select").first
    expect(first).to_be_visible()
    in_view(host, first)
    in_view(host, start)
    host.screenshot(path="test-artifacts/landing-lobby-options-open.png")
    print(
        f"lobby: Start at y={start.bounding_box()['y']:.0f} with the page at scrollY 0, "
        f"page {height} px"
    )
    host.context.close()

    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Rook",), feods=80)
    b = build_guild("Ben's Wolves", "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "characters")
    for seat, name in ((seats[0], "Rook"), (seats[1], "Ash")):
        cmd(table, seat, "setup.pick", character=roster_id(table, seat, name))
    all_next(table, seats)  # -> mana
    all_next(table, seats)  # -> miniatures
    ann, ben = open_at_stage(new_phone, table, (a, b), "miniatures")
    ben.evaluate("window.scrollTo(0, 400)")
    # At the page's end (the step's Next section, a short page): Ann's tap shortens Ben's bar
    # ("waiting for" one Guild less), which must not pull his page down under him.
    assert ben.evaluate("document.documentElement.scrollHeight - innerHeight - scrollY") <= 1
    mark = view_mark(ben)
    ann.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    wait = ann.locator("#dl-thumb-wait")
    expect(wait).to_contain_text("waiting for Ben")
    in_view(ann, wait)
    next_ben = ben.locator("#dl-thumb").get_by_role("button", name="Next")
    in_view(ben, next_ben)
    print(
        f"prep Next: Ben's view kept {view_kept(ben, mark)};"
        f" his Next at y={next_ben.bounding_box()['y']:.0f}"
    )
    ben.screenshot(path="test-artifacts/landing-prep-next-ben.png")
    next_ben.tap()

    # Deployment: the acting phone's Placed is in its bar; the other gets the alert in turn.
    for phone in (ann, ben):
        expect(phone.locator('[data-stage="deployment"]')).to_be_visible()
    acting = next(
        p for p in (ann, ben) if p.locator("#dl-thumb").get_by_role("button", name="Placed").count()
    )
    other = ben if acting is ann else ann
    placed = acting.locator("#dl-thumb").get_by_role("button", name="Placed")
    in_view(acting, placed)
    expect(other.locator("#dl-thumb-wait")).to_contain_text("places a miniature")
    other.evaluate("window.scrollTo(0, 300)")
    mark = view_mark(other)
    placed.tap()
    expect(acting.locator("#dl-minis .badge.ok")).to_have_count(1)
    expect(other.locator("#dl-alert")).to_contain_text("Your turn: place one miniature")
    turn = other.locator("#dl-thumb").get_by_role("button", name="Placed")
    in_view(other, turn)
    print(f"deployment: {view_kept(other, mark)}; Placed at y={turn.bounding_box()['y']:.0f}")
    other.screenshot(path="test-artifacts/landing-deployment-turn.png")
    # Placed sends the page's choice of miniature and area: wherever the phone is scrolled,
    # the bar's line links to that choice, brought between the bars, then Placed places it.
    other.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    character = other.locator('#dl-deploy select[name="d.character"]')
    area = other.locator('#dl-deploy select[name="d.area"]')
    other.locator("#dl-deploy-go").get_by_role("link").tap()
    in_view(other, character)
    in_view(other, area)
    print(f"deployment: the choice at y={character.bounding_box()['y']:.0f} after the bar's link")
    other.screenshot(path="test-artifacts/landing-deployment-choice.png")
    turn.tap()
    for phone in (ann, ben):
        expect(phone.locator("#dl-minis .badge.ok")).to_have_count(2)


def test_each_preparation_step_starts_with_its_own_content_the_guild_data_one_line(new_phone):
    """The Guild data box (taken at, Bring my Guild again, Take my Guild out) repeated above
    every preparation step's content (6.4.1): folded to one line, the step's heading on the
    first screen under it; opened by touch, its Take out is in view. A 60-character Guild
    name is ellipsized in that line, whole in its title."""
    name = "The Sworn Brotherhood of the Lower Loch Lanterns and Ravens!"
    assert len(name) == 60
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild(name, "red", ("Rook",), feods=80)
    b = build_guild("Ben's Wolves", "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "objective")
    (ann,) = open_at_stage(new_phone, table, (a,), "objective")
    fold = ann.locator("#dl-guild-data")
    summary = fold.locator("> summary")
    leave = fold.get_by_role("button", name="Take my Guild out of the mission")
    expect(leave).to_be_hidden()
    line = summary.bounding_box()
    assert line["height"] <= 48, line  # one line, at the 44 px target height
    expect(summary.locator(".dl-who")).to_have_attribute("title", name)
    wait = ann.locator("#dl-thumb-wait")
    expect(wait).to_have_attribute("title", re.compile(f"waiting for {re.escape(name)}, Ben"))
    wait_h = wait.bounding_box()["height"]
    line_h = wait.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    assert wait_h <= 2 * line_h + 1, (wait_h, line_h)  # two lines at most: the bar stays short
    heading = ann.locator("#dl-objective h2")
    box = in_view(ann, heading)  # on the first screen, above the thumb bar
    ann.screenshot(path="test-artifacts/landing-prep-guild-data-folded.png")
    summary.tap()
    expect(leave).to_be_visible()
    leave.scroll_into_view_if_needed()
    in_view(ann, leave)
    ann.screenshot(path="test-artifacts/landing-prep-guild-data-open.png")
    print(
        f"Guild data: one line of {line['height']:.0f} px; waiting line {wait_h:.0f} px;"
        f" the step's heading at y={box['y']:.0f}"
    )


def test_a_joined_players_lobby_is_as_short_as_the_hosts(new_phone):
    """A guest who joined a DemLoc table by its code. Found by a new user: the guest's lobby
    was 3,020 px tall against the host's 1,172 (the 13 table options unfolded on every phone
    but the host's). The options are folded to one line on the guest's phone too ("Show" opens
    them, read-only); the page is no taller than the host's but for the guest's own lines."""
    host, code = host_lobby(new_phone)
    guest = new_phone()
    guest.goto(f"/j/{code}/")
    guest.fill("#name", "Ben")
    guest.get_by_role("button", name="Join table").tap()
    expect(host.locator(".seats").first).to_contain_text("Ben")
    expect(guest.locator("#lobby-waiting")).to_contain_text("Waiting for the host")
    heights = {
        name: phone.evaluate("document.documentElement.scrollHeight")
        for name, phone in (("host", host), ("guest", guest))
    }
    guest.screenshot(path="test-artifacts/landing-lobby-guest.png", full_page=True)
    print(f"lobby heights: {heights}")
    assert heights["guest"] <= heights["host"] + 150, heights
    options = guest.locator("#table-options")
    expect(options).to_be_hidden()
    summary = guest.locator("#table-options-fold > summary")
    summary.scroll_into_view_if_needed()
    summary.tap()
    expect(options).to_be_visible()
    box = options.locator("li").first.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 740, box  # opened under the thumb

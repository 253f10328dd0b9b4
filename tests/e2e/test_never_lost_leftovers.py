"""Never lost on the phone, the leftovers of a new user's evening, by touch at 360x740 (docs/
playing.md "A live table: where a tap lands, the next step under the thumb"): the Realm's hand
and its controls in view at the top of my turn, DemLoc's turn-end odds read whole, the join
page saying who joins and what no Guild means, and the offline banner clear of the control
about to be tapped. Every test prints what it measured."""

import re

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from missions.services import mission_open
from tabletop import services as table_services
from tabletop.models import Table
from tests.e2e.conftest import login, open_table, table_code
from tests.e2e.demloc_turns import turn_end_figures
from tests.e2e.test_between_bars import BAND
from tests.guilds.factories import UserFactory
from tests.missions.lifecycle_flow import build_guild, cmd, state


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
    print(
        "realm, my turn at scrollY 0:",
        {k: (v["y"], v["bottom"]) for k, v in seen.items()},
        "band",
        next(iter(seen.values()))["top"],
        "..",
        next(iter(seen.values()))["bar"],
    )
    outside = {k: v for k, v in seen.items() if not (v["inside"] and v["hit"])}
    assert not outside, outside
    cards.first.tap()
    expect(acting.locator("#rl-hand .realm-pick").first).to_be_checked()
    assert acting.evaluate("scrollY") == 0


def test_the_turn_ends_odds_are_read_whole_at_360_px_7_3_2_3(new_phone):
    """DemLoc 7.3.2.3 (the turn's end: movement tokens back to active) and "First player
    playing" (a new first player drawn, whoever was first less likely). Found by a new user: the
    turn end's line "Turn end: tokens back to active. Next first player: Ann 50% · Ben 50%" was
    cut by an ellipsis at 360 px, the odds, the figures that matter, past it. With three players
    each player's percentage is wholly in view on every phone, and they add up to 100."""

    phones = open_table(new_phone, "demloc", 3)
    table = Table.objects.get(code=table_code(phones[0]))
    while state(table)["phase"] != "end":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    seen = {}
    for name, phone in zip(("ann", "ben", "cat"), phones, strict=True):
        seen[name] = turn_end_figures(phone, ("Ann", "Ben", "Cat"))
        phone.screenshot(path=f"test-artifacts/leftovers-turn-end-{name}.png")
    print(
        "turn end odds at 360 px:",
        {k: [(f["text"], f["left"], f["right"]) for f in v] for k, v in seen.items()},
    )
    assert len(seen["ann"]) == 3
    assert sum(int(f["text"][:-1]) for f in seen["ann"]) in (99, 100, 101)


def test_the_join_page_says_who_joins_and_what_no_guild_means_6_4(new_phone):
    """DemLoc 6.4: each player of a Guild mission brings their own Guild (only Guild Masters
    play missions). Found by a new user: logged in with an account that has no Guild, the
    mission's join page was a bare name field, with nothing to say which account was joining
    nor that it would be refused at Bring my Guild. The page names the account, says what no
    Guild means for this Guild mission and links to found one, all in view at 360x740; the
    link taken by touch opens the founding form. A demo table (no Guild involved) names the
    account only."""

    host = build_guild("Ann's Ravens", "red", ("Rook",))
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    mission, _seat = mission_open(host=host.master, definition_id=definition.pk, mode="standard")
    nobody = UserFactory(username="dora_no_guild")
    phone = new_phone()
    login(phone, nobody.username)
    phone.goto(f"/j/{mission.table.code}/")
    who = phone.locator("#join-as")
    expect(who).to_contain_text("dora_no_guild")
    note = phone.locator("#join-note")
    expect(note).to_contain_text("Guild mission")
    expect(note).to_contain_text("dora_no_guild has none yet")
    found = note.get_by_role("link", name="Found a Guild")
    join = phone.get_by_role("button", name="Join table")
    phone.screenshot(path="test-artifacts/leftovers-join-no-guild.png")
    seen = {}
    for what, locator in (("who", who), ("note", note), ("found", found), ("join", join)):
        expect(locator).to_be_in_viewport(ratio=1)
        seen[what] = round(locator.bounding_box()["y"]), round(locator.bounding_box()["height"])
    print("join page, an account without a Guild (y, height):", seen)
    found.tap()
    expect(phone).to_have_url(re.compile(r"/found/$"))
    expect(phone.locator("input[name=code]")).to_be_visible()

    # A demo table: who joins, and nothing about Guilds.
    demo, _host = table_services.table_create(ruleset="demloc", host_name="Eve")
    phone.goto(f"/j/{demo.code}/")
    expect(phone.locator("#join-as")).to_contain_text("dora_no_guild")
    expect(phone.locator("#join-note")).to_have_count(0)


#: What the phone shows: the offline banner's, the top bar's, the turn bar's and the bottom
#: bar's boxes, the control's box and whether a tap at its centre reaches it, the scroll.
SCREEN = """c => {
  const box = e => { if (!e || !e.getClientRects().length || e.hidden) return null;
    const r = e.getBoundingClientRect(); return {top: Math.round(r.top), bottom: Math.round(r.bottom)}; };
  const r = c.getBoundingClientRect(), at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {y: scrollY, net: box(document.getElementById('net')), top: box(document.querySelector('.topbar')),
    turn: box(document.getElementById('dl-turn')), bar: box(document.getElementById('bottom-bar')),
    control: box(c), hit: !!at && (at === c || c.contains(at))};
}"""


def overlaps(a, b) -> bool:
    return bool(a and b and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0)


def test_the_offline_banner_covers_no_control_and_moves_nothing_7_2(new_phone):
    """A phone loses the network on its turn (DemLoc 7.2: the acting player moves, shoots,
    casts, then passes). Found by a new user: the red Offline banner appeared between the top
    bar and the page, pushing the page down and the sticky turn bar over the card just under
    it. Measured on both controls a thumb is about to tap (a card just under the turn bar, the
    thumb bar's Next: pass): once offline the banner covers neither, nor the turn bar or the
    thumb bar, and neither control moved; a tap at each one's centre still reaches it."""
    ann, ben = open_table(new_phone, "demloc", inset=0)
    acting = next(p for p in (ann, ben) if p.get_by_role("button", name="Next: pass").count())
    acting.wait_for_timeout(4300)  # the turn's prompt at the top of the screen said and gone
    # The second card of mine, scrolled to sit right under the turn bar (the next to open).
    card = acting.locator(".dl-piece.mine summary").nth(1)
    card.evaluate("e => e.scrollIntoView({block: 'start'})")  # scroll-padding: under the bar
    acting.wait_for_timeout(300)
    step = acting.locator("#dl-thumb").get_by_role("button", name="Next: pass")
    before = {"card": card.evaluate(SCREEN), "next": step.evaluate(SCREEN)}
    assert before["card"]["hit"] and before["next"]["hit"], before
    acting.context.set_offline(True)
    banner = acting.locator("#net")
    expect(banner).to_contain_text("Offline")
    acting.wait_for_timeout(500)
    after = {"card": card.evaluate(SCREEN), "next": step.evaluate(SCREEN)}
    acting.screenshot(path="test-artifacts/leftovers-offline-banner.png")
    print("offline banner:", {"before": before, "after": after})
    a = after["card"]
    assert a["net"], a
    for what in ("card", "next"):
        m = after[what]
        assert m["control"] == before[what]["control"], (what, before[what], m)  # not moved
        assert m["y"] == before[what]["y"], (what, before[what], m)
        assert not overlaps(m["net"], m["control"]) and m["hit"], (what, m)
    assert not overlaps(a["net"], a["turn"]) and not overlaps(a["net"], a["bar"]), a
    acting.context.set_offline(False)
    expect(acting.locator("body")).to_have_attribute("data-ws", "open", timeout=15_000)


def test_a_short_name_stays_whole_beside_a_long_one_in_the_turn_ends_odds_7_3_2_3(new_phone):
    """DemLoc 7.3.2.3, "First player playing". Found by a new user: with a 47-letter Guild
    beside "Bob's Ravens", the turn end's line read "Next first: The Lantern-… 33% B. 67%": both
    names gave way alike and the short one was cut to a letter. A name gives way by its length:
    the short name is shown to at least 90% of its width (it was 14 px of 102), the long one
    ellipsized (whole in the title), both figures in view."""
    long, short = "The Lantern-Bearers of the Drowned Bell Quarter", "Bob's Ravens"
    phones = open_table(new_phone, "demloc", names=(long, short))
    table = Table.objects.get(code=table_code(phones[0]))
    while state(table)["phase"] != "end":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    seen = {}
    for name, phone in zip(("long", "short"), phones, strict=True):
        bob = phone.locator(".dl-odd .dl-nm", has_text=short)
        expect(bob).to_be_visible()
        seen[name] = bob.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert seen[name][1] >= 0.9 * seen[name][0], (name, seen[name])  # "Bob's Rave…" at least
        for figure in phone.locator(".dl-odd > strong").all():
            expect(figure).to_be_in_viewport(ratio=1)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        phone.screenshot(path=f"test-artifacts/leftovers-turn-end-short-name-{name}.png")
    print("the short name in the turn end's odds (scrollWidth, clientWidth):", seen)


def test_neither_name_vanishes_from_the_turn_ends_odds_7_3_2_3(new_phone):
    """DemLoc 7.3.2.3. Found by a new user: a 48-letter Guild beside "Bob's <b>Ravens</b>" (its
    markup shown as typed) read "Next first: 33%Bob's <b>Raven… 67%": the long name had given
    way to nothing, its figure glued to the other name. Each name keeps at least its first
    letters and an ellipsis (2em), each figure whole in view, nothing wider than the phone."""
    long, short = "The Very Long Named Brotherhood of Ashen Lantern", "Bob's <b>Ravens</b>"
    phones = open_table(new_phone, "demloc", names=(long, short))
    table = Table.objects.get(code=table_code(phones[0]))
    while state(table)["phase"] != "end":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    for phone in phones:
        expect(phone.locator(".dl-odd .dl-nm", has_text=short)).to_be_visible()
        widths = phone.locator(".dl-odd > .dl-nm").evaluate_all(
            "es => es.map(e => [e.textContent, e.clientWidth])")
        em = phone.locator(".dl-odd").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert len(widths) == 2 and all(w >= 2 * em - 1 for _name, w in widths), (widths, em)
        for figure in phone.locator(".dl-odd > strong").all():
            expect(figure).to_be_in_viewport(ratio=1)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phones[0].screenshot(path="test-artifacts/leftovers-turn-end-both-names.png")

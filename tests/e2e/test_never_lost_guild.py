"""Never lost on the phone in a Guild mission (docs/playing.md "A live table: where a tap lands,
the next step under the thumb"; tabletop/KIT.md "Where the page lands"), by touch at 360x740 on
two phones, as a new user plays it: two Guilds, mercenaries with a sword and a bow, an arcane
mercenary with an Arcane Code (its power Spark) and a daemon in its Guild's pantheon (5.1.1-5.1.5).
What a tap opens (a sheet, its Shoot, Brawl, Arcane, Summon: 7.2.2, 7.3.2, 7.2.3) and what a tap
does (a shot worked out on one phone and applied on the other, tokens, a fate point, a
mana cube, Spark, a summoned daemon, two Next turn taps at once: 7.2) is brought between the bars, and
the other phone's view does not move. The page at the start, every card folded, is within two
screens (1,480 px) on each phone. Every test prints what it measured; screenshots in
test-artifacts/never-lost-guild-*.png."""

import re

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from missions.demo import load_demo_missions
from tests.e2e.conftest import open_at_stage
from tests.e2e.test_between_bars import BAND
from tests.e2e.test_landing import hold_pushes, in_view, scroll_y, view_kept
from tests.e2e.test_never_lost_open import WHERE, near_the_thumb_bar, opened
from tests.guilds.factories import AreaFactory, MercenaryCardFactory, WeaponCardFactory
from tests.missions.lifecycle_flow import (
    build_guild,
    cinder_summoner,
    cmd,
    give,
    prepare,
    roster_id,
    state,
)
from tests.missions.lifecycle_flow import open_table as open_mission

SCREEN = 740
# What each phone opens, in tap order: (character, section); the section None is the sheet itself.
# A Guild mission's piece ids hold the mercenary's database id (``s0-m17``): `pieces` finds them.
OPENS = {
    0: [
        ("Rook", None),
        ("Rook", "shoot"),
        ("Rook", "brawl"),
        ("Seer", None),
        ("Seer", "brawl"),
        ("Seer", "arcane"),
        ("Seer", "summon"),
    ],
    1: [
        ("Ash", None),
        ("Ash", "shoot"),
        ("Ash", "brawl"),
        ("Wren", None),
        ("Wren", "brawl"),
    ],
}


def arm_with_a_bow(guild, name: str) -> None:
    """``name`` of ``guild`` takes a bow too (5.1.4: a ranged weapon, range 12), through the
    Guild's own services (a code redeemed, the bow bought and equipped)."""
    bow = gm.WeaponCard.objects.filter(name="Short bow").first() or WeaponCardFactory(
        name="Short bow", type="bows", grip="one", damage=3, melee_damage=1, range=12, price_feods=0
    )
    give(guild, bow)
    merc = gm.Mercenary.objects.get(guild=guild, card__name=name)
    weapon = gs.weapon_buy(guild=guild, card_id=bow.pk)
    gs.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=merc.pk)


def guild_mission(new_phone):
    """The Drowned Bell at turn 1 between Ann's Ravens (Rook: sword and bow; Seer: arcane 4,
    the Codex of Cinders with its power Spark; the Cinder imp in its pantheon) and Bob's Wolves
    (Ash: sword and bow; Wren: sword), prepared through the real services (Seer's setup mana 3
    common, 1 dark: 6.4.1), each master's phone on it: ``(table, seats, [ann, bob])``."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    MercenaryCardFactory(name="Rook", area=AreaFactory(), arcane_ability=0, hit_factor=3, armor=3)
    a = build_guild("Ann's Ravens", "red", ("Rook", "Seer"), feods=80, arcane=4)
    b = build_guild("Bob's Wolves", "blue", ("Ash", "Wren"), feods=80)
    arm_with_a_bow(a, "Rook")
    arm_with_a_bow(b, "Ash")
    cinder_summoner(a, "Seer", powers=[{"name": "Spark", "range": 12, "white_mana": 1}])
    _mission, table, seats = open_mission([a, b], definition)
    picks = {0: ["Rook", "Seer"], 1: ["Ash", "Wren"]}
    prepare(table, seats, picks, mana={0: {"Seer": (3, 1, 0)}})
    phones = open_at_stage(new_phone, table, (a, b), None)
    return table, seats, phones


def synced(table, phones) -> None:
    """Every phone shows the table's version (the database's: a phone may be a push ahead of
    the other when they are compared)."""
    table.refresh_from_db()
    for phone in phones:
        expect(phone.locator("#live")).to_have_attribute("data-version", str(table.version))


def band(locator) -> dict:
    return locator.evaluate(BAND)


def page_height(phone) -> int:
    return phone.evaluate("document.documentElement.scrollHeight")


# What the other phone shows: the first character card or live block whose top is on screen
# under the bars, else the one across the top (a card's inner forms may be hidden by an update:
# a calculation that waits hides the actions).
MARK = """() => {
  const top = document.getElementById('dl-turn').getBoundingClientRect().bottom;
  let across = null;
  for (const e of document.querySelectorAll('#live .dl-piece[id], #live section[id], #live > div[id]')) {
    if (e.closest('#bottom-bar, #dl-turn') || !e.checkVisibility()) continue;
    const r = e.getBoundingClientRect();
    if (r.height && r.top >= top && r.top < 600) return {id: e.id, top: r.top};
    if (r.height && r.top < top && r.bottom > top) across = {id: e.id, top: r.top};
  }
  return across; }"""


def view_mark(phone) -> dict:
    mark = phone.evaluate(MARK)
    assert mark, "no card or block on screen"
    mark["scrollY"] = scroll_y(phone)
    return mark


def the_other_did_not_move(other, mark: dict) -> float:
    """``other`` (reading something else) still shows what it showed: the card or block at the
    top of its screen is where it was (``view_kept``), its scroll moved only by what changed
    above it."""
    view_kept(other, mark)
    return scroll_y(other)


# The phone's answer to a tap: a new version of the table, or a refusal at the control.
ANSWERED = """before => document.getElementById('live').dataset.version !== before
  || !!document.querySelector('#live .alert.at-control')"""

# Every open sheet's forms (fetched when it opens and again at each version: app.js) are those
# of the version the page shows.
FORMS_LOADED = """() => { const live = document.getElementById('live');
  return [...live.querySelectorAll('details.dl-sheet[open]')].every(d => {
    const card = d.closest('[data-forms]');
    return !card || [...card.querySelectorAll('[data-forms-slot]')]
      .every(s => s.dataset.loaded === live.dataset.version); }); }"""


def tap_lands(phone, other, control, result, name: str, seen: dict) -> dict:
    """Tap ``control`` by touch on ``phone``; ``result`` (what the tap shows, or the next control)
    is between the bars and hit by a tap at its centre; ``other``'s view did not move."""
    mark = view_mark(other)
    before = phone.locator("#live").get_attribute("data-version")
    control.tap()
    # The answer (or a refusal at the control), its push to the other phone, the open sheets'
    # forms fetched again at the new version, the ghost-tap guard over: waited for as states,
    # not a fixed 500 ms. Under load that half second ended before the forms were fetched
    # again (a box of height 0, measured as they were replaced) or before the guard ended.
    phone.wait_for_function(ANSWERED, arg=before, polling="raf")
    if not phone.locator("#live .alert.at-control").count():
        newest = phone.locator("#live").get_attribute("data-version")
        for each in (phone, other):
            expect(each.locator("#live")).to_have_attribute("data-version", newest)
            each.wait_for_function(FORMS_LOADED, polling="raf")
    expect(phone.locator("[data-tap-guard]")).to_have_count(0)
    phone.screenshot(path=f"test-artifacts/never-lost-guild-{name}.png")
    refused = phone.locator("#live .alert.at-control")
    assert not refused.count(), (name, refused.first.inner_text())
    expect(result).to_be_visible()
    m = band(result)
    seen[name] = (m["y"], m["bottom"], m["top"], m["bar"], scroll_y(phone))
    assert m["inside"] and m["hit"], (name, m)
    the_other_did_not_move(other, mark)
    return m


def pieces(table, seats) -> dict:
    """``{character name: piece id}`` of both seats (``s<seat>-<roster id>``, 5.1.1)."""
    return {
        name: f"s{i}-{roster_id(table, seats[i], name)}"
        for i, names in ((0, ("Rook", "Seer")), (1, ("Ash", "Wren")))
        for name in names
    }


def test_a_guild_mission_by_touch_on_two_phones_every_tap_lands_between_the_bars_7_2(new_phone):
    """Found by a new user in a Guild mission: what a tap opened or did ended under the thumb
    bar or off screen. By touch on both phones: every sheet and its Shoot, Brawl, Arcane and
    Summon open between the bars; Rook's shot at Ash is worked out on Ann's phone and applied
    on Bob's while Ann reads it (7.2.2: either player of a shot applies it); Bob's bleeding and
    poison tokens, Ann's +1 fate point, Seer's summoned imp, a mana cube, Spark and an
    arcane test with fate (7.2.3); both phones tap Next turn at once (7.2). After each tap its
    result or the next control is between the bars and the other phone's view did not move."""
    table, seats, (ann, bob) = guild_mission(new_phone)
    ids = pieces(table, seats)
    rook, seer, ash_id, wren = (ids[n] for n in ("Rook", "Seer", "Ash", "Wren"))
    seen: dict = {}
    expect(ann.locator("#dl-alert:not(.dl-alert-quiet):not([hidden])")).to_have_count(0)
    for seat, phone, other in ((0, ann, bob), (1, bob, ann)):
        other.evaluate("window.scrollTo(0, 300)")
        for who, section in OPENS[seat]:
            pid = ids[who]
            mark = view_mark(other)
            m = opened(phone, pid, section)
            name = f"open-{pid}-{section or 'sheet'}"
            phone.screenshot(path=f"test-artifacts/never-lost-guild-{name}.png")
            seen[name] = (m["head"]["y"], m["first"]["y"], m["whole"]["y"], m["whole"]["bottom"])
            assert m["head"]["inside"] and m["head"]["hit"], (name, m)
            assert m["first"]["inside"] and m["first"]["hit"], (name, m)
            the_other_did_not_move(other, mark)

    # 7.2.2: Ann's Rook shoots Ash (a stray shot: no test; it waits for Apply)
    shoot = ann.locator(f"#shoot-{rook}")
    near_the_thumb_bar(ann, shoot.locator("> summary"))
    form = shoot.locator("form")
    form.locator('select[name="d.target"]').select_option(ash_id)
    form.locator('input[name="d.test_roll"]').fill("6")
    form.locator('input[name="d.stray"]').check()
    form.locator('input[name="d.dice"]').fill("1")
    # Bob reads his characters further down (a calculation that waits for his answer and
    # straddles his thumb bar is shown whole, the one move app.js allows: not tested here)
    bob.evaluate("window.scrollTo(0, 800)")
    tap_lands(
        ann,
        bob,
        form.get_by_role("button", name="Work it out"),
        ann.locator("#dl-pending").get_by_role("button", name="Apply"),
        "shot-worked-ann",
        seen,
    )
    # Bob applies it from his phone (brought to it by his thumb bar's link, or by his thumb)
    synced(table, [ann, bob])
    apply = bob.locator("#dl-pending").get_by_role("button", name="Apply")
    link = bob.locator("#dl-thumb a[href='#dl-pending']")
    if link.count():
        link.tap()
        bob.wait_for_timeout(400)
    else:
        apply.scroll_into_view_if_needed()
    m = band(apply)
    assert m["inside"] and m["hit"], m
    before = ann.evaluate(WHERE)  # Ann reads her worked shot (the calculation's block)
    apply.tap()
    expect(bob.locator("#dl-pending")).to_have_count(0)
    expect(ann.locator("#dl-pending")).to_have_count(0)
    synced(table, [ann, bob])
    bob.wait_for_timeout(500)
    bob.screenshot(path="test-artifacts/never-lost-guild-shot-applied-bob.png")
    ann.screenshot(path="test-artifacts/never-lost-guild-shot-applied-ann.png")
    after = ann.evaluate(WHERE)
    seen["applied: ann"] = (before, after)
    # the calculation's block stays where it was on Ann's screen; what followed comes up
    assert abs(after["slot"] - before["slot"]) <= 2, (before, after)
    assert after["mine"] < before["mine"], (before, after)
    seen["applied: bob lands on"] = bob.evaluate(LANDED)

    # Bob's tokens on Ash (the sheet is open): bleeding +, poison +, poison -
    ash = bob.locator(f"#piece-{ash_id}")
    for label in ("add a bleeding token", "add poison tokens", "remove a poison token"):
        control = ash.get_by_role("button", name=label)
        near_the_thumb_bar(bob, control)
        tap_lands(bob, ann, control, control, f"token-{label.replace(' ', '-')}", seen)
    expect(ash.locator("summary .dl-tok.danger")).to_have_text("bleeding 1")
    # Ann's +1 fate point (the players' block, by hand)
    fate = ann.locator("#dl-players").get_by_role("button", name=re.compile(r"\+1"))
    fate.first.scroll_into_view_if_needed()
    tap_lands(ann, bob, fate.first, ann.locator("#dl-fate-0"), "fate-plus-one-ann", seen)
    expect(ann.locator("#dl-fate-0")).to_have_text("fate 4")

    # 7.2.3: Seer uses Spark on Ash (strategic phase: Seer's activation, 1 common), then in the
    # action phase summons the Cinder imp (1 common, 1 dark: its code turns to its pentacle) and
    # takes an arcane test with a fate point; in turn 2 a mana cube by hand
    arcane = ann.locator(f"#arcane-{seer}")
    opened(ann, seer, "arcane") if arcane.get_attribute("open") is None else None
    spark = arcane.get_by_role("button", name="Use Spark")
    near_the_thumb_bar(ann, spark)
    tap_lands(ann, bob, spark, ann.locator(f"#dl-power-{seer}"), "spark-ann", seen)
    while state(table)["phase"] == "strategic":
        s = state(table)
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    synced(table, [ann, bob])
    summon = ann.locator(f"#summon-{seer}")
    near_the_thumb_bar(ann, summon.get_by_role("button", name="Summon a daemon"))
    mark = view_mark(bob)
    summon.get_by_role("button", name="Summon a daemon").tap()
    imp = ann.locator('#live summary.dl-summary[aria-label="Cinder imp: open the sheet"]')
    expect(imp).to_have_count(1)
    ann.wait_for_timeout(500)
    ann.screenshot(path="test-artifacts/never-lost-guild-summoned-ann.png")
    m = band(imp)
    seen["summoned"] = (m["y"], m["bottom"], m["top"], m["bar"])
    assert m["inside"] and m["hit"], m
    the_other_did_not_move(bob, mark)

    opened(ann, seer, "arcane") if arcane.get_attribute("open") is None else None
    test = arcane.locator('form[data-test="arcane"]')
    near_the_thumb_bar(ann, test.get_by_role("button", name="Test"))
    test.locator('input[name="d.roll"]').fill("3")
    test.locator('input[name="d.fate"]').fill("1")
    # its result is told in the turn's newest log line; the next control, the test's own
    # form (emptied for the next test), stays under the thumb
    tap_lands(
        ann,
        bob,
        test.get_by_role("button", name="Test"),
        test.get_by_role("button", name="Test"),
        "arcane-test-ann",
        seen,
    )
    expect(ann.locator("#dl-status")).to_contain_text("Arcane test: rolled 3")

    # 7.2: both phones tap Next turn at once (the phases passed on the table)
    while (s := state(table))["phase"] != "end":
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    for phone in (ann, bob):
        expect(phone.locator("#dl-thumb").get_by_role("button", name="Next turn")).to_be_visible()
    synced(table, [ann, bob])
    hold, release = hold_pushes(bob)  # at once: Bob's page not yet told of Ann's tap
    hold()
    ann.locator("#dl-thumb").get_by_role("button", name="Next turn").tap()
    expect(ann.locator("#dl-turn-no")).to_contain_text("Turn 2")
    bob.locator("#dl-thumb").get_by_role("button", name="Next turn").tap()
    expect(bob.locator('.alert.at-control[data-code="stale_version"]')).to_be_visible()
    release()
    for phone in (ann, bob):
        expect(phone.locator("#dl-turn-no")).to_contain_text("Turn 2")
    ann.wait_for_timeout(500)
    synced(table, [ann, bob])
    for name, phone in (("ann", ann), ("bob", bob)):
        phone.wait_for_timeout(300)
        phone.screenshot(path=f"test-artifacts/never-lost-guild-next-turn-{name}.png")
        refusal = phone.locator('.alert.at-control[data-code="stale_version"]')
        shown = refusal if refusal.count() else phone.locator("#dl-thumb button").first
        seen[f"next turn: {name}"] = in_view(phone, shown)["y"]
    # Turn 2: Seer's mana by hand (its movement token is exhausted while the imp plays, so it
    # cannot channel: 7.2.3.2), a common mana cube added on its sheet
    cube = ann.locator(f"#piece-{seer}").get_by_role("button", name="add a common mana cube")
    near_the_thumb_bar(ann, cube)
    tap_lands(ann, bob, cube, cube, "mana-cube-ann", seen)
    expect(ann.locator(f"#arcane-{seer} [data-mana]")).to_contain_text("1 common")
    print("measured (y, bottom, band top, bar, scrollY) or (head, first, top, bottom):")
    for name, figures in seen.items():
        print(f"  {name}: {figures}")


LANDED = """() => { const all = [...document.querySelectorAll('#live [data-land][id]')];
  const top = 130, bar = document.getElementById('bottom-bar').getBoundingClientRect().top;
  return all.filter(e => { const r = e.getBoundingClientRect(); return r.bottom > top && r.top < bar; })
            .map(e => e.id).slice(0, 4); }"""


def test_a_guild_mission_starts_within_two_screens_on_each_phone(new_phone):
    """Screen budget (the issue's Deliver 3): at the start of a Guild mission (turn 1, every
    card folded), the play page is within two screens of 740 px (1,480 px) on each phone. A new
    user's was 3,300-3,400 px; the log folded to its newest lines, the rejoin code and the
    players' by-hand controls folded to one line each keep it within."""
    _table, _seats, (ann, bob) = guild_mission(new_phone)
    heights = {}
    for name, phone in (("ann", ann), ("bob", bob)):
        expect(phone.locator("#live details.dl-sheet[open]")).to_have_count(0)
        phone.wait_for_timeout(500)
        heights[name] = page_height(phone)
        phone.screenshot(path=f"test-artifacts/never-lost-guild-start-{name}.png", full_page=True)
    print(f"play page at the start, every card folded: {heights} px (budget {2 * SCREEN})")
    assert all(h <= 2 * SCREEN for h in heights.values()), heights

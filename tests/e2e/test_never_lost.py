"""Never lost on the phone (docs/playing.md "A live table: where a tap lands, the next step
under the thumb"; tabletop/KIT.md "Where the page lands"), by touch at 360x740: after each tap
the acting phone shows that tap's result (a failed shot's notice, an arcane power's result
line, the closed mission), its next control (Apply and Cancel clear of the fixed bottom bar,
Close the mission's second tap, the vote to stop) or its refusal, inside the viewport; the
other phone's view does not move. The turn bar and the page stay short with 60-character Guild
names (two screens at the start of a mission), the Realm says whose turn it is in its bottom
bar, and the Armory's menus keep their own row. DemLoc rulebook 5.6 (stray shots), 7.2.2
(shooting), 7.2.3.5 (arcane powers), 7.3.2 (brawl), 7.3.2.3 (ending by agreement), 6.4.1
(closing a mission). Every test prints what it measured."""

import re

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from missions.models import Mission, MissionFollower
from missions.services import mission_close
from tests.e2e.conftest import host_lobby, login, open_at_stage, open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_guild_landing import a_guild_with_a_long_armory, assert_in_view
from tests.e2e.test_landing import (
    aim_brawl,
    aim_shot,
    channel_by_touch,
    in_view,
    scroll_y,
    view_kept,
    view_mark,
)
from tests.guilds.factories import FollowerCardFactory
from tests.missions.lifecycle_flow import build_guild, cmd, prepare, state, to_stage
from tests.missions.lifecycle_flow import open_table as open_mission
from tests.missions.test_lifecycle_flow import give_follower

SCREEN = 740
A60 = "Ann's Ravens of the Northern Marshes and the Black Quay Gates"[:60]
B60 = "Ben's Wolves of the Southern Hills and the Old Salt Road Inn."[:60]


def other_looks_at(phone, y: int) -> dict:
    """``phone`` scrolled to ``y`` (a player reading something else): what it shows."""
    phone.evaluate(f"window.scrollTo(0, {y})")
    phone.wait_for_timeout(100)
    return view_mark(phone)


def test_a_failed_shot_lands_on_its_notice_5_6(new_phone):
    """Korr's test die fails (a 6): the shot strays (5.6). Ann's phone, scrolled down to her
    Shoot form, lands on the notice that says so (it was only in the log, under the form's
    unchanged page); Ben's view does not move."""
    ann, ben = open_table(new_phone, "demloc")
    work = aim_shot(ann, "s0-korr", "s1-bram", 6, "6 6 6")
    mark = other_looks_at(ben, 700)
    before = scroll_y(ann), version(ann)
    work.tap()
    notice = ann.locator("#dl-notice")
    expect(notice).to_contain_text("Korr")
    expect(notice).to_contain_text("missed: the test failed")
    expect(ann.locator("#dl-pending")).to_have_count(0)  # nothing to apply: it strayed
    in_sync([ann, ben])
    ann.wait_for_timeout(300)
    box = in_view(ann, notice)
    ann.screenshot(path="test-artifacts/never-lost-stray-ann.png")
    kept = view_kept(ben, mark)
    print(f"stray shot: Ann scrollY {before[0]} -> {scroll_y(ann)}, notice at y={box['y']:.0f};"
          f" Ben's view kept: {kept}")


def test_an_arcane_power_lands_on_its_result_line_7_2_3_5(new_phone):
    """Vesna channels (the setup channelling, 6.4.1) and uses her power on Bram: Ann's phone
    shows the power's result line (what it did to Bram) in Vesna's Arcane section, on screen;
    Ben, reading his page, is not moved."""
    ann, ben = open_table(new_phone, "demloc")
    arcane = channel_by_touch(ann, "s0-vesna")
    power = arcane.locator('form[data-power="0"]')
    power.locator('select[name="d.target"]').select_option("s1-bram")
    use = power.get_by_role("button", name=re.compile("^Use "))
    label = use.inner_text()
    use.evaluate("e => e.scrollIntoView({block: 'center'})")
    in_sync([ann, ben])
    mark = other_looks_at(ben, 500)
    use.tap()
    result = ann.locator("#dl-power-s0-vesna")
    expect(result).to_contain_text(" on Bram")
    in_sync([ann, ben])
    ann.wait_for_timeout(300)
    box = in_view(ann, result)
    ann.screenshot(path="test-artifacts/never-lost-power-ann.png")
    kept = view_kept(ben, mark)
    print(f"{label}: {result.inner_text()!r} at y={box['y']:.0f}; Ben's view kept: {kept}")


def test_a_brawls_apply_and_cancel_stay_above_the_bottom_bar_7_3_2(new_phone):
    """Ben's Bram fights Korr: after Work it out the worked fight is long (every step of both
    sides); Ben's phone lands on it with Apply and Cancel above the fixed bottom bar (they
    were under it); Ann's view does not move; after Cancel Ben is back on his form."""
    ann, ben = open_table(new_phone, "demloc")
    work = aim_brawl(ben, "s1-bram", "s0-korr")
    mark = other_looks_at(ann, 600)
    work.tap()
    pending = ben.locator("#dl-pending")
    expect(pending).to_contain_text("Fight: proposed result")
    in_sync([ann, ben])
    ben.wait_for_timeout(300)
    bar_top = ben.locator("#bottom-bar").bounding_box()["y"]
    for name in ("Apply", "Cancel"):
        button = pending.get_by_role("button", name=name)
        b = in_view(ben, button)
        assert b["y"] + b["height"] <= bar_top, (name, b, bar_top)
    height = pending.bounding_box()["height"]
    ben.screenshot(path="test-artifacts/never-lost-brawl-ben.png")
    kept = view_kept(ann, mark)
    print(f"brawl: panel {height:.0f} px, Apply above the bar at {bar_top:.0f}; Ann's view {kept}")
    pending.get_by_role("button", name="Cancel").tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)


def test_agree_to_stop_is_in_the_thumb_bar_with_its_count_7_3_2_3(new_phone):
    """The vote to end the mission by agreement (7.3.2.3) is in the thumb bar, beside Next,
    with how many players agree; Ben taps it at the bottom of his page: his bar says 1/2 and
    offers to withdraw, Ann's bar says 1/2 and her alert asks her; her view does not move."""
    ann, ben = open_table(new_phone, "demloc")
    for phone in (ann, ben):
        stop = phone.locator("#dl-thumb").get_by_role("button", name="Agree to stop")
        expect(stop).to_contain_text("0/2")
        in_view(phone, stop)
    ben.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    mark = other_looks_at(ann, 400)
    ben.locator("#dl-thumb").get_by_role("button", name="Agree to stop").tap()
    withdraw = ben.locator("#dl-thumb").get_by_role("button", name="Withdraw: play on")
    expect(withdraw).to_contain_text("1/2")
    in_view(ben, withdraw)
    expect(ann.locator("#dl-thumb").get_by_role("button", name="Agree to stop")).to_contain_text(
        "1/2"
    )
    expect(ann.locator("#dl-alert")).to_contain_text("Ben wants to stop the mission")
    ann.screenshot(path="test-artifacts/never-lost-stop-ann.png")
    kept = view_kept(ann, mark)
    print(f"agree to stop: Ben's bar says {withdraw.inner_text()!r}; Ann's view kept: {kept}")


def test_close_the_mission_is_two_taps_in_the_thumb_bar_6_4_1(new_phone):
    """A Guild mission over (everyone agreed to stop, 7.3.2.3): Close the mission is in the
    thumb bar; its first tap sends nothing and says, on the button, "Tap again to close:
    writes the results into both Guilds"; the second closes it and Bob's phone lands on
    "Closed"; Ann's, scrolled elsewhere, is brought to the result (the table finished: a new
    stage)."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Rook",), feods=80)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    prepare(table, seats, {0: ["Rook"], 1: ["Ash"]})
    for seat in seats:
        cmd(table, seat, "surrender.vote", agree=True)
    ann, bob = open_at_stage(new_phone, table, (a, b), None)
    close = bob.locator("#dl-thumb #dl-close")
    expect(close).to_have_text("Close the mission: update the guilds")
    bob.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    in_view(bob, close)
    v = version(bob)
    close.tap()
    expect(close).to_have_text("Tap again to close: writes the results into both Guilds")
    in_view(bob, close)
    bob.screenshot(path="test-artifacts/never-lost-close-armed-bob.png")
    bob.wait_for_timeout(300)
    assert version(bob) == v and version(ann) == v  # the first tap sent nothing
    mark = other_looks_at(ann, 300)
    close.tap()
    closed = bob.locator("#dl-closed")
    expect(closed).to_be_visible()
    in_sync([ann, bob])
    bob.wait_for_timeout(300)
    box = in_view(bob, closed)
    # The mission closed is a new stage (the table finished): every phone is brought to its
    # result (tabletop/KIT.md "A new stage is a new page on every phone"), Ann's too.
    expect(ann.locator("#dl-closed")).to_be_visible()
    ann.wait_for_timeout(300)
    winner = in_view(ann, ann.locator("#dl-winner"))
    bob.screenshot(path="test-artifacts/never-lost-closed-bob.png")
    ann.screenshot(path="test-artifacts/never-lost-closed-ann.png")
    print(f"close: Bob on 'Closed' at y={box['y']:.0f}; Ann (was on #{mark['id']}) on the"
          f" result at y={winner['y']:.0f}")


def guild_mission_phones(new_phone, names=("Ann's Ravens", "Bob's Wolves")):
    """A standard Guild mission (The Drowned Bell) of two Guilds, prepared and at turn 1, with
    each Guild Master's phone on it (websocket open): ``(table, seats, [ann, bob])``."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild(names[0], "red", ("Rook",), feods=80)
    b = build_guild(names[1], "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    prepare(table, seats, {0: ["Rook"], 1: ["Ash"]})
    return table, seats, open_at_stage(new_phone, table, (a, b), None)


def test_the_claimers_phone_is_brought_to_its_claims_outcome_7_3_2_3(new_phone):
    """At the end of the turn Ann claims the objective by two taps in place (the first sends
    nothing and says on the button what the second does: no browser dialog; an update from Bob's
    phone between the two taps keeps it armed) and lands on her claim; Bob confirms from his thumb bar. The mission's end is a new stage: both phones are
    brought to the result, Ann's too (it was left on her cards, the result 917 px above)."""
    table, seats, (ann, bob) = guild_mission_phones(new_phone)
    while (s := state(table))["phase"] != "end":
        cmd(table, table.seats.get(number=s["play_order"][s["acting_index"]]), "phase.next")
    claim = ann.locator("#dl-thumb").get_by_role("button", name="Objective achieved")
    expect(claim).to_be_visible()
    in_sync([ann, bob])
    ann.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    in_view(ann, claim)
    v = version(ann)
    claim.tap()
    armed = ann.locator("#dl-thumb form[data-armed] button")
    expect(armed).to_have_text("Tap again to claim it: the other players confirm it (7.3.2.3)")
    in_view(ann, armed)
    ann.wait_for_timeout(300)
    assert version(ann) == v and version(bob) == v  # the first tap sent nothing
    # Bob's phone acts between Ann's two taps: the update redraws her bar, and her button is
    # armed again in its new copy (else her second tap would only arm it again).
    cmd(table, seats[1], "surrender.vote", agree=True)  # the bar's count: "Agree to stop 1/2"
    expect(ann.locator("#dl-stop-count")).to_have_text("1/2")
    expect(armed).to_have_text("Tap again to claim it: the other players confirm it (7.3.2.3)")
    armed.tap()
    expect(ann.locator("#dl-claim")).to_contain_text("claims the objective")
    ann.wait_for_timeout(300)
    in_view(ann, ann.locator("#dl-claim"))
    ann.screenshot(path="test-artifacts/never-lost-claim-ann.png")
    confirm = bob.locator("#dl-thumb").get_by_role("button", name="Confirm the claim")
    expect(confirm).to_be_visible()
    bob.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    before = scroll_y(ann)
    confirm.tap()
    for phone in (ann, bob):
        expect(phone.locator("#dl-winner")).to_contain_text("Ann's Ravens wins")
    in_sync([ann, bob])
    ann.wait_for_timeout(300)
    result = {
        name: in_view(phone, phone.locator("#dl-winner"))["y"]
        for name, phone in (("ann", ann), ("bob", bob))
    }
    ann.screenshot(path="test-artifacts/never-lost-claim-outcome-ann.png")
    bob.screenshot(path="test-artifacts/never-lost-claim-outcome-bob.png")
    print(f"claim confirmed: the result on Ann's phone at y={result['ann']:.0f} (scrollY"
          f" {before} -> {scroll_y(ann)}), on Bob's at y={result['bob']:.0f}")


def test_another_mission_is_told_live_to_the_other_phone_6_4_1(new_phone):
    """A closed Guild mission: Bob taps Another mission in his thumb bar and lands on its form;
    Continue asks for a second tap in place; once he opens it, Ann's phone (reading the result)
    is told at once: her thumb bar says "Go to the next mission" with an alert, her view not
    moved, and her tap takes her to the new table."""
    table, seats, (ann, bob) = guild_mission_phones(new_phone)
    for seat in seats:
        cmd(table, seat, "surrender.vote", agree=True)
    mission_close(mission_id=Mission.objects.get(table=table).pk)
    for phone in (ann, bob):
        expect(phone.locator("#dl-closed")).to_be_visible()
    another = bob.locator("#dl-thumb #dl-another")
    expect(another).to_have_text("Another mission")
    # Bob sees the new button, then taps it (app.js: a touch quicker than that on a bar button
    # the push just put where another was is taken as aimed at the one that went).
    bob.wait_for_timeout(400)
    another.tap()
    form = bob.locator("#dl-continue")
    bob.wait_for_timeout(300)
    in_view(bob, form.get_by_role("button", name="Continue"))
    mark = other_looks_at(ann, 200)
    go = form.get_by_role("button", name="Continue")
    go.tap()
    armed = bob.locator("#dl-continue button")
    expect(armed).to_contain_text("Tap again to open it")
    in_view(bob, armed)
    assert not ann.locator("#dl-thumb #dl-another", has_text="next mission").count()
    armed.tap()
    told = ann.locator("#dl-thumb #dl-another")
    expect(told).to_have_text("Go to the next mission")
    in_view(ann, told)
    expect(ann.locator("#dl-alert")).to_contain_text("The next mission is open")
    kept = view_kept(ann, mark)
    ann.screenshot(path="test-artifacts/never-lost-next-mission-ann.png")
    said = told.inner_text()
    here = re.compile(f"/t/{table.code}/$")
    expect(bob).not_to_have_url(here)  # Bob is taken to the new table
    told.tap()
    expect(ann).not_to_have_url(here)
    expect(ann).to_have_url(re.compile(r"/t/\w+/$"))
    expect(ann.locator("#live")).to_have_attribute("data-status", "playing")
    print(f"another mission: Ann's bar says {said!r} at once; her view kept: {kept}")


def test_enlisting_a_follower_lands_on_my_slots_5_1_2(new_phone):
    """Preparation, the characters step: Ann enlists a follower for the mission (5.1.2) from
    the list at the bottom of the step, by touch; her phone lands on her slots, where the
    follower now is (it stayed at the Enlist button, past its result); Bob's view does not
    move."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Rook",), feods=80)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    blade = FollowerCardFactory(name="Hired blade", feods_per_mission=12)
    MissionFollower.objects.create(definition=definition, card=blade, copies=2)
    give_follower(a, blade)
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "characters")
    ann, bob = open_at_stage(new_phone, table, (a, b), "characters")
    enlist = ann.locator(".dl-pool li", has_text="Hired blade").get_by_role("button", name="Enlist")
    enlist.evaluate("e => e.scrollIntoView({block: 'center'})")
    before = scroll_y(ann)
    mark = other_looks_at(bob, 100)
    enlist.tap()
    slots = ann.locator("#dl-my-slots")
    expect(slots.locator(".dl-picks")).to_contain_text("Hired blade")
    in_sync([ann, bob])
    ann.wait_for_timeout(300)
    box = in_view(ann, slots.locator(".dl-picks li", has_text="Hired blade"))
    in_view(ann, slots.locator("h2"))
    ann.screenshot(path="test-artifacts/never-lost-enlist-follower-ann.png")
    kept = view_kept(bob, mark)
    print(f"enlist a follower: Ann scrollY {before} -> {scroll_y(ann)}, the follower in her"
          f" slots at y={box['y']:.0f}; Bob's view kept: {kept}")


def test_sixty_character_guild_names_keep_the_bars_short_and_the_page_two_screens(new_phone):
    """Two Guilds with 60-character names (the most a Guild name may have) at the start of a
    standard mission: on both phones the turn bar keeps the first player's name on one line
    (ellipsized, whole in its title and on a tap; the acting Guild's is whole), the top bars and the bottom bar leave at least 60% of the 740 px
    screen to the page, and the page, every card folded, is within two screens (1,480 px)."""
    assert len(A60) == len(B60) == 60
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild(A60, "red", ("Rook", "Wren"), feods=80)
    b = build_guild(B60, "blue", ("Ash", "Birch"), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    prepare(table, seats, {0: ["Rook", "Wren"], 1: ["Ash", "Birch"]})
    measured = {}
    phones = open_at_stage(new_phone, table, (a, b), None)
    for phone, name in zip(phones, ("ann", "ben"), strict=True):
        expect(phone.locator("#dl-turn-no")).to_have_text("Turn 1")
        assert phone.locator("details.dl-sheet[open]").count() == 0  # every card folded
        height = phone.evaluate("document.documentElement.scrollHeight")
        phone.screenshot(path=f"test-artifacts/never-lost-60-{name}-page.png", full_page=True)
        # Scrolled down: the turn bar stuck under the top bar, the page between the bars.
        phone.evaluate("window.scrollTo(0, 700)")
        phone.wait_for_timeout(200)
        turn = phone.locator("#dl-turn").bounding_box()
        bar = phone.locator("#bottom-bar").bounding_box()
        free = bar["y"] - (turn["y"] + turn["height"])
        for el in phone.locator("#dl-turn .dl-first").all():
            line = el.evaluate("e => e.getBoundingClientRect().height")
            assert line <= 30, (el.get_attribute("title"), line)  # one line
        first = phone.locator("#dl-turn .dl-first")
        assert first.get_attribute("title").endswith(B60) or first.get_attribute(
            "title"
        ).endswith(A60)
        phone.screenshot(path=f"test-artifacts/never-lost-60-{name}.png")
        measured[name] = {"page": height, "turn bar": turn["height"], "free": free}
        assert free >= 0.6 * SCREEN, (name, turn, bar)
        assert height <= 2 * SCREEN, (name, height)
    print("60-character Guild names at 360x740:", measured)


def test_the_realm_says_whose_turn_and_ends_it_from_its_bottom_bar(new_phone):
    """Pixel Demon's Realm: the prompt (whose turn, what to choose) is in the fixed bottom bar
    on both phones, wherever the page is scrolled, and so is the acting phone's next step, End
    turn (it sat in the page, under the bar); it asks for a second tap in place (no browser
    dialog). Once ended, the other phone's bar says it is its turn, offers End turn, and an
    alert says so; its view did not move."""
    phones = open_table(new_phone, "realm", 2)
    acting = next(p for p in phones if "Your turn" in p.locator("#rl-bar-prompt").inner_text())
    other = phones[1] if acting is phones[0] else phones[0]
    expect(other.locator("#rl-bar-prompt")).to_contain_text("'s turn")
    expect(other.locator("#rl-end")).to_have_count(0)
    for phone in phones:
        for y in ("0", "document.documentElement.scrollHeight"):
            phone.evaluate(f"window.scrollTo(0, {y})")
            in_view(phone, phone.locator("#rl-bar-prompt"))
    acting.evaluate("window.scrollTo(0, 0)")
    in_view(acting, acting.locator("#rl-end"))  # at the top of the page too: in the bar
    mark = other_looks_at(other, 200)
    acting.locator("#rl-hand label:has(input)").first.tap()  # "To end, tick 1 to discard."
    end = acting.locator("#rl-end")
    v = version(acting)
    end.tap()
    expect(end).to_contain_text("Tap again to end your turn")
    in_view(acting, end)
    acting.wait_for_timeout(300)
    assert version(acting) == v  # the first tap sent nothing
    end.tap()
    refused = acting.locator("#live .alert")
    expect(acting.locator("#live")).not_to_have_attribute("data-version", str(v))
    assert not refused.count(), refused.all_inner_texts()
    prompt = other.locator("#rl-bar-prompt")
    expect(prompt).to_contain_text("Your turn")
    in_view(other, prompt)
    in_view(other, other.locator("#rl-end"))
    expect(other.locator("#bar-alert")).to_have_text("Your turn.")
    expect(acting.locator("#rl-end")).to_have_count(0)
    other.screenshot(path="test-artifacts/never-lost-realm-bar.png")
    kept = view_kept(other, mark)
    print(f"realm: the bar says {prompt.inner_text()!r}; the other phone's view kept: {kept}")


def test_a_realm_pact_is_chosen_by_a_second_tap_in_place(new_phone):
    """Realm with secret Pacts: each phone picks one of the face-down Pact cards. The first tap
    sends nothing and the card says "Tap again: take it" (it was the browser's dialog); the
    second takes it. The other phone's view does not move."""
    ann, code = host_lobby(new_phone, "realm")
    ben = new_phone()
    ben.goto(f"/j/{code}/")
    ben.fill("#name", "Ben")
    ben.get_by_role("button", name="Join table").tap()
    expect(ann.locator(".seats")).to_contain_text("Ben")
    ann.locator("#table-options-fold > summary").tap()
    ann.select_option("#opt-pacts", "secret")
    expect(ben.locator("#table-options")).to_contain_text("Secret Pacts")
    ann.get_by_role("button", name="Start the game").tap()
    for phone in (ann, ben):
        expect(phone.locator("#rl-pacts .rl-facedown").first).to_be_visible()
    mark = other_looks_at(ben, 100)
    card = ann.locator("#rl-pacts .rl-facedown").first
    card.evaluate("e => e.scrollIntoView({block: 'center'})")
    v = version(ann)
    card.tap()
    expect(card).to_have_text("Tap again: take it")
    in_view(ann, card)
    ann.screenshot(path="test-artifacts/never-lost-realm-pact-armed.png")
    ann.wait_for_timeout(300)
    assert version(ann) == v  # the first tap sent nothing
    card.tap()
    expect(ann.locator("#rl-pacts")).to_have_count(0)
    expect(ann.locator("#rl-my-pact")).to_contain_text("Your secret Pact")
    kept = view_kept(ben, mark)
    print(f"realm pact: taken by two taps in place; Ben's view kept: {kept}")


def test_espionage_carries_each_move_in_its_bottom_bar(new_phone):
    """Demon Espionage, three phones: the one whose turn it is has Duel <name> in the bottom
    bar (they were in the page, under the bar) with an alert; then each duellist's move (Play
    troop face down, Done / REVEAL, which asks for a second tap in place) is in the bar, inside
    the viewport wherever the page is scrolled; the watching phone's view does not move."""
    phones = open_table(new_phone, "espionage", 3)
    a = next(p for p in phones if p.locator("#es-thumb [data-challenge]").count())
    expect(a.locator("#bar-alert")).to_have_text("Your turn: duel a player.")
    duel = a.locator("#es-thumb [data-challenge]").first
    foe_seat = int(duel.get_attribute("data-challenge"))
    a.evaluate("window.scrollTo(0, 0)")
    in_view(a, duel)
    b = next(
        p for p in phones if p is not a
        and p.locator(f'#es-players [data-seat="{foe_seat}"] .badge.warn').count()
    )
    c = next(p for p in phones if p is not a and p is not b)
    mark = other_looks_at(c, 150)
    duel.tap()
    play = a.locator("#es-thumb #es-play-troop")
    expect(play).to_be_visible()
    a.locator("#es-troop label", has_text="7").tap()
    a.locator("#es-troop label", has_text="Rock").tap()
    a.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    in_view(a, play)
    play.tap()
    expect(a.locator("#es-duel")).to_contain_text("7 Rock")
    b_play = b.locator("#es-thumb #es-play-troop")
    expect(b_play).to_be_visible()
    expect(b.locator("#bar-alert")).to_have_text("Your move: a combat card.")
    b.get_by_role("button", name="Play the Dummy Corpse").tap()
    done = b.locator("#es-thumb #es-done")
    expect(done).to_have_text("Done")
    in_view(b, done)
    done.tap()
    reveal = a.locator("#es-thumb #es-done")
    expect(reveal).to_have_text("Done — REVEAL!")
    a.evaluate("window.scrollTo(0, 0)")
    in_view(a, reveal)
    reveal.tap()
    expect(reveal).to_contain_text("Tap again to REVEAL")
    in_view(a, reveal)
    reveal.tap()
    for phone in phones:
        expect(phone.locator("#es-log")).to_contain_text("won the duel")
    a.screenshot(path="test-artifacts/never-lost-espionage-a.png")
    kept = view_kept(c, mark)
    print(f"espionage: every move in the bar; the watching phone's view kept: {kept}")


def test_the_armorys_menus_keep_their_own_row(new_phone):
    """The Armory at 360 px: the folded Guild menu and the purse do not overlap, and each
    weapon's Equip menus stack: the mercenary's across the row (beside the space menu it cut
    "Brann the Trapper"), the space menu under it, the Equip button under both, none overlapping
    another or the screen's edge; a tap on Equip lands on the weapon's confirmation."""
    guild = a_guild_with_a_long_armory()
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/armory/")

    def overlap(a, b) -> bool:
        return not (
            a["x"] + a["width"] <= b["x"] + 0.5
            or b["x"] + b["width"] <= a["x"] + 0.5
            or a["y"] + a["height"] <= b["y"] + 0.5
            or b["y"] + b["height"] <= a["y"] + 0.5
        )

    nav = phone.get_by_role("navigation", name="Guild").bounding_box()
    purse = phone.locator(".purse").bounding_box()
    assert not overlap(nav, purse), (nav, purse)
    row = phone.locator("#guild-main li[data-weapon]", has=phone.get_by_role("button", name="Equip"))
    row = row.first
    name = row.get_attribute("data-weapon")
    parts = [
        row.locator("select[name=mercenary]").bounding_box(),
        row.locator("select[name=slot]").bounding_box(),
        row.get_by_role("button", name="Equip").bounding_box(),
    ]
    for i, p in enumerate(parts):
        assert p["x"] >= 0 and p["x"] + p["width"] <= 360, p
        for q in parts[i + 1 :]:
            assert not overlap(p, q), (p, q)
    assert parts[0]["width"] >= 300  # the mercenary's name has the row
    assert parts[1]["y"] >= parts[0]["y"] + parts[0]["height"]  # the space menu under it
    assert parts[2]["y"] >= parts[1]["y"] + parts[1]["height"]  # Equip below them
    assert parts[2]["width"] >= 300  # across the row, easy to hit
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    row.scroll_into_view_if_needed()
    phone.screenshot(path="test-artifacts/never-lost-armory.png")
    row.locator("select[name=mercenary]").select_option(label="Okka Ironjaw")
    row.get_by_role("button", name="Equip").tap()
    done = phone.locator(f'#guild-main li[data-weapon="{name}"] .notice.done')
    expect(done).to_contain_text("equipped")
    assert_in_view(phone, done, "the Equip confirmation")
    print(f"armory: menus {parts[0]['width']:.0f}+{parts[1]['width']:.0f} px, Equip {parts[2]}")


def test_a_shot_waiting_for_me_is_linked_from_the_thumb_bar_until_answered_7_2_2(new_phone):
    """Ann works out Korr's shot at Ben's Bram while Ben reads the bottom of his page (found by
    a new user: the calculation with its Apply came above his screen, Apply hidden under the
    sticky top and turn bars, and the alert's link folded to a line after 4 s). Ben's scroll
    does not move; his thumb bar says a shot waits for him, still after the alert folded; its
    link brings Apply between the bars, uncovered; Apply applies the shot and the line goes."""
    ann, ben = open_table(new_phone, "demloc")
    work = aim_shot(ann, "s0-korr", "s1-bram", 1, "6 6 6")
    in_sync([ann, ben])
    expect(ben.locator("#dl-pending-go")).to_have_count(0)  # nothing waits for Ben yet
    mark = other_looks_at(ben, 700)
    ben_y = scroll_y(ben)
    work.tap()
    pending = ben.locator("#dl-pending")
    expect(pending).to_contain_text("Shot: proposed result")
    in_sync([ann, ben])
    kept = view_kept(ben, mark)  # what Ben read stays where it was on his screen
    apply = pending.get_by_role("button", name="Apply")
    before = apply.bounding_box()
    go = ben.locator("#dl-thumb #dl-pending-go")
    expect(go).to_contain_text("A shot waits for you: check it")
    expect(ann.locator("#dl-pending-go")).to_have_count(0)  # Ann's own shot: she is on it
    ben.wait_for_timeout(4500)  # the alert folds to a line; the bar's link stays
    expect(ben.locator("#dl-alert.dl-alert-quiet")).to_have_count(1)
    link = go.get_by_role("link")
    in_view(ben, link)
    view_kept(ben, mark)  # the bar's line did not move the page by itself either
    ben_y = scroll_y(ben)
    link.tap()
    ben.wait_for_timeout(300)
    box = in_view(ben, apply)
    covered = apply.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return !!at && (at === e || e.contains(at)); }"
    )
    assert covered, box  # what is at Apply's centre is Apply: not under a bar
    ben.screenshot(path="test-artifacts/never-lost-pending-bar-link-ben.png")
    print(
        f"shot on Bram: Ben's view kept {kept}; Apply was at y={before['y']:.0f}; after the"
        f" bar's link scrollY {ben_y} -> {scroll_y(ben)}, Apply at y={box['y']:.0f}"
    )
    hearts = ben.locator("#piece-s1-bram .dl-hearts > span")
    whole = hearts.get_attribute("aria-label")
    apply.tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    expect(ben.locator("#dl-pending-go")).to_have_count(0)
    expect(hearts).not_to_have_attribute("aria-label", whole)  # the shot's wounds, applied
    print(f"applied: Bram's hearts {whole} -> {hearts.get_attribute('aria-label')}")

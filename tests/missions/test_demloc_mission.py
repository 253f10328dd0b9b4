"""A scripted three-turn mission between two guilds, through decide/evolve only (no database).

Covers shooting (stray, lower, equal, greater), a brawl at each difference and a defender's
win, possession to death, poison and bleeding deaths, a summoning with a name clash and the
daemon's death, first-player draws, undo of each kind, and replay (DemLoc rulebook 6.4.2, 7,
7.2.2, 7.2.3, 7.3.2, 8.1-8.3).
"""

import json
import re

import pytest

from tabletop.errors import RuleViolation

from .demloc_sim import acting, finish_turn, new_sim, pass_phase, piece, run

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


def shot(t, seat, shooter, target, test_roll, dice, **extra):
    run(
        t,
        seat,
        "shot.propose",
        shooter=shooter,
        target=target,
        test_roll=test_roll,
        dice=dice,
        **extra,
    )
    pending = t.state["pending"]
    run(t, seat, "calc.apply")
    return pending


def fight(t, seat, attacker, defender, a_dice, d_dice, **extra):
    run(
        t,
        seat,
        "brawl.propose",
        attacker=attacker,
        defender=defender,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        **extra,
    )
    pending = t.state["pending"]
    run(t, seat, "calc.apply")
    return pending


def lines(t):
    """The narrated log (one text per event, the whole story its folds say: ``tabletop.log.narrated``)."""
    return t.lines()


@pytest.fixture
def table():
    # Several shots of one character per phase: activations are not what this tests (7.2 has
    # its own tests in test_demloc_fighting_details.py).
    return new_sim(options={"turn_limit": "3", "activations": "free"})


def test_three_turn_mission(table):
    t = table
    # ---------------------------------------------------------------- turn 1
    assert t.state["turn"] == 1 and t.state["first"] in (ANN, BOB)
    assert t.state["weights"] == [1, 1]  # 7: no previous first player, even odds
    # Setup channelling (6.4.1): the broken seal has no effect.
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=1, seals=1, setup=True)
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    assert piece(t, MAUD)["seals"] == 0 and piece(t, MAUD)["mana"] == {"common": 1, "dark": 1}

    # Shooting (7.2.2): Korr, ranged 3, crossbow 4 PERFORATING, favourite bows (+1) at Bram
    # (armor 6, impact resistance 2).
    run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=5, dice=[1, 1, 1])
    assert t.state["pending"] is None and "Stray shot!" in lines(t)[-1]  # 5 > 3: failed test
    assert shot(t, ANN, KORR, BRAM, 2, [1, 1, 2])["outcome"] == "none"  # 4 + 1 = 5 < 6
    assert shot(t, ANN, KORR, BRAM, 3, [2, 2, 1])["outcome"] == "armor"  # 6 = 6
    assert piece(t, BRAM)["armor_damage"] == 4
    greater = shot(t, ANN, KORR, BRAM, 1, [3, 3, 3])  # 10 > 6 by 4: (4 + 4) - 0 = 8
    assert (greater["outcome"], greater["damage"]) == ("hit", 8)
    assert (piece(t, BRAM)["broken_hearts"], piece(t, BRAM)["hit_damage"]) == (1, 3)

    # Arcane (7.2.3.1, 8.2): Maud's Drowned breath (1 dark) on Korr: POISON 1, WEAKNESS 1.
    run(t, BOB, "power.use", piece=MAUD, power=1, target=KORR)
    assert (
        piece(t, KORR)["poison"],
        piece(t, KORR)["weakness"],
        piece(t, MAUD)["mana"]["dark"],
    ) == (
        1,
        1,
        0,
    )

    # Summoning (7.2.3.2): Vesna, ash level 1, 2 heart tokens: the Unclean daemon.
    run(t, ANN, "daemon.summon", piece=VESNA, level=1, hearts=2)
    ann_daemon = piece(t, VESNA)["summoning"]
    # The narration's article fits the kabbalah's name: "an ash daemon", never "a ash".
    summoned = [line for line in t.lines() if "summons" in line]
    assert summoned and summoned[-1].startswith("Vesna the Gray summons an ash daemon of level 1")
    assert (
        piece(t, ann_daemon)["name"] == "Unclean daemon"
        and piece(t, ann_daemon)["heart_limit"] == 2
    )
    assert (
        piece(t, VESNA)["asset"] == "post_summoning" and piece(t, VESNA)["movement"] == "exhausted"
    )
    with pytest.raises(RuleViolation) as err:
        run(t, ANN, "movement.set", piece=VESNA, state="active")
    assert err.value.code == "summoning"

    # Possession (7.2.3): the dock gunner (arcane 0: bears 1 seal) gets 2 seals: possessed.
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="broken_hearts", delta=2)
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="broken_armor", delta=2)
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=1)
    assert not piece(t, GUNNER)["possessed"]  # 1 does not exceed 1
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=1)
    assert piece(t, GUNNER)["possessed"]

    while t.state["phase"] == "strategic":
        pass_phase(t)
    assert t.state["phase"] == "brawl"

    # Brawl (7.3.2.2): the watchman (2 dice, +1, halberd 2) attacks Bram (4 - 1 broken heart -
    # HEAVY 1 = 2 dice, +1 favourite axe), at each difference.
    def bram():
        p = piece(t, BRAM)
        return (
            p["armor_damage"],
            p["broken_armor"],
            p["hit_damage"],
            p["broken_hearts"],
            p["status"],
        )

    assert fight(t, ANN, WATCH, BRAM, [2, 3], [3, 2])["winner"] is None  # 6 - 6
    assert bram() == (4, 0, 3, 1, "in_play")
    assert fight(t, ANN, WATCH, BRAM, [3, 3], [3, 2])["damage"] == 2  # by 1: primary 2
    assert bram() == (0, 1, 3, 1, "in_play")
    assert fight(t, ANN, WATCH, BRAM, [4, 3], [3, 2])["damage"] == 2  # by 2: 2 + no secondary
    assert fight(t, ANN, WATCH, BRAM, [4, 4], [3, 2])["damage"] == 4  # by 3: 2 x2
    assert bram() == (0, 2, 3, 1, "in_play")
    assert fight(t, ANN, WATCH, BRAM, [5, 4], [3, 2])["damage"] == 4  # by 4: 2 x2
    five = fight(t, ANN, WATCH, BRAM, [6, 5], [3, 2])  # by 6: 2 x2 and a broken heart
    assert (five["damage"], five["broken_hearts"]) == (4, 1)
    assert bram() == (0, 3, 0, 3, "killed")  # 4 + 4 = 8: 3rd armor token, 2 more hit: heart 2, +1
    # The app counts the kill of the fight it applied (table option ``kills``, 6.4.2).
    assert t.state["players"][ANN]["kills"]["mercenary"] == {"2": 1}
    # The defender wins: the possessed gunner (hand-to-hand 1) attacked? It cannot act:
    with pytest.raises(RuleViolation) as err:
        run(
            t,
            BOB,
            "brawl.propose",
            attacker=GUNNER,
            defender=WATCH,
            attacker_dice=[6],
            defender_dice=[1, 1],
        )
    assert err.value.code == "possessed"
    # Maud (favourite knife, dagger BLOODING 1) attacks Korr by 2: 1 damage and a bleeding token.
    # (Korr's WEAKNESS 1 leaves him 1 die; his favourite crossbow +1.)
    assert fight(t, BOB, MAUD, KORR, [3, 3], [4])["difference"] == 2
    assert (piece(t, KORR)["armor_damage"], piece(t, KORR)["bleeding"]) == (1, 1)
    # Korr attacks Maud and loses by 3: the defender deals 3 general damages.
    lost = fight(t, ANN, KORR, MAUD, [1], [1, 3])  # 1 + 1 against 4 + 1
    assert (lost["winner"], lost["damage"]) == ("defender", 3)
    assert piece(t, KORR)["armor_damage"] == 4 - 4 and piece(t, KORR)["broken_armor"] == 1
    # More bleeding from an ability, and the watchman is poisoned (3 tokens the first time).
    run(t, ANN, "tokens.adjust", piece=KORR, token="bleeding", delta=5)
    run(t, ANN, "tokens.adjust", piece=WATCH, token="poison", delta=3)
    with pytest.raises(RuleViolation) as err:
        run(t, ANN, "tokens.adjust", piece=WATCH, token="poison", delta=1)
    assert err.value.code == "already_poisoned"

    finish_turn(t)
    first_1 = t.state["first"]
    run(t, ANN, "turn.next")
    # ---------------------------------------------------------------- turn 2
    assert t.state["turn"] == 2 and t.state["weights"] == [
        1 if s == first_1 else 2 for s in (ANN, BOB)
    ]
    # End of turn 1: bleeding 6 hits on Korr (hit 3): 2 broken hearts. Start of turn 2: poison.
    assert piece(t, KORR)["broken_hearts"] == 2 and piece(t, KORR)["status"] == "in_play"
    assert piece(t, KORR)["poison"] == 2
    assert piece(t, WATCH)["poison"] == 4 and piece(t, WATCH)["status"] == "killed"  # 4 > 3
    assert piece(t, GUNNER)["broken_hearts"] == 3 and piece(t, GUNNER)["status"] == "in_play"
    assert any(
        "moves out of control" in line or "no effect (5)" in line for line in [t.lines()[-1]]
    )
    assert piece(t, KORR)["weakness"] == 0 and piece(t, KORR)["movement"] == "active"
    assert piece(t, VESNA)["movement"] == "exhausted"  # summoning: cannot move

    # Name clash (5.1.3): Maud channels and summons ash level 1: the Unclean daemon again.
    run(t, BOB, "mana.channel", piece=MAUD, common=0, dark=1, seals=1)
    assert piece(t, MAUD)["seals"] == 1
    run(t, BOB, "daemon.summon", piece=MAUD, level=1, hearts=1)
    bob_daemon = piece(t, MAUD)["summoning"]
    assert piece(t, ann_daemon)["status"] == "dismissed"
    assert piece(t, VESNA)["summoning"] is None and piece(t, VESNA)["asset"] == "standard"
    notice = t.view(ANN)["notice"]  # the page words the notice kept as data
    assert "Ann removes it" in notice and "Bob places the new one" in notice
    assert piece(t, VESNA)["broken_hearts"] == 0  # replaced, not killed: no hearts back

    # The daemon's death (7.2.3.3): Korr shoots it (armor 4, IR 1): killed at its 1 heart.
    assert shot(t, ANN, KORR, bob_daemon, 1, [6])["outcome"] == "hit"  # 2 broken hearts: 1 die
    assert piece(t, bob_daemon)["status"] == "killed"
    maud = piece(t, MAUD)
    assert (maud["broken_hearts"], maud["asset"], maud["movement"], maud["summoning"]) == (
        1,
        "standard",
        "exhausted",
        None,
    )
    assert t.state["players"][ANN]["kills"]["daemon"] == {"1": 1}  # counted by the app

    finish_turn(t)
    first_2 = t.state["first"]
    run(t, BOB, "turn.next")
    # ---------------------------------------------------------------- turn 3
    assert t.state["weights"] == [1 if s == first_2 else 2 for s in (ANN, BOB)]
    assert piece(t, KORR)["status"] == "killed"  # bleeding: 2 + 2 broken hearts
    assert (
        piece(t, GUNNER)["broken_armor"] == 3 and piece(t, GUNNER)["status"] == "killed"
    )  # possession
    assert t.state["elimination"] is None  # Vesna and Maud still stand

    finish_turn(t)
    with pytest.raises(RuleViolation) as err:
        run(t, ANN, "turn.next")
    assert err.value.code == "turn_limit"
    run(t, ANN, "mission.end")
    assert t.state["ended"] == {"reason": "turn_limit", "seat": None}
    kills = t.state["players"][ANN]["kills"]
    assert kills["mercenary"] == {"2": 1} and kills["daemon"] == {"1": 1}

    # Replay equals the projection, and the projection is JSON.
    t.assert_replay_equal()


def test_undo_of_each_kind_and_draws_are_not_rerolled(table):
    t = table
    before = json.loads(json.dumps(t.state))
    run(t, ANN, "damage.assign", piece=KORR, amount=3)
    t.undo(ANN)
    assert t.state == before

    run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=1, dice=[3, 3, 3])
    run(t, ANN, "calc.apply")
    hurt = json.loads(json.dumps(t.state))
    t.undo(ANN)
    assert t.state["pending"] is not None and piece(t, BRAM)["broken_hearts"] == 0
    t.redo(ANN)
    assert t.state == hurt

    # A stray shot's out-of-control roll is the same after undo and a new command.
    run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=6, dice=[1, 1, 1])
    ooc = t.log[-1].data["ooc"]
    t.undo(ANN)
    run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=6, dice=[1, 1, 1])
    assert t.log[-1].data["ooc"] == ooc
    # A summoning's draw too (two level-1 and level-2 ash daemons to draw from).
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    run(t, ANN, "daemon.summon", piece=VESNA, level=2, hearts=3)
    drawn = piece(t, piece(t, VESNA)["summoning"])["name"]
    t.undo(ANN)
    assert piece(t, VESNA)["summoning"] is None
    run(t, ANN, "daemon.summon", piece=VESNA, level=2, hearts=3)
    assert piece(t, piece(t, VESNA)["summoning"])["name"] == drawn

    # The first-player draw: undo "next turn" and send it again: the same first player.
    finish_turn(t)
    run(t, ANN, "turn.next")
    first = t.state["first"]
    log_before = [json.loads(json.dumps(t.state))]
    t.undo(ANN)
    assert t.state["turn"] == 1 and t.state["phase"] == "end"
    run(t, ANN, "turn.next")
    # The same state, but for the version of its last event (a new event replaced the undone one).
    assert t.state["first"] == first and t.state == log_before[0] | {"version": t.state["version"]}
    # Undo a phase pass.
    who = acting(t)
    pass_phase(t)
    t.undo(who)
    assert acting(t) == who
    t.assert_replay_equal()


@pytest.mark.parametrize("redo_seat", [ANN, BOB])
def test_undone_next_turn_gives_the_possessed_the_same_out_of_control_d10_5_6_7_2_3(redo_seat):
    """DemLoc rulebook 5.6 and 7.2.3 (a possessed character moves by the out-of-control d10 at
    the start of each turn), docs/architecture.md "The event-sourced table" (undo is never a re-roll): undoing Next
    turn and tapping it again, from either phone, draws the same d10 and the same first player."""
    t = new_sim()
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=2)
    assert piece(t, GUNNER)["possessed"]
    finish_turn(t)
    run(t, ANN, "turn.next")
    started = next(e for e in reversed(t.log) if e.type == "demloc.turn.started")
    rolls, first = started.data["ooc"][GUNNER], started.data["first"]
    after = json.loads(json.dumps(t.state))
    t.undo(ANN)
    assert t.state["turn"] == 1 and t.state["phase"] == "end"
    run(t, redo_seat, "turn.next")
    again = next(e for e in reversed(t.log) if e.type == "demloc.turn.started")
    assert again.version != started.version
    assert again.data["ooc"][GUNNER] == rolls and again.data["first"] == first
    assert t.state == after | {"version": t.state["version"]}
    t.assert_replay_equal()


def test_the_live_log_names_the_turn_that_ended_not_the_current_one_7_1():
    """Found by a new user: the latest lines are narrated against the current state, so "Turn N
    is over" must come from the event (DemLoc rulebook 7.1, the end of the turn)."""
    from tabletop.log import recent_lines

    from .demloc_sim import finish_turn, new_sim, run

    sim = new_sim()
    for _turn in range(2):
        finish_turn(sim)
        run(sim, 0, "turn.next")
    lines = [
        line.text for line in recent_lines(sim.ruleset, sim.state, sim.log, set(sim.meta.undone))
    ]
    ended = [m.group(1) for t in lines if t for m in [re.search(r"(Turn \d+ is over)", t)] if m]
    assert ended == ["Turn 1 is over", "Turn 2 is over"]


def test_the_summoning_narration_says_a_or_an_by_the_kabbalah_s_first_letter_7_2_3_2():
    from missions.rules.summoning import a_or_an

    assert [a_or_an(w) for w in ("Ember Crown", "ash", "Obsidian", "Bone", "salt", "")] == [
        "an", "an", "an", "a", "a", "a",
    ]

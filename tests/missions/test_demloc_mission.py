"""A scripted three-turn mission between two guilds, through decide/evolve only (no database).

Covers shooting (stray, lower, equal, greater), a brawl at each difference and a defender's
win, possession to death, poison and bleeding deaths, a summoning with a name clash and the
daemon's death, first-player draws, undo of each kind, and replay (DemLoc rulebook 6.4.2, 7,
7.2.2, 7.2.3, 7.3.2, 8.1-8.3).
"""

import json

import pytest

from tabletop.errors import RuleViolation

from .harness import PureTable

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


def shot(t, seat, shooter, target, test_roll, dice, **extra):
    t.run(
        seat,
        "shot.propose",
        shooter=shooter,
        target=target,
        test_roll=test_roll,
        dice=dice,
        **extra,
    )
    pending = t.state["pending"]
    t.run(seat, "calc.apply")
    return pending


def fight(t, seat, attacker, defender, a_dice, d_dice, **extra):
    t.run(
        seat,
        "brawl.propose",
        attacker=attacker,
        defender=defender,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        **extra,
    )
    pending = t.state["pending"]
    t.run(seat, "calc.apply")
    return pending


def lines(t):
    return [line for entry in t.state["log"] for line in entry["lines"]]


@pytest.fixture
def table():
    return PureTable(options={"turn_limit": "3"})


def test_three_turn_mission(table):
    t = table
    # ---------------------------------------------------------------- turn 1
    assert t.state["turn"] == 1 and t.state["first"] in (ANN, BOB)
    assert t.state["weights"] == [1, 1]  # 7: no previous first player, even odds
    # Setup channelling (6.4.1): the broken seal has no effect.
    t.run(BOB, "mana.channel", piece=MAUD, common=1, dark=1, seals=1, setup=True)
    t.run(ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    assert t.piece(MAUD)["seals"] == 0 and t.piece(MAUD)["mana"] == {"common": 1, "dark": 1}

    # Shooting (7.2.2): Korr, ranged 3, crossbow 4 PERFORATING, favourite bows (+1) at Bram
    # (armor 6, impact resistance 2).
    t.run(ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=5, dice=[1, 1, 1])
    assert t.state["pending"] is None and "Stray shot!" in lines(t)[-1]  # 5 > 3: failed test
    assert shot(t, ANN, KORR, BRAM, 2, [1, 1, 2])["outcome"] == "none"  # 4 + 1 = 5 < 6
    assert shot(t, ANN, KORR, BRAM, 3, [2, 2, 1])["outcome"] == "armor"  # 6 = 6
    assert t.piece(BRAM)["armor_damage"] == 4
    greater = shot(t, ANN, KORR, BRAM, 1, [3, 3, 3])  # 10 > 6 by 4: (4 + 4) - 0 = 8
    assert (greater["outcome"], greater["damage"]) == ("hit", 8)
    assert (t.piece(BRAM)["broken_hearts"], t.piece(BRAM)["hit_damage"]) == (1, 3)

    # Arcane (7.2.3.1, 8.2): Maud's Drowned breath (1 dark) on Korr: POISON 1, WEAKNESS 1.
    t.run(BOB, "power.use", piece=MAUD, power=1, target=KORR)
    assert (t.piece(KORR)["poison"], t.piece(KORR)["weakness"], t.piece(MAUD)["mana"]["dark"]) == (
        1,
        1,
        0,
    )

    # Summoning (7.2.3.2): Vesna, ash level 1, 2 heart tokens: the Unclean daemon.
    t.run(ANN, "daemon.summon", piece=VESNA, level=1, hearts=2)
    ann_daemon = t.piece(VESNA)["summoning"]
    assert (
        t.piece(ann_daemon)["name"] == "Unclean daemon" and t.piece(ann_daemon)["heart_limit"] == 2
    )
    assert t.piece(VESNA)["asset"] == "post_summoning" and t.piece(VESNA)["movement"] == "exhausted"
    with pytest.raises(RuleViolation) as err:
        t.run(ANN, "movement.set", piece=VESNA, state="active")
    assert err.value.code == "summoning"

    # Possession (7.2.3): the dock gunner (arcane 0: bears 1 seal) gets 2 seals: possessed.
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="broken_hearts", delta=2)
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="broken_armor", delta=2)
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=1)
    assert not t.piece(GUNNER)["possessed"]  # 1 does not exceed 1
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=1)
    assert t.piece(GUNNER)["possessed"]

    while t.state["phase"] == "strategic":
        t.pass_phase()
    assert t.state["phase"] == "brawl"

    # Brawl (7.3.2.2): the watchman (2 dice, +1, halberd 2) attacks Bram (4 - 1 broken heart -
    # HEAVY 1 = 2 dice, +1 favourite axe), at each difference.
    def bram():
        p = t.piece(BRAM)
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
    t.run(ANN, "kill.count", kind="mercenary", level=2)
    # The defender wins: the possessed gunner (hand-to-hand 1) attacked? It cannot act:
    with pytest.raises(RuleViolation) as err:
        t.run(
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
    assert (t.piece(KORR)["armor_damage"], t.piece(KORR)["bleeding"]) == (1, 1)
    # Korr attacks Maud and loses by 3: the defender deals 3 general damages.
    lost = fight(t, ANN, KORR, MAUD, [1], [1, 3])  # 1 + 1 against 4 + 1
    assert (lost["winner"], lost["damage"]) == ("defender", 3)
    assert t.piece(KORR)["armor_damage"] == 4 - 4 and t.piece(KORR)["broken_armor"] == 1
    # More bleeding from an ability, and the watchman is poisoned (3 tokens the first time).
    t.run(ANN, "tokens.adjust", piece=KORR, token="bleeding", delta=5)
    t.run(ANN, "tokens.adjust", piece=WATCH, token="poison", delta=3)
    with pytest.raises(RuleViolation) as err:
        t.run(ANN, "tokens.adjust", piece=WATCH, token="poison", delta=1)
    assert err.value.code == "already_poisoned"

    t.finish_turn()
    first_1 = t.state["first"]
    t.run(ANN, "turn.next")
    # ---------------------------------------------------------------- turn 2
    assert t.state["turn"] == 2 and t.state["weights"] == [
        1 if s == first_1 else 2 for s in (ANN, BOB)
    ]
    # End of turn 1: bleeding 6 hits on Korr (hit 3): 2 broken hearts. Start of turn 2: poison.
    assert t.piece(KORR)["broken_hearts"] == 2 and t.piece(KORR)["status"] == "in_play"
    assert t.piece(KORR)["poison"] == 2
    assert t.piece(WATCH)["poison"] == 4 and t.piece(WATCH)["status"] == "killed"  # 4 > 3
    assert t.piece(GUNNER)["broken_hearts"] == 3 and t.piece(GUNNER)["status"] == "in_play"
    assert any(
        "moves out of control" in line or "no effect (5)" in line
        for line in t.state["log"][-1]["lines"]
    )
    assert t.piece(KORR)["weakness"] == 0 and t.piece(KORR)["movement"] == "active"
    assert t.piece(VESNA)["movement"] == "exhausted"  # summoning: cannot move

    # Name clash (5.1.3): Maud channels and summons ash level 1: the Unclean daemon again.
    t.run(BOB, "mana.channel", piece=MAUD, common=0, dark=1, seals=1)
    assert t.piece(MAUD)["seals"] == 1
    t.run(BOB, "daemon.summon", piece=MAUD, level=1, hearts=1)
    bob_daemon = t.piece(MAUD)["summoning"]
    assert t.piece(ann_daemon)["status"] == "dismissed"
    assert t.piece(VESNA)["summoning"] is None and t.piece(VESNA)["asset"] == "standard"
    assert "Ann removes it" in t.state["notice"] and "Bob places the new one" in t.state["notice"]
    assert t.piece(VESNA)["broken_hearts"] == 0  # replaced, not killed: no hearts back

    # The daemon's death (7.2.3.3): Korr shoots it (armor 4, IR 1): killed at its 1 heart.
    assert shot(t, ANN, KORR, bob_daemon, 1, [6])["outcome"] == "hit"  # 2 broken hearts: 1 die
    assert t.piece(bob_daemon)["status"] == "killed"
    maud = t.piece(MAUD)
    assert (maud["broken_hearts"], maud["asset"], maud["movement"], maud["summoning"]) == (
        1,
        "standard",
        "exhausted",
        None,
    )
    t.run(ANN, "kill.count", kind="daemon", level=1)

    t.finish_turn()
    first_2 = t.state["first"]
    t.run(BOB, "turn.next")
    # ---------------------------------------------------------------- turn 3
    assert t.state["weights"] == [1 if s == first_2 else 2 for s in (ANN, BOB)]
    assert t.piece(KORR)["status"] == "killed"  # bleeding: 2 + 2 broken hearts
    assert (
        t.piece(GUNNER)["broken_armor"] == 3 and t.piece(GUNNER)["status"] == "killed"
    )  # possession
    assert t.state["elimination"] is None  # Vesna and Maud still stand

    t.finish_turn()
    with pytest.raises(RuleViolation) as err:
        t.run(ANN, "turn.next")
    assert err.value.code == "turn_limit"
    t.run(ANN, "mission.end")
    assert t.state["ended"] == {"reason": "turn_limit", "seat": None}
    kills = t.state["players"][ANN]["kills"]
    assert kills["mercenary"] == {"2": 1} and kills["daemon"] == {"1": 1}

    # Replay equals the projection, and the projection is JSON.
    assert t.rebuilt() == json.loads(json.dumps(t.state))


def test_undo_of_each_kind_and_draws_are_not_rerolled(table):
    t = table
    before = json.loads(json.dumps(t.state))
    t.run(ANN, "damage.assign", piece=KORR, amount=3)
    t.run(ANN, "table.undo")
    assert t.state == before

    t.run(ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=1, dice=[3, 3, 3])
    t.run(ANN, "calc.apply")
    hurt = json.loads(json.dumps(t.state))
    t.run(ANN, "table.undo")
    assert t.state["pending"] is not None and t.piece(BRAM)["broken_hearts"] == 0
    t.run(ANN, "table.redo")
    assert t.state == hurt

    # A stray shot's out-of-control roll is the same after undo and a new command.
    t.run(ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=6, dice=[1, 1, 1])
    ooc = t.log[-1].data["ooc"]
    t.run(ANN, "table.undo")
    t.run(ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=6, dice=[1, 1, 1])
    assert t.log[-1].data["ooc"] == ooc
    # A summoning's draw too (two level-1 and level-2 ash daemons to draw from).
    t.run(ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    t.run(ANN, "daemon.summon", piece=VESNA, level=2, hearts=3)
    drawn = t.piece(t.piece(VESNA)["summoning"])["name"]
    t.run(ANN, "table.undo")
    assert t.piece(VESNA)["summoning"] is None
    t.run(ANN, "daemon.summon", piece=VESNA, level=2, hearts=3)
    assert t.piece(t.piece(VESNA)["summoning"])["name"] == drawn

    # The first-player draw: undo "next turn" and send it again: the same first player.
    t.finish_turn()
    t.run(ANN, "turn.next")
    first = t.state["first"]
    log_before = [json.loads(json.dumps(t.state))]
    t.run(ANN, "table.undo")
    assert t.state["turn"] == 1 and t.state["phase"] == "end"
    t.run(ANN, "turn.next")
    assert t.state["first"] == first and t.state == log_before[0] | {"log": t.state["log"]}
    # Undo a phase pass.
    acting = t.acting()
    t.pass_phase()
    t.run(acting, "table.undo")
    assert t.acting() == acting
    assert t.rebuilt() == json.loads(json.dumps(t.state))

"""Kills counted by the app (table option ``kills``, ``missions.rules.score``), pure (no
database). DemLoc rulebook 6.4.2 ("Kill counter: Here the player can enter the number and type
of enemies he has eliminated"), 7.2.2.4 (a shot's damage), 7.3.2.2 (a fight's), 7.2.3.1 and
7.2.3.5 (a power, and the defend test that takes it back), 7.2.3.3 (a daemon's death), 6.4.1
(the resolution pays the kills).

Found by a new user: Ann's shooter killed Bob's character, Bob tapped Apply, and Ann's counter
stayed empty (only "Count a kill" fed it), so a mission won on kills had the wrong winner.
"""

import pytest

from missions.rules import OPTIONS_SCHEMA, resolution
from missions.rules.roster import demo_guild
from missions.rules.score import counts_kills, counts_poison_kills

from .demloc_sim import finish_turn, new_sim, next_turn, piece, run
from .lifecycle_data import guild_payload, mission_option
from .test_lifecycle_resolution import guild
from .test_lifecycle_setup import play_through

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


@pytest.fixture
def table():
    return new_sim(options={"activations": "free"})


def kills(t, seat):
    """The seat's counter without the empty kinds: ``{kind: {level: count}}``."""
    return {k: v for k, v in t.state["players"][seat]["kills"].items() if any(v.values())}


def lethal_shot(t, seat=ANN, shooter=KORR, target=GUNNER, dice=(6, 6, 6), apply=BOB):
    # Korr: ranged 3, crossbow 4 PERFORATING, favourite bows (+1). 18 + 1 against the gunner's
    # armor 3: greater by 16, (4 + 16) to the hit factor 3: three broken hearts (7.2.2.4).
    run(t, seat, "shot.propose", shooter=shooter, target=target, test_roll=1, dice=list(dice))
    return run(t, apply, "calc.apply")  # the other player confirms, as on two phones


def test_the_option_defaults_to_the_app_and_offers_by_hand():
    spec = OPTIONS_SCHEMA["kills"]
    assert spec["default"] == "app"
    assert [value for value, _ in spec["choices"]] == ["app", "hand"]


def test_a_lethal_shot_counts_for_the_shooters_player_whoever_applies_it_7_2_2_4(table):
    t = table
    events = lethal_shot(t)
    assert piece(t, GUNNER)["status"] == "killed"
    assert kills(t, ANN) == {"follower": {"1": 1}}  # the gunner: a follower of level 1
    assert kills(t, BOB) == {}
    counted = [e for e in events if e.type == "demloc.kill.counted"]
    assert len(counted) == 1 and counted[0].seat == BOB  # Bob tapped Apply: Ann's kill
    assert counted[0].data == {
        "kind": "follower",
        "level": 1,
        "delta": 1,
        "seat": ANN,
        "piece": GUNNER,
        "by": KORR,
    }
    story = " ".join(t.lines())
    assert "Ann: +1 follower kill (level 1): Korr Halfhand killed Dock gunner" in story
    assert t.view(BOB)["players"][ANN]["kill_list"] == [
        {"kind": "follower", "level": 1, "count": 1}
    ]


def test_a_lethal_fight_counts_for_the_attacker_7_3_2_2(table):
    t = table
    run(t, ANN, "tokens.adjust", piece=WATCH, token="broken_hearts", delta=2)
    # Bram (4 dice, war axe 4) against the watchman (1 die with 2 broken hearts, +1): 24
    # against 2, by 22: 8 general damage and the 5+ broken heart, its third.
    run(
        t,
        BOB,
        "brawl.propose",
        attacker=BRAM,
        defender=WATCH,
        attacker_dice=[6, 6, 6, 6],
        defender_dice=[1],
    )
    run(t, ANN, "calc.apply")
    assert piece(t, WATCH)["status"] == "killed"
    assert kills(t, BOB) == {"follower": {"1": 1}} and kills(t, ANN) == {}


def test_a_defender_that_wins_and_kills_counts_the_kill_7_3_2_2(table):
    t = table
    run(t, ANN, "tokens.adjust", piece=KORR, token="broken_armor", delta=3)
    run(t, ANN, "tokens.adjust", piece=KORR, token="broken_hearts", delta=2)
    # Korr (1 die with 2 broken hearts) 1 + 1 (favourite) against Bram 18 + 1: Bram wins by 17,
    # 5 general damages; with 3 broken armor tokens they go to the hit factor 3: the third
    # broken heart.
    run(
        t,
        ANN,
        "brawl.propose",
        attacker=KORR,
        defender=BRAM,
        attacker_dice=[1],
        defender_dice=[6, 6, 6],
    )
    run(t, BOB, "calc.apply")
    assert piece(t, KORR)["status"] == "killed"
    assert kills(t, BOB) == {"mercenary": {"1": 1}} and kills(t, ANN) == {}


def test_a_hit_that_does_not_kill_counts_nothing(table):
    t = table
    # 2 + 2 + 2 + 1 against Bram's armor 6: by 1, (4 + 1) to the hit factor 5: one broken heart.
    lethal_shot(t, target=BRAM, dice=(2, 2, 2))
    assert piece(t, BRAM)["broken_hearts"] == 1 and piece(t, BRAM)["status"] == "in_play"
    assert kills(t, ANN) == kills(t, BOB) == {}
    view = t.view(ANN)
    assert view["players"][ANN]["kill_list"] == [] and view["kills_by_app"]


def test_killing_a_character_of_ones_own_player_is_no_kill(table):
    t = table
    lethal_shot(t, target=WATCH, apply=ANN)  # a stray shot would do this too
    assert piece(t, WATCH)["status"] == "killed"
    assert kills(t, ANN) == kills(t, BOB) == {}


def test_by_hand_only_counts_nothing_itself_6_4_2():
    t = new_sim(options={"activations": "free", "kills": "hand"})
    events = lethal_shot(t)
    assert piece(t, GUNNER)["status"] == "killed"
    assert kills(t, ANN) == {} and not any(e.type == "demloc.kill.counted" for e in events)
    assert not t.view(ANN)["kills_by_app"]
    run(t, ANN, "kill.count", kind="follower", level=1)  # the rulebook's counter, by hand
    assert kills(t, ANN) == {"follower": {"1": 1}}


def test_a_table_opened_before_the_option_counts_by_hand():
    t = new_sim(options={"activations": "free"})
    del t.state["options"]["kills"]  # as a stored table opened before the option folds
    assert not counts_kills(t.state)


def test_undo_of_the_apply_undoes_the_kill_and_redo_brings_it_back(table):
    t = table
    lethal_shot(t)
    assert kills(t, ANN) == {"follower": {"1": 1}}
    t.undo(BOB)
    assert piece(t, GUNNER)["status"] == "in_play" and t.state["pending"] is not None
    assert kills(t, ANN) == {}
    t.redo(BOB)
    assert piece(t, GUNNER)["status"] == "killed" and kills(t, ANN) == {"follower": {"1": 1}}


def test_the_kill_can_be_taken_back_by_hand_with_the_minus_one(table):
    t = table
    lethal_shot(t)
    run(t, ANN, "kill.count", kind="follower", level=1, delta=-1)  # the page's "−1"
    assert kills(t, ANN) == {}


def test_a_bleeding_death_has_no_attacker_and_counts_for_nobody_8_1(table):
    t = table
    # Maud's dagger (BLOODING 1) left Korr bleeding; the bleeding kills him at a turn's start.
    run(t, ANN, "tokens.adjust", piece=KORR, token="broken_hearts", delta=2)
    run(t, ANN, "tokens.adjust", piece=KORR, token="bleeding", delta=3)
    finish_turn(t)
    run(t, ANN, "turn.next")
    assert piece(t, KORR)["status"] == "killed"
    assert kills(t, ANN) == kills(t, BOB) == {}


def test_an_arcane_power_kill_counts_for_the_caster_and_a_passed_defend_takes_it_back(table):
    t = table
    # Maud (hit 4, arcane 3) with 2 broken hearts and 2 damage on the hit factor; Vesna's Black
    # flame (ARCANE HIT 2) places her third broken heart (7.2.3.1, 8.2).
    run(t, BOB, "tokens.adjust", piece=MAUD, token="broken_hearts", delta=2)
    run(t, BOB, "damage.assign", piece=MAUD, amount=2, mode="hit")
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=0)
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    assert piece(t, MAUD)["status"] == "killed"
    assert kills(t, ANN) == {"mercenary": {"2": 1}}
    # 7.2.3.5: Maud defends and passes: the power has no effect, so the kill is taken back.
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1)
    assert piece(t, MAUD)["status"] == "in_play"
    assert kills(t, ANN) == {}
    assert "Maud Brinewitch is back in play" in t.lines()[-1]


def test_a_failed_defend_keeps_the_power_kill(table):
    t = table
    run(t, BOB, "tokens.adjust", piece=MAUD, token="broken_hearts", delta=2)
    run(t, BOB, "damage.assign", piece=MAUD, amount=2, mode="hit")
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=0)
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=6)
    assert piece(t, MAUD)["status"] == "killed" and kills(t, ANN) == {"mercenary": {"2": 1}}


def test_a_daemon_and_the_summoner_its_hearts_kill_are_both_the_shooters_7_2_3_3(table):
    t = table
    # Maud (2 broken hearts) summons a daemon with 1 heart token; Korr shoots it dead: its heart
    # goes to Maud as her third broken heart (7.2.3.3), so the shot killed both.
    run(t, BOB, "tokens.adjust", piece=MAUD, token="broken_hearts", delta=2)
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=1)
    run(t, BOB, "daemon.summon", piece=MAUD, level=1, hearts=1)
    daemon = piece(t, MAUD)["summoning"]
    assert daemon and piece(t, daemon)["level"] == 1
    lethal_shot(t, target=daemon, dice=(6, 6, 6))
    assert piece(t, daemon)["status"] == "killed" and piece(t, MAUD)["status"] == "killed"
    assert kills(t, ANN) == {"daemon": {"1": 1}, "mercenary": {"2": 1}}


def turns_mission(option):
    """A standard mission won on kills at its end (``lifecycle_data``), played to its first
    turn with the table option ``kills`` = ``option``: Ann has m11, Korr (m12) and g13, Bob
    Maud (m21) and Bram (m22)."""
    t = new_sim(options={"mission": mission_option("turns", "standard"), "kills": option})
    for p in (guild_payload(0, 1), guild_payload(1, 2)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, {0: ["m11", "m12", "g13"], 1: ["m21", "m22"]})
    return t


@pytest.mark.parametrize(
    ("option", "winner", "how", "fame"),
    [("app", ANN, "kills", (10 + 2 * 2, -2)), ("hand", None, "draw", (0, 0))],
)
def test_the_resolution_pays_the_kills_the_app_counted_6_4_1(option, winner, how, fame):
    # lifecycle_data: win 10 fame, defeat -2, kills 2 fame per mercenary level. Korr (m12) shoots
    # Bram (m22, level 2, armor 6, hit 5): 19 against 6, (4 + 13) to the hit factor: killed.
    # By hand only, nobody entered the kill: a draw, as before the option.
    t = turns_mission(option)
    run(t, ANN, "shot.propose", shooter="s0-m12", target="s1-m22", test_roll=1, dice=[6, 6, 6])
    run(t, BOB, "calc.apply")
    assert piece(t, "s1-m22")["status"] == "killed"
    for seat in (ANN, BOB):
        run(t, seat, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (winner, how)
    assert (guild(r, ANN)["fame"], guild(r, BOB)["fame"]) == fame


# ---------------------------------------------------------------- a death by poison (8.1, 8.2)
def poison_table(poison_kills=None, kills="app", timing="end"):
    """Ann's Korr shoots a POISONOUS 2 crossbow (8.1); the poison grows at the turn's
    ``timing`` (table option ``poison``)."""
    ann = demo_guild(0)
    korr = next(c for c in ann["characters"] if c["id"] == "korr")
    crossbow = korr["weapons"][0]
    crossbow["features"] = [*crossbow.get("features", []), "POISONOUS 2"]
    options = {"activations": "free", "kills": kills, "poison": timing}
    if poison_kills is not None:
        options["poison_kills"] = poison_kills
    return new_sim(options=options, content={"guilds": [ann, demo_guild(1)]})


def poison_bram(t):
    """A shot that hits Bram (one broken heart, 7.2.2.4) and poisons him: 2 tokens, his hit
    factor 5; each turn end adds one, the fourth (6 > 5) kills him (8.1, 6.4.2)."""
    lethal_shot(t, target=BRAM, dice=(2, 2, 2))
    assert piece(t, BRAM)["status"] == "in_play" and piece(t, BRAM)["poison"] == 2


def turns_until_dead(t, pid, most=6):
    for _ in range(most):
        if piece(t, pid)["status"] != "in_play":
            return
        next_turn(t, ANN)
    raise AssertionError(f"{pid} still alive")


def test_the_poison_kills_option_defaults_to_the_poisoner_6_4_2_8_1():
    spec = OPTIONS_SCHEMA["poison_kills"]
    assert spec["default"] == "poisoner"
    assert [value for value, _ in spec["choices"]] == ["poisoner", "hand"]


@pytest.mark.parametrize("timing", ["end", "start"])
def test_a_death_by_poison_counts_for_the_poisoners_player_8_1(timing):
    t = poison_table(timing=timing)
    poison_bram(t)
    assert piece(t, BRAM)["poisoned_by"] == KORR
    assert "Bram Oakjaw is poisoned by Korr Halfhand: a death by this poison is Ann's kill." in t.lines()
    turns_until_dead(t, BRAM)
    p = piece(t, BRAM)
    # 6.4.2: killed when the tokens exceed the hit factor: Bram's 5, so at the 6th token (2
    # from the crossbow, one a turn after).
    assert (p["status"], p["poison"], p["hit"]) == ("killed", 6, 5)
    assert kills(t, ANN) == {"mercenary": {"2": 1}} and kills(t, BOB) == {}  # Bram: level 2
    assert (
        "Ann: +1 mercenary kill (level 2): Korr Halfhand's poison killed Bram Oakjaw (counted by the "
        "app, 8.1, 8.2)." in t.lines()
    )


def test_undoing_the_turn_change_takes_the_poison_kill_back():
    t = poison_table()
    poison_bram(t)
    turns_until_dead(t, BRAM)
    t.undo(ANN)
    assert piece(t, BRAM)["status"] == "in_play"
    assert kills(t, ANN) == {}


def test_poison_by_hand_or_with_the_option_hand_counts_for_nobody():
    t = poison_table(poison_kills="hand")
    poison_bram(t)
    assert "poisoned_by" not in piece(t, BRAM)
    turns_until_dead(t, BRAM)
    assert kills(t, ANN) == kills(t, BOB) == {}

    t = poison_table()
    run(t, BOB, "tokens.adjust", piece=BRAM, token="poison", delta=3)
    turns_until_dead(t, BRAM)
    assert kills(t, ANN) == kills(t, BOB) == {}


def test_poison_taken_off_forgets_the_poisoner_and_the_option_hand_for_old_tables():
    t = poison_table()
    poison_bram(t)
    run(t, BOB, "tokens.adjust", piece=BRAM, token="poison", delta=-2)
    assert "poisoned_by" not in piece(t, BRAM)
    run(t, BOB, "tokens.adjust", piece=BRAM, token="poison", delta=2)  # on again by hand
    turns_until_dead(t, BRAM)
    assert kills(t, ANN) == {}
    # A table opened before the option (no "poison_kills" in its options): by hand, as then.
    assert counts_poison_kills({"options": {"kills": "app", "poison_kills": "poisoner"}})
    assert not counts_poison_kills({"options": {"kills": "app"}})
    assert not counts_poison_kills({"options": {"kills": "hand", "poison_kills": "poisoner"}})


def test_a_defended_poison_power_forgets_its_caster_7_2_3_5():
    """Maud's Drowned breath (POISON 1, 8.2) poisons Vesna for Bob; Vesna defends and passes
    (7.2.3.5): the power has no effect, its poison goes, and so does Maud as the poisoner, so
    poison Ann later puts on Vesna by hand counts for nobody when it kills her."""
    t = new_sim(options={"activations": "free"})
    run(t, BOB, "mana.channel", piece=MAUD, common=0, dark=1)
    run(t, BOB, "power.use", piece=MAUD, power=1, target=VESNA)
    assert piece(t, VESNA)["poison"] == 1 and piece(t, VESNA)["poisoned_by"] == MAUD
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=0)
    run(t, ANN, "arcane.test", piece=VESNA, purpose="defend", roll=1)
    assert piece(t, VESNA)["poison"] == 0 and "poisoned_by" not in piece(t, VESNA)
    run(t, ANN, "tokens.adjust", piece=VESNA, token="poison", delta=2)
    turns_until_dead(t, VESNA)
    assert kills(t, ANN) == kills(t, BOB) == {}


def test_a_daemon_killed_by_poison_and_the_summoner_its_hearts_kill_are_the_poisoners_7_2_3_3():
    """Maud (2 broken hearts) summons a daemon with 1 heart token; Korr's POISONOUS shot
    poisons it without killing it; when the poison kills it at a turn's end, its heart goes to
    Maud as her third broken heart (7.2.3.3): both deaths are Ann's kills, as for an attack."""
    t = poison_table()
    run(t, BOB, "tokens.adjust", piece=MAUD, token="broken_hearts", delta=2)
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=1)
    run(t, BOB, "daemon.summon", piece=MAUD, level=1, hearts=1)
    daemon = piece(t, MAUD)["summoning"]
    run(t, ANN, "shot.propose", shooter=KORR, target=daemon, test_roll=1, dice=[1, 1, 1])
    run(t, BOB, "calc.apply")
    assert piece(t, daemon)["status"] == "in_play" and piece(t, daemon)["poison"] == 2, \
        piece(t, daemon)
    turns_until_dead(t, daemon)
    assert piece(t, MAUD)["status"] == "killed"
    assert kills(t, ANN) == {"daemon": {"1": 1}, "mercenary": {"2": 1}}

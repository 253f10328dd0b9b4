"""The demloc Ruleset's commands one by one (DemLoc rulebook 6.4.2, 7, 7.2.3, 7.3.2.3, 8)."""

import pytest

from tabletop.errors import RuleViolation
from tests.kit import refused

from .demloc_sim import new_sim, next_turn, piece, run

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


def test_a_player_changes_only_their_characters_unless_the_table_shares_a_phone():
    t = new_sim()
    refused("not_your_character", lambda: run(t, BOB, "damage.assign", piece=KORR, amount=1))
    shared = new_sim(options={"control": "anyone"})
    run(shared, BOB, "damage.assign", piece=KORR, amount=1)
    assert piece(shared, KORR)["armor_damage"] == 1


def test_removing_what_was_never_assigned_is_refused():
    t = new_sim()
    refused("nothing_to_remove", lambda: run(t, ANN, "damage.remove", piece=KORR, step="armor"))
    refused("nothing_to_remove", lambda: run(t, ANN, "tokens.adjust", piece=KORR, token="seals", delta=-1))


def test_seals_option_reaches():
    # 6.4.2 "reaches": arcane 2, 2 seals possess.
    t = new_sim(options={"seals": "reaches"})
    run(t, ANN, "tokens.adjust", piece=VESNA, token="seals", delta=2)
    assert piece(t, VESNA)["possessed"]
    t = new_sim()
    run(t, ANN, "tokens.adjust", piece=VESNA, token="seals", delta=2)
    assert not piece(t, VESNA)["possessed"]


@pytest.mark.parametrize(("rule", "roll", "freed"), [("penalty", 1, False), ("bonus", 6, True)])
def test_freeing_a_possessed_character(rule, roll, freed):
    # 7.2.3.5: Maud (arcane 3) frees Bob's gunner; +3 added to the die (literal: 1 + 3 = 4 > 3).
    t = new_sim(options={"free_possessed": rule})
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=2)
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=0, seals=0)  # the test's die (7.2.3)
    run(t, BOB, "arcane.test", piece=MAUD, purpose="free", target=GUNNER, roll=roll)
    assert piece(t, GUNNER)["possessed"] is (not freed)


def test_freed_with_fatal_broken_hearts_dies():
    # 7.2.3.5: freed after the fatal broken hearts: eliminated.
    t = new_sim(options={"free_possessed": "bonus"})
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=2)
    run(t, BOB, "tokens.adjust", piece=GUNNER, token="broken_hearts", delta=3)
    assert piece(t, GUNNER)["status"] == "in_play"  # possessed: alive with 3 broken hearts
    run(t, BOB, "mana.channel", piece=MAUD, common=0, dark=1, seals=0)
    run(t, BOB, "arcane.test", piece=MAUD, purpose="free", target=GUNNER, roll=2)
    assert piece(t, GUNNER)["status"] == "killed"


def test_fate_points_never_below_zero_and_spent_on_tests():
    t = new_sim()
    run(t, ANN, "fate.spend", amount=2, reason="Korr's ability")
    assert t.state["players"][ANN]["fate"] == 1
    refused("not_enough_fate", lambda: run(t, ANN, "fate.spend", amount=2))
    run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=4, fate=1, dice=[1, 1, 1])
    run(t, ANN, "calc.apply")
    assert t.state["players"][ANN]["fate"] == 0


def test_objective_counter_ends_the_mission_when_held_long_enough():
    # 6.4.2 objective control: start, suspend, reaches its target and ends the mission.
    t = new_sim(options={"objective_turns": "2"})
    run(t, BOB, "objective.control", action="start")
    next_turn(t, BOB)
    assert t.state["objective"]["count"] == 1 and t.state["ended"] is None
    run(t, BOB, "objective.control", action="suspend")
    next_turn(t, BOB)
    assert t.state["objective"]["count"] == 1
    run(t, BOB, "objective.control", action="start")
    next_turn(t, BOB)
    assert t.state["ended"] == {"reason": "objective_control", "seat": BOB}
    refused("game_over", lambda: run(t, ANN, "fate.spend", amount=1))  # the kit refuses commands on a finished game


def test_surrender_needs_every_player():
    t = new_sim(names=("Ann", "Bob", "Cy"))
    run(t, ANN, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=True)
    assert t.state["ended"] is None
    run(t, 2, "surrender.vote", agree=True)
    assert t.state["ended"]["reason"] == "surrender"


def test_total_elimination_is_detected_at_the_end_of_the_turn():
    t = new_sim(options={"control": "anyone"})
    for pid in (MAUD, BRAM, GUNNER):
        run(t, ANN, "damage.assign", piece=pid, amount=30, mode="hit")
    refused("cannot_end", lambda: run(t, ANN, "mission.end"))
    next_turn(t, ANN)
    assert t.state["elimination"] == ANN
    run(t, ANN, "mission.end")
    assert t.state["ended"] == {"reason": "elimination", "seat": ANN}


@pytest.mark.parametrize(
    ("bleeding", "poison", "after_turn_end"), [("end", "start", (2, 2)), ("start", "end", (2, 2))]
)
def test_bleeding_and_poison_timing_options(bleeding, poison, after_turn_end):
    t = new_sim(options={"bleeding": bleeding, "poison": poison})
    run(t, ANN, "tokens.adjust", piece=VESNA, token="bleeding", delta=2)
    run(t, ANN, "tokens.adjust", piece=VESNA, token="poison", delta=1)
    next_turn(t, ANN)
    v = piece(t, VESNA)
    assert (v["hit_damage"], v["poison"]) == after_turn_end
    # The narration of the turn change (the end of turn 1, then turn 2), in the order things
    # happened.
    text = " ".join(t.lines()[-2:])
    bleeds, turn, poisoned = (
        text.index(x) for x in ("Vesna the Gray bleeds", "Turn 2", "Vesna the Gray is poisoned")
    )
    if bleeding == "end":
        assert bleeds < turn < poisoned
    else:
        assert poisoned < turn < bleeds


def test_fury_doubles_for_two_turns_and_costs_a_broken_heart_each():
    # 8.4 FURY.
    t = new_sim()
    refused("no_fury", lambda: run(t, ANN, "effect.set", piece=KORR, effect="fury", on=True))
    run(t, ANN, "effect.set", piece=VESNA, effect="fury", on=True)
    for expected in (1, 2):
        next_turn(t, ANN)
        assert piece(t, VESNA)["broken_hearts"] == expected
    assert piece(t, VESNA)["fury"] == 0


def test_summoner_killed_dismisses_the_daemon_and_fallback_level():
    # 7.2.3.2 lower hierarchy; 7.2.3.3 the summoner killed: the daemon leaves.
    # "any": the level asked for is not capped by the summoner's (option daemon_level).
    t = new_sim(options={"control": "anyone", "daemon_level": "any"})
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    run(t, ANN, "daemon.summon", piece=VESNA, level=4, hearts=1)
    daemon = piece(t, VESNA)["summoning"]
    assert piece(t, daemon)["name"] == "Ember imp" and t.log[-1].data["drawn_level"] == 2
    run(t, BOB, "damage.assign", piece=VESNA, amount=30, mode="hit")
    assert piece(t, daemon)["status"] == "dismissed"


def test_power_use_pays_extra_when_exhausted_and_pentacle_strikes():
    t = new_sim()
    run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=1, setup=True)
    run(t, BOB, "movement.set", piece=MAUD, state="exhausted")
    # Salt balm (CARE 1) on a Bram with a broken heart: on none it has no effect (8.2, no_effect)
    run(t, BOB, "tokens.adjust", piece=BRAM, token="broken_hearts", delta=1)
    refused("bad_extra", lambda: run(t, BOB, "power.use", piece=MAUD, power=0, target=BRAM))
    run(t, BOB, "power.use", piece=MAUD, power=0, target=BRAM, extra_common=1, extra_dark=1)
    assert piece(t, MAUD)["mana"] == {"common": 0, "dark": 0}
    refused("no_pentacle", lambda: run(t, BOB, "pentacle.strike", piece=MAUD, targets=[KORR]))


def test_view_shows_the_whole_table_to_everyone():
    t = new_sim()
    view = t.ruleset.view(t.state, BOB)
    assert {p["id"] for p in view["my_pieces"]} == {MAUD, BRAM, GUNNER}
    assert {p["id"] for p in view["other_pieces"]} == {VESNA, KORR, WATCH}
    assert sum(o["percent"] for o in view["next_odds"]) in (99, 100, 101)
    assert view["players"][0]["pantheon"] == ["Unclean daemon", "Ember imp"]


def test_mission_with_characters_passed_in():
    guild = {
        "name": "Test guild",
        "fate_points": 5,
        "characters": [
            {
                "id": "a",
                "name": "Ada",
                "hit": 3,
                "armor": 4,
                "weapons": [{"name": "Fist", "type": "naked_hands", "damage": 1}],
            }
        ],
        "pantheon": [],
    }
    t = new_sim(
        options={
            "guilds": [guild, guild | {"characters": [guild["characters"][0] | {"name": "Bea"}]}]
        }
    )
    assert [p["name"] for p in t.state["pieces"].values()] == ["Ada", "Bea"]
    assert t.state["players"][0]["fate"] == 5
    with pytest.raises(RuleViolation) as err:
        new_sim(options={"guilds": [guild, guild]})
    assert err.value.code == "duplicate_mercenary"


def test_seals_rolled_when_a_daemon_leaves_have_no_effect():
    # 7.2.3.3: broken seals released by these dice have no effect (the summoner is exhausted).
    t = new_sim()
    run(t, ANN, "movement.set", piece=VESNA, state="exhausted")
    run(t, ANN, "mana.channel", piece=VESNA, common=1, seals=1, daemon_left=True)
    assert piece(t, VESNA)["seals"] == 0 and piece(t, VESNA)["mana"]["common"] == 1
    refused("not_active", lambda: run(t, ANN, "mana.channel", piece=VESNA, common=1))


def test_the_arcane_test_uses_a_die_of_the_mana_pool_7_2_3_5():
    """7.2.3: "characters with arcane abilities can make an arcane test by using any arcane die
    from their mana pool"; 7.2.3.5: "the player must use any arcane die": no mana, no test; the
    cube goes back whatever the result."""
    t = new_sim()
    refused("no_mana", lambda: run(t, BOB, "arcane.test", piece=MAUD, roll=1))
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=1, seals=0)
    run(
        t, BOB, "arcane.test", piece=MAUD, roll=6, die="dark"
    )  # failed: the die is spent all the same
    assert piece(t, MAUD)["mana"] == {"common": 1, "dark": 0}
    refused("no_mana", lambda: run(t, BOB, "arcane.test", piece=MAUD, roll=1, die="dark"))
    run(t, BOB, "arcane.test", piece=MAUD, roll=1)
    assert piece(t, MAUD)["mana"] == {"common": 0, "dark": 0}
    t.assert_replay_equal()


def test_freeing_is_possible_by_default_and_the_page_tells_the_best_roll_7_2_3_5():
    """The default reads the +3 as a help (arcane 3 frees with 6 or less);
    read literally it never frees below arcane 4, and the page says so before the roll."""
    t = new_sim()
    assert t.state["options"]["free_possessed"] == "bonus"
    maud = next(p for p in t.view(BOB)["pieces"] if p["id"] == MAUD)
    assert maud["arcane"] == 3 and maud["free_best_roll"] == 6
    literal = new_sim(options={"free_possessed": "penalty"})
    maud = next(p for p in literal.view(BOB)["pieces"] if p["id"] == MAUD)
    assert maud["free_best_roll"] == 0  # 1 + 3 = 4 > 3: no roll can


@pytest.mark.parametrize(("option", "left"), [("removed", 1), ("kept", 2)])
def test_a_die_showing_a_broken_seal_is_removed_for_the_mission_7_2_3(option, left):
    """7.2.3 "Channeling mana": "the player has to remove the dice from the game with this
    result" (option ``seal_dice``; ``kept`` lets it be rolled again)."""
    t = new_sim(options={"seal_dice": option, "activations": "free"})
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=0, seals=1)  # arcane 3
    assert piece(t, MAUD)["seals"] == 1
    maud = next(p for p in t.view(BOB)["pieces"] if p["id"] == MAUD)
    assert maud["arcane_dice_left"] == left
    roll_two = lambda: run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=0, seals=0)  # noqa: E731
    if option == "removed":
        refused("too_many_dice", roll_two)
    else:
        roll_two()
        assert piece(t, MAUD)["mana"]["common"] == 3


def test_fate_on_a_test_above_what_is_held_says_what_is_held_7_2_1():
    t = new_sim()
    with pytest.raises(RuleViolation) as exc:
        run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=4, fate=5, dice=[1, 1, 1])
    assert exc.value.code == "not_enough_fate"
    assert "You hold 3 fate points" in exc.value.message
    run(t, ANN, "fate.spend", amount=3)
    with pytest.raises(RuleViolation) as exc:
        run(t, ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=4, fate=1, dice=[1, 1, 1])
    assert exc.value.message == "You hold no fate points: leave it at 0."
    with pytest.raises(RuleViolation) as exc:
        run(t, ANN, "fate.spend", amount=1)
    assert exc.value.message == "You hold no fate points: you cannot spend any."


JUNK_DICE = "\U0001f608 <b>x</b> 999\u2026"


@pytest.mark.parametrize("dice", [JUNK_DICE, "999", "0 0 0", "7 1 1", "1 1", "1 1 1 1"])
def test_malformed_dice_are_refused_even_on_a_shot_whose_test_fails_7_2_1(dice):
    """Found by a new user: junk dice sent with a shot whose ability test failed (7.2.1: the
    shot strays, 5.6) were accepted, never read. Every field sent is checked."""
    t = new_sim()
    failed = dict(shooter=KORR, target=BRAM, test_roll=6)
    with pytest.raises(RuleViolation) as exc:
        run(t, ANN, "shot.propose", dice=dice, **failed)
    assert exc.value.code == "bad_dice"
    assert t.state["notice"] is None and t.state["players"][ANN]["fate"] == 3
    run(t, ANN, "shot.propose", dice="", **failed)  # no dice rolled yet: it strays
    assert t.state["notice"]["kind"] == "stray"


def test_a_failed_shot_with_well_formed_dice_or_junk_in_other_fields_7_2_1():
    t = new_sim()
    failed = dict(shooter=KORR, target=BRAM, test_roll=6)
    for field, value in (("cover", "lots"), ("extra", "99"), ("positioned", "perhaps")):
        with pytest.raises(RuleViolation):
            run(t, ANN, "shot.propose", dice="1 1 1", **failed, **{field: value})
    run(t, ANN, "shot.propose", dice="1 1 1", **failed)
    assert t.state["notice"]["kind"] == "stray"


@pytest.mark.parametrize("dice", [JUNK_DICE, "0", "13"])
def test_malformed_fighting_dice_are_refused_in_a_brawl_7_3_2(dice):
    t = new_sim()
    with pytest.raises(RuleViolation) as exc:
        run(t, ANN, "brawl.propose", attacker=KORR, defender=BRAM, attacker_dice=dice,
            defender_dice="1 1")
    assert exc.value.code == "bad_dice"


def test_one_damage_tap_reads_once_in_the_log_saying_where_it_went_6_4_2():
    """Found by a new user: one +1 damage read twice, "1 damage (armor first). ... 1 damage on
    the armor (1/3)."; the log says once where the damage went."""
    from tabletop.log import narrated

    t = new_sim()
    run(t, ANN, "damage.assign", piece=VESNA, amount=1)
    line = narrated(t.ruleset, t.log)[-1].text
    armor = piece(t, VESNA)["armor"]
    assert line == f"Vesna the Gray: 1 damage on the armor (1/{armor})."

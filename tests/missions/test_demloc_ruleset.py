"""The demloc Ruleset's commands one by one (DemLoc rulebook 6.4.2, 7, 7.2.3, 7.3.2.3, 8)."""

import pytest

from tabletop.errors import RuleViolation

from .harness import PureTable

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


def code_of(fn):
    with pytest.raises(RuleViolation) as err:
        fn()
    return err.value.code


def test_a_player_changes_only_their_characters_unless_the_table_shares_a_phone():
    t = PureTable()
    assert (
        code_of(lambda: t.run(BOB, "damage.assign", piece=KORR, amount=1)) == "not_your_character"
    )
    shared = PureTable(options={"control": "anyone"})
    shared.run(BOB, "damage.assign", piece=KORR, amount=1)
    assert shared.piece(KORR)["armor_damage"] == 1


def test_removing_what_was_never_assigned_is_refused():
    t = PureTable()
    assert (
        code_of(lambda: t.run(ANN, "damage.remove", piece=KORR, step="armor"))
        == "nothing_to_remove"
    )
    assert (
        code_of(lambda: t.run(ANN, "tokens.adjust", piece=KORR, token="seals", delta=-1))
        == "nothing_to_remove"
    )


def test_seals_option_reaches():
    # 6.4.2 "reaches": arcane 2, 2 seals possess.
    t = PureTable(options={"seals": "reaches"})
    t.run(ANN, "tokens.adjust", piece=VESNA, token="seals", delta=2)
    assert t.piece(VESNA)["possessed"]
    t = PureTable()
    t.run(ANN, "tokens.adjust", piece=VESNA, token="seals", delta=2)
    assert not t.piece(VESNA)["possessed"]


@pytest.mark.parametrize(("rule", "roll", "freed"), [("penalty", 1, False), ("bonus", 6, True)])
def test_freeing_a_possessed_character(rule, roll, freed):
    # 7.2.3.5: Maud (arcane 3) frees Bob's gunner; +3 added to the die (literal: 1 + 3 = 4 > 3).
    t = PureTable(options={"free_possessed": rule})
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=2)
    t.run(BOB, "arcane.test", piece=MAUD, purpose="free", target=GUNNER, roll=roll)
    assert t.piece(GUNNER)["possessed"] is (not freed)


def test_freed_with_fatal_broken_hearts_dies():
    # 7.2.3.5: freed after the fatal broken hearts: eliminated.
    t = PureTable(options={"free_possessed": "bonus"})
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="seals", delta=2)
    t.run(BOB, "tokens.adjust", piece=GUNNER, token="broken_hearts", delta=3)
    assert t.piece(GUNNER)["status"] == "in_play"  # possessed: alive with 3 broken hearts
    t.run(BOB, "arcane.test", piece=MAUD, purpose="free", target=GUNNER, roll=2)
    assert t.piece(GUNNER)["status"] == "killed"


def test_fate_points_never_below_zero_and_spent_on_tests():
    t = PureTable()
    t.run(ANN, "fate.spend", amount=2, reason="Korr's ability")
    assert t.state["players"][ANN]["fate"] == 1
    assert code_of(lambda: t.run(ANN, "fate.spend", amount=2)) == "not_enough_fate"
    t.run(ANN, "shot.propose", shooter=KORR, target=BRAM, test_roll=4, fate=1, dice=[1, 1, 1])
    t.run(ANN, "calc.apply")
    assert t.state["players"][ANN]["fate"] == 0


def test_objective_counter_ends_the_mission_when_held_long_enough():
    # 6.4.2 objective control: start, suspend, reaches its target and ends the mission.
    t = PureTable(options={"objective_turns": "2"})
    t.run(BOB, "objective.control", action="start")
    t.finish_turn()
    t.run(BOB, "turn.next")
    assert t.state["objective"]["count"] == 1 and t.state["ended"] is None
    t.run(BOB, "objective.control", action="suspend")
    t.finish_turn()
    t.run(BOB, "turn.next")
    assert t.state["objective"]["count"] == 1
    t.run(BOB, "objective.control", action="start")
    t.finish_turn()
    t.run(BOB, "turn.next")
    assert t.state["ended"] == {"reason": "objective_control", "seat": BOB}
    assert code_of(lambda: t.run(ANN, "fate.spend", amount=1)) == "mission_over"


def test_surrender_needs_every_player():
    t = PureTable(names=("Ann", "Bob", "Cy"))
    t.run(ANN, "surrender.vote", agree=True)
    t.run(BOB, "surrender.vote", agree=True)
    assert t.state["ended"] is None
    t.run(2, "surrender.vote", agree=True)
    assert t.state["ended"]["reason"] == "surrender"


def test_total_elimination_is_detected_at_the_end_of_the_turn():
    t = PureTable(options={"control": "anyone"})
    for pid in (MAUD, BRAM, GUNNER):
        t.run(ANN, "damage.assign", piece=pid, amount=30, mode="hit")
    assert code_of(lambda: t.run(ANN, "mission.end")) == "cannot_end"
    t.finish_turn()
    t.run(ANN, "turn.next")
    assert t.state["elimination"] == ANN
    t.run(ANN, "mission.end")
    assert t.state["ended"] == {"reason": "elimination", "seat": ANN}


@pytest.mark.parametrize(
    ("bleeding", "poison", "after_turn_end"), [("end", "start", (2, 2)), ("start", "end", (2, 2))]
)
def test_bleeding_and_poison_timing_options(bleeding, poison, after_turn_end):
    t = PureTable(options={"bleeding": bleeding, "poison": poison})
    t.run(ANN, "tokens.adjust", piece=VESNA, token="bleeding", delta=2)
    t.run(ANN, "tokens.adjust", piece=VESNA, token="poison", delta=1)
    t.finish_turn()
    t.run(ANN, "turn.next")
    v = t.piece(VESNA)
    assert (v["hit_damage"], v["poison"]) == after_turn_end
    order = [
        line
        for line in t.state["log"][-1]["lines"]
        if "bleeds" in line or "poisoned" in line or "Turn 2" in line
    ]
    if bleeding == "end":
        assert order[0].startswith("Vesna the Gray bleeds") and "poisoned" in order[2]
    else:
        assert order[0].startswith("Vesna the Gray is poisoned") and "bleeds" in order[2]


def test_fury_doubles_for_two_turns_and_costs_a_broken_heart_each():
    # 8.4 FURY.
    t = PureTable()
    assert (
        code_of(lambda: t.run(ANN, "effect.set", piece=KORR, effect="fury", on=True)) == "no_fury"
    )
    t.run(ANN, "effect.set", piece=VESNA, effect="fury", on=True)
    for expected in (1, 2):
        t.finish_turn()
        t.run(ANN, "turn.next")
        assert t.piece(VESNA)["broken_hearts"] == expected
    assert t.piece(VESNA)["fury"] == 0


def test_summoner_killed_dismisses_the_daemon_and_fallback_level():
    # 7.2.3.2 lower hierarchy; 7.2.3.3 the summoner killed: the daemon leaves.
    t = PureTable(options={"control": "anyone"})
    t.run(ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    t.run(ANN, "daemon.summon", piece=VESNA, level=4, hearts=1)
    daemon = t.piece(VESNA)["summoning"]
    assert t.piece(daemon)["name"] == "Ember imp" and t.log[-1].data["drawn_level"] == 2
    t.run(BOB, "damage.assign", piece=VESNA, amount=30, mode="hit")
    assert t.piece(daemon)["status"] == "dismissed"


def test_power_use_pays_extra_when_exhausted_and_pentacle_strikes():
    t = PureTable()
    t.run(BOB, "mana.channel", piece=MAUD, common=2, dark=1, setup=True)
    t.run(BOB, "movement.set", piece=MAUD, state="exhausted")
    assert code_of(lambda: t.run(BOB, "power.use", piece=MAUD, power=0, target=BRAM)) == "bad_extra"
    t.run(BOB, "power.use", piece=MAUD, power=0, target=BRAM, extra_common=1, extra_dark=1)
    assert t.piece(MAUD)["mana"] == {"common": 0, "dark": 0}
    assert (
        code_of(lambda: t.run(BOB, "pentacle.strike", piece=MAUD, targets=[KORR])) == "no_pentacle"
    )


def test_view_shows_the_whole_table_to_everyone():
    t = PureTable()
    view = t.game.view(t.state, BOB)
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
    t = PureTable(
        options={
            "guilds": [guild, guild | {"characters": [guild["characters"][0] | {"name": "Bea"}]}]
        }
    )
    assert [p["name"] for p in t.state["pieces"].values()] == ["Ada", "Bea"]
    assert t.state["players"][0]["fate"] == 5
    with pytest.raises(RuleViolation) as err:
        PureTable(options={"guilds": [guild, guild]})
    assert err.value.code == "duplicate_mercenary"


def test_seals_rolled_when_a_daemon_leaves_have_no_effect():
    # 7.2.3.3: broken seals released by these dice have no effect (the summoner is exhausted).
    t = PureTable()
    t.run(ANN, "movement.set", piece=VESNA, state="exhausted")
    t.run(ANN, "mana.channel", piece=VESNA, common=1, seals=1, daemon_left=True)
    assert t.piece(VESNA)["seals"] == 0 and t.piece(VESNA)["mana"]["common"] == 1
    assert code_of(lambda: t.run(ANN, "mana.channel", piece=VESNA, common=1)) == "not_active"

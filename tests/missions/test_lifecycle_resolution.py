"""The resolution phase, pure (DemLoc rulebook 6.4, 6.4.1 "resolution phase", 7 "ending the
game"), and the battle report's timeline. Numbers from ``lifecycle_data.definition``: win 10
fame 20 feods 1 blood stone, defeat -2 fame, objective 5/5, relic 1 fame 3 feods per token,
kills 2 fame 4 feods per mercenary level, possessed escape -3 fame, healing 5 feods a heart."""

import pytest

from missions.report import timeline
from missions.rules import resolution
from tabletop.errors import RuleViolation

from .demloc_sim import achieve, finish_turn, new_sim, piece, run
from .lifecycle_data import guild_payload, mission_option
from .test_lifecycle_setup import new_table, play_through


def played(mode="standard", kind="objective", **over):
    t = new_table(mode=mode, kind=kind, **over)
    play_through(
        t,
        {0: ["m11", "m12", "g13"], 1: ["m21", "m22"]},
        mana={"m11": {"common": 1, "dark": 1, "seals": 0}},
    )
    return t


def guild(result, seat):
    return next(g for g in result["guilds"] if g["seat"] == seat)


def character(result, pid):
    return next(c for c in result["characters"] if c["piece"] == pid)


def test_objective_winner_gets_win_objective_and_kill_rewards():
    t = played()
    run(t, 1, "tokens.adjust", piece="s1-m22", token="broken_hearts", delta=3)  # Bram killed
    run(t, 0, "kill.count", kind="mercenary", level=2)
    run(t, 0, "tokens.adjust", piece="s0-m12", token="broken_hearts", delta=2)  # Korr hurt
    achieve(t, 0)
    r = resolution.compute(t.state)
    assert r["winner"] == 0 and r["how"] == "objective" and r["applies"]
    a, b = guild(r, 0), guild(r, 1)
    assert (a["fame"], a["feods"], a["blood_stones"]) == (10 + 5 + 4, 20 + 5 + 8, 1)
    assert (b["fame"], b["feods"], b["blood_stones"]) == (-2, 0, 0)
    assert character(r, "s1-m22")["status"] == "dead"
    korr = character(r, "s0-m12")
    assert korr["status"] == "injured" and korr["heal_feods"] == 10
    assert character(r, "s0-m11")["status"] == "active"
    assert character(r, "s0-g13")["status"] is None  # a follower: nothing in the Guild
    assert r["control_point"]["change"] in ("acquired", "kept")


def test_escaping_possessed_costs_the_penalty_and_counts_as_injured():
    t = played()
    run(t, 1, "tokens.adjust", piece="s1-m21", token="seals", delta=4)  # Maud: 3 arcane, possessed
    assert piece(t, "s1-m21")["possessed"]
    run(t, 1, "piece.escape", piece="s1-m21")
    achieve(t, 0)
    r = resolution.compute(t.state)
    maud = character(r, "s1-m21")
    assert maud["possessed_escape"] and guild(r, 1)["fame"] == -2 - 3
    assert "escaped possessed" in " ".join(guild(r, 1)["lines"])
    # Our reading (6.4.1/6.4.2): the daemon leaves with her: she needs care.
    assert maud["status"] == "injured" and maud["heal_feods"] == 5


def test_turn_limit_without_kills_is_a_draw_and_the_spot_stays():
    t = played(kind="turns")
    for seat in (0, 1):
        run(t, seat, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert r["winner"] is None and r["how"] == "draw"
    assert r["control_point"]["change"] == "stays"
    # A draw (here by agreement) charges nobody the defeat penalty (6.4.1).
    assert guild(r, 0)["fame"] == guild(r, 1)["fame"] == 0
    assert "A draw: no defeat penalty" in guild(r, 0)["lines"]


def test_a_tied_kill_count_is_a_draw_without_defeat_penalty_6_4_1():
    t = played(kind="turns")
    run(t, 0, "kill.count", kind="mercenary", level=1)
    run(t, 1, "kill.count", kind="mercenary", level=1)
    for seat in (0, 1):
        run(t, seat, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert r["winner"] is None and r["how"] == "draw"
    assert guild(r, 0)["fame"] == guild(r, 1)["fame"] == 2  # their kills, no defeat


def test_a_wiped_out_player_never_wins_on_kills_7_3_2_3_6_4_1():
    # Ann counted more kills, but the mission ends with all her characters dead.
    t = played(kind="turns")
    run(t, 0, "kill.count", kind="mercenary", level=2)
    for pid in ("s0-m11", "s0-m12", "s0-g13"):
        run(t, 0, "tokens.adjust", piece=pid, token="broken_hearts", delta=3)
    for seat in (0, 1):
        run(t, seat, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert r["winner"] == 1 and r["how"] == "elimination"
    assert guild(r, 0)["fame"] == 4 - 2  # her kills, and the defeat


def test_relic_tokens_pay_per_token():
    t = played(kind="relic")
    run(t, 1, "relic.take", piece="s1-m21")  # 7.2.1: relics are counted on mercenaries
    run(t, 1, "relic.take", piece="s1-m22")
    achieve(t, 1)
    r = resolution.compute(t.state)
    b = guild(r, 1)
    assert (b["fame"], b["feods"]) == (10 + 5 + 2, 20 + 5 + 6)


def test_training_result_names_the_winner_and_changes_nothing():
    t = played(mode="training")
    run(t, 1, "tokens.adjust", piece="s1-m22", token="broken_hearts", delta=3)
    run(t, 0, "kill.count", kind="mercenary", level=2)
    achieve(t, 0)
    r = resolution.compute(t.state)
    assert r["winner"] == 0 and not r["applies"]
    assert all(g["fame"] == g["feods"] == g["blood_stones"] == 0 for g in r["guilds"])
    assert all(c["status"] is None for c in r["characters"])
    assert r["control_point"]["change"] == "none"


def test_an_ended_mission_is_finished_only_once_closed_and_undo_can_reopen_it_before():
    t = played()
    achieve(t, 0)
    assert not t.ruleset.is_finished(t.state)
    t.undo(0)
    assert t.state["ended"] is None
    t.redo(0)
    run(t, None, "mission.close", result={"winner": 0})
    assert t.ruleset.is_finished(t.state) and t.log[-1].final


def test_a_quick_game_is_finished_when_it_ends():
    t = new_sim()
    assert not t.ruleset.is_finished(t.state)
    achieve(t, 0)
    assert t.ruleset.is_finished(t.state)


def test_battle_report_timeline_lists_first_players_summons_possessions_and_kills():
    t = played()
    run(t, 0, "daemon.summon", piece="s0-m11", level=1, hearts=2)
    run(t, 1, "tokens.adjust", piece="s1-m21", token="seals", delta=4)
    run(t, 1, "tokens.adjust", piece="s1-m22", token="broken_hearts", delta=3)
    run(t, 0, "kill.count", kind="mercenary", level=2)
    run(t, 0, "kill.count", kind="mercenary", level=2)
    t.undo(0)  # an undone kill is not in the report
    achieve(t, 0)
    events = timeline(t.ruleset, t.log)
    kinds = [e["kind"] for e in events]
    assert kinds == ["first_player", "summoned", "possessed", "killed", "kill_counted", "ended"]
    assert "summons" in events[1]["text"] and "Maud Brinewitch" in events[2]["text"]


def test_total_elimination_gives_the_last_player_standing_the_win():
    # 7.3.2.3: only one player has characters left; seat 0 wins (seat 0 must not read as "none").
    t = played()
    for pid in ("s1-m21", "s1-m22"):
        run(t, 1, "tokens.adjust", piece=pid, token="broken_hearts", delta=3)
    finish_turn(t)
    run(t, 0, "turn.next")
    run(t, 0, "mission.end")
    r = resolution.compute(t.state)
    assert r["winner"] == 0 and r["how"] == "elimination"


def _three(option):

    t = new_sim(
        names=("Ann", "Bob", "Cid"),
        options={"mission": mission_option(), "elimination": option},
    )
    for p in (guild_payload(0, 1), guild_payload(1, 2), guild_payload(2, 3, rename=True)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, {0: ["m11"], 1: ["m21"], 2: ["m32"]})
    run(t, 2, "tokens.adjust", piece="s2-m32", token="broken_hearts", delta=3)
    run(t, 1, "kill.count", kind="mercenary", level=1)
    finish_turn(t)
    run(t, 0, "turn.next")
    return t


def test_one_of_three_wiped_out_ends_the_game_only_with_the_chapter_7_option():
    from tabletop.errors import RuleViolation

    t = _three("last")
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "mission.end")
    assert err.value.code == "cannot_end"
    t = _three("any")
    run(t, 0, "mission.end")
    r = resolution.compute(t.state)
    assert t.state["ended"] == {"reason": "elimination", "seat": None}
    assert r["winner"] == 1 and r["how"] == "kills"


def _three_players(kind="turns", **over):
    """A 3-player lifecycle mission in play, one character each (DemLoc rulebook 6.4.1)."""
    t = new_sim(names=("Ann", "Bob", "Cid"), options={"mission": mission_option(kind, **over)})
    for p in (guild_payload(0, 1), guild_payload(1, 2), guild_payload(2, 3, rename=True)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, {0: ["m11"], 1: ["m21"], 2: ["m32"]})
    return t


def _kill(t, seat, pid):
    run(t, seat, "tokens.adjust", piece=pid, token="broken_hearts", delta=3)


def test_three_players_end_by_the_turn_limit_kills_decide_7_3_2_3():
    t = _three_players(turn_limit=2)
    run(t, 1, "kill.count", kind="mercenary", level=1)
    finish_turn(t)
    run(t, 0, "turn.next")
    finish_turn(t)
    run(t, 0, "mission.end")
    assert t.state["ended"] == {"reason": "turn_limit", "seat": None}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (1, "kills")


def test_three_players_wiped_out_in_the_last_turn_the_last_standing_wins_7_3_2_3():
    """Total elimination is seen when it happens and ends the game at the end
    of that turn, the last of a limited mission too: the last player standing wins (7.3.2.3),
    not the kill count of the turn limit."""
    t = _three_players(turn_limit=2)
    finish_turn(t)
    run(t, 0, "turn.next")
    run(t, 2, "kill.count", kind="mercenary", level=1)  # Cid would win on kills
    _kill(t, 1, "s1-m21")
    _kill(t, 2, "s2-m32")
    assert t.state["elimination"] == 0 and t.state["elimination_since"] == 2
    with pytest.raises(RuleViolation) as err:  # 7.3.2.3: at the end of the turn
        run(t, 0, "mission.end")
    assert err.value.code == "cannot_end"
    assert not t.view(0)["can_end"]
    finish_turn(t)
    assert t.view(0)["can_end"]
    run(t, 0, "mission.end")
    assert t.state["ended"] == {"reason": "elimination", "seat": 0}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (0, "elimination")


def test_three_players_end_by_surrender_or_draw_or_objective_6_4_2():
    t = _three_players(kind="objective")
    run(t, 2, "kill.count", kind="mercenary", level=1)
    for seat in (0, 1, 2):
        run(t, seat, "surrender.vote", agree=True)
    # Ann asked first (7.3.2.3; by default an agreed end, not her loss: option ``surrender``).
    assert t.state["ended"] == {"reason": "surrender", "seat": None, "by": 0}
    assert resolution.compute(t.state)["winner"] == 2  # the most kills
    t = _three_players(kind="objective")
    for seat in (0, 1, 2):
        run(t, seat, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (None, "draw")
    # Objective: claimed at the end of the turn only (7.3.2.3), confirmed by
    # both other players before the mission ends; Cid's kill does not outweigh it.
    t = _three_players(kind="objective")
    run(t, 2, "kill.count", kind="mercenary", level=1)
    with pytest.raises(RuleViolation) as err:
        run(t, 1, "objective.achieve")
    assert err.value.code == "not_turn_end"
    finish_turn(t)
    run(t, 1, "objective.achieve")
    run(t, 0, "objective.answer", agree=True)
    assert t.state["ended"] is None
    run(t, 2, "objective.answer", agree=True)
    assert t.state["ended"] == {"reason": "objective", "seat": 1}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (1, "objective")


@pytest.mark.parametrize("kind", ["turns", "control", "waves"])
def test_objective_achieved_only_where_the_mission_has_one_6_4_2(kind):
    """6.4.2 "in case of missions with an objective, players can select objective achieved":
    a limited-turn, control or wave mission ends otherwise."""
    t = _three_players(kind=kind)
    assert t.view(0)["can_claim_objective"] is False
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "objective.achieve")
    assert err.value.code == "no_objective" and t.state["ended"] is None
    relic = _three_players(kind="relic")
    assert relic.view(0)["can_claim_objective"] is False  # 7.3.2.3: at the end of the turn
    finish_turn(relic)
    assert relic.view(0)["can_claim_objective"] is True


def test_a_guesthouse_follower_hurt_stays_lodged_and_no_zero_amount_is_worded_5_1_2_6_4_1():
    """Found by a new user: a follower lodged in the Guesthouse (5.1.2: "permanently
    enlisted ... available for each mission") injured read "its card goes back to the common
    area"; the defeated Guild's line read "-2 fame, +0 feods"."""
    from missions.templatetags.missions_tags import amounts

    t = played()
    run(t, 0, "tokens.adjust", piece="s0-g13", token="broken_hearts", delta=2)
    achieve(t, 0)
    r = resolution.compute(t.state)
    lamp = character(r, "s0-g13")
    assert lamp["source"] == "guest" and lamp["status"] is None
    assert "stays lodged" in lamp["needs"] and "common area" not in lamp["needs"]
    b = guild(r, 1)
    assert (b["fame"], b["feods"], b["blood_stones"]) == (-2, 0, 0)
    assert amounts(b) == "-2 fame"
    assert amounts({"fame": 0, "feods": 1, "blood_stones": -3}) == "+1 feod, -3 blood stones"
    assert amounts({}) == "no fame, feods or blood stones"

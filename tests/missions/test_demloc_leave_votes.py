"""A Guild that left the mission (6.4 "disconnecting", ``missions.rules.leave``) no longer
answers objective claims (7.3.2.3: "if all the other players agree") nor votes on ending the
mission (6.4.2 "surrender"): the players still in it decide, and a claim or a vote that waited
only for the leaver is settled when it leaves. Pure (the kit's Sim), three players."""

from .demloc_sim import finish_turn, run
from .test_demloc_mission_script import code, three


def leave(t, seat):
    return t.send(None, "demloc.guild.leave", {"seat": seat})


def test_the_last_player_to_answer_leaving_settles_the_claim_for_the_claimer_7_3_2_3():
    t = three()
    finish_turn(t)
    run(t, 0, "objective.achieve")
    run(t, 1, "objective.answer", agree=True)
    assert t.state["ended"] is None  # Cid has not answered
    leave(t, 2)
    assert t.state["ended"] == {**t.state["ended"], "reason": "objective", "seat": 0}


def test_a_guild_that_left_is_not_asked_and_cannot_answer_7_3_2_3():
    t = three()
    leave(t, 2)
    assert t.state["ended"] is None  # Ann and Bob still have characters in play
    finish_turn(t)
    run(t, 0, "objective.achieve")
    assert t.view(2)["prompt"] is None  # no "Confirm or Dispute" alert on the leaver's phone
    assert "claims the objective" in t.view(1)["prompt"]["text"]
    assert code(t, 2, "objective.answer", agree=True) == "already_left"
    assert code(t, 2, "objective.answer", agree=False) == "already_left"
    assert t.state["ended"] is None and t.state["claim"]["seat"] == 0
    run(t, 1, "objective.answer", agree=True)
    assert t.state["ended"]["reason"] == "objective" and t.state["ended"]["seat"] == 0


def test_a_claimers_guild_leaving_takes_its_claim_with_it_7_3_2_3():
    t = three()
    finish_turn(t)
    run(t, 2, "objective.achieve")
    leave(t, 2)
    assert t.state["claim"] is None and t.state["ended"] is None
    assert code(t, 2, "objective.achieve") == "already_left"


def test_votes_to_end_count_the_players_still_in_the_mission_6_4_2():
    t = three()
    run(t, 0, "surrender.vote", agree=True)
    run(t, 1, "surrender.vote", agree=True)
    assert t.state["ended"] is None  # Cid has not agreed
    leave(t, 2)
    assert t.state["ended"]["reason"] == "surrender"


def test_a_guild_that_left_cannot_vote_and_its_vote_goes_with_it_6_4_2():
    t = three()
    run(t, 2, "surrender.vote", agree=True)
    leave(t, 2)
    assert 2 not in t.state["surrender"] and t.state["ended"] is None
    assert code(t, 2, "surrender.vote", agree=True) == "already_left"
    run(t, 0, "surrender.vote", agree=True)
    run(t, 1, "surrender.vote", agree=True)
    assert t.state["ended"]["reason"] == "surrender"

"""A Guild that left the mission (6.4 "disconnecting", ``missions.rules.leave``) no longer
answers objective claims (7.3.2.3: "if all the other players agree") nor votes on ending the
mission (6.4.2 "surrender"): the players still in it decide, and a claim or a vote that waited
only for the leaver is settled when it leaves. Pure (the kit's Sim), three players."""

from .demloc_sim import finish_turn, new_sim, run
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


def test_the_players_still_in_the_mission_play_on_without_the_leaver_7_6_4():
    """7 (turn order) and 6.4: a Guild that left has no turn any more; whoever acted after it
    acts in its place this turn, and the next turns are drawn among the players still in.
    Only those players pass here (Cid never does)."""
    t = three()
    order = t.state["play_order"]
    leave(t, order[0])  # the acting player leaves mid-phase
    gone = order[0]
    assert gone not in t.state["play_order"] and len(t.state["play_order"]) == 2
    for _ in range(3):
        while t.state["phase"] != "end":
            acting = t.state["play_order"][t.state["acting_index"]]
            assert acting != gone
            run(t, acting, "phase.next")
        run(t, t.state["play_order"][0], "turn.next")
        assert gone not in t.state["play_order"] and t.state["first"] != gone
    assert not t.view(gone)["my_turn"]


def test_the_last_to_act_leaving_passes_the_phase_on_7_2_7_3():
    t = three()
    order = t.state["play_order"]
    run(t, order[0], "phase.next")
    run(t, order[1], "phase.next")
    assert t.state["phase"] == "strategic" and t.state["acting_index"] == 2
    leave(t, order[2])
    assert t.state["phase"] == "brawl" and t.state["play_order"] == order[:2]
    assert t.state["acting_index"] == 0


def test_no_other_seat_can_undo_a_guild_leaving_6_4():
    """Only its Guild Master takes a Guild out (the service checks the seat's user); the leave
    is a barrier, so another seat's Undo cannot bring the Guild back and hold it again."""
    t = three()
    leave(t, 2)
    assert t.try_send(0, "table.undo", {}) == "nothing_to_undo"
    assert 2 in t.state["left"]


def test_an_agreement_to_stop_lapses_with_the_turn_and_the_log_says_so_6_4_2():
    """The user's case: Ann agrees in turn 1, the turn ends, Bob and Cid agree in turn 2: the
    mission goes on until Ann agrees again, and the log told her that her agreement lapsed."""
    t = three()
    run(t, 0, "surrender.vote", agree=True)
    finish_turn(t)
    run(t, 0, "turn.next")
    assert t.state["surrender"] == []
    lapse = [line for line in t.lines() if "agreement to stop lapses" in line]
    assert lapse and "Ann's agreement to stop lapses" in lapse[-1]
    run(t, 1, "surrender.vote", agree=True)
    run(t, 2, "surrender.vote", agree=True)
    assert t.state["ended"] is None
    run(t, 0, "surrender.vote", agree=True)
    assert t.state["ended"]["reason"] == "surrender"


def test_a_turn_with_no_agreement_says_nothing_of_one():
    t = three()
    finish_turn(t)
    run(t, 0, "turn.next")
    assert not [line for line in t.lines() if "agreement" in line]


def test_the_live_log_names_who_passed_and_who_acts_after_the_play_order_is_redrawn_7_2():
    """The page's live log narrates old events against today's state (``recent_lines``): a new
    turn redraws the play order, and the passes of the turn before still name who passed and
    who acted then, as the whole log (a replay) does (found by a new user: "Ann passes. Brawl
    phase: Ann acts.")."""
    from tabletop.log import narrated, recent_lines

    for seed in range(6):  # some seeds draw another first player for turn 2
        t = new_sim(names=("Ann", "Bob", "Cid"), seed=f"redraw:{seed}")
        finish_turn(t)
        run(t, 0, "turn.next")
        passes = [e for e in t.log if e.type == "demloc.phase.advanced"]
        live = {line.version: line.text for line in
                recent_lines(t.ruleset, t.state, passes, set(t.meta.undone))}
        whole = {line.version: line.text for line in narrated(t.ruleset, t.log)}
        assert [live[e.version] for e in passes] == [whole[e.version] for e in passes], seed
        assert all(" passes. " in live[e.version] for e in passes)


def test_the_out_of_control_direction_reads_from_the_owners_side_on_every_other_phone_5_6():
    """5.6: the d10 is read from the owner's side of the board. The owner's phone says "towards
    you, on your right"; the others say "towards its player, on their right" (a new user's
    opponent was told "towards you")."""
    import re

    from missions.rules.possession import OUT_OF_CONTROL_DIRECTIONS
    from missions.rules.view import _direction_seen_by

    for result, words in OUT_OF_CONTROL_DIRECTIONS.items():
        roll = {"rolls": [result], "result": result, "direction": words}
        assert _direction_seen_by(roll, mine=True) == words
        theirs = _direction_seen_by(roll, mine=False)
        assert not re.search(r"\byour?\b", theirs), theirs
        assert theirs.split(" (")[0] == words.split(" (")[0]  # the same square
    assert _direction_seen_by(None, mine=False) == ""


def test_the_player_who_asked_to_stop_and_left_stays_the_one_who_asked_7_3_2_3():
    """Found by the 200-seed mission playouts (3 players, seed 121): with the table option
    ``surrender`` = ``loses`` (7.3.2.3 "Opponent surrender": the first player who asked to
    stop loses), Cid asked, Ann agreed, Cid's Guild left, Bob agreed: the app made Ann, who
    had only agreed, the one who asked (the lowest seat still agreeing), so she paid the
    defeat and Bob won. Cid asked first; his Guild left and never wins; Ann and Bob, who
    both agreed, end it as at a turn limit among themselves (one kill each: a draw), and Cid
    pays the defeat as the one who asked."""
    from missions.rules import resolution

    t = three(options={"surrender": "loses", "kills_win": "count"})
    run(t, 0, "kill.count", kind="mercenary", level=1)
    run(t, 1, "kill.count", kind="mercenary", level=1)
    run(t, 2, "surrender.vote", agree=True)
    run(t, 0, "surrender.vote", agree=True)
    leave(t, 2)
    run(t, 1, "surrender.vote", agree=True)
    assert t.state["ended"]["reason"] == "surrender" and t.state["ended"]["by"] == 2
    result = resolution.compute(t.state)
    assert (result["winner"], result["how"]) == (None, "draw")
    loss = t.state["setup"]["definition"]["rewards"]["loss"]["fame"]
    kill = t.state["setup"]["definition"]["rewards"]["kill"]["mercenary"]["fame"]
    fame = {g["seat"]: g["fame"] for g in result["guilds"]}
    assert fame == {0: kill, 1: kill, 2: -loss}

"""The end of the mission: the control objective, an objective achieved, surrender, total
elimination, the turn limit, escapes, and closing a lifecycle mission. Commands
``demloc.objective.control``, ``demloc.objective.achieve`` (a claim at the end of the turn) and
``demloc.objective.answer`` (the others confirm it), ``demloc.surrender.vote``,
``demloc.mission.end``, ``demloc.mission.close`` (server only), ``demloc.piece.escape``; their
events and folds. DemLoc rulebook 6.4.2 ("objective control", "objective achieved",
"surrender"), 7 and 7.3.2.3 (ending the game), 6.4.1 (resolution). Who wins is
``missions.rules.resolution``.

One ending (``finish``): whatever ends the mission (the turn limit, an objective achieved, the
control counter, an agreement to stop, total elimination, Guilds leaving) closes the turn in
progress with its end-of-turn effects, once (``close_turn``: ``demloc.turn.ended``), then emits
``demloc.mission.ended``; no turn starts that will not be played.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import ANYONE, Data, Decision, Topic, copy_json, say
from tabletop.rules import EventRecord

from . import score
from .cards import is_dignitary
from .common import (
    TURN_END,
    in_play,
    in_setup,
    name,
    own_piece,
    piece_name,
    play_command,
)
from .state import Claim, DemlocState, Ended

end = Topic("end")


# ------------------------------------------------------------------------ objective control
@play_command(end, "demloc.objective.control")
def objective_control(d: Decision, data: Data) -> None:
    """``{"action": start | suspend}``: the control counter runs for the acting player while
    only their characters hold the area (6.4.2). Raises ``no_objective``, ``bad_input``,
    ``no_change``."""
    objective = d.state["objective"]
    d.require(objective["target"] > 0, "no_objective", "This mission has no control objective.")
    action = data.choice(
        "action", ("start", "suspend"), code="bad_input", message="Start or suspend the counter."
    )
    if action == "start":
        d.require(
            not objective["counting"] or objective["seat"] != d.seat,
            "no_change",
            "The counter already runs for you.",
        )
    else:
        d.require(objective["counting"], "no_change", "The counter is not running.")
    d.emit("demloc.objective.counting", {"seat": d.seat, "counting": action == "start"})


def _counting_text(s: DemlocState, d: dict) -> str:
    o = s["objective"]
    if d["counting"]:
        return f"Objective counter runs for {name(s, d['seat'])} ({o['count']}/{o['target']})."
    return f"Objective counter suspended at {o['count']}/{o['target']}."


@end.evolver("demloc.objective.counting", label="changed the objective counter")
def objective_counting(s: DemlocState, e: EventRecord) -> None:
    o = s["objective"]
    o["counting"] = e.data["counting"]
    if e.data["counting"]:
        if o["seat"] != e.data["seat"]:
            o["count"] = 0
        o["seat"] = e.data["seat"]
    say(_counting_text(s, e.data))


@end.narrator("demloc.objective.counting")
def say_objective_counting(e: EventRecord, s: DemlocState) -> str:
    if e.data["counting"]:
        return f"Objective counter runs for {name(s, e.data['seat'])}."
    return "Objective counter suspended."


def on_the_board(s: DemlocState, seat: int | None) -> bool:
    """Whether ``seat`` has a character in play (its own, not possessed: a possessed one plays
    for the daemon, 7.2.3) and is still in the mission."""
    return seat not in s.get("left", []) and any(
        p["owner"] == seat and in_play(p) and not p["possessed"] for p in s["pieces"].values()
    )


def count_objective(s: DemlocState) -> None:
    """End of a turn: a running control counter counts one more turn held (6.4.2: the turns
    the area is held by the player's characters). A Guild with no character on the board (all
    killed, escaped or possessed, or it left the mission) holds nothing: the turn does not
    count."""
    objective = s["objective"]
    if not objective["counting"]:
        return
    if not on_the_board(s, objective["seat"]):
        say(
            f"{name(s, objective['seat'])} has no character on the board: the turn is not "
            "counted (6.4.2)."
        )
        return
    objective["count"] += 1
    say(
        f"Objective held by {name(s, objective['seat'])}: {objective['count']}/{objective['target']} turns."
    )


def control_reached(s: DemlocState) -> bool:
    """Whether the control objective is reached (6.4.2: the counter reached the turns to hold,
    for a Guild still in the mission)."""
    objective = s["objective"]
    return bool(
        objective["target"]
        and objective["count"] >= objective["target"]
        and objective["seat"] is not None
        and objective["seat"] not in s.get("left", [])
    )


# ------------------------------------------------------------------------ total elimination
def active_by_seat(s: DemlocState) -> dict[int, bool]:
    """``{seat: whether it has an active character}`` for every seat that owns a character:
    active is in play and not possessed (7.3.2.3)."""
    active: dict[int, bool] = {}
    for p in s["pieces"].values():
        active[p["owner"]] = active.get(p["owner"], False) or (in_play(p) and not p["possessed"])
    return active


def say_eliminated(s: DemlocState, before: dict[int, bool]) -> None:
    """Say who lost their last active character (7.3.2.3), and who has one again (a
    possessed character freed), since ``before`` (``active_by_seat`` before the event's
    fold). A Guild that left the mission is not eliminated, and a seat that owned no character
    before (the opening) gets none back. Says only: the state is not changed."""
    now = active_by_seat(s)
    left = s.get("left", [])
    for player in s["players"]:
        seat = player["seat"]
        was, is_ = before.get(seat), now.get(seat, False)
        if was and not is_ and seat not in left:
            say(f"{player['name']} is eliminated: no active character (7.3.2.3).")
        elif was is False and is_:
            say(f"{player['name']} has an active character again.")


def check_elimination(s: DemlocState) -> None:
    """Total elimination (7, 7.3.2.3), checked after every event of the mission in play
    (``DemlocRuleset.after_fold``), so it is seen when it happens: ``state["elimination"]`` is
    the last seat with characters in play (not possessed), -1 when nobody has any, -2 when one
    of 3-4 players is wiped out and the table option ``elimination`` is ``any``; None
    otherwise. ``state["elimination_since"]``: the turn it was first seen (see
    ``can_end_by_elimination``). The log says it (``say``) only when the situation changes."""
    if not s["players"] or not s["pieces"]:
        return
    alive = {p["owner"] for p in s["pieces"].values() if in_play(p) and not p["possessed"]}
    before = s.get("elimination")
    text = None
    if len(s["players"]) > 1 and len(alive) == 1:
        now: int | None = next(iter(alive))
        text = f"Only {name(s, now)} has characters in play: the game can end (total elimination)."
    elif not alive:
        now, text = -1, "Nobody has characters in play: the game can end."
    elif s["options"].get("elimination") == "any" and len(s["players"]) >= 3:
        out = [p for p in s["players"] if p["seat"] not in alive]
        now = -2 if out else None
        if out:
            text = (
                ", ".join(p["name"] for p in out)
                + " has no character in play: the game can end (7)."
            )
    else:
        now = None
    s["elimination"] = now
    if now != before:
        s["elimination_since"] = s["turn"] if now is not None else None
        if text:
            say(text)


def can_end_by_elimination(s: DemlocState) -> bool:
    """7.3.2.3: "when only one player has at least one active character at the end of the turn,
    it will be possible to tap end game": at the end of the turn it happened in (the last turn
    of a limited mission too), or any time in a later turn."""
    if s.get("elimination") is None:
        return False
    since = s.get("elimination_since")
    return s["phase"] == TURN_END or since is None or since < s["turn"]


# ------------------------------------------------------------------------ ending
#: Lifecycle missions whose objective a player reaches (6.4.1 objective revealing phase):
#: "turns" and "waves" end by turns or elimination, "control" by its counter (6.4.2).
OBJECTIVE_KINDS = ("objective", "relic")


def has_objective(s: DemlocState) -> bool:
    """Whether "objective achieved" applies (6.4.2 "in case of missions with an objective"):
    a lifecycle mission of an objective kind; a quick game plays a mission the app does not
    know, so its players may always claim it."""
    setup = s.get("setup")
    if not setup:
        return True
    return setup["definition"].get("kind") in OBJECTIVE_KINDS


#: 7.3.2.3 "the player who has reached the mission objective can tap the end game button" and
#: "when one of the players reaches the mission objective (at the end of the turn) it is
#: possible to tap end game"; 6.4.2 "players can select the objective achieved option instead
#: of next turn". The claim decides the winner and the app cannot see the board, so by default
#: (table option ``objective_claim``) the other players confirm it, as they do a surrender
#: ("if all the other players agree", 7.3.2.3); ``claimer``: the claimer's tap alone ends it.
CLAIM_CONFIRM = "confirm"
CLAIM_ALONE = "claimer"


def claim_of(s: DemlocState) -> Claim | None:
    """The objective claim waiting for the others' answer: ``{"seat", "turn", "agreed":
    [seats]}`` or None (older projections have no key)."""
    return s.get("claim")


def playing_seats(s: DemlocState) -> list[int]:
    """The seats still in the mission: a Guild that left it (``missions.rules.leave``, 6.4
    "disconnecting") no longer answers claims or votes on ending it."""
    gone = set(s.get("left", []))
    return [p["seat"] for p in s["players"] if p["seat"] not in gone]


def still_playing(d: Decision) -> None:
    """Refuse a claim, an answer or a vote from a seat whose Guild left the mission. Raises
    ``already_left``."""
    d.require(
        d.seat in playing_seats(d.state),
        "already_left",
        "Your Guild has left the mission: the players still in it decide.",
    )


def claim_waiting(s: DemlocState) -> list[int]:
    """The seats still playing that have to confirm the pending claim (empty without one)."""
    claim = claim_of(s)
    if not claim:
        return []
    return [
        seat for seat in playing_seats(s) if seat != claim["seat"] and seat not in claim["agreed"]
    ]


def can_claim(s: DemlocState) -> bool:
    """Whether "Objective achieved" may be tapped now: a mission with an objective, not
    ended, at the end of the turn (7.3.2.3), no claim already waiting."""
    return (
        s["ended"] is None and has_objective(s) and s["phase"] == TURN_END and claim_of(s) is None
    )


def no_claim_pending(s: DemlocState) -> None:
    """Refuse a turn change or an ending while an objective claim waits for an answer.
    Raises ``claim_pending``."""
    Decision.require(
        claim_of(s) is None,
        "claim_pending",
        "An objective claim waits for the other players: confirm or dispute it first.",
    )


@play_command(end, "demloc.objective.achieve")
def objective_achieve(d: Decision, data: Data) -> None:
    """The acting seat claims the mission's objective (6.4.2, 7.3.2.3): only in a mission with
    an objective to reach, at the end of the turn (both phases passed, instead of Next turn).
    With the default ``objective_claim`` option the others confirm it
    (``demloc.objective.answer``); with ``claimer`` (or when nobody else plays) the mission ends
    now. Undo takes the claim back. Raises ``no_objective``, ``not_turn_end``,
    ``claim_pending``."""
    s = d.state
    d.require(
        has_objective(s),
        "no_objective",
        "This mission has no objective to reach: it ends by its turns, its control "
        "counter or total elimination (6.4.2).",
    )
    d.require(
        s["phase"] == TURN_END,
        "not_turn_end",
        "An objective is achieved at the end of the turn (7.3.2.3): finish the strategic "
        "and brawl phases, then tap Objective achieved instead of Next turn.",
    )
    no_claim_pending(s)
    still_playing(d)
    alone = s["options"].get("objective_claim") == CLAIM_ALONE or len(playing_seats(s)) < 2
    if alone:
        finish(d, "objective", d.seat)
        return
    d.emit("demloc.objective.claimed", {"seat": d.seat, "turn": s["turn"]})


@play_command(end, "demloc.objective.answer")
def objective_answer(d: Decision, data: Data) -> None:
    """``{"agree": bool}``: another player confirms or disputes the pending objective claim
    (7.3.2.3, option ``objective_claim`` = ``confirm``). When every other player confirmed, the
    mission ends with the claimer as winner; one dispute withdraws the claim (play on: Next
    turn). Raises ``no_claim``, ``own_claim``, ``no_change``."""
    s = d.state
    claim = claim_of(s)
    d.require(claim is not None, "no_claim", "Nobody claims the objective now.")
    assert claim is not None
    d.require(
        d.seat != claim["seat"],
        "own_claim",
        "The other players confirm your claim; to take it back, tap Undo.",
    )
    still_playing(d)
    agree = data.bool("agree")
    if not agree:
        d.emit("demloc.objective.disputed", {"seat": d.seat, "claimer": claim["seat"]})
        return
    d.require(d.seat not in claim["agreed"], "no_change", "You already confirmed the claim.")
    d.emit("demloc.objective.agreed", {"seat": d.seat, "claimer": claim["seat"]})
    if not claim_waiting(d.state):
        finish(d, "objective", claim["seat"])


@end.evolver("demloc.objective.claimed", label="claimed the objective")
def objective_claimed(s: DemlocState, e: EventRecord) -> None:
    s["claim"] = {"seat": e.data["seat"], "turn": e.data["turn"], "agreed": []}
    say(say_objective_claimed(e, s))


@end.narrator("demloc.objective.claimed")
def say_objective_claimed(e: EventRecord, s: DemlocState) -> str:
    return (
        f"{name(s, e.data['seat'])} claims the mission objective at the end of turn "
        f"{e.data['turn']}: the other players confirm or dispute it (7.3.2.3)."
    )


@end.evolver("demloc.objective.agreed", label="confirmed the objective claim")
def objective_agreed(s: DemlocState, e: EventRecord) -> None:
    claim = claim_of(s)
    if claim is not None:
        claim["agreed"] = sorted({*claim["agreed"], e.data["seat"]})
    say(say_objective_agreed(e, s))


@end.narrator("demloc.objective.agreed")
def say_objective_agreed(e: EventRecord, s: DemlocState) -> str:
    return f"{name(s, e.data['seat'])} confirms {name(s, e.data['claimer'])}'s objective."


@end.evolver("demloc.objective.disputed", label="disputed the objective claim")
def objective_disputed(s: DemlocState, e: EventRecord) -> None:
    s["claim"] = None
    say(say_objective_disputed(e, s))


@end.narrator("demloc.objective.disputed")
def say_objective_disputed(e: EventRecord, s: DemlocState) -> str:
    return (
        f"{name(s, e.data['seat'])} disputes {name(s, e.data['claimer'])}'s objective: "
        "the claim is withdrawn, play on."
    )


@play_command(end, "demloc.surrender.vote")
def surrender_vote(d: Decision, data: Data) -> None:
    """``{"agree": bool}``: when every player still in the mission agrees, the mission ends
    (6.4.2 "surrender"). Raises ``already_left``."""
    still_playing(d)
    agree = data.bool("agree")
    d.emit("demloc.surrender.voted", {"agree": agree})
    if agree and set(d.state["surrender"]) >= set(playing_seats(d.state)):
        finish(d, "surrender", None)


@end.evolver("demloc.surrender.voted", label="voted on ending the mission")
def surrender_voted(s: DemlocState, e: EventRecord) -> None:
    votes: set[Any] = set(s["surrender"])
    votes = votes | {e.seat} if e.data["agree"] else votes - {e.seat}
    s["surrender"] = sorted(votes)
    # Who asked to stop (7.3.2.3 "can ask the other players"): the first to agree this turn;
    # one whose Guild left the mission since stays it (``missions.rules.leave``).
    asked = s.get("surrender_by")
    if asked is not None and asked in (s.get("left") or []):
        pass
    elif not votes:
        s["surrender_by"] = None
    elif asked not in votes:
        s["surrender_by"] = e.seat if e.data["agree"] else min(votes)
    say(say_surrender_voted(e, s))


@end.narrator("demloc.surrender.voted")
def say_surrender_voted(e: EventRecord, s: DemlocState) -> str:
    return f"{name(s, e.seat)} " + (
        "agrees to end the mission." if e.data["agree"] else "wants to play on."
    )


@play_command(end, "demloc.mission.end")
def mission_end(d: Decision, data: Data) -> None:
    """End the game on total elimination (``can_end_by_elimination``), or after the last turn
    of a limited mission (7.3.2.3). Elimination comes first: wiped out in the last turn, the
    last player standing wins, not the kill count. Raises ``claim_pending``, ``cannot_end``."""
    s = d.state
    no_claim_pending(s)
    limit = s["turn_limit"]
    if not can_end_by_elimination(s) and limit and s["turn"] >= limit and s["phase"] == TURN_END:
        finish(d, "turn_limit", None)
        return
    if can_end_by_elimination(s):
        # -2: a player of 3-4 is wiped out but several are left (option "any"): no one seat.
        finish(d, "elimination", None if s["elimination"] == -2 else s["elimination"])
        return
    d.require(
        False,
        "cannot_end",
        "The game ends by turn limit, objective, surrender or total elimination (7.3.2.3).",
    )


# ------------------------------------------------------------------------ one ending
def close_turn(d: Decision) -> None:
    """Close the turn in progress, once: ``demloc.turn.ended`` (its fold is the end-of-turn
    effects of ``turns.TURN_ORDER_TEXT``: 8.1 bleeding, 8.2 poison, 8.4 FURY's broken heart,
    the control counter 6.4.2). Nothing when this turn is closed already (or before turn 1)."""
    s = d.state
    if s["turn"] >= 1 and s.get("closed_turn") != s["turn"]:
        before = score.statuses(s)
        d.emit("demloc.turn.ended", {"turn": s["turn"]})
        score.credit_poison_kills(d, before)  # a death by the poison that grew (8.1, 8.2)


def finish(d: Decision, reason: str, seat: int | None) -> None:
    """The one ending of a mission, whatever ends it (turn limit, objective achieved, control
    counted, surrender, elimination, every Guild leaving; 6.4.2, 7, 7.3.2.3): the turn in
    progress is closed with its end-of-turn effects, once (``close_turn``), and no new turn
    starts; then ``demloc.mission.ended`` ``{"reason", "seat"}``.

    What the closing changed decides too: a control counter that reaches its turns on the
    closing wins by control, whatever else ended the mission (6.4.2 counts every turn held,
    the last one included, and "the app automatically stops the mission" then, as ``turn.next``
    does); on total elimination the last player standing is read after the end-of-turn deaths
    (-1 when nobody is left)."""
    s = d.state
    turn, closed = s["turn"], s.get("closed_turn") == s["turn"]
    stops = reason == "surrender" and s["options"].get("stop_turn_end", "close") == "none"
    if not stops:
        close_turn(d)
    s = d.state
    data: dict = {"reason": reason, "seat": seat}
    if reason == "surrender" and turn >= 1 and not closed:
        # what the agreement did to the turn in progress (``stop_words``), said at the end
        data["turn_end"] = {"turn": turn, "closed": not stops}
    if reason == "surrender" and s.get("surrender_by") is not None:
        data["by"] = s["surrender_by"]  # who asked first (option ``surrender``, resolution)
    if control_reached(s):
        reason, seat = "objective_control", s["objective"]["seat"]
        data.pop("by", None)
    if reason == "elimination" and seat is not None:
        alive = {p["owner"] for p in s["pieces"].values() if in_play(p) and not p["possessed"]}
        seat = next(iter(alive)) if len(alive) == 1 else (-1 if not alive else seat)
    data.update(reason=reason, seat=seat)
    d.emit("demloc.mission.ended", data)


def _and(names: list[str]) -> str:
    """``["Cid", "Dee", "Ann"]`` -> ``"Cid, Dee and Ann"``."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def ended_text(s: DemlocState, d: dict) -> str:
    why = {
        "turn_limit": "the last turn was played",
        "objective": f"{name(s, d['seat'])} achieved the objective",
        "objective_control": f"{name(s, d['seat'])} held the objective long enough",
        "surrender": "all players agreed to stop"
        + (
            f" ({name(s, d['by'])} surrenders)"
            if d.get("by") is not None and s["options"].get("surrender") == "loses"
            else ""
        ),
        "elimination": "total elimination"
        + (
            f" ({_and([name(s, seat) for seat in s['left']])} left the mission)"
            if s.get("left")
            else ""
        ),
    }[d["reason"]]
    said = d.get("turn_end")  # events before it was recorded: the bare line
    return f"The mission ends: {why}." + (f" {stop_words(s['options'], said['turn'], said['closed'])}." if said else "")


def turn_end_effects(options: dict) -> str:
    """What ticks at the end of a turn on this table (``TURN_ORDER_TEXT``; options
    ``bleeding`` and ``poison``): "bleeding and poison tick", "poison grows"."""
    ticks = [w for w, key, default in (("bleeding", "bleeding", "start"), ("poison", "poison", "end"))
             if options.get(key, default) == "end"]
    if not ticks:
        return "FURY, VIGOR and WEAKNESS end"
    return " and ".join(ticks) + (" tick" if len(ticks) > 1 else (" grows" if ticks == ["poison"] else " hits"))


def stop_words(options: dict, turn: int, closed: bool) -> str:
    """What an agreement to stop does to turn ``turn`` (option ``stop_turn_end``, 7.3.2.3):
    "Turn 3 ends first: poison grows", or "Stopped in turn 3: no end-of-turn effects"."""
    if closed:
        return f"Turn {turn} ends first: {turn_end_effects(options)} (7.3.2.3)"
    return f"Stopped in turn {turn}: no end-of-turn effects (table option)"


@end.evolver("demloc.mission.ended", label="ended the mission")
def mission_ended(s: DemlocState, e: EventRecord) -> None:
    """The mission is over; its last turn was closed just before (``finish``: a log from
    before the one ending has no ``demloc.turn.ended`` there and replays as it was)."""
    ended: Ended = {"reason": e.data["reason"], "seat": e.data["seat"]}
    if e.data.get("by") is not None:
        ended["by"] = e.data["by"]
    s["ended"] = ended
    s["claim"] = None
    say(ended_text(s, e.data))


@end.narrator("demloc.mission.ended")
def say_mission_ended(e: EventRecord, s: DemlocState) -> str:
    return ended_text(s, e.data)


@end.command("demloc.mission.close", policy=ANYONE)
def mission_close(d: Decision, data: Data) -> None:
    """Server only (``missions.services.mission_close``, seat None): the resolution was written
    into the guilds; the event is final, so undo can never reopen the mission. ``{"result"}``.
    Raises ``setup_first``, ``server_only``, ``not_a_mission``, ``not_ended`` (a closed mission
    is finished: the kit refuses a second close with ``game_over``)."""
    s = d.state
    d.require(not in_setup(s), "setup_first", "The mission is being prepared: finish that first.")
    d.require(d.seat is None, "server_only", "Close the mission from the resolution page.")
    d.require(s.get("setup") is not None, "not_a_mission", "This table has no mission.")
    d.require(s["ended"] is not None, "not_ended", "The mission has not ended yet.")
    result = data.get("result") or {}
    d.require(isinstance(result, dict), "bad_input", "The result is an object.")
    d.emit("demloc.mission.closed", {"result": result}, final=True)


@end.evolver("demloc.mission.closed", label="closed the mission")
def mission_closed(s: DemlocState, e: EventRecord) -> None:
    s["closed"] = copy_json(e.data["result"])
    say("The mission is closed: the guilds are updated.")


@end.narrator("demloc.mission.closed")
def say_mission_closed(e: EventRecord, s: DemlocState) -> str:
    return "The mission is closed: the guilds are updated."


# ------------------------------------------------------------------------ escape
@play_command(end, "demloc.piece.escape")
def piece_escape(d: Decision, data: Data) -> None:
    """``{"piece"}``: the character leaves the board by an escape (it counts for the
    resolution, 6.4.1). A dignitary cannot (7.2.1 "All characters (dignitaries excluded) could
    escape"; ``cards.is_dignitary``). Raises ``cannot_escape``."""
    p = own_piece(d, data)
    d.require(
        not is_dignitary(p),
        "cannot_escape",
        f"{p['name']} is a dignitary: dignitaries cannot escape (7.2.1).",
    )
    d.emit("demloc.piece.escaped", {"piece": p["id"]})


@end.evolver("demloc.piece.escaped", label="marked a character escaped")
def piece_escaped(s: DemlocState, e: EventRecord) -> None:
    p = s["pieces"][e.data["piece"]]
    p["status"] = "escaped"
    say(f"{p['name']} leaves the board: escaped.")


@end.narrator("demloc.piece.escaped")
def say_piece_escaped(e: EventRecord, s: DemlocState) -> str:
    return f"{piece_name(s, e.data['piece'])} leaves the board: escaped."

"""Turns: the phases and who acts, the first-player draw, the turn change with its effects in
order, and activations (movement tokens). Commands ``demloc.phase.next``, ``demloc.turn.next``,
``demloc.movement.set``; events ``demloc.phase.advanced``, ``demloc.turn.ended`` (the end of
the turn: its effects, once; also before the mission ends, ``end.finish``),
``demloc.turn.started``, ``demloc.movement.set``. DemLoc rulebook 7 ("First player playing"), 7.1, 7.2, 7.3, 7.3.2.3
(game turn end), 6.4.1 (waves), 6.4.2 ("next turn"), 8.1-8.4 (effects that last a turn).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, say
from tabletop.rules import EventRecord, counted

from . import end, possession, score, setup_script
from .common import (
    BRAWL,
    STRATEGIC,
    TURN_END,
    in_play,
    name,
    no_pending,
    own_piece,
    piece_name,
    play_command,
)
from .damage import add_broken_hearts, tick
from .possession import out_of_control
from .state import DemlocState, Notice
from .summoning import settle

turns = Topic("turns")

PHASES = {
    STRATEGIC: "Strategic phase: free movement, shooting, arcane",
    BRAWL: "Brawl phase: engaging movement, hand-to-hand",
    TURN_END: "Turn over: all movement tokens back to active, then Next turn",
}

#: 7: "whoever was the first player in the previous turn will be less likely to be drawn".
#: Our weights: the previous first player 1, every other player 2 (turn 1: everybody 1).
PREVIOUS_FIRST_WEIGHT = 1
OTHER_WEIGHT = 2


def first_player_weights(seats: list[int], previous: int | None) -> list[int]:
    """Draw weights for ``seats`` (in table order): 1 for ``previous`` first player, 2 for the
    others; all 1 when there is no previous first player. E.g. 2 players: 1/3 and 2/3; 3
    players: 1/5, 2/5, 2/5; 4 players: 1/7 and 2/7 each."""
    if previous is None:
        return [1 for _ in seats]
    return [PREVIOUS_FIRST_WEIGHT if s == previous else OTHER_WEIGHT for s in seats]


def first_player_odds(seats: list[int], previous: int | None) -> list[tuple[int, float]]:
    """``[(seat, probability), ...]`` of the next draw, probabilities summing to 1."""
    weights = first_player_weights(seats, previous)
    total = sum(weights)
    return [(s, w / total) for s, w in zip(seats, weights, strict=True)]


def draw_first_player(rng, seats: list[int], previous: int | None) -> int:
    """Draw the first player of a turn with ``rng`` (``first_player_weights``)."""
    return seats[rng.weighted_index(first_player_weights(seats, previous))]


def clockwise_from(seats: list[int], first: int) -> list[int]:
    """``seats`` in playing order starting with ``first`` (clockwise = table order, 7)."""
    i = seats.index(first)
    return seats[i:] + seats[:i]


#: The order in which "Next turn" applies its effects (6.4.2, 7.2.3, 7.3.2.3, 8.1-8.4).
TURN_ORDER_TEXT = (
    "End of the turn, in this order: bleeding (if the table plays it at the end), poison (if "
    "at the end), FURY's broken heart, VIGOR and WEAKNESS expire, movement tokens back to "
    "active (not for a character summoning a daemon), the objective counter. Then the first "
    "player is drawn, and the start of the new turn: bleeding (if at the start), poison (if at "
    "the start), possession (a broken heart or armor token and an out-of-control direction for "
    "each possessed character). Total elimination is checked last (and after every event)."
)


# ------------------------------------------------------------------------ phases
@play_command(turns, "demloc.phase.next")
def phase_next(d: Decision, data: Data) -> None:
    """The acting player passes (7.2, 7.3): the next player clockwise acts; after the last one
    the brawl phase starts, then the turn is over (not with a calculation waiting: it would be
    applied after the turn, 7.3.2.3). Raises ``turn_over``, ``not_your_phase``,
    ``calc_pending``."""
    s = d.state
    d.require(s["phase"] != TURN_END, "turn_over", "The turn is over: tap Next turn.")
    acting = s["play_order"][s["acting_index"]]
    if s["options"].get("control") != "anyone":
        d.require(d.seat == acting, "not_your_phase", "Wait for the acting player to pass.")
    index, phase = s["acting_index"] + 1, s["phase"]
    if index >= len(s["play_order"]):
        index = 0
        phase = BRAWL if phase == STRATEGIC else TURN_END
    if phase == TURN_END:  # 7.3.2.3: nothing is applied once the turn is over
        no_pending(s)
    # The turn rides with the event so its line reads right whatever turn the table is on now.
    # Who passed and who acts next ride with the event too: the live log narrates old events
    # against today's state, whose play order a new turn has redrawn.
    d.emit("demloc.phase.advanced",
           {"phase": phase, "acting_index": index, "turn": s["turn"], "passed": acting,
            "acts": s["play_order"][index]})


def _phase_text(s: DemlocState, phase: str, index: int, turn: int, acts: int | None = None) -> str:
    """The line of a pass: the phase now and who acts (``acts``, else the ``index`` of today's
    play order, for events logged before ``acts`` was kept)."""
    if phase == TURN_END:
        limit = s.get("turn_limit")
        if limit and turn >= limit:  # the last turn (6.4.2): no Next turn (its bar: End game)
            return f"Turn {turn} is over: it was the last, end the game."
        return f"Turn {turn} is over: all movement tokens go back to active with Next turn."
    label = "Strategic" if phase == STRATEGIC else "Brawl"
    seat = acts if acts is not None else s["play_order"][index]
    return f"{label} phase: {name(s, seat)} acts."


@turns.evolver("demloc.phase.advanced", label="passed")
def phase_advanced(s: DemlocState, e: EventRecord) -> None:
    s["phase"] = e.data["phase"]
    s["acting_index"] = e.data["acting_index"]
    say(_passed(s, e) + _phase_text(s, s["phase"], s["acting_index"], s["turn"]))


def _passed(s: DemlocState, e: EventRecord) -> str:
    """"Ann passes. ": who passed (the acting player, whoever tapped; an event logged before
    ``passed`` was kept names the seat that tapped)."""
    seat = e.data.get("passed", e.seat)
    return f"{name(s, seat)} passes. " if seat is not None else ""


@turns.narrator("demloc.phase.advanced")
def say_phase_advanced(e: EventRecord, s: DemlocState) -> str:
    if e.data["phase"] != TURN_END and not s.get("play_order"):
        return "Passed."
    return _passed(s, e) + _phase_text(
        s, e.data["phase"], e.data["acting_index"], e.data.get("turn", s.get("turn", 0)),
        e.data.get("acts"),
    )


# ------------------------------------------------------------------------ the turn change
@play_command(turns, "demloc.turn.next")
def turn_next(d: Decision, data: Data) -> None:
    """Next turn (6.4.2, 7.3.2.3): closes the turn (``demloc.turn.ended``: its end-of-turn
    effects), then draws the first player and each possessed character's out-of-control d10
    (5.6, 7.2.3). A control objective held long enough at the end of this turn ends the
    mission at once (6.4.2 "the app automatically stops the mission"): the next turn never
    starts (no bleeding, possession, wave or event of a turn nobody plays). Raises
    ``turn_not_over``, ``calc_pending``, ``claim_pending``, ``turn_limit``."""
    s = d.state
    d.require(
        s["phase"] == TURN_END, "turn_not_over", "Finish the strategic and brawl phases first."
    )
    no_pending(s)
    end.no_claim_pending(s)
    limit = s["turn_limit"]
    d.require(
        not limit or s["turn"] < limit, "turn_limit", f"Turn {limit} was the last: end the game."
    )
    end.close_turn(d)
    s = d.state
    if end.control_reached(s):
        end.finish(d, "objective_control", s["objective"]["seat"])
        return
    seats = end.playing_seats(s)  # a Guild that left the mission no longer plays (6.4)
    first = draw_first_player(d.rng, seats, s["first"])
    ooc = {
        p["id"]: out_of_control(d.rng)
        for p in s["pieces"].values()
        if in_play(p) and p["possessed"]
    }
    started = {
        "turn": s["turn"] + 1,
        "first": first,
        "seats": seats,
        "weights": first_player_weights(seats, s["first"]),
        "ooc": ooc,
    }
    if s["surrender"]:  # an agreement to stop is for the turn it was given in (LAPSE_TEXT)
        started["lapsed"] = list(s["surrender"])
    before = score.statuses(s)
    d.emit("demloc.turn.started", started)
    score.credit_poison_kills(d, before)  # the poison at the turn's start (option ``poison``)


def _end_of_turn(s: DemlocState) -> None:
    """The end-of-turn effects of ``TURN_ORDER_TEXT`` (8.1 bleeding and 8.2 poison when the
    table plays them at the end, FURY's broken heart 8.4, VIGOR and WEAKNESS expire, movement
    tokens back to active, the control counter 6.4.2), applied once per turn played: the turn
    is marked closed (``closed_turn``)."""
    say(f"End of turn {s['turn']}.")
    tick(s, "end")
    for pid, p in list(s["pieces"].items()):
        if not in_play(p):
            continue
        if p["fury"] > 0:
            p, more = add_broken_hearts(p, 1)
            p["fury"] -= 1
            say(f"{p['name']}'s FURY costs a broken heart ({counted(p['fury'], 'turn')} left).")
            say(*more)
        p["vigor"] = 0
        p["weakness"] = 0
        if in_play(p) and not p["summoning"]:
            p["movement"] = "active"
        s["pieces"][pid] = p
    settle(s)
    end.count_objective(s)
    s["closed_turn"] = s["turn"]


@turns.evolver("demloc.turn.ended", label="closed the turn")
def turn_ended(s: DemlocState, e: EventRecord) -> None:
    """``{"turn"}``: the end of the turn in progress (``_end_of_turn``), before the next turn
    starts or the mission ends (``end.close_turn``)."""
    if s.get("closed_turn") != s["turn"]:
        _end_of_turn(s)


@turns.narrator("demloc.turn.ended")
def say_turn_ended(e: EventRecord, s: DemlocState) -> str:
    return f"End of turn {e.data['turn']}."


@turns.evolver("demloc.turn.started", label="started a new turn")
def turn_started(s: DemlocState, e: EventRecord) -> None:
    """In the order of ``TURN_ORDER_TEXT``."""
    d = e.data
    if s["turn"] >= 1 and s.get("closed_turn") != s["turn"]:
        # A log from before ``demloc.turn.ended``: the turn change closed the turn itself.
        _end_of_turn(s)
    s["turn"] = d["turn"]
    s["previous_first"] = s["first"]
    s["first"] = d["first"]
    s["weights"] = list(d["weights"])
    seats = end.playing_seats(s)
    s["play_order"] = clockwise_from(seats, d["first"])
    s["acting_index"] = 0
    s["phase"] = STRATEGIC
    s["surrender"] = []
    s["surrender_by"] = None
    s["claim"] = None
    s["notice"] = None  # last turn's notice (a stray shot, a replaced daemon) is done with
    say(_turn_text(s, d))
    if d.get("lapsed"):
        say(_lapsed_text(s, d["lapsed"]))
    tick(s, "start")
    possession.turn_start(s, d.get("ooc", {}))
    settle(s)
    wave = [p["id"] for p in s["pieces"].values() if p.get("enters", 1) == d["turn"] > 1]
    if wave:
        notice: Notice = {"kind": "wave", "turn": d["turn"], "pieces": wave}
        s["notice"] = notice
        say(wave_text(s, notice))
    setup_script.apply_events(s, d["turn"])


def _turn_text(s: DemlocState, d: dict) -> str:
    """"Turn 2: Cid plays first (draw odds Ann 1/3, Cid 2/3).": the weights are those of the
    seats drawn among (``seats``, the players still in the mission; an event logged before
    ``seats`` was kept names every player, as its weights did then)."""
    seats = d.get("seats") or [p["seat"] for p in s["players"]]
    if len(seats) != len(d["weights"]):
        seats = end.playing_seats(s)
    total = sum(d["weights"])
    odds = ", ".join(
        f"{name(s, st)} {w}/{total}" for st, w in zip(seats, d["weights"], strict=False)
    )
    return f"Turn {d['turn']}: {name(s, d['first'])} plays first (draw odds {odds})."


def wave_text(s: DemlocState, notice: Notice) -> str:
    """The words of a wave notice (6.4.1)."""
    names = ", ".join(piece_name(s, pid) for pid in notice["pieces"])
    definition = (s.get("setup") or {}).get("definition") or {}
    wave = setup_script.wave_at(definition, notice["turn"]) or {}
    how = f" {wave['text']}" if wave.get("text") else ""
    closed = s.get("closed_areas") or []
    shut = f" Closed: {', '.join(closed)}." if closed else ""
    return (
        f"Turn {notice['turn']}: the next wave enters. Take the cards and miniatures of {names} "
        f"and place them now (6.4.1).{how}{shut}"
    )


def _lapsed_text(s: DemlocState, seats: list[int]) -> str:
    """The log's line for agreements to stop that lapsed. An agreement to stop the mission
    (6.4.2 "Opponent surrender": a player "can ask the other players the possibility to end the
    mission. If all the other players agree, it is possible to tap 'end game'") is read as an
    answer to that ask, now: it lapses when the turn changes (the table may look different a
    turn later); the log says so, and the page says so under the button."""
    names = " and ".join(name(s, seat) for seat in seats)
    return (
        f"{names}'s agreement to stop lapses with the new turn: tap Agree to stop again to end "
        "the mission."
    )


@turns.narrator("demloc.turn.started")
def say_turn_started(e: EventRecord, s: DemlocState) -> str:
    parts = [_turn_text(s, e.data)]
    if e.data.get("lapsed"):
        parts.append(_lapsed_text(s, e.data["lapsed"]))
    for pid, roll in e.data.get("ooc", {}).items():
        where = roll["direction"] or "no effect (5)"
        parts.append(
            f"{piece_name(s, pid)} moves out of control: d10 {'/'.join(map(str, roll['rolls']))} -> {where}."
        )
    parts += setup_script.say_events(s, e.data["turn"])
    return " ".join(parts)


# ------------------------------------------------------------------------ activations
@play_command(turns, "demloc.movement.set")
def movement_set(d: Decision, data: Data) -> None:
    """``{"piece", "state": active | exhausted}``: turn a movement token (7.2). A summoner's
    stays exhausted while its daemon plays (7.2.3.2). Raises ``bad_input``, ``summoning``,
    ``no_change``."""
    p = own_piece(d, data)
    value = data.choice(
        "state",
        ("active", "exhausted"),
        code="bad_input",
        message="A movement token is active or exhausted.",
    )
    if value == "active":
        d.require(
            not p["summoning"],
            "summoning",
            f"{p['name']} cannot move while its daemon plays (7.2.3.2).",
        )
    d.require(p["movement"] != value, "no_change", f"The movement token is already {value}.")
    d.emit("demloc.movement.set", {"piece": p["id"], "state": value})


@turns.evolver("demloc.movement.set", label="turned a movement token")
def movement_changed(s: DemlocState, e: EventRecord) -> None:
    p = s["pieces"][e.data["piece"]]
    p["movement"] = e.data["state"]
    say(f"{p['name']}'s movement token: {e.data['state']}.")


@turns.narrator("demloc.movement.set")
def say_movement_set(e: EventRecord, s: DemlocState) -> str:
    return f"{piece_name(s, e.data['piece'])}'s movement token: {e.data['state']}."

"""At a physical table: players use their real cards; the app keeps the
Leader's cadence, the three sin gauges, the Courage hand limit and the score, with a scoring
assistant where a player taps each seal and the values of the cards it touches.

State (``mode == "physical"``): ``round`` 1-3, ``turn`` 1-6, ``step`` one of ``STEPS`` then
``scoring`` and ``end``, ``leader``, and per player ``sins``, ``courage`` (a count),
``score``, ``ready`` and ``seals`` (the seals scored this round: lists of values).
Commands: ``pd.phys.ready``, ``pd.phys.sin``, ``pd.phys.pay``, ``pd.phys.courage``,
``pd.phys.seal``, ``pd.phys.points``.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision, parse_int
from tabletop.rules import EventRecord, require

from .common import SINS, AppTopic, score_display
from .state import State

physical = AppTopic("physical", physical=True)

STEPS = ("place", "reveal", "sin", "seal", "bonus", "pass")
PROMPTS = {
    "place": "Tell all players to pick and place a card.",
    "reveal": "Check that all players have placed their card, then say 'reveal'.",
    "sin": "Remind all players to gain their sins.",
    "seal": "Remind all players to seal their demons.",
    "bonus": "Check if any players wish to take ONE bonus action.",
    "pass": "Check if all players are ready, then say 'pass'.",
    "scoring": "Score your seals, Knights and Courage.",
    "end": "Discard Knights and Fragments, take Courage, keep three, deal the next round.",
    "over": "The ritual is over. Everyone wins in therapy.",
}


def started(seats: list[str], leader: int) -> dict[str, Any]:
    """The opening state of a physical-table game."""
    return {
        "mode": "physical",
        "phase": "physical",
        "round": 1,
        "turn": 1,
        "step": "place",
        "leader": leader,
        "winners": [],
        "players": [
            {
                "name": n,
                "sins": {s: 0 for s in SINS},
                "courage": 1,
                "score": 0,
                "ready": False,
                "seals": [],
            }
            for n in seats
        ],
    }


@physical.evolver("pd.phys.started", label="began the ritual with real cards")
def _started(s: State, e: EventRecord) -> None:
    s.clear()  # type: ignore[attr-defined]
    s.update(started(e.data["seats"], e.data["leader"]))  # type: ignore[typeddict-item]


@physical.command("pd.phys.ready", policy="seated")
def ready(d: Decision, data: Data) -> None:
    """I am ready: when everyone is, the Leader's cadence moves on (rulebook "Summoning
    Phase", LEADER lines). Raises ``already_ready``."""
    players = d.state["players"]
    require(not players[d.seat]["ready"], "already_ready", "You are already ready.")
    d.emit("pd.phys.readied", {"seat": d.seat})
    if all(q["ready"] for q in players):
        d.emit("pd.phys.advanced", {"seat": None, **_next(d.state)})


def _sin_amount(data: Data) -> tuple[str, int]:
    sin = data.choice("sin", SINS, code="bad_sin", message="Choose glut, hate or want.")
    amount = data.int(
        "amount", lo=1, hi=6, default=1, code="bad_amount", message="An amount from 1 to 6."
    )
    return sin, amount


@physical.command("pd.phys.sin")
def gain(d: Decision, data: Data) -> None:
    """``{"sin", "amount": 1..6}``: raise a gauge; no gauge exceeds six, excess is lost
    (rulebook "Sin"). Raises ``bad_sin``, ``bad_amount``."""
    sin, amount = _sin_amount(data)
    value = min(6, d.state["players"][d.seat]["sins"][sin] + amount)
    d.emit("pd.phys.sin_set", {"seat": d.seat, "sin": sin, "value": value})


@physical.command("pd.phys.pay")
def pay(d: Decision, data: Data) -> None:
    """``{"sin", "amount": 1..6}``: pay a cost from one gauge (FAQ). Raises ``bad_sin``,
    ``bad_amount``, ``not_enough_sin``."""
    sin, amount = _sin_amount(data)
    have = d.state["players"][d.seat]["sins"][sin]
    require(have >= amount, "not_enough_sin", f"You need {amount} {sin}; you have {have}.")
    d.emit("pd.phys.sin_set", {"seat": d.seat, "sin": sin, "value": have - amount})


@physical.command("pd.phys.courage")
def courage(d: Decision, data: Data) -> None:
    """``{"delta": 1|-1}``: take or discard one Courage card (the page warns above three).
    Raises ``bad_amount``, ``no_courage``."""
    delta = data.choice(
        "delta", (1, -1), code="bad_amount", message="Take or discard one Courage card at a time."
    )
    count = d.state["players"][d.seat]["courage"] + delta
    require(count >= 0, "no_courage", "You have no Courage card to discard.")
    d.emit("pd.phys.courage_set", {"seat": d.seat, "count": count})


@physical.command("pd.phys.seal")
def seal(d: Decision, data: Data) -> None:
    """``{"values": [v, ...]}`` (1-4 values 0..20, or ``"2+3+1"``): one active seal scored, the
    sum of the values of the cards it touches (rulebook "Scoring"). Raises ``wrong_step``,
    ``bad_values``."""
    require(d.state["step"] == "scoring", "wrong_step", "Seals are scored in the scoring phase.")
    message = "Tap the value of each card the seal touches (1 to 4 cards)."
    raw = data.list("values", max_items=8, default=[], code="bad_values", message=message)
    items: list[Any] = []
    for item in raw:
        items += (
            item.replace("+", " ").replace(",", " ").split() if isinstance(item, str) else [item]
        )
    values = [parse_int(v) for v in items]
    require(
        1 <= len(values) <= 4 and all(v is not None and 0 <= v <= 20 for v in values),
        "bad_values",
        message,
    )
    clean = [int(v) for v in values if v is not None]
    d.emit("pd.phys.seal_scored", {"seat": d.seat, "values": clean, "points": sum(clean)})


@physical.command("pd.phys.points")
def points(d: Decision, data: Data) -> None:
    """``{"points": -50..50, not 0, "reason"?}``: points the assistant does not count (Knights,
    Courage, a Fear). Raises ``bad_points``."""
    value = data.int("points", lo=-50, hi=50, code="bad_points", message="Points from -50 to 50.")
    require(value != 0, "bad_points", "Points from -50 to 50.")
    reason = data.str("reason", max_length=200, default="", code="bad_points")[:40]
    d.emit("pd.phys.points_added", {"seat": d.seat, "points": value, "reason": reason})


def _next(state: State) -> dict[str, Any]:
    step, turn, rnd = state["step"], state["turn"], state["round"]
    n = len(state["players"])
    if step in STEPS and step != "pass":
        return {"step": STEPS[STEPS.index(step) + 1]}
    if step == "pass":
        leader = (state["leader"] + 1) % n  # the Leader card passes with the hand
        if turn < 6:
            return {"step": "place", "turn": turn + 1, "leader": leader}
        return {"step": "scoring", "leader": leader}
    if step == "scoring":
        if rnd >= 3:
            scores = [p["score"] for p in state["players"]]
            return {
                "step": "over",
                "winners": [i for i, s in enumerate(scores) if s == max(scores)],
            }
        return {"step": "end"}
    return {"step": "place", "turn": 1, "round": rnd + 1}  # after the end phase


@physical.evolver("pd.phys.readied", label="is ready")
def _readied(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["ready"] = True  # type: ignore[typeddict-unknown-key]


@physical.evolver("pd.phys.advanced", label="moved the ritual on")
def _advanced(s: State, e: EventRecord) -> None:
    d = e.data
    for key in ("step", "turn", "round", "leader", "winners"):
        if key in d:
            s[key] = d[key]  # type: ignore[literal-required]
    for p in s["players"]:
        p["ready"] = False  # type: ignore[typeddict-unknown-key]
        if d.get("step") == "scoring":
            p["seals"] = []  # type: ignore[typeddict-unknown-key]
    if d.get("step") == "over":
        s["phase"] = "over"


@physical.evolver("pd.phys.sin_set", label="changed a sin gauge")
def _sin_set(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["sins"][e.data["sin"]] = e.data["value"]


@physical.evolver("pd.phys.courage_set", label="changed Courage")
def _courage_set(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["courage"] = e.data["count"]  # type: ignore[typeddict-item]


@physical.evolver("pd.phys.seal_scored", label="scored a seal")
def _seal_scored(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    p["score"] += e.data["points"]
    p["seals"] = p["seals"] + [e.data["values"]]  # type: ignore[typeddict-item]


@physical.evolver("pd.phys.points_added", label="scored points")
def _points_added(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["score"] += e.data["points"]


def view(state: Any, seat: int | None) -> dict[str, Any]:
    """Everything is public at a physical table (the cards stay in the players' hands)."""
    players = state["players"]
    me = seat is not None and 0 <= seat < len(players)
    return {
        "mode": "physical",
        "phase": state["phase"],
        "step": state["step"],
        "round": state["round"],
        "turn": state["turn"],
        "leader": state["leader"],
        "leader_name": players[state["leader"]]["name"],
        "prompt": PROMPTS[state["step"]],
        "steps": list(STEPS),
        "seat": seat,
        "waiting_names": [p["name"] for p in players if not p["ready"]]
        if state["step"] != "over"
        else [],
        "winner_names": [players[i]["name"] for i in state.get("winners", [])],
        "players": [
            {
                "seat": i,
                "name": p["name"],
                "me": i == seat,
                "leader": i == state["leader"],
                "ready": p["ready"],
                "score": p["score"],
                "score_display": score_display(p["score"]),
                "sins": [{"sin": s, "value": p["sins"][s]} for s in SINS],
                "courage": p["courage"],
                "courage_over": p["courage"] > 3,
                "seals": p["seals"],
            }
            for i, p in enumerate(players)
        ],
        "self": None
        if not me
        else {
            **players[seat],
            "score_display": score_display(players[seat]["score"]),
            "sins": [{"sin": s, "value": players[seat]["sins"][s]} for s in SINS],
            "courage_over": players[seat]["courage"] > 3,
        },
    }

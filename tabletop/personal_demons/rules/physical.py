"""At a physical table (issue 9, item 9): players use their real cards; the app keeps the
Leader's cadence, the three sin gauges, the Courage hand limit and the score, with a scoring
assistant where a player taps each seal and the values of the cards it touches.

State (``mode == "physical"``): ``round`` 1-3, ``turn`` 1-6, ``step`` one of ``STEPS`` then
``scoring`` and ``end``, ``leader``, and per player ``sins``, ``courage`` (a count),
``score``, ``ready`` and ``seals`` (the seals scored this round: lists of values).
Commands: ``pd.phys.ready``, ``pd.phys.sin``, ``pd.phys.pay``, ``pd.phys.courage``,
``pd.phys.seal``, ``pd.phys.points``.
"""

from __future__ import annotations

from tabletop.errors import RuleViolation

STEPS = ("place", "reveal", "sin", "seal", "bonus", "pass")
SINS = ("glut", "hate", "want")
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


def started(seats: list[str], leader: int) -> dict:
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
                "name": name,
                "sins": {s: 0 for s in SINS},
                "courage": 1,
                "score": 0,
                "ready": False,
                "seals": [],
            }
            for name in seats
        ],
    }


def decide(state: dict, type_: str, seat: int, data: dict) -> list[tuple[str, dict]]:
    """The events of one command as ``[(type, data)]``; raises ``RuleViolation``."""
    if state["step"] == "over":
        raise RuleViolation("game_over", "The ritual is over.")
    p = state["players"][seat]
    if type_ == "pd.phys.ready":
        if p["ready"]:
            raise RuleViolation("already_ready", "You are already ready.")
        events = [("pd.phys.readied", {"seat": seat})]
        if all(q["ready"] or i == seat for i, q in enumerate(state["players"])):
            events.append(("pd.phys.advanced", {"seat": None, **_next(state)}))
        return events
    if type_ in ("pd.phys.sin", "pd.phys.pay"):
        sin = data.get("sin")
        if sin not in SINS:
            raise RuleViolation("bad_sin", "Choose glut, hate or want.")
        amount = data.get("amount", 1)
        if not isinstance(amount, int) or not 1 <= amount <= 6:
            raise RuleViolation("bad_amount", "An amount from 1 to 6.")
        have = p["sins"][sin]
        if type_ == "pd.phys.pay":
            if have < amount:
                raise RuleViolation("not_enough_sin", f"You need {amount} {sin}; you have {have}.")
            value = have - amount
        else:
            value = min(6, have + amount)  # no gauge exceeds six; excess is lost
        return [("pd.phys.sin_set", {"seat": seat, "sin": sin, "value": value})]
    if type_ == "pd.phys.courage":
        delta = data.get("delta")
        if delta not in (1, -1):
            raise RuleViolation("bad_amount", "Take or discard one Courage card at a time.")
        count = p["courage"] + delta
        if count < 0:
            raise RuleViolation("no_courage", "You have no Courage card to discard.")
        return [("pd.phys.courage_set", {"seat": seat, "count": count})]
    if type_ == "pd.phys.seal":
        if state["step"] != "scoring":
            raise RuleViolation("wrong_step", "Seals are scored in the scoring phase.")
        values = data.get("values")
        if isinstance(values, str):
            try:
                values = [int(v) for v in values.replace("+", " ").replace(",", " ").split()]
            except ValueError:
                values = None
        if isinstance(values, int):
            values = [values]
        if isinstance(values, list):
            values = [v for v in values if v != ""]  # a form's unused value pickers
        if not (
            isinstance(values, list)
            and 1 <= len(values) <= 4
            and all(isinstance(v, int) and 0 <= v <= 20 for v in values)
        ):
            raise RuleViolation(
                "bad_values", "Tap the value of each card the seal touches (1 to 4 cards)."
            )
        return [("pd.phys.seal_scored", {"seat": seat, "values": values, "points": sum(values)})]
    if type_ == "pd.phys.points":
        points = data.get("points")
        if not isinstance(points, int) or not -50 <= points <= 50 or points == 0:
            raise RuleViolation("bad_points", "Points from -50 to 50.")
        return [
            (
                "pd.phys.points_added",
                {"seat": seat, "points": points, "reason": str(data.get("reason", ""))[:40]},
            )
        ]
    raise RuleViolation("unknown_command", "Unknown command.")


def _next(state: dict) -> dict:
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


def evolve(s: dict, type_: str, d: dict) -> None:
    """Apply one physical-table event to the fresh copy ``s``."""
    if type_ == "pd.phys.readied":
        s["players"][d["seat"]]["ready"] = True
    elif type_ == "pd.phys.advanced":
        for key in ("step", "turn", "round", "leader", "winners"):
            if key in d:
                s[key] = d[key]
        for p in s["players"]:
            p["ready"] = False
            if d.get("step") == "scoring":
                p["seals"] = []
        if d.get("step") == "over":
            s["phase"] = "over"
    elif type_ == "pd.phys.sin_set":
        s["players"][d["seat"]]["sins"][d["sin"]] = d["value"]
    elif type_ == "pd.phys.courage_set":
        s["players"][d["seat"]]["courage"] = d["count"]
    elif type_ == "pd.phys.seal_scored":
        p = s["players"][d["seat"]]
        p["score"] += d["points"]
        p["seals"] = p["seals"] + [d["values"]]
    elif type_ == "pd.phys.points_added":
        s["players"][d["seat"]]["score"] += d["points"]
    else:
        raise ValueError(f"unknown event {type_}")


def view(state: dict, seat: int | None) -> dict:
    """Everything is public at a physical table (the cards stay in the players' hands)."""
    from .views import score_display

    players = state["players"]
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
        if seat is None
        else {
            **players[seat],
            "score_display": score_display(players[seat]["score"]),
            "sins": [{"sin": s, "value": players[seat]["sins"][s]} for s in SINS],
            "courage_over": players[seat]["courage"] > 3,
        },
    }

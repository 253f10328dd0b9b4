"""What each player counts during the mission: fate points, kills and relic tokens (commands
``demloc.fate.spend``, ``demloc.fate.gain``, ``demloc.kill.count``, ``demloc.relic.take``; their
events and folds). DemLoc rulebook 6.4.2 ("fate points", "kill counter"), 7.2.1 (fate points
lower a roll; relics count only on mercenaries), 6.4.1 (the resolution counts kills and relics: ``missions.rules.resolution``).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from . import activation
from .common import NO_LINES, P, name, num, own_piece, piece_name, play_command, player

score = Topic("score")
KILL_KINDS = ("mercenary", "follower", "daemon")


@play_command(score, P + "fate.spend")
def fate_spend(d: Decision, data: Data) -> None:
    """``{"amount": 1..10, "reason"}``: never below 0. Raises ``not_enough_fate``."""
    amount = num(data, "amount", 1, 1, 10)
    d.require(
        player(d.state, d.seat)["fate"] >= amount,
        "not_enough_fate",
        "Not enough fate points (never below 0).",
    )
    d.emit(
        P + "fate.spent", {"amount": amount, "reason": str(data.get("reason") or "an ability")[:80]}
    )


@score.evolver(P + "fate.spent", label="spent fate points")
def fate_spent(s: dict, e: EventRecord, lines: list[str] = NO_LINES) -> None:
    p = player(s, e.seat)
    p["fate"] -= e.data["amount"]
    lines.append(
        f"{p['name']} spends {e.data['amount']} fate point(s) on {e.data['reason']} ({p['fate']} left)."
    )


@score.narrator(P + "fate.spent")
def say_fate_spent(e: EventRecord, s: dict) -> str:
    return f"{name(s, e.seat)} spends {e.data['amount']} fate point(s) on {e.data['reason']}."


@play_command(score, P + "fate.gain")
def fate_gain(d: Decision, data: Data) -> None:
    """``{"amount": 1..10, "reason"}``."""
    amount = num(data, "amount", 1, 1, 10)
    d.emit(
        P + "fate.gained", {"amount": amount, "reason": str(data.get("reason") or "the game")[:80]}
    )


@score.evolver(P + "fate.gained", label="gained fate points")
def fate_gained(s: dict, e: EventRecord, lines: list[str] = NO_LINES) -> None:
    p = player(s, e.seat)
    p["fate"] += e.data["amount"]
    lines.append(
        f"{p['name']} gains {e.data['amount']} fate point(s) from {e.data['reason']} ({p['fate']})."
    )


@score.narrator(P + "fate.gained")
def say_fate_gained(e: EventRecord, s: dict) -> str:
    return f"{name(s, e.seat)} gains {e.data['amount']} fate point(s) from {e.data['reason']}."


@play_command(score, P + "kill.count")
def kill_count(d: Decision, data: Data) -> None:
    """``{"kind": mercenary | follower | daemon, "level": 1..5, "delta": +1 | -1}`` on the
    acting player's kill counter. Raises ``bad_input``, ``nothing_to_remove``."""
    kind = data.choice(
        "kind",
        KILL_KINDS,
        code="bad_input",
        message="A kill is a mercenary, a follower or a daemon.",
    )
    level = num(data, "level", 1, 1, 5)
    delta = num(data, "delta", 1, -1, 1)
    d.require(delta != 0, "bad_input", "Count +1 or -1.")
    if delta < 0:
        kills = player(d.state, d.seat)["kills"]
        d.require(
            kills.get(kind, {}).get(str(level), 0) > 0,
            "nothing_to_remove",
            "No such kill to remove.",
        )
    d.emit(P + "kill.counted", {"kind": kind, "level": level, "delta": delta})


@score.evolver(P + "kill.counted", label="counted a kill")
def kill_counted(s: dict, e: EventRecord, lines: list[str] = NO_LINES) -> None:
    p = player(s, e.seat)
    by_level = p["kills"].setdefault(e.data["kind"], {})
    key = str(e.data["level"])
    by_level[key] = by_level.get(key, 0) + e.data["delta"]
    lines.append(f"{p['name']}: {e.data['kind']} level {e.data['level']} kills {by_level[key]}.")


@score.narrator(P + "kill.counted")
def say_kill_counted(e: EventRecord, s: dict) -> str:
    return (
        f"{name(s, e.seat)}: {e.data['delta']:+d} {e.data['kind']} kill (level {e.data['level']})."
    )


@play_command(score, P + "relic.take")
def relic_take(d: Decision, data: Data) -> None:
    """``{"piece", "delta": +1 | -1}``: a relic token picked up or put down by ``piece`` (a relic
    mission). Relics are counted per mercenary (7.2.1: "the objects collected by the followers
    do not count for the achievement of the mission objective. Only objects owned by the
    mercenaries are considered in determining the winner"): a follower or a daemon may carry a
    token (it is kept on its card) but only the mercenaries' tokens count for the player.
    Raises ``no_relic``, ``bad_input``, ``nothing_to_remove``, ``not_your_character``."""
    d.require(
        (d.state.get("setup") or {}).get("definition", {}).get("kind") == "relic",
        "no_relic",
        "This mission has no relic.",
    )
    d.require(data.has("piece"), "bad_input", "Choose the character who carries the relic.")
    p = own_piece(d, data)
    delta = num(data, "delta", 1, -1, 1)
    d.require(delta != 0, "bad_input", "Count +1 or -1.")
    if delta < 0:
        d.require(p.get("relics", 0) > 0, "nothing_to_remove", f"{p['name']} carries no relic.")
    d.emit(P + "relic.taken", {"delta": delta, "piece": p["id"], "seat": p["owner"]})


def counts(p: dict) -> bool:
    """Whether the relic tokens ``p`` carries count for its player (7.2.1: mercenaries only)."""
    return p["kind"] == "mercenary"


@score.evolver(P + "relic.taken", label="changed the relic tokens")
def relic_taken(s: dict, e: EventRecord, lines: list[str] = NO_LINES) -> None:
    pid = e.data.get("piece")
    if pid is None:  # before issue 15 relics were counted per player
        p = player(s, e.seat)
        p["relics"] = p.get("relics", 0) + e.data["delta"]
        lines.append(f"{p['name']}: {p['relics']} relic token(s).")
        return
    carrier = s["pieces"][pid]
    carrier["relics"] = carrier.get("relics", 0) + e.data["delta"]
    activation.mark_object(s, pid)  # no shot or power for it this turn (7.2.1)
    owner = player(s, carrier["owner"])
    if counts(carrier):
        owner["relics"] = owner.get("relics", 0) + e.data["delta"]
        lines.append(
            f"{carrier['name']} carries {carrier['relics']} relic token(s): {owner['name']} "
            f"counts {owner['relics']}."
        )
    else:
        lines.append(
            f"{carrier['name']} carries {carrier['relics']} relic token(s); a {carrier['kind']}'s "
            "objects do not count for the objective (7.2.1)."
        )


@score.narrator(P + "relic.taken")
def say_relic_taken(e: EventRecord, s: dict) -> str:
    if e.data.get("piece"):
        return f"{piece_name(s, e.data['piece'])}: {e.data['delta']:+d} relic token."
    return f"{name(s, e.seat)}: {e.data['delta']:+d} relic token."

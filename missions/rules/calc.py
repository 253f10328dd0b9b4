"""Confirming a calculation: a proposed shot or fight is applied by the players in the fight,
or cancelled (commands ``demloc.calc.apply`` / ``demloc.calc.cancel``). DemLoc rulebook
6.4.2 (the app works the numbers out, the players confirm), 7.2.2.4, 7.3.2.2. The arithmetic is
in ``missions.rules.shooting`` and ``missions.rules.brawl``. An enemy character the applied
result kills is counted for the shooter's or the fight winner's player in the same command
(``missions.rules.score.credit_kills``, table option ``kills``).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.rules import EventRecord, counted

from .brawl import apply_fight
from .common import known, name, play_command
from .score import credit_kills, statuses
from .shooting import apply_shot
from .state import DemlocState

calc = Topic("calc")


def parties(state: DemlocState, pending: dict) -> set[int]:
    """The seats in a proposed fight: the pieces' players and the one who worked it out."""
    ids = [pending.get(k) for k in ("shooter", "target", "attacker", "defender")]
    return {state["pieces"][i]["owner"] for i in ids if i} | {pending["by"]}


def killer(pending: dict) -> str | None:
    """The piece whose player a kill of ``pending`` counts for: the shooter of a shot, the
    winner of a fight (the attacker, or a defender that wins: its "general damages", 7.3.2.2),
    nobody for a tie."""
    if pending["kind"] == "shot":
        return pending["shooter"]
    return {"attacker": pending["attacker"], "defender": pending["defender"]}.get(
        pending.get("winner") or ""
    )


def victim(pending: dict) -> str | None:
    """The piece ``pending`` damages: the target of a shot, the loser of a fight (7.3.2.2),
    nobody for a tie."""
    if pending["kind"] == "shot":
        return pending["target"]
    return {"attacker": pending["defender"], "defender": pending["attacker"]}.get(
        pending.get("winner") or ""
    )


def applied(state: DemlocState, pending: dict) -> DemlocState:
    """The table as it would be once ``pending`` is applied, ``state`` untouched (folded into a
    copy; nobody listens to what the fold says while a command is decided or a page drawn)."""
    trial = copy_json(state)
    trial["pending"] = None
    (apply_shot if pending["kind"] == "shot" else apply_fight)(trial, pending)
    return trial


def outcome_words(state: DemlocState, pending: dict) -> str:
    """What applying ``pending`` does, in a few words for the line under the turn bar (who
    takes what, who is killed; 6.4.2, 7.2.2.4, 7.3.2.2, 8.1): "Korr takes 2 damage: a broken
    armor token, 1 poison token", "Maud takes 3 damage and is killed", "no damage", "a tie: nothing happens"."""
    hit = victim(pending)
    if hit is None:
        return "a tie: nothing happens"
    if (pending["kind"] == "shot" and pending["outcome"] == "none") or pending["damage"] <= 0:
        return "no damage"
    before, after = state["pieces"][hit], applied(state, pending)["pieces"][hit]
    words = f"{after['name']} takes {pending['damage']} damage"
    if before["status"] == "in_play" and after["status"] == "killed":
        return words + " and is killed"
    # Every token the Apply adds, the weapon's BLOODING and POISONOUS too (8.1; found by a new
    # user: the line said "1 broken armor token" and the card then showed poison 1).
    tokens = [
        counted(after[k] - before[k], what)
        for k, what in (("broken_armor", "broken armor token"), ("broken_hearts", "broken heart token"),
                        ("bleeding", "bleeding token"), ("poison", "poison token"))
        if after[k] > before[k]
    ]
    return words + (": " + ", ".join(tokens) if tokens else "")


def kills(state: DemlocState, pending: dict) -> list[str]:
    """The names of the characters that applying ``pending`` kills (the proposed result warns
    before Apply)."""
    after = applied(state, pending)["pieces"]
    return [
        p["name"]
        for pid, p in state["pieces"].items()
        if p["status"] == "in_play" and after[pid]["status"] == "killed"
    ]


@play_command(calc, "demloc.calc.apply")
def calc_apply(d: Decision, data: Data) -> None:
    """Apply the proposal on the table (a player in the fight, or anyone with one shared
    phone); the enemy characters it kills are counted for the killer's player (``killer``,
    ``credit_kills``). Raises ``no_calc``, ``not_your_fight``."""
    pending = d.state["pending"]
    d.require(pending is not None, "no_calc", "There is no calculation to apply.")
    if d.state["options"].get("control") != "anyone":
        d.require(
            d.seat in parties(d.state, pending),
            "not_your_fight",
            "Only the players in this fight confirm it.",
        )
    before = statuses(d.state)
    outcome = outcome_words(d.state, pending)
    d.emit("demloc.calc.applied", {"kind": pending["kind"], "outcome": outcome})
    credit_kills(d, before, killer(pending))


@calc.evolver("demloc.calc.applied", label="applied the result")
def calc_applied(s: DemlocState, e: EventRecord) -> None:
    pending = known(s["pending"])
    s["pending"] = None
    if pending["kind"] == "shot":
        apply_shot(s, pending)
    else:
        apply_fight(s, pending)


@calc.narrator("demloc.calc.applied")
def say_calc_applied(e: EventRecord, s: DemlocState) -> str:
    head = "Shot applied" if e.data["kind"] == "shot" else "Fight applied"
    outcome = e.data.get("outcome")  # events before it was recorded: the bare line
    return f"{head}: {outcome}." if outcome else head + "."


@play_command(calc, "demloc.calc.cancel")
def calc_cancel(d: Decision, data: Data) -> None:
    """Drop the proposal. Raises ``no_calc``."""
    d.require(d.state["pending"] is not None, "no_calc", "There is no calculation to cancel.")
    d.emit("demloc.calc.cancelled", {"by": d.seat})


def cancelled_words(e: EventRecord, s: DemlocState) -> str:
    """"Calculation cancelled by Ann." (events before the seat was recorded: without a name)."""
    if e.data.get("by") is None:
        return "Calculation cancelled."
    return f"Calculation cancelled by {name(s, e.data['by'])}."


@calc.evolver("demloc.calc.cancelled", label="cancelled the calculation")
def calc_cancelled(s: DemlocState, e: EventRecord) -> None:
    s["pending"] = None
    say(cancelled_words(e, s))


@calc.narrator("demloc.calc.cancelled")
def say_calc_cancelled(e: EventRecord, s: DemlocState) -> str:
    return cancelled_words(e, s)

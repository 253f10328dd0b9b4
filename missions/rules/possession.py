"""Possession: the possessed character at the turn change, the out-of-control card, freeing.

DemLoc rulebook 5.6 (out-of-control card), 6.4.2 ("daemon possessed"), 7.2.3 (possessed
effect), 7.2.3.5 (freeing a possessed character by an arcane test). The seal limit that makes a
character possessed is in ``missions.rules.damage`` (broken seals are tokens); the arcane test
command in ``missions.rules.arcane``; the possession damage per turn is
``damage.possession_tick``. Pure functions, no commands of their own.
"""

from __future__ import annotations

from .common import NO_LINES, in_play, set_piece
from .damage import possession_tick

OUT_OF_CONTROL_DIRECTIONS = {
    1: "near left (towards you, on your left)",
    2: "near (towards you)",
    3: "near right (towards you, on your right)",
    4: "left",
    6: "right",
    7: "far left (away from you, on your left)",
    8: "far (away from you)",
    9: "far right (away from you, on your right)",
}


def out_of_control(rng) -> dict:
    """Roll the out-of-control d10 (5.6) with ``rng``: 10 is rolled again, 5 means no effect.

    Returns ``{"rolls": [..], "result": 1..9, "direction": words or None}``. The card is laid
    with its marker towards the rolling player; we read the d10 like a phone keypad seen from
    that player (8 = the square beyond the target, 2 = the square on the player's side), which
    the printed card shows as a picture the text does not describe.
    """
    rolls = []
    while True:
        value = rng.d(10)
        rolls.append(value)
        if value != 10:
            break
    result = rolls[-1]
    return {"rolls": rolls, "result": result, "direction": OUT_OF_CONTROL_DIRECTIONS.get(result)}


def turn_start(s: dict, ooc: dict[str, dict], lines: list[str] = NO_LINES) -> None:
    """Start of a turn (7.2.3): each possessed character in play takes its broken heart (or
    armor) token and moves by its out-of-control roll ``ooc[piece id]`` (drawn by
    ``demloc.turn.next``)."""
    for pid, roll in ooc.items():
        p = s["pieces"].get(pid)
        if p is None or not in_play(p):
            continue
        p, more = possession_tick(p)
        set_piece(s, p, lines, more)
        if in_play(p):
            where = roll["direction"] or "no effect (5)"
            lines.append(
                f"{p['name']} moves out of control: d10 {'/'.join(map(str, roll['rolls']))} -> {where}."
            )


def free(s: dict, freer: dict, target: dict, passed: bool, lines: list[str] = NO_LINES) -> None:
    """The outcome of an arcane test to free ``target`` (7.2.3.5): passed, the possessed effect
    ends; a character already carrying its fatal broken hearts then dies."""
    if not passed:
        lines.append(f"{target['name']} stays possessed.")
        return
    t = {**target, "possessed": False}
    lines.append(f"{freer['name']} frees {t['name']} from the daemon.")
    if t["broken_hearts"] >= t["heart_limit"]:
        t["status"] = "killed"
        lines.append(f"{t['name']} already carries its fatal broken hearts: killed.")
    set_piece(s, t, lines, [])


#: Table option ``free_possessed``: how the +3 of 7.2.3.5 applies to the arcane test.
FREE_PENALTY = (
    "penalty"  # literal: +3 added to the die, which must still be at or under the ability
)
FREE_BONUS = "bonus"  # reading the +3 as help: the die is compared to the ability + 3


def free_test_best_roll(arcane: int, rule: str) -> int:
    """The highest d6 (before fate points) that frees a possessed character for a freer of
    arcane ability ``arcane`` under the option ``free_possessed`` (7.2.3.5); 0: no roll can,
    even 1 with every fate point (the page says so before the roll)."""
    roll_mod, ability_mod = free_possessed_modifier(rule)
    best = arcane + ability_mod - roll_mod
    return max(0, min(6, best))


def free_possessed_modifier(rule: str) -> tuple[int, int]:
    """``(added to the roll, added to the ability)`` of the arcane test that frees a possessed
    character (7.2.3.5: "adding +3 to the result obtained by rolling the dice"). Read literally
    (default ``"penalty"``) +3 makes the test harder; ``"bonus"`` reads it as a help."""
    return (3, 0) if rule == FREE_PENALTY else (0, 3)

"""Possession: the possessed character at the turn change, the out-of-control card, freeing.

DemLoc rulebook 5.6 (out-of-control card), 6.4.2 ("daemon possessed"), 7.2.3 (possessed
effect), 7.2.3.5 (freeing a possessed character by an arcane test). The seal limit that makes a
character possessed is in ``missions.rules.damage`` (broken seals are tokens); the arcane test
command in ``missions.rules.arcane``; the possession damage per turn is
``damage.possession_tick``. Commands ``demloc.possession.assign`` / ``demloc.possession.remove``:
possession given or taken away by a card effect, with the instructions the
possessed character follows.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, say
from tabletop.rules import EventRecord

from .common import in_play, piece, piece_name, play_command, set_piece
from .damage import possess, possession_tick
from .revert import record_power
from .state import DemlocState

possession = Topic("possession")

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


#: A stray shot's square (5.6, 7.2.2.2 "a stray bullet": the square next to the original
#: target where the bullet ends up), worded by the shooting player: the card is laid over the
#: target "taking care to orient the marker towards his position" (5.6), the position of the
#: player who shot. Every phone reads the same line, so "you" would be whoever reads it (a new
#: user's opponent read "towards you" as towards themself).
STRAY_DIRECTIONS = {
    1: "near left (towards the shooting player, on their left)",
    2: "near (towards the shooting player)",
    3: "near right (towards the shooting player, on their right)",
    4: "left (the shooting player's left)",
    6: "right (the shooting player's right)",
    7: "far left (away from the shooting player, on their left)",
    8: "far (away from the shooting player)",
    9: "far right (away from the shooting player, on their right)",
}


def stray_direction(ooc: dict) -> str | None:
    """The square of a stray shot's out-of-control roll ``ooc`` (``out_of_control``) worded by
    the shooting player (``STRAY_DIRECTIONS``); None for a 5 (no effect, 5.6). A roll stored
    without its result keeps the words it was stored with."""
    result = ooc.get("result")
    if result in STRAY_DIRECTIONS or result == 5:
        return STRAY_DIRECTIONS.get(result)
    return ooc.get("direction")


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


def turn_start(s: DemlocState, ooc: dict[str, dict]) -> None:
    """Start of a turn (7.2.3): each possessed character in play takes its broken heart (or
    armor) token and moves by its out-of-control roll ``ooc[piece id]`` (drawn by
    ``demloc.turn.next``). The rolls stay in ``s["ooc"]`` for this turn: the turn bar tells the
    owner where to move each possessed character (7.2.3 "the player moves the daemonic
    possessed character ... using the out of control card")."""
    s["ooc"] = {pid: dict(roll) for pid, roll in ooc.items()}
    for pid, roll in ooc.items():
        p = s["pieces"].get(pid)
        if p is None or not in_play(p):
            continue
        p, more = possession_tick(p)
        set_piece(s, p, more)
        if in_play(p):
            where = roll["direction"] or "no effect (5)"
            say(
                f"{p['name']} moves out of control: d10 {'/'.join(map(str, roll['rolls']))} -> {where}."
            )


def free(s: DemlocState, freer: dict, target: dict, passed: bool) -> None:
    """The outcome of an arcane test to free ``target`` (7.2.3.5): passed, the possessed effect
    ends; a character already carrying its fatal broken hearts then dies."""
    if not passed:
        say(f"{target['name']} stays possessed.")
        return
    t = {**target, "possessed": False, "possession": None}
    say(f"{freer['name']} frees {t['name']} from the daemon.")
    if t["broken_hearts"] >= t["heart_limit"]:
        t["status"] = "killed"
        say(f"{t['name']} already carries its fatal broken hearts: killed.")
    set_piece(s, t, [])


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


# ------------------------------------------------------------------------ card effects
#: Longest card name and instructions kept with a possession by a card effect.
SOURCE_MAX = 60
INSTRUCTIONS_MAX = 300


@play_command(possession, "demloc.possession.assign")
def possession_assign(d: Decision, data: Data) -> None:
    """``{"piece", "source": card name, "instructions": what the possessed character does,
    "arcane": bool}``: a card effect gives ``piece`` the possessed effect (6.4.2 "daemon
    possessed": "the player has to select the character on the app and give him the daemonic
    possessed effect"; the basic rule of ch. 7: the card's instructions win over the manual).
    Any player may send it (the card may be an opponent's). The possessed character then
    follows 7.2.3 (it acts no more, fights with 1, a broken heart each turn) and the page shows
    ``instructions`` on its card and on the turn bar. ``arcane``: the effect is an arcane power's,
    so a passed "defend" test of the character in this phase reverts it (7.2.3.5).
    Raises ``already_possessed``, ``bad_input``, ``not_in_play``."""
    p = piece(d.state, data.get("piece"))
    d.require(not p["possessed"], "already_possessed", f"{p['name']} is already possessed.")
    source = data.str("source", max_length=SOURCE_MAX, default="a card effect", code="bad_input")
    instructions = data.str(
        "instructions", max_length=INSTRUCTIONS_MAX, default="", code="bad_input"
    )
    d.emit(
        "demloc.possession.assigned",
        {
            "piece": p["id"],
            "source": source.strip() or "a card effect",
            "instructions": instructions.strip(),
            "arcane": data.bool("arcane"),
            "by": d.seat,
        },
    )


def _assign_text(name: str, d: dict) -> str:
    text = f"{name} is possessed by {d['source']}"
    return text + (f": {d['instructions']}" if d["instructions"] else ".")


@possession.evolver("demloc.possession.assigned", label="possessed a character by a card")
def possession_assigned(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    before = s["pieces"][d["piece"]]
    p, _ = possess(before)
    p["possession"] = {"source": d["source"], "instructions": d["instructions"]}
    set_piece(s, p, [_assign_text(p["name"], d) + " (its mana is spent, 7.2.3)"])
    if d.get("arcane"):
        record_power(s, before, p, "", d["source"], e.version, kind="possession")


@possession.narrator("demloc.possession.assigned")
def say_possession_assigned(e: EventRecord, s: DemlocState) -> str:
    return _assign_text(piece_name(s, e.data["piece"]), e.data)


@play_command(possession, "demloc.possession.remove")
def possession_remove(d: Decision, data: Data) -> None:
    """``{"piece", "source": card name}``: a card effect ends the possessed effect (the arcane
    test that frees is ``demloc.arcane.test``); as when freed (7.2.3.5), a character already
    carrying its fatal broken hearts then dies. Raises ``not_possessed``."""
    p = piece(d.state, data.get("piece"))
    d.require(p["possessed"], "not_possessed", f"{p['name']} is not possessed.")
    source = data.str("source", max_length=SOURCE_MAX, default="a card effect", code="bad_input")
    d.emit(
        "demloc.possession.removed",
        {"piece": p["id"], "source": source.strip() or "a card effect", "by": d.seat},
    )


@possession.evolver("demloc.possession.removed", label="freed a character by a card")
def possession_removed(s: DemlocState, e: EventRecord) -> None:
    p = s["pieces"][e.data["piece"]]
    t = {**p, "possessed": False, "possession": None}
    more = [f"{e.data['source']} frees {t['name']} from the daemon."]
    if t["broken_hearts"] >= t["heart_limit"]:
        t["status"] = "killed"
        more.append(f"{t['name']} already carries its fatal broken hearts: killed.")
    set_piece(s, t, more)


@possession.narrator("demloc.possession.removed")
def say_possession_removed(e: EventRecord, s: DemlocState) -> str:
    return f"{e.data['source']} frees {piece_name(s, e.data['piece'])} from the daemon."

"""What every DemLoc topic shares: the lookups and guards of a command, and how folds explain
themselves.

Folds and narration (KIT.md, docs/architecture.md): each fold is the toolkit's
``fold(state, event)``: it mutates the state and says what happened with the kit's ``say``
(the calculators of this package return such lines; ``set_piece`` says them). The stored
state never holds them. The kit listens while it replays a log (log page, battle report), so
folding an event tells its whole story, the consequences of ``DemlocRuleset.after_fold``
included; against the current state (the live view's latest lines) the topic's narrator
speaks, from the event's data and stable names only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.decider import Data, Decision, Topic, say
from tabletop.errors import NotFound, RuleViolation

from .state import DemlocState, Player


def known[T](value: T | None) -> T:
    """``value``, which the caller knows is there: a preparation fold and ``state["setup"]``,
    an applied calculation and ``state["pending"]``. Raises ``TypeError`` when it is None, as
    indexing None did: folding an event into a state it does not fit
    (``tabletop.decider.MISFIT``)."""
    if value is None:
        raise TypeError("a part of the state this needs is not there")
    return value


def must[T](value: T | None, *, code: str, message: str) -> T:
    """``value`` unless it is None, else ``RuleViolation(code, message)`` (a lookup that
    found nothing)."""
    if value is None:
        raise RuleViolation(code, message)
    return value


#: The phases of a turn (7.2, 7.3); ``TURN_END``: both phases passed, waiting for Next turn.
STRATEGIC = "strategic"
BRAWL = "brawl"
TURN_END = "end"


def in_play(p: dict) -> bool:
    """Whether a piece is still on the board (not killed, escaped or dismissed)."""
    return p["status"] == "in_play"


def num(
    data: Data,
    key: str,
    default: Any = None,
    lo: int | None = None,
    hi: int | None = None,
    label: str | None = None,
) -> int:
    """A whole number of the command data in ``lo..hi`` (``default`` None: required).
    Raises ``RuleViolation("bad_input")``; with ``label`` (the form field's label, what the
    player sees) its message names the field by it, not by the data key."""
    message = None
    if label:
        span = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
        message = f"{label} must be a whole number{span}."
    if default is None:
        return data.int(key, lo=lo, hi=hi, code="bad_input", message=message)
    return data.int(key, lo=lo, hi=hi, default=default, code="bad_input", message=message)


def fate_amount(
    d: Decision, data: Data, key: str, seat: int | None, *, least: int, most: int | None = None
) -> int:
    """The fate points ``data[key]`` asks ``seat``'s player to spend: a whole number from
    ``least`` (also the default) to what the player holds, and at most ``most`` when the rule
    caps it (a test lowers its die by at most 6, DemLoc rulebook 7.2.1). Raises
    ``RuleViolation("bad_input")`` for no whole number or one below ``least``;
    ``not_enough_fate`` above what the player holds, saying how many that is ("You hold 3
    fate points: spend 1 to 3."); ``bad_input`` above ``most``."""
    held = int(player(d.state, seat)["fate"])
    value = data.int(
        key,
        lo=least,
        default=least,
        code="bad_input",
        message=f"Fate points: a whole number, at least {least}.",
    )
    if value > held:
        points = "fate point" if held == 1 else "fate points"
        if held < max(least, 1):
            span = "you cannot spend any" if least else "leave it at 0"
            raise RuleViolation("not_enough_fate", f"You hold no fate points: {span}.")
        span = f"{least}" if held == least else f"{least} to {held}"
        raise RuleViolation("not_enough_fate", f"You hold {held} {points}: spend {span}.")
    if most is not None and value > most:
        raise RuleViolation("bad_input", f"At most {most} fate points on one test.")
    return value


def name(state: DemlocState, seat: int | None) -> str:
    """The display name of ``seat``'s player ("?" when unknown)."""
    for p in state.get("players", []):
        if p["seat"] == seat:
            return p["name"]
    return "?"


def piece_name(state: DemlocState, pid: str | None) -> str:
    piece = state.get("pieces", {}).get(str(pid))
    return piece["name"] if piece else "?"


def player(state: DemlocState, seat: int | None) -> Player:
    """The player dict of ``seat``. Raises ``NotFound("not_seated")``."""
    for p in state["players"]:
        if p["seat"] == seat:
            return p
    raise NotFound("not_seated", "Only a player at this table can do that.")


def piece(state: DemlocState, piece_id: Any, *, alive: bool = True) -> dict:
    """The piece ``piece_id`` (command data). Raises ``RuleViolation`` ``no_such_character``,
    ``not_in_play`` (with ``alive``)."""
    found = state["pieces"].get(str(piece_id)) if piece_id not in (None, "") else None
    found = must(found, code="no_such_character", message="No such character at this table.")
    if alive:
        Decision.require(in_play(found), "not_in_play", f"{found['name']} is no longer in play.")
    return found


def control(state: DemlocState, p: dict, seat: int | None) -> None:
    """Only a piece's player changes it, unless the table plays one shared phone
    (option ``control``). Raises ``RuleViolation("not_your_character")``."""
    if state["options"].get("control") == "anyone":
        return
    Decision.require(
        p["owner"] == seat, "not_your_character", f"{p['name']} belongs to another player."
    )


def own_piece(d: Decision, data: Data, key: str = "piece") -> dict:
    """The piece named by ``data[key]``, in play and controlled by the acting seat."""
    p = piece(d.state, data.get(key))
    control(d.state, p, d.seat)
    return p


def beyond_cap_words(p: dict, total: int) -> str:
    """The refusal of a mana cost of ``total`` that ``p`` can never pay (5.1.1 Arcane ability:
    "the number of maximum arcane dice available to that character"): no channelling helps."""
    return (f"Needs {total} mana; {p['name']} holds at most {int(p.get('arcane') or 0)} "
            "(arcane ability, 5.1.1): this cannot be paid.")


def not_possessed(p: dict, message: str = "A possessed character cannot act (7.2.3).") -> None:
    Decision.require(not p["possessed"], "possessed", message)


def no_pending(state: DemlocState) -> None:
    Decision.require(
        state["pending"] is None,
        "calc_pending",
        "Apply or cancel the calculation on the table first.",
    )


def set_piece(s: DemlocState, p: dict, more: list[str]) -> None:
    """Store a calculator's new piece and keep its lines. A piece whose poison is back to 0
    forgets who poisoned it (``poisoned_by``, ``missions.rules.score``): poison put on again
    later is another's, or nobody's."""
    if "poisoned_by" in p and p.get("poison", 0) <= 0:
        del p["poisoned_by"]
    s["pieces"][p["id"]] = p
    say(*more)


def in_setup(state: DemlocState) -> bool:
    """Whether a lifecycle mission is still in its preparation phases (6.4.1)."""
    setup = state.get("setup") or {}
    return bool(setup) and setup["stage"] != "play"


def play_command(topic: Topic, type_: str, **kw: Any) -> Callable:
    """Register a command of the mission in play (not the preparation phases): refused with
    ``setup_first`` while the mission is prepared and ``mission_over`` once it has ended (a
    lifecycle mission is finished only when closed, so the kit's ``game_over`` comes later)."""

    def register(handler: Callable[[Decision, Data], None]) -> Callable:
        def guarded(d: Decision, data: Data) -> None:
            if in_setup(d.state):
                stage = d.state["setup"]["stage"]
                Decision.require(
                    False,
                    "setup_first",
                    f"The mission is being prepared ({stage}): finish that first.",
                )
            player(d.state, d.seat)
            Decision.require(d.state["ended"] is None, "mission_over", "The mission is over.")
            handler(d, data)

        guarded.__doc__ = handler.__doc__
        guarded.__name__ = handler.__name__
        topic.command(type_, **kw)(guarded)
        return handler

    return register


def dice_list(data: Data, key: str) -> list[int]:
    """Physical dice entered as numbers ("4 2 6", "4,2,6", a list or one int), each 1..12 (a
    d6, or the enhanced d12 of a charge or a positioned shot, 7.2.2, 7.3.2), at most 20.
    Raises ``RuleViolation("bad_dice")`` for anything else, whichever path reads them (the
    count each shot or fight needs is checked by its own rule)."""
    value = data.get(key, [])
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    items = Data({"dice": value}).ints(
        "dice",
        lo=1,
        hi=12,
        max_items=20,
        default=[],
        code="bad_dice",
        message="Enter the dice as numbers, e.g. 4 2 6.",
    )
    return list(items)

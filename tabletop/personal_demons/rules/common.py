"""What every topic of Personal Demons shares: constants, the app-table topic (its commands
are refused at a physical table), reading a space from command data, Courage effects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.decider import Data, Decision, Topic, parse_int
from tabletop.rules import require

from .content import SINS
from .state import State

__all__ = ["SINS"]

DIFFICULTIES = {"angelic": 3, "human": 2, "devilish": 1}
BONUS_COST = {"fragment": 2, "royal": 4, "personal": 6}
PROMPTS = {
    "setup": "Place your Fear and keep two of your four Personal Demons.",
    "place": "Pick a card and place it face down in your circle.",
    "reveal": "Reveal your card, or leave it face down with a cracked seal and one sin.",
    "bonus": "Anyone for ONE bonus action? Leader first, then clockwise.",
    "end": "End phase: Knights and Fragments go, take Courage, keep three.",
    "over": "The ritual is over. Everyone wins in therapy.",
}


class AppTopic(Topic):
    """A topic of the app-dealt game: its commands are unknown at a physical table (where the
    players hold the real cards and only the ``pd.phys.*`` commands exist), and the other way
    round for a topic made with ``physical=True``: one place for that guard."""

    def __init__(self, name: str, *, physical: bool = False) -> None:
        super().__init__(name)
        self.physical = physical
        #: Run after every command of this topic (the ruleset wires ``cadence.advance`` in:
        #: the steps everyone is ready for happen in the same command).
        self.after: Callable[[Decision], None] | None = None

    def command(self, type_: str, **kwargs: Any) -> Callable:
        register = super().command(type_, **kwargs)

        def wrap(handler: Callable) -> Callable:
            def guarded(d: Decision, data: Data) -> None:
                at_physical_table = d.state.get("mode") == "physical"
                require(at_physical_table == self.physical, "unknown_command", "Unknown command.")
                handler(d, data)
                if self.after is not None:
                    self.after(d)

            guarded.__doc__ = handler.__doc__
            register(guarded)
            return handler

        return wrap


def seat_of(d: Decision) -> int:
    """The acting seat (every command of the game is ``SEATED``: the kit refused the rest)."""
    assert d.seat is not None
    return d.seat


def need(state: State, phase: str, step: str | None = None) -> None:
    """Raise ``RuleViolation("wrong_step")`` unless the ritual is at ``phase`` (and ``step``)."""
    require(
        state["phase"] == phase and (step is None or state["step"] == step),
        "wrong_step",
        "That is not possible at this step of the ritual.",
    )


def read_space(data: Data, key: str = "space") -> list[int]:
    """A space ``[row, col]`` from command data: a list of two whole numbers or ``"r,c"`` (as a
    form sends it). Raises ``RuleViolation("bad_space")``."""
    message = "Choose a space of the circle."
    items = data.list(key, max_items=3, code="bad_space", message=message)
    if len(items) == 1 and isinstance(items[0], str):
        items = items[0].split(",")
    numbers = [parse_int(x) for x in items]
    require(len(numbers) == 2 and None not in numbers, "bad_space", message)
    return [int(n) for n in numbers if n is not None]


def courage_effects(state: State, seat: int, kind: str) -> list[dict]:
    """The effects of kind ``kind`` among ``seat``'s Courage cards (rulebook "Courage")."""
    catalog = state["catalog"]
    return [
        catalog[c]["effect"]
        for c in state["players"][seat]["courage"]
        if catalog[c]["effect"]["kind"] == kind
    ]


def score_display(score: int) -> str:
    """The two score trackers: tens and ones, the tens tracker flipped to "100" past 99
    (rulebook "Scoring")."""
    if score >= 100:
        return f"100+{score - 100:02d}"
    return f"{score:02d}"


def name(state: Any, seat: int | None) -> str:
    """A seat's name for the log (``"The table"`` when there is none)."""
    players = state.get("players") or [] if isinstance(state, dict) else []
    if seat is None or not 0 <= seat < len(players):
        return "The table"
    return players[seat]["name"]

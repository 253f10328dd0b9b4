"""Counter: the kit's own tiny game, used by the kit's tests and as the smallest example of the
decider toolkit (``tabletop.decider``).

A shared counter everybody can change, plus one secret number per seat (1..100) that only
its owner sees. Commands:

- ``counter.add`` ``{"amount": int -10..10, not 0}``: add to the counter.
- ``counter.roll``: add a d6 rolled by the server (randomness, undoable but never re-rolled).
- ``counter.secret.redraw``: draw a new secret number (shows hidden information: final).

The game is over when the counter reaches ``GOAL`` (50).
"""

from __future__ import annotations

from typing import ClassVar, TypedDict

from tabletop.decider import Data, DeciderRuleset, Decision, Topic
from tabletop.rules import Command, EventRecord, NewEvent, SeatInfo

GOAL = 50


class CounterState(TypedDict):
    total: int
    secrets: dict[str, int]
    names: dict[str, str]
    last: dict | None


counter = Topic("counter")


@counter.evolver("counter.setup", label="dealt the secret numbers")
def _setup(state: CounterState, event: EventRecord) -> None:
    state["names"] = dict(event.data["names"])
    state["secrets"] = dict(event.data["secrets"])


@counter.command("counter.add")
def add(d: Decision, data: Data) -> None:
    """``{"amount": -10..10, not 0}``. Raises ``RuleViolation("bad_amount")``."""
    amount = data.int("amount", lo=-10, hi=10, code="bad_amount", message="Add from -10 to 10, not 0.")
    d.require(amount != 0, "bad_amount", "Add from -10 to 10, not 0.")
    d.emit("counter.added", {"amount": amount})


@counter.command("counter.roll")
def roll(d: Decision, data: Data) -> None:
    """Add a d6 (drawn from the command's dice)."""
    d.emit("counter.rolled", {"amount": d.rng.d(6)})


def _added(state: CounterState, event: EventRecord) -> None:
    state["total"] += event.data["amount"]
    state["last"] = {"seat": event.seat, "amount": event.data["amount"]}


counter.evolver("counter.added", label="changed the counter")(_added)
counter.evolver("counter.rolled", label="rolled a die for the counter")(_added)


@counter.narrator("counter.added")
def _say_added(event: EventRecord, state: CounterState) -> str:
    return f"{state['names'].get(str(event.seat), 'Someone')} added {event.data['amount']:+d}."


@counter.command("counter.secret.redraw", reveals=True)
def redraw(d: Decision, data: Data) -> None:
    """Draw a new secret number (final: it shows hidden information)."""
    d.emit("counter.secret.drawn", {"value": d.rng.randint(1, 100)}, final=True)


@counter.evolver("counter.secret.drawn", label="drew a new secret number")
def _drawn(state: CounterState, event: EventRecord) -> None:
    state["secrets"][str(event.seat)] = event.data["value"]


class CounterRuleset(DeciderRuleset):
    name = "counter"
    title = "Counter (kit demo)"
    min_seats = 1
    max_seats = 8
    template = "tabletop/counter_live.html"
    final_words: ClassVar[dict[str, str]] = {"counter.secret.drawn": "number drawn"}
    topics = (counter,)

    def initial_state(self) -> CounterState:
        return {"total": 0, "secrets": {}, "names": {}, "last": None}

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng) -> list[NewEvent]:
        return [
            NewEvent(
                "counter.setup",
                {
                    "names": {str(s.number): s.name for s in seats},
                    "secrets": {str(s.number): rng.randint(1, 100) for s in seats},
                },
            )
        ]

    def is_finished(self, state: CounterState) -> bool:
        return state["total"] >= GOAL

    def players(self, state: CounterState) -> int:
        return len(state["names"])

    def view(self, state: CounterState, seat: int | None) -> dict:
        return {
            "total": state["total"],
            "last": state["last"],
            "players": [
                {"number": int(n), "name": name} for n, name in sorted(state["names"].items())
            ],
            "my_secret": state["secrets"].get(str(seat)) if seat is not None else None,
        }

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The page's buttons: -1, +1, roll, redraw."""
        return [
            *(Command("counter.add", {"amount": a}) for a in (-1, 1)),
            Command("counter.roll"),
            Command("counter.secret.redraw"),
        ]

"""Counter: the kit's own tiny game, used by the kit's tests and as a demo of live tables.

A shared counter everybody can change, plus one secret number per seat (1..100) that only
its owner sees. Commands:

- ``counter.add`` ``{"amount": int -10..10, not 0}``: add to the counter.
- ``counter.roll``: add a d6 rolled by the server (randomness, undoable but never re-rolled).
- ``counter.secret.redraw``: draw a new secret number (shows hidden information: final).

The game is over when the counter reaches ``GOAL`` (50).
"""

from __future__ import annotations

from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo, require

GOAL = 50


class CounterRuleset(BaseRuleset):
    name = "counter"
    title = "Counter (kit demo)"
    min_seats = 1
    max_seats = 8
    template = "tabletop/counter_live.html"
    final_commands = frozenset({"counter.secret.redraw"})
    event_labels = {
        "counter.setup": "dealt the secret numbers",
        "counter.added": "changed the counter",
        "counter.rolled": "rolled a die for the counter",
        "counter.secret.drawn": "drew a new secret number",
    }

    def initial_state(self) -> dict:
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

    def decide(self, state: dict, command: Command, seat: int | None, rng) -> list[NewEvent]:
        require(seat is not None, "not_seated", "Only a seated player can play.")
        if command.type == "counter.add":
            amount = command.data.get("amount")
            require(
                isinstance(amount, int) and not isinstance(amount, bool),
                "bad_amount",
                "The amount must be a whole number.",
            )
            require(-10 <= amount <= 10 and amount != 0, "bad_amount", "Add from -10 to 10, not 0.")
            return [NewEvent("counter.added", {"amount": amount})]
        if command.type == "counter.roll":
            return [NewEvent("counter.rolled", {"amount": rng.d(6)})]
        if command.type == "counter.secret.redraw":
            return [NewEvent("counter.secret.drawn", {"value": rng.randint(1, 100)}, final=True)]
        require(False, "unknown_command", f"Unknown command {command.type!r}.")
        return []

    def evolve(self, state: dict, event: EventRecord) -> dict:
        new = dict(state)
        if event.type == "counter.setup":
            new["names"] = dict(event.data["names"])
            new["secrets"] = dict(event.data["secrets"])
        elif event.type in ("counter.added", "counter.rolled"):
            new["total"] = state["total"] + event.data["amount"]
            new["last"] = {"seat": event.seat, "amount": event.data["amount"]}
        elif event.type == "counter.secret.drawn":
            new["secrets"] = {**state["secrets"], str(event.seat): event.data["value"]}
        return new

    def is_finished(self, state: dict) -> bool:
        return state["total"] >= GOAL

    def view(self, state: dict, seat: int | None) -> dict:
        return {
            "total": state["total"],
            "last": state["last"],
            "players": [
                {"number": int(n), "name": name} for n, name in sorted(state["names"].items())
            ],
            "my_secret": state["secrets"].get(str(seat)) if seat is not None else None,
        }

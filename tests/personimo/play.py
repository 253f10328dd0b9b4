"""A pure game driver for the Personimo rules tests: no database, events folded as the kit does."""

from __future__ import annotations

import random

from tabletop.dice import make_dice
from tabletop.personimo.rules import SHIFT_DIRECTIONS, PersonimoRuleset
from tabletop.rules import Command, EventRecord, SeatInfo

RULES = PersonimoRuleset()


class Game:
    """A game in memory: ``state`` (incremental), ``log`` (EventRecords), ``send(seat, type,
    data)`` runs ``decide`` and folds the new events; ``finals`` lists the final flags."""

    def __init__(self, players: int, seed: int | str = 1, options: dict | None = None):
        self.rng = make_dice(seed)
        self.seats = tuple(SeatInfo(i, f"P{i + 1}") for i in range(players))
        self.state = RULES.initial_state()
        self.log: list[EventRecord] = []
        self.finals: list[bool] = []
        self._append(RULES.setup(options or {}, self.seats, self.rng), None)

    def _append(self, events, seat):
        for event in events:
            record = EventRecord(event.type, event.data, seat, len(self.log) + 1)
            self.log.append(record)
            self.finals.append(event.final)
            self.state = RULES.evolve(self.state, record)
        return events

    def send(self, seat: int | None, type_: str, data: dict | None = None):
        return self._append(
            RULES.decide(self.state, Command(f"personimo.{type_}", data or {}), seat, self.rng),
            seat,
        )

    @property
    def actor(self):
        return self.state["actor"]

    def view(self, seat=None):
        return RULES.view(self.state, self.actor["seat"] if seat is None else seat)


def random_command(game: Game, pick: random.Random) -> tuple[str, dict]:
    """A random legal command for the seat whose turn it is, chosen from what its view offers."""
    view = game.view()
    if game.actor["action"] == "claim":
        return "claim", {"index": pick.choice(view["claimable"])}
    placing = view["placing"]
    if placing["legal"]:
        return "place", pick.choice(placing["legal"])
    if placing["must_discard"]:
        return "discard", {}
    direction = pick.choice([k for k, ok in placing["shifts"].items() if ok])
    dr, dc = SHIFT_DIRECTIONS[direction]
    return "shift", {"dr": dr, "dc": dc}


def play_out(game: Game, seed: int = 0, limit: int = 2000) -> Game:
    """Play random legal commands until the game is over (at most ``limit`` commands)."""
    pick = random.Random(seed)
    for _ in range(limit):
        if game.state["phase"] == "over":
            return game
        seat = game.actor["seat"]
        game.send(seat, *random_command(game, pick))
    raise AssertionError("the game did not finish")

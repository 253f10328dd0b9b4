"""Shortcuts over the kit's pure driver ``tabletop.testing.Sim`` for the Personimo tests (no
driver of their own: every command goes through ``tabletop.log.step``)."""

from __future__ import annotations

import random

from tabletop.personimo.rules import SET_UP, PersonimoRuleset
from tabletop.testing import Sim

RULES = PersonimoRuleset()


def new(players: int, seed: int | str = 1, options: dict | None = None) -> Sim:
    """A started table of ``players`` in memory."""
    return Sim(RULES, players, options=options, seed=seed)


def send(sim: Sim, seat: int | None, short: str, data: dict | None = None):
    """``sim.send`` of ``personimo.<short>``."""
    return sim.send(seat, f"personimo.{short}", data)


def actor(sim: Sim) -> dict | None:
    return sim.state["actor"]


def see(sim: Sim, seat: int | None = -1) -> dict:
    """The view of ``seat`` (default: the seat whose turn it is)."""
    return sim.view(sim.state["actor"]["seat"] if seat == -1 else seat)


def set_up(sim: Sim) -> dict:
    """The data of ``personimo.game.set_up``."""
    return next(e.data for e in sim.log if e.type == SET_UP)


def finals(sim: Sim) -> list[bool]:
    """The final flags of the game's events (the kit's ``table.started`` left out)."""
    return [e.final for e in sim.log if e.type != "table.started"]


def finish(sim: Sim, seed: int = 0, limit: int = 3000) -> Sim:
    """Play the page's commands (``RULES.moves``) at random until the game is over."""
    pick = random.Random(seed)
    for _ in range(limit):
        if sim.finished:
            return sim
        seat = sim.state["actor"]["seat"]
        command = pick.choice(RULES.moves(sim.view(seat), seat))
        sim.send(seat, command.type, command.data)
    raise AssertionError("the game did not finish")

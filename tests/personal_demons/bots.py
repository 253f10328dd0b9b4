"""Personal Demons played by bots through the served path (``tabletop.services.run_command``),
choosing at random among the moves each seat's view offers: for the tests that need a table in
a given state (mid-game, the end)."""

from __future__ import annotations

import random
from collections.abc import Callable

from tabletop import services
from tabletop.errors import RuleViolation
from tabletop.registry import get_ruleset


def play_until(table, seats, until: Callable[[dict], bool], seed: int, steps: int = 2000,
               after: Callable[[dict, int], None] | None = None) -> tuple[dict, int | None]:
    """Random moves at ``table`` (its seats in order) until ``until(state)`` holds or ``steps``
    tries are spent. ``after(state_before, seat)``: called after each applied move. Returns the
    last state read and the seat that acted last (None if none did). A refused move (the page
    offers both halves of a space; one may be taken) is skipped."""
    game, rnd, last = get_ruleset("personal_demons"), random.Random(seed), None
    state = None
    for _ in range(steps):
        table.refresh_from_db()
        state = game.load(table.state)
        if until(state):
            break
        moves = [(s, c) for s in range(len(seats)) for c in game.moves(game.view(state, s), s)]
        seat, command = rnd.choice(moves)
        try:
            services.run_command(table, seats[seat], command)
        except RuleViolation:
            continue
        last = seat
        if after is not None:
            after(state, seat)
    return state, last

"""Random DemLoc missions for the fan-out tests: the players choose among the commands their
pages offer (``Ruleset.moves`` of each seat's view, DemLoc 6.4.2), one at a time, through
``run_command``."""

import random

from tabletop import services
from tabletop.errors import TabletopError
from tabletop.models import Table
from tabletop.registry import get_ruleset


def walk(table, seats, seed: int, steps: int):
    """Yield ``(step, table)`` (the table read afresh) before each of up to ``steps`` random
    commands; stops when the mission ended or nobody is offered a move. A move the page offers
    may still be refused (e.g. a roll out of range): it is skipped."""
    game = get_ruleset("demloc")
    rnd = random.Random(seed)
    for step in range(steps):
        table = Table.objects.get(pk=table.pk)
        yield step, table
        if table.state.get("ended"):
            return
        offered = [(s, c) for s in seats
                   for c in game.moves(game.view(game.load(table.state), s.number), s.number)]
        if not offered:
            return
        seat, command = rnd.choice(offered)
        try:
            services.run_command(table, seat, command)
        except TabletopError:
            pass

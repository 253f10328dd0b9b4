"""The Undo button during a mission's preparation says what it takes back, or why it cannot
(DemLoc rulebook 6.4.1; docs/architecture.md "The event-sourced table"), through the real
services (``tabletop.live.undo_what``, ``undo_why``)."""

import pytest

from tabletop import services as table_services
from tabletop.live import undo_what, undo_why
from tabletop.models import Table
from tabletop.registry import get_ruleset
from tabletop.rules import Command

from .lifecycle_flow import open_table

pytestmark = pytest.mark.django_db


def test_preparation_undo_says_what_it_takes_back_6_4_1(make_guild, demo_missions):
    """Found by new users: right after Bring my Guild the greyed Undo said "spot drawn", then
    "control spot drawn" (the raffle the server draws once every Guild is in, a final event:
    6.4.1 raffle phase), read as what Undo would take back, not the player's own step; and on
    later steps the enabled Undo said nothing. The greyed Undo names the step the players took,
    which the draw made final ("Guilds brought"); the enabled one what it takes back
    ("Next")."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    _mission, table, (sa, _sb) = open_table([a, b], demo_missions["objective"])
    table = Table.objects.get(pk=table.pk)
    game = get_ruleset(table.ruleset)
    assert not table.meta.get("undo")
    assert (undo_why(table, table.meta, game), undo_what(table.meta, game)) == (
        "Guilds brought",
        "",
    )
    table_services.run_command(table, sa, Command("demloc.setup.next", {}))
    table = Table.objects.get(pk=table.pk)
    assert table.meta["undo"] and undo_what(table.meta, game) == "Next"
    # A type a game does not name is said by its name.
    assert undo_what(table.meta, None) == "setup next"

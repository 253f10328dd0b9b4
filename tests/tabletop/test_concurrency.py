"""Two phones append at the same expected version: exactly one wins (PostgreSQL, real
concurrent transactions in two threads, each with its own connection)."""

import threading

import pytest
from django.db import connections

from tabletop import services
from tabletop.errors import Conflict
from tabletop.rules import Command

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
]



def race(table, seats, commands, expected):
    barrier = threading.Barrier(len(seats))
    outcomes = [None] * len(seats)

    def play(i):
        try:
            barrier.wait()
            outcomes[i] = services.run_command(
                table.pk, seats[i], commands[i], expected_version=expected
            )
        except Conflict as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(seats))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_exactly_one_of_two_concurrent_commands_at_the_same_version_wins(make_table):
    table, seats = make_table(players=2)
    for _round in range(5):
        table.refresh_from_db()
        outcomes = race(
            table,
            seats,
            [Command("counter.add", {"amount": 1}), Command("counter.add", {"amount": 2})],
            table.version,
        )
        wins = [o for o in outcomes if not isinstance(o, Conflict)]
        conflicts = [o for o in outcomes if isinstance(o, Conflict)]
        assert len(wins) == 1 and len(conflicts) == 1, outcomes
        assert conflicts[0].code == "stale_version"
    table.refresh_from_db()
    assert table.version == 2 + 5
    assert list(table.events.values_list("version", flat=True)) == list(range(1, 8))
    assert services.table_replay(table)["state_matches"]


def test_concurrent_commands_without_expected_version_all_land_in_order(make_table):
    table, seats = make_table(players=4)
    outcomes = race(table, seats, [Command("counter.add", {"amount": 1})] * 4, None)
    assert not any(isinstance(o, Conflict) for o in outcomes)
    table.refresh_from_db()
    assert table.state["total"] == 4 and table.version == 6

"""The command path's statements are prepared on PostgreSQL (tabletop.prepared)."""

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from tabletop import prepared, services
from tabletop.models import Event
from tabletop.rules import Command
from tabletop.seats import seat_with_table

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's"
)


def _prepared_statements() -> list[str]:
    with connection.cursor() as c:  # Django's own cursor: never prepared
        c.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in c.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_a_command_reads_and_writes_with_prepared_statements(make_table):
    """After a few commands, the seat read, the table read and the one-statement write are
    prepared statements of this connection, bound on the server ($1, not the values), and a
    command sends exactly those (nothing else)."""
    table, (alice, bob) = make_table(players=2)
    start = table.version
    for n in range(3):
        services.SNAPSHOTS.drop(table.pk)  # read the table, as when another process wrote last
        services.run_command(table, alice if n % 2 else bob, Command("counter.add", {"amount": 1}))
        assert seat_with_table(alice.pk, alice.nonce).pk == alice.pk
    statements = _prepared_statements()
    write = [s for s in statements if s.startswith('WITH "moved" AS (UPDATE "tabletop_table"')]
    read = [s for s in statements if s.startswith('SELECT "code", "ruleset"')]
    seat = [s for s in statements if 'FROM "tabletop_seat"' in s]
    assert write and read and seat, statements
    assert all("$1" in s for s in write + read + seat)
    assert '"amount": 1' not in write[0]  # the values travel apart from the statement
    services.SNAPSHOTS.drop(table.pk)
    with CaptureQueriesContext(connection) as queries:
        services.run_command(table, alice, Command("counter.add", {"amount": 1}))
    assert len(queries.captured_queries) == 2  # read and write, both seen by Django's log
    with CaptureQueriesContext(connection) as queries:
        services.run_command(table, bob, Command("counter.add", {"amount": 1}))
    assert len(queries.captured_queries) == 1  # the write only: decided on SNAPSHOTS
    table.refresh_from_db()
    assert table.version == start + 5


@pytest.mark.django_db(transaction=True)
def test_database_errors_stay_djangos(make_table):
    """A prepared statement's failure is Django's IntegrityError (run_command relies on it for a
    repeated tap and a concurrent write), and the connection goes on working."""
    table, (alice, _) = make_table(players=2)
    first = Event.objects.filter(table=table).order_by("version").first()
    sql = ('INSERT INTO "tabletop_event" ("table_id", "version", "type", "data", "seat", '
           '"command_id", "command_type", "final", "created_at") '
           "VALUES (%s, %s, %s, %s::jsonb, %s::smallint, %s, %s, %s, now())")
    with pytest.raises(IntegrityError), prepared.cursor() as c:
        c.execute(sql, [table.pk, first.version, "x", "{}", None, 0, "x", True])
    result = services.run_command(table, alice, Command("counter.add", {"amount": 2}))
    assert result.version == table.version

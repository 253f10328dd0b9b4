"""``tabletop.seats.table_seats``: the live region's read of a table's seats (every command's
answer), one prepared statement, gives exactly what ``table.seats.order_by("number")`` gives."""

import pytest
from django.contrib.auth import get_user_model

from tabletop import services
from tabletop.models import Seat, Table
from tabletop.seats import table_seats

pytestmark = pytest.mark.django_db


def _fields(seat: Seat) -> list:
    return [(f.attname, getattr(seat, f.attname), type(getattr(seat, f.attname)))
            for f in Seat._meta.concrete_fields]


def _same_as_the_orm(table: Table) -> list[Seat]:
    orm = list(table.seats.order_by("number"))
    seats = table_seats(table)
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm]
    for seat in seats:
        assert seat.table is table  # as the related manager sets it: no query to read it
        assert not seat._state.adding and seat._state.db == orm[0]._state.db
    return seats


def test_a_table_s_seats_in_number_order_as_the_orm_reads_them(make_table):
    """Moved seats (6.4.1: the host seats people in the order they sit), a seat with a user
    and one without: each field, its type (the join time an aware datetime) and the order."""
    table, seats = make_table("counter", players=4, start=False)
    host = seats[0]
    services.seat_move(table=table, seat=host, number=3, offset=-1)
    services.seat_move(table=table, seat=host, number=1, offset=1)
    user = get_user_model().objects.create_user("seat-user", password="x-long-pass-123")
    Seat.objects.filter(pk=seats[2].pk).update(user=user)
    found = _same_as_the_orm(table)
    assert [s.name for s in found] == ["P1", "P4", "P2", "P3"]
    assert found[0].joined_at.tzinfo is not None
    assert next(s for s in found if s.pk == seats[2].pk).user_id == user.pk


def test_a_started_table_and_a_table_alone(make_table):
    table, _ = make_table("counter", players=2)
    assert len(_same_as_the_orm(table)) == 2
    other, _ = make_table("counter", players=3)
    assert [s.table_id for s in table_seats(other)] == [other.pk] * 3
    Seat.objects.filter(table=other).delete()
    assert table_seats(other) == []

"""Seat-management error codes no other test provokes, through the services
the lobby pages call. Seat order follows the table (DemLoc 6.4.1 "clockwise"; turn order in the
card games)."""

import pytest

from tabletop import seats as seat_service
from tabletop import services
from tabletop.errors import NotFound, RuleViolation
from tabletop.seats import move_token

pytestmark = pytest.mark.django_db


def test_the_host_keeps_seat_1_and_only_real_seats_are_removed_or_revoked(make_table):
    table, seats = make_table(players=2, start=False)
    host = seats[0]
    for action in (seat_service.seat_remove, seat_service.seat_revoke):
        with pytest.raises(RuleViolation) as exc:
            action(table=table, by=host, number=0)
        assert exc.value.code == "host_stays"
        with pytest.raises(NotFound) as exc:
            action(table=table, by=host, number=5)
        assert exc.value.code == "no_such_seat"
    assert list(table.seats.values_list("number", "name")) == [(0, "P1"), (1, "P2")]


def test_moving_a_seat_that_is_not_there_is_seat_not_found(make_table):
    table, seats = make_table(players=3, start=False)
    with pytest.raises(NotFound) as exc:
        services.seat_move(table=table, seat=seats[0], number=7, offset=-1)
    assert exc.value.code == "seat_not_found"
    assert list(table.seats.order_by("number").values_list("name", flat=True)) == ["P1", "P2", "P3"]


def test_a_move_link_works_once(make_table, client):
    table, seats = make_table(players=2, start=False)
    token = move_token(seats[1])
    seat_service.seat_move(token=token)
    with pytest.raises(NotFound) as exc:
        seat_service.seat_move(token=token)
    assert exc.value.code == "bad_seat_token"
    with pytest.raises(NotFound) as exc:
        seat_service.seat_move(token="forged")
    assert exc.value.code == "bad_seat_token"
    assert client.get(f"/rejoin/{token}/").status_code == 404


def test_a_command_that_decides_no_event_is_refused_and_logs_nothing():
    """The kit's step (KIT.md): a ruleset command whose decision emits no event is refused
    with ``nothing_happened``; the log and the version do not move."""
    from tabletop.counter import CounterRuleset
    from tabletop.errors import RuleViolation as Refused
    from tabletop.testing import Sim

    class Quiet(CounterRuleset):
        def decide(self, state, command, seat, rng):
            if command.type == "counter.nothing":
                return []
            return super().decide(state, command, seat, rng)

    g = Sim(Quiet(), 2)
    before = g.version
    with pytest.raises(Refused) as exc:
        g.send(0, "counter.nothing")
    assert exc.value.code == "nothing_happened"
    assert g.version == before
    g.send(0, "counter.add", {"amount": 2})
    assert g.state["total"] == 2

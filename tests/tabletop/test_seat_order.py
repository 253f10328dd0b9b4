"""Seats in the order people sit (DemLoc rulebook 6.4.1 "proceeding
clockwise" at deployment, 7 activation order): the host reorders the seats in the lobby."""

import pytest

from tabletop import services
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.rules import Command

pytestmark = pytest.mark.django_db


def names(table):
    return list(table.seats.order_by("number").values_list("name", flat=True))


def test_the_host_moves_seats_and_the_game_starts_in_that_order_6_4_1(make_table):
    table, seats = make_table("counter", players=4, start=False)
    host, p2, p3, p4 = seats
    services.seat_move(table=table, seat=host, number=3, offset=-1)  # P4 before P3
    services.seat_move(table=table, seat=host, number=2, offset=-1)  # P4 before P2
    assert names(table) == ["P1", "P4", "P2", "P3"]
    services.seat_move(table=table, seat=host, number=2, offset=1)  # P2 after P3
    assert names(table) == ["P1", "P4", "P3", "P2"]
    services.run_command(table, host, Command("table.start"))
    table.refresh_from_db()
    start = table.events.get(version=1).data
    assert [name for _, name in start["seats"]] == ["P1", "P4", "P3", "P2"]


def test_only_the_host_moves_seats_only_in_the_lobby_and_seat_1_stays_6_4_1(make_table):
    table, (host, p2, p3) = make_table("counter", players=3, start=False)
    with pytest.raises(NotAllowed) as err:
        services.seat_move(table=table, seat=p2, number=2, offset=-1)
    assert err.value.code == "host_only"
    for number, offset in ((1, -1), (0, 1), (2, 1), (1, 5)):
        with pytest.raises(RuleViolation) as err:
            services.seat_move(table=table, seat=host, number=number, offset=offset)
        assert err.value.code == "bad_move"
    with pytest.raises(NotFound):
        services.seat_move(table=table, seat=host, number=7, offset=-1)
    assert names(table) == ["P1", "P2", "P3"]
    services.run_command(table, host, Command("table.start"))
    with pytest.raises(RuleViolation) as err:
        services.seat_move(table=table, seat=host, number=2, offset=-1)
    assert err.value.code == "table_started"


def test_the_lobby_page_offers_the_arrows_to_the_host_only_6_4_1(client):
    client.post("/tables/new/", {"ruleset": "counter", "name": "Ann"})
    from tabletop.models import Table

    table = Table.objects.get()
    for name in ("Ben", "Cid"):
        type(client)().post(f"/j/{table.code}/", {"name": name})
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'aria-label="Move Cid up"' in page and 'aria-label="Move Ann' not in page
    moved = client.post(f"/t/{table.code}/seats/2/move/", {"to": "up"})
    assert moved.status_code == 200
    assert names(table) == ["Ann", "Cid", "Ben"]
    bad = client.post(f"/t/{table.code}/seats/1/move/", {"to": "up"})
    assert bad.status_code == 400 and 'data-code="bad_move"' in bad.content.decode()
    guest = type(client)()
    guest.post(f"/j/{table.code}/", {"name": "Dan"})
    assert guest.post(f"/t/{table.code}/seats/1/move/", {"to": "down"}).status_code == 403

"""A seat's secret never reaches another seat: view, page, API, websocket, undo result."""

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tabletop import live as live_reads
from tabletop import services
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token


def secret_of(table, seat):
    table.refresh_from_db()
    return table.state["secrets"][str(seat.number)]


def marker(value):
    return f'id="secret">{value}<'


@pytest.fixture
def table_with_distinct_secrets(make_table):
    for _ in range(20):
        table, seats = make_table(players=2)
        a, b = secret_of(table, seats[0]), secret_of(table, seats[1])
        if str(a) not in str(b) and str(b) not in str(a):  # "3" is in "23": not distinct
            return table, seats
    raise AssertionError("could not deal distinct secrets")


def test_view_holds_only_the_own_secret(table_with_distinct_secrets):
    table, (alice, bob) = table_with_distinct_secrets
    view = live_reads.seat_view(table, alice)
    assert view["my_secret"] == secret_of(table, alice)
    assert str(secret_of(table, bob)) not in json.dumps(view["my_secret"])
    assert live_reads.seat_view(table, None)["my_secret"] is None


def test_page_and_api_hold_only_the_own_secret(client, table_with_distinct_secrets):
    table, (alice, bob) = table_with_distinct_secrets
    client.cookies[cookie_name(table.pk)] = seat_token(alice)
    html = client.get(f"/t/{table.code}/").content.decode()
    assert marker(secret_of(table, alice)) in html
    assert marker(secret_of(table, bob)) not in html
    api = client.get(f"/api/tables/{table.code}/view", HTTP_X_SEAT_TOKEN=seat_token(alice)).json()
    assert api["view"]["my_secret"] == secret_of(table, alice)
    assert str(secret_of(table, bob)) not in json.dumps(api["view"]["my_secret"])


def test_command_and_undo_results_carry_no_event_data(client, table_with_distinct_secrets):
    table, (alice, bob) = table_with_distinct_secrets
    client.post(
        f"/api/tables/{table.code}/commands",
        {"type": "counter.add", "data": {"amount": 2}},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(bob),
    )
    bob_secret = secret_of(table, bob)
    result = client.post(
        f"/api/tables/{table.code}/commands",
        {"type": "table.undo"},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(alice),
    ).json()
    assert result["view"]["my_secret"] == secret_of(table, alice)
    assert all(set(e) == {"version", "type"} for e in result["events"])
    assert f'"my_secret": {bob_secret}' not in json.dumps(result)


@pytest.mark.django_db(transaction=True)
async def test_websocket_frames_hold_only_the_own_secret(make_table):
    from asgiref.sync import sync_to_async

    for _ in range(20):
        table, (alice, bob) = await sync_to_async(make_table)(players=2)
        a = table.state["secrets"]["0"]
        b = table.state["secrets"]["1"]
        if a != b:
            break
    token = await sync_to_async(seat_token)(alice)
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", f"{cookie_name(table.pk)}={token}".encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=5)
    assert marker(a) in frame and marker(b) not in frame
    await sync_to_async(services.run_command)(table, bob, Command("counter.secret.redraw"))
    frame = await comm.receive_from(timeout=5)
    new_b = (await sync_to_async(lambda: type(table).objects.get(pk=table.pk).state)())["secrets"][
        "1"
    ]
    assert marker(new_b) not in frame or new_b == a
    # a frame of the changed blocks (tabletop/blocks.py) leaves Alice's unchanged secret where
    # it is; a whole region shows it
    assert marker(a) in frame or frame.startswith("<!--delta ")
    await comm.disconnect()

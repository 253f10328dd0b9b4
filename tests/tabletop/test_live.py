"""Live sync over the websocket: every phone hears each update; a reconnecting one catches up."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tabletop import services
from tabletop.rules import Command
from tests.kit import phone

pytestmark = pytest.mark.django_db(transaction=True)


def version_of(frame: str) -> int:
    return int(re.search(r'data-version="(\d+)"', frame).group(1))


def total_of(frame: str) -> int:
    return int(re.search(r'id="total">(-?\d+)<', frame).group(1))


async def test_four_phones_all_receive_each_update_and_a_reconnecting_one_catches_up(make_table):
    table, seats = await sync_to_async(make_table)(players=4)
    phones = [await phone(table, s) for s in seats]
    for p in phones:
        assert version_of(await p.receive_from(timeout=5)) == 2  # catch-up on connect
    for step, seat in enumerate(seats, start=1):
        await sync_to_async(services.run_command)(
            table, seat, Command("counter.add", {"amount": 1})
        )
        for p in phones:
            frame = await p.receive_from(timeout=5)
            assert 'hx-swap-oob="true"' in frame
            assert version_of(frame) == 2 + step and total_of(frame) == step
    await phones[3].disconnect()
    await sync_to_async(services.run_command)(
        table, seats[0], Command("counter.add", {"amount": 5})
    )
    await sync_to_async(services.run_command)(
        table, seats[1], Command("counter.add", {"amount": 5})
    )
    back = await phone(table, seats[3])
    frame = await back.receive_from(timeout=5)
    assert version_of(frame) == 8 and total_of(frame) == 14
    for p in phones[:3] + [back]:
        await p.disconnect()


async def test_a_socket_to_a_missing_table_is_closed():
    comm = WebsocketCommunicator(
        application,
        "/ws/tables/QQQQQQ/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")],
    )
    connected, _ = await comm.connect()
    if connected:
        assert (await comm.receive_output(timeout=5))["type"] == "websocket.close"
    await comm.disconnect()


async def test_a_foreign_origin_is_refused(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.code}/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1")],
    )
    connected, _ = await comm.connect()
    assert not connected

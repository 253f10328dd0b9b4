"""The websocket heartbeat (docs/architecture.md "The event-sourced table": every frame carries the
version, a heartbeat finds dead sockets and missed pushes): a phone's ``{"ping": <version it
shows>}`` is answered with ``{"pong": <version>}`` when it is up to date, and with the live
region when the table moved on without it (a push it missed)."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from tabletop import services
from tabletop.fanout import get_hub
from tabletop.rules import Command

from .test_live import phone, total_of, version_of

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_ping_at_the_current_version_is_answered_with_a_pong(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    await ben.send_to(text_data=json.dumps({"ping": 2}))
    assert json.loads(await ben.receive_from(timeout=5)) == {"pong": 2}
    await ben.disconnect()


async def test_a_phone_that_missed_a_push_gets_the_live_region_on_its_next_ping(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    # Committed, but published to a layer no consumer listens to: the push is lost.
    lost = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=lost):
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 3})
        )
    assert await ben.receive_nothing(timeout=0.3)
    await ben.send_to(text_data=json.dumps({"ping": 2}))
    frame = await ben.receive_from(timeout=5)
    assert version_of(frame) == 3 and total_of(frame) == 3
    await ben.disconnect()


async def test_the_pings_of_many_phones_share_one_read_of_the_version(make_table):
    # A heartbeat per phone every 2.5 s was a query per phone (160/s at 400 phones);
    # the pings of one process that arrive together share one read, still made after they
    # arrived (a pong is never an answer from memory).
    tables = [await sync_to_async(make_table)(players=2) for _ in range(2)]
    phones = [await phone(table, seat) for table, seats in tables for seat in seats]
    for p in phones:
        assert version_of(await p.receive_from(timeout=5)) == 2
    hub = get_hub()
    before = hub.version_reads
    for p in phones:
        await p.send_to(text_data=json.dumps({"ping": 2}))
    for p in phones:
        assert json.loads(await p.receive_from(timeout=5)) == {"pong": 2}
    assert hub.version_reads - before == 1
    # A phone behind a version this process heard of gets the region with no read at all.
    await phones[0].send_to(text_data=json.dumps({"ping": 1}))
    assert version_of(await phones[0].receive_from(timeout=5)) == 2
    assert hub.version_reads - before == 1
    for p in phones:
        await p.disconnect()


async def test_a_missed_push_found_by_one_ping_repairs_every_phone_of_the_table(make_table):
    table, seats = await sync_to_async(make_table)(players=3)
    phones = [await phone(table, seat) for seat in seats]
    for p in phones:
        assert version_of(await p.receive_from(timeout=5)) == 2
    lost = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=lost):
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 4})
        )
    assert await phones[1].receive_nothing(timeout=0.3)
    await phones[0].send_to(text_data=json.dumps({"ping": 2}))
    for p in phones:  # the two that did not ask are repaired by the same read
        frame = await p.receive_from(timeout=5)
        assert version_of(frame) == 3 and total_of(frame) == 4
    for p in phones:
        await p.disconnect()

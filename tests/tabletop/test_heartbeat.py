"""The websocket heartbeat (DESIGN.md "The event-sourced table": every frame carries the
version, a heartbeat finds dead sockets and missed pushes): a phone's ``{"ping": <version it
shows>}`` is answered with ``{"pong": <version>}`` when it is up to date, and with the live
region when the table moved on without it (a push it missed)."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from tabletop import services
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

"""What a connected phone's socket keeps on the server (docs/performance.md "DemLoc at an
evening's scale"; docs/architecture.md "The live path"): no channel-layer subscription of its
own (the process's hub is the table's one member)."""

from __future__ import annotations

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from tabletop import services
from tabletop.rules import Command
from tests.kit import phone

pytestmark = pytest.mark.django_db(transaction=True)

async def test_a_phones_socket_subscribes_to_no_channel_of_its_own(make_table):
    """Four phones connected: the layer holds one subscription, the table's room's, and none of
    a socket's own (one per phone before: a Redis SUBSCRIBE, a queue and a waiting task each);
    each phone still hears the table's next version through the process's hub."""
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"].lower()
    if not settings.REDIS_URL or "pubsub" not in backend:
        pytest.skip("needs REDIS_URL and the pub/sub channel layer (the default with Redis)")
    table, seats = await sync_to_async(make_table)(players=4)
    client = redis.Redis.from_url(settings.REDIS_URL)
    pattern = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] + "*specific.*"
    before = len(client.pubsub_channels(pattern))
    phones = [await phone(table, s) for s in seats]
    try:
        for p in phones:
            await p.receive_from(timeout=5)  # the whole region
        # the table's room (``tabletop.fanout.Room``), one for all the phones of this process
        assert len(client.pubsub_channels(pattern)) == before + 1
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 1})
        )
        for p in phones:
            assert 'data-version="3"' in await p.receive_from(timeout=5)
    finally:
        for p in phones:
            await p.disconnect()
        client.close()

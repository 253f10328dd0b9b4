"""What a connected phone's socket keeps on the server (docs/performance.md "DemLoc at an
evening's scale"; docs/architecture.md "The live path"): per-message deflate without context
takeover (``config.websocket``: no zlib state kept between frames), and no channel-layer
subscription of its own (the process's hub is the table's one member)."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import zlib

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from tabletop import services
from tabletop.rules import Command
from tests.kit import phone
from tests.servers import OPEN_GATE, database_url, free_port, start_web, stop

pytestmark = pytest.mark.django_db(transaction=True)

#: What a phone's browser offers (Chromium's ``new WebSocket``).
CHROMIUM_OFFER = "permessage-deflate; client_max_window_bits"


async def _handshake(port: int, path: str, offer: str | None):
    """A raw websocket handshake to 127.0.0.1:``port`` as a phone makes it; returns the
    response's head (text) and the open stream."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\n"
    )
    if offer:
        head += f"Sec-WebSocket-Extensions: {offer}\r\n"
    writer.write((head + "\r\n").encode())
    answer = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)).decode("latin-1")
    return answer, reader, writer


async def _frame(reader) -> tuple[bool, bytes]:
    """One server frame (unmasked): ``(rsv1, payload)``; rsv1 set = compressed."""
    b0, b1 = await asyncio.wait_for(reader.readexactly(2), 20)
    size = b1 & 0x7F
    if size == 126:
        size = int.from_bytes(await reader.readexactly(2), "big")
    elif size == 127:
        size = int.from_bytes(await reader.readexactly(8), "big")
    return bool(b0 & 0x40), await reader.readexactly(size)


def _extension(answer: str) -> list[str]:
    found = re.search(r"(?im)^sec-websocket-extensions:\s*(.+?)\s*$", answer)
    return [p.strip() for p in found.group(1).split(";")] if found else []


def test_a_phone_offering_deflate_gets_it_without_context_takeover_from_the_served_uvicorn(
    tmp_path, make_table
):
    """uvicorn started as ``bin/run`` starts it (``tests/servers.py``, checked against
    ``config/supervisord.conf`` by tests/test_run.py): a phone offering per-message deflate
    as Chromium does is answered with deflate and no context takeover either way, so the
    server keeps no compressor or decompressor between frames; its frames come compressed,
    each one alone (a fresh decompressor reads each); a client offering none gets none."""
    table, seats = make_table(players=2)
    port = free_port()
    # the gate's code-guess throttle opened: the other tests' misses from 127.0.0.1 sit in the
    # same Redis (a phone with no seat cookie at a guessing address is refused, HTTP 403)
    env = {**os.environ, **OPEN_GATE, "DATABASE_URL": database_url(), "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    with open(tmp_path / "server.log", "w") as log:
        proc = start_web(port, env, log)
        try:

            async def scenario():
                path = f"/ws/tables/{table.code}/"
                answer, reader, writer = await _handshake(port, path, CHROMIUM_OFFER)
                assert answer.startswith("HTTP/1.1 101"), answer
                params = _extension(answer)
                assert params[0] == "permessage-deflate", answer
                assert "server_no_context_takeover" in params, answer
                assert "client_no_context_takeover" in params, answer
                compressed, first = await _frame(reader)
                assert compressed
                text = zlib.decompressobj(-15).decompress(first + b"\x00\x00\xff\xff")
                assert b'data-version="' in text
                writer.close()
                plain_answer, plain, writer = await _handshake(port, path, None)
                assert plain_answer.startswith("HTTP/1.1 101") and not _extension(plain_answer)
                compressed, body = await _frame(plain)
                assert not compressed and b'data-version="' in body
                writer.close()

            asyncio.run(scenario())
        finally:
            stop(proc)


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


async def test_phones_sockets_keep_no_redis_connection_of_their_own(make_table):
    """Eight phones connecting (each through the gate's throttles, which read the shared
    cache) add no Redis client each: the gate reads one cache object for the process
    (``tabletop.process_cache``), not Django's per asyncio context, which kept a connection
    pool and a Redis connection for every open socket."""
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL (the shared cache)")
    tables = [await sync_to_async(make_table)(players=4) for _ in range(2)]
    client = redis.Redis.from_url(settings.REDIS_URL)
    db = client.connection_pool.connection_kwargs.get("db", 0)

    def clients() -> int:
        return sum(1 for c in client.client_list() if int(c["db"]) == db)

    before = clients()
    phones = [await phone(table, s) for table, seats in tables for s in seats]
    try:
        for p in phones:
            await p.receive_from(timeout=5)  # the whole region
        assert clients() - before <= 2, (before, clients())
    finally:
        for p in phones:
            await p.disconnect()
        client.close()

"""The long-lived publisher and the per-view fan-out (docs/architecture.md "The event-sourced table",
live sync)."""

import asyncio
import re
import socket
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from tabletop import services
from tabletop.fanout import get_hub
from tabletop.publisher import PUBLISHER, Publisher, publish_command
from tabletop.rules import Command
from tests import kit

pytestmark = pytest.mark.django_db(transaction=True)


def version_of(frame: str) -> int:
    return int(re.search(r'data-version="(\d+)"', frame).group(1))


async def phone(table, seat=None):
    comm = await kit.phone(table, seat)
    assert version_of(await comm.receive_from(timeout=5)) == table.version  # catch-up
    return comm


async def test_one_render_per_distinct_view_shared_by_spectators_and_a_seats_phones(make_table):
    table, (alice, bob) = await sync_to_async(make_table)(players=2)
    watchers = [await phone(table) for _ in range(3)]
    alices = [await phone(table, alice) for _ in range(2)]
    bobs = [await phone(table, bob)]
    hub = get_hub()
    before, version = hub.renders, table.version
    await sync_to_async(services.run_command)(table, bob, Command("counter.add", {"amount": 3}))
    assert table.version == version + 1  # run_command leaves the committed state on its table
    frames = {}
    for name, comms in (("watch", watchers), ("alice", alices), ("bob", bobs)):
        frames[name] = [await c.receive_from(timeout=5) for c in comms]
    assert hub.renders - before == 3  # watching, Alice, Bob: not one per socket (6)
    for name, got in frames.items():
        assert all(version_of(f) == version + 1 for f in got), name
        assert len(set(got)) == 1, name  # the phones of one view got the very same HTML
    assert "Watching" in frames["watch"][0]
    assert "You are <strong>P1</strong>" in frames["alice"][0]
    assert "You are <strong>P2</strong>" in frames["bob"][0]
    for c in watchers + alices + bobs:
        await c.disconnect()


async def test_a_phone_that_is_behind_gets_the_latest_state_once_in_order(make_table):
    table, (alice, bob) = await sync_to_async(make_table)(players=2)
    watcher = await phone(table)

    def burst():
        for _ in range(8):
            services.run_command(table, alice, Command("counter.add", {"amount": 1}))

    start = table.version
    await sync_to_async(burst)()
    final = start + 8
    seen = []
    while not seen or seen[-1] < final:
        seen.append(version_of(await watcher.receive_from(timeout=5)))
    assert seen == sorted(set(seen))  # never an old state after a newer one, never twice
    assert len(seen) <= 8
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


def test_publish_returns_at_once_and_reuses_one_connection(make_table):
    """1,000 publishes from a plain thread (as in a Celery worker): the latest version of each
    table arrives and Redis accepts no new connection per call (the cost per call is in
    bench/live.py)."""
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL (the Redis channel layer)")
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    layer = get_channel_layer()
    received = {}

    async def listen(channel, group):
        await layer.group_add(group, channel)
        ready.set()
        while True:
            message = await layer.receive(channel)
            received[message["table"]] = message["version"]
            if received.get(10**9 + 1) == 998 and received.get(10**9 + 2) == 999:
                return

    ready = threading.Event()
    result = {}

    def run_listener():
        async def main():
            channel = await layer.new_channel()
            await layer.group_add(f"table.{10**9 + 2}", channel)
            await listen(channel, f"table.{10**9 + 1}")

        asyncio.run(main())
        result["done"] = True

    thread = threading.Thread(target=run_listener, daemon=True)
    thread.start()
    assert ready.wait(5)
    publisher = Publisher()
    publisher.publish(10**9 + 1, 0)
    assert publisher.flush(5)
    accepted = client.info("stats")["total_connections_received"]
    for n in range(1000):
        publisher.publish(10**9 + 1 + n % 2, n)
    assert publisher.flush(5)
    thread.join(5)
    assert result.get("done"), received
    # this test's own client and the listener may reconnect once; never one per publish
    assert client.info("stats")["total_connections_received"] - accepted <= 3
    assert publisher.failed == 0


def _hung_redis():
    """A listening socket that accepts up to 4 connections and never answers (a hung Redis):
    ``(port, server socket, accepted connections)``."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []

    def accept():
        try:
            for _ in range(4):
                accepted.append(server.accept())
        except OSError:  # the test closed the server first
            pass

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1], server, accepted


def test_a_hung_redis_never_blocks_a_command(make_table, settings):
    """A channel layer that accepts the connection and never answers: the command still
    answers while the send is still waiting; the send gives up after the timeout and is
    counted as failed."""
    table, (alice, bob) = make_table(players=2)
    port, server, accepted = _hung_redis()
    settings.TABLETOP_PUBLISH_TIMEOUT = 2.0
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{port}/0"}]},
        }
    }
    failed, version = PUBLISHER.failed, table.version
    try:
        result = services.run_command(table, alice, Command("counter.add", {"amount": 1}))
        assert result.version == version + 1
        assert PUBLISHER.failed == failed  # answered before the send gave up
        assert PUBLISHER.flush(10)
        assert PUBLISHER.failed == failed + 1
    finally:
        server.close()
        for conn, _ in accepted:
            conn.close()


def test_a_batch_of_tables_is_one_round_trip_to_redis(make_table, settings):
    """The versions queued while the sender thread was waiting on Redis go to Redis
    pub/sub in one pipelined round trip, each table once with its latest version, and every
    table's group hears it. Redis is held with ``CLIENT PAUSE ... WRITE`` (it blocks PUBLISH)
    while the first message is on its way, so the others queue behind it. (The thread's path:
    what every message takes when the direct write cannot be used, turned off here.)"""
    if not settings.REDIS_URL or "pubsub" not in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        pytest.skip("needs REDIS_URL and the pub/sub channel layer (the default with Redis)")
    import redis

    settings.TABLETOP_PUBLISH_DIRECT = False

    layer = get_channel_layer()
    tables = [10**9 + 100 + n for n in range(20)]
    received, ready, done = {}, threading.Event(), threading.Event()

    def run_listener():
        async def main():
            channel = await layer.new_channel()
            for t in [*tables, 10**9 + 99]:
                await layer.group_add(f"table.{t}", channel)
            ready.set()
            while len(received) < len(tables) + 1 or any(
                v != 7 for t, v in received.items() if t in tables
            ):
                message = await layer.receive(channel)
                received[message["table"]] = message["version"]
            done.set()

        asyncio.run(main())

    threading.Thread(target=run_listener, daemon=True).start()
    assert ready.wait(5)
    publisher = Publisher()
    publisher.publish(10**9 + 99, 1)  # starts the sender thread and its connection
    assert publisher.flush(5) and publisher.round_trips == 1
    redis.Redis.from_url(settings.REDIS_URL).execute_command("CLIENT", "PAUSE", 300, "WRITE")
    publisher.publish(10**9 + 99, 2)  # the sender takes it and waits on the paused Redis
    for version in (6, 7):
        for t in tables:
            publisher.publish(t, version)
    assert publisher.flush(5)
    assert done.wait(5), received
    assert publisher.failed == 0
    # 42 updates of 21 tables after the first round trip: each table's versions merged into
    # one message, sent in one round trip (two when the sender took table 99's alone first)
    assert publisher.sent == 1 + 21
    assert publisher.round_trips in (2, 3)


def test_a_hung_redis_behind_the_pub_sub_layer_never_blocks_a_command(make_table, settings):
    """The pipelined path: a Redis that accepts and never answers costs the batch (counted
    failed after the timeout), never the command's answer, and the next batch is sent."""
    table, (alice, bob) = make_table(players=2)
    port, server, accepted = _hung_redis()
    settings.TABLETOP_PUBLISH_TIMEOUT = 1.0
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{port}/0"}]},
        }
    }
    publisher = Publisher()  # its own loop thread, as in a worker
    try:
        version = table.version
        result = services.run_command(table, alice, Command("counter.add", {"amount": 1}))
        assert result.version == version + 1
        publisher.publish(table.pk, result.version)
        publisher.publish(table.pk + 1, 1)
        assert publisher.failed == 0  # publish returned before any send gave up
        assert publisher.flush(10)
        assert publisher.failed == 2 and publisher.sent == 0
        publisher.publish(table.pk, result.version)
        assert publisher.flush(10)
        assert publisher.failed == 3  # tried again, gave up again: never stuck
    finally:
        server.close()
        for conn, _ in accepted:
            conn.close()


def test_with_the_pub_sub_layer_no_event_loop_is_involved(make_table):
    """With channels_redis's pub/sub layer on one Redis, a process's updates are sent
    by one thread of plain redis-py (no event loop woken per command, no asyncio client): the
    group hears each version and the publisher made no loop of its own."""
    if not settings.REDIS_URL or "pubsub" not in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        pytest.skip("needs REDIS_URL and the pub/sub channel layer (the default with Redis)")
    layer = get_channel_layer()
    heard, ready = [], threading.Event()

    def run_listener():
        async def main():
            channel = await layer.new_channel()
            await layer.group_add(f"table.{10**9 + 300}", channel)
            ready.set()
            while not heard or heard[-1] < 5:
                heard.append((await layer.receive(channel))["version"])

        asyncio.run(main())

    listener = threading.Thread(target=run_listener, daemon=True)
    listener.start()
    assert ready.wait(5)
    publisher = Publisher()
    for version in range(1, 6):
        publisher.publish(10**9 + 300, version)
        assert publisher.flush(5)
    listener.join(5)
    assert heard == [1, 2, 3, 4, 5]
    assert publisher._own is None  # no loop thread of its own
    assert "tabletop-publisher-redis" in {t.name for t in threading.enumerate()}


def _listen(groups, until):
    """Listen on ``groups`` in a thread of its own: ``(heard versions list, ready event,
    thread)``; stops when ``until(heard)``."""
    layer = get_channel_layer()
    heard, ready = [], threading.Event()

    def run_listener():
        async def main():
            channel = await layer.new_channel()
            for group in groups:
                await layer.group_add(group, channel)
            ready.set()
            while not until(heard):
                heard.append((await layer.receive(channel))["version"])

        asyncio.run(main())

    thread = threading.Thread(target=run_listener, daemon=True)
    thread.start()
    assert ready.wait(5)
    # group_add returns once SUBSCRIBE is written, not once Redis has it: a message published
    # at once could reach Redis first and be heard by nobody. Wait until Redis counts us.
    if settings.REDIS_URL and "pubsub" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        import redis

        admin, deadline = redis.Redis.from_url(settings.REDIS_URL), time.monotonic() + 5
        for group in groups:
            while not any(n for _name, n in admin.pubsub_numsub(*admin.pubsub_channels(f"*__group__{group}")) or []):
                assert time.monotonic() < deadline, f"nobody subscribed to {group}"
                time.sleep(0.01)
    return heard, thread


def _direct_open(publisher, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sender = publisher._redis_sender()
        if sender is not None and sender._direct is not None:
            return sender._direct
        time.sleep(0.01)
    raise AssertionError("the direct connection did not open")


def test_a_command_writes_its_publish_itself_on_a_connection_without_replies(make_table):
    """Once the sender thread has opened its connection without replies (``CLIENT
    REPLY OFF``), each publish is written by the caller itself: no thread hop, no round trip;
    every version is heard, in order. When Redis closes that connection (here ``CLIENT KILL``;
    a restart, an idle timeout), the next messages go through the thread, none is lost, and a
    new direct connection opens a second later."""
    if not settings.REDIS_URL or "pubsub" not in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        pytest.skip("needs REDIS_URL and the pub/sub channel layer (the default with Redis)")
    import redis

    group = f"table.{10**9 + 400}"
    heard, listener = _listen([group], lambda heard: heard[-1:] == [60])
    publisher = Publisher()
    publisher.publish(10**9 + 400, 1)  # starts the thread, which opens the direct connection
    direct = _direct_open(publisher)
    assert publisher.flush(5)
    # version 1 went direct if the thread opened the connection before put() ran (a race)
    trips, before = publisher.round_trips, publisher.direct
    for version in range(2, 31):
        publisher.publish(10**9 + 400, version)
    assert publisher.direct == before + 29 and publisher.round_trips == trips
    client = redis.Redis.from_url(settings.REDIS_URL)
    entry = next(c for c in client.client_list()
                 if c["laddr"].endswith(f":{direct._sock.getpeername()[1]}")
                 and c["addr"].endswith(f":{direct._sock.getsockname()[1]}"))
    assert "R" not in entry.get("flags", "") and entry["cmd"] in ("publish", "client|reply")
    client.client_kill(entry["addr"])
    time.sleep(0.2)  # the close reaches this side
    for version in range(31, 41):
        publisher.publish(10**9 + 400, version)
        assert publisher.flush(5)
    assert publisher.direct == before + 29  # through the thread while the connection was gone
    reopened = _direct_open(publisher)
    assert reopened is not direct
    for version in range(41, 61):
        publisher.publish(10**9 + 400, version)
    assert publisher.flush(5) and publisher.direct == before + 49
    listener.join(5)
    assert heard == list(range(1, 61)) and publisher.failed == 0



def test_a_redis_without_client_reply_leaves_every_message_to_the_thread(settings, caplog):
    """A Redis (or a proxy, a managed service) that refuses ``CLIENT REPLY`` gets no direct
    connection: the probe sees the error, says so once in the log, is not tried again, and the
    sender thread sends every message, each heard. Here a Redis user whose ACL leaves the command
    out (``-client|reply``)."""
    if not settings.REDIS_URL or "pubsub" not in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        pytest.skip("needs REDIS_URL and the pub/sub channel layer (the default with Redis)")
    from urllib.parse import urlsplit

    import redis

    admin = redis.Redis.from_url(settings.REDIS_URL)
    admin.execute_command("ACL", "SETUSER", "demloc-noreply", "reset", "on", "nopass", "~*",
                          "&*", "+@all", "-client|reply")
    url = urlsplit(settings.REDIS_URL)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": f"redis://demloc-noreply@{url.netloc.split('@')[-1]}"
                                             f"{url.path or '/0'}"}]},
        }
    }
    try:
        heard, listener = _listen([f"table.{10**9 + 500}"], lambda heard: heard[-1:] == [3])
        publisher = Publisher()
        with caplog.at_level("WARNING", logger="tabletop.publisher"):
            publisher.publish(10**9 + 500, 1)
            sender = publisher._redis_sender()
            deadline = time.monotonic() + 5
            while sender._direct_kwargs is not None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert sender._direct_kwargs is None and sender._direct is None
            for version in (2, 3):
                publisher.publish(10**9 + 500, version)
                assert publisher.flush(5)
        listener.join(5)
        assert heard == [1, 2, 3]
        assert publisher.direct == 0 and publisher.failed == 0
        assert caplog.text.count("does not take CLIENT REPLY OFF") == 1
    finally:
        admin.execute_command("ACL", "DELUSER", "demloc-noreply")


@pytest.mark.parametrize("channel, data", [
    ("asgi__group__table.5", b"\x82\xa4type\xadtable.updated"),
    ("t\u00e9ble.\U0001f409", b""),
    ("x" * 300, bytes(range(256)) * 40),
])
def test_the_publish_written_directly_is_the_one_redis_py_writes(channel, data):
    import redis

    assert publish_command(channel, data) == b"".join(
        redis.Connection().pack_command("PUBLISH", channel, data))

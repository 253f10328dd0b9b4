"""The long-lived publisher of table versions (docs/architecture.md "The live path").

``publish(table_id, version)`` is what ``services.notify_table`` calls after commit. It costs
a dict update under a lock and, at most once per batch, one ``call_soon_threadsafe``: a few
microseconds, never a new event loop or a new Redis connection. The actual
``group_send("table.<id>", {"type": "table.updated", ...})`` runs later on an event loop that
lives as long as the process and keeps the channel layer's connections open:

- in a web process, the ASGI server's own loop (registered by the fan-out hub when its first
  socket connects: the in-memory layer of the embedded default only works on that loop);
- anywhere else (a Celery worker, ``manage.py``, a web process with no socket yet), one daemon
  thread per process running its own loop, started on first use (and again after a fork).

A command's message also carries the *row* it committed (``notify_table(row=...)``: the
table's status, state and meta as the JSON text just written, and the version it was written
over), so the fan-out renders the new state without reading the table again;
merged updates keep what each of them changed (``merge_updates``).

Versions queued for one table coalesce (the phones render the latest state anyway), so a slow
or hung Redis holds at most one pending message per table; each send gives up after
``TABLETOP_PUBLISH_TIMEOUT`` seconds (default 0.5) and is logged, and a command's answer never
waits for any of it.

With channels_redis's pub/sub layer on one Redis (the default with ``REDIS_URL``) no event
loop is involved at all: one daemon thread per process (``_RedisSender``) waits on a condition
and sends each batch as one pipelined round trip of plain (blocking) redis-py: a ``PUBLISH``
per table on the very channel the layer's ``group_send`` publishes to
(``RedisPubSubLoopLayer._get_group_channel_name``), serialized by the layer, on one client that
keeps its connection. ``publish`` then costs a dict update and a ``notify`` under one lock
(waking an event loop from another thread and redis-py's asyncio client cost about
0.3 ms of CPU per message when commands come one at a time, the in-process append's case).
Once that thread has opened its second connection, on which Redis sends no replies
(``CLIENT REPLY OFF``: ``_DirectConnection``), ``publish`` writes the ``PUBLISH`` itself, in the
committing thread, without waiting: one non-blocking ``send``, cheaper than redis-py's own
``publish`` and much cheaper than waking the thread once per command (``bench/publish_cost.py``
measures all three in one run). A
write that would block (Redis not reading: its socket buffer is full), a closed connection, or a
batch still on its way falls back to the thread, as above.
Any other layer (the in-memory layer of the embedded default, the list-based ``core`` layer,
several Redis shards, Sentinel) gets one ``group_send`` per table on a loop, as above.
"""

from __future__ import annotations

import asyncio
import logging
import os
import select
import threading
import time

import redis
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from tabletop.rules import counted

log = logging.getLogger(__name__)

# A batch handed to a loop that never ran it (its loop stopped meanwhile) is handed again.
_STUCK_AFTER = 2.0

#: One pending update of a table: ``(version, lobby, seat, row)`` (see ``Publisher.publish``).
Update = tuple[int, bool, "int | None", "dict | None"]


def merge_updates(a: Update, b: Update) -> Update:
    """Two updates of one table as one: the newer version, ``lobby`` if either was, the acting
    seat if both name the same one, and a row only when both carry one, neither is a lobby
    change and the newer was written over the older's version or an earlier one (no command of
    another process in between: its message comes on its own): the newer row, with what only
    the older one changed (``setup``, written by ``table.start``) and the older ``since``, so
    it describes everything from the older base to the newer version; its ``events`` are the
    older's then the newer's when the newer was written over the older's version (none when
    either row has none, or when they overlap: the fan-out then reads the newest events).
    Pure; used by the publisher and by the fan-out's room."""
    (va, la, sa, ra), (vb, lb, sb, rb) = a, b
    lobby = la or lb
    row = None
    if ra is not None and rb is not None and not lobby:
        older, newer = (ra, rb) if va <= vb else (rb, ra)
        if newer["since"] <= older["version"]:
            row = {**older, **newer, "since": min(ra["since"], rb["since"])}
            row.pop("events", None)
            if (newer["since"] == older["version"] and "events" in older
                    and "events" in newer):
                row["events"] = [*older["events"], *newer["events"]]
    return max(va, vb), lobby, sa if sa == sb else None, row


class Publisher:
    """One per process (``PUBLISHER``). Thread-safe; see the module docstring."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[int, Update] = {}
        self._scheduled_at: float | None = None
        self._home: asyncio.AbstractEventLoop | None = None
        self._own: asyncio.AbstractEventLoop | None = None
        self._own_pid: int | None = None
        self.sent = 0  # messages handed to the channel layer (tests, bench)
        self.failed = 0
        self.round_trips = 0  # batches sent to Redis by the sender thread (tests, bench)
        self.direct = 0  # messages written by the committing thread itself (_DirectConnection)
        # (channel layer, pid, its _RedisSender or None): see _redis_sender
        self._sender: tuple | None = None

    def set_home_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send on ``loop`` (the ASGI server's) from now on, while it runs."""
        self._home = loop

    def publish(
        self, table_id: int, version: int, lobby: bool = False, seat: int | None = None,
        row: dict | None = None,
    ) -> None:
        """Queue ``table.updated`` for ``table.<table_id>``: ``version`` is the table's new
        version, ``lobby`` that seats or options changed without a new event, ``seat`` the
        number of the seat that acted (its phone has the answer already), ``row`` what the
        command committed (``services.notify_table``). Returns at once."""
        update: Update = (version, lobby, seat, row)
        sender = self._redis_sender()
        if sender is not None:
            sender.put(table_id, update)
            return
        with self._lock:
            old = self._pending.get(table_id)
            self._pending[table_id] = update if old is None else merge_updates(old, update)
            now = time.monotonic()
            if self._scheduled_at is not None and now - self._scheduled_at < _STUCK_AFTER:
                return  # the running batch will pick this up
            self._scheduled_at = now
        loop = self._loop()
        try:
            loop.call_soon_threadsafe(self._start_drain)
        except RuntimeError:  # the loop closed between the check and the call
            with self._lock:
                self._scheduled_at = None
            self._own_loop().call_soon_threadsafe(self._start_drain)

    def _loop(self) -> asyncio.AbstractEventLoop:
        home = self._home
        if home is not None and home.is_running() and not home.is_closed():
            return home
        return self._own_loop()

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._own is None or self._own_pid != os.getpid():  # first use, or forked
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="tabletop-publisher", daemon=True
                )
                thread.start()
                self._own, self._own_pid = loop, os.getpid()
            return self._own

    def _start_drain(self) -> None:
        asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        layer = get_channel_layer()
        timeout = _timeout()
        while True:
            with self._lock:
                batch, self._pending = self._pending, {}
                if not batch:
                    self._scheduled_at = None
                    return
                self._scheduled_at = time.monotonic()
            if layer is None:
                continue
            await asyncio.gather(
                *(self._send(layer, table_id, update, timeout) for table_id, update in batch.items())
            )

    def _redis_sender(self) -> _RedisSender | None:
        """This process's sender thread for the current channel layer when it is channels_redis's
        pub/sub layer on one Redis (made on first use, again after a fork or when the layer was
        replaced, as tests do); None for any other layer."""
        layer = get_channel_layer()
        cached = self._sender
        if cached is not None and cached[0] is layer and cached[1] == os.getpid():
            return cached[2]
        with self._lock:
            cached = self._sender
            if cached is None or cached[0] is not layer or cached[1] != os.getpid():
                cached = (layer, os.getpid(), _RedisSender.for_layer(self, layer))
                self._sender = cached
        return cached[2]

    async def _send(self, layer, table_id, update: Update, timeout: float):
        message = _message(table_id, update)
        version = update[0]
        try:
            await asyncio.wait_for(layer.group_send(f"table.{table_id}", message), timeout)
            self.sent += 1
        except Exception:  # a broken or hung channel layer must never undo a committed command
            self.failed += 1
            log.warning("could not notify table %s (version %s)", table_id, version, exc_info=True)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait (from a thread with no running loop) until everything queued was handed to the
        channel layer; True when it was. For tests and the benchmark."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                idle = not self._pending and self._scheduled_at is None
                cached = self._sender
            sender = cached[2] if cached is not None and cached[1] == os.getpid() else None
            if idle and (sender is None or sender.idle()):
                return True
            time.sleep(0.005)
        return False


def _timeout() -> float:
    return float(getattr(settings, "TABLETOP_PUBLISH_TIMEOUT", 0.5))


class _RedisSender:
    """The thread that sends a process's table updates to channels_redis's pub/sub layer on one
    Redis, in batches: whatever was queued while a batch was being sent goes in the next one,
    each table once with its latest update (``merge_updates``). A send that fails or takes longer
    than ``TABLETOP_PUBLISH_TIMEOUT`` s (the client's socket timeout; one retry on a fresh
    connection, as after a Redis restart) is logged and its messages counted as failed: the
    thread goes on with the next batch (the phones' heartbeat repairs a missed version)."""

    def __init__(self, publisher: Publisher, layer, group_channel, client,
                 direct_kwargs: dict | None = None) -> None:
        self._publisher = publisher
        self._layer = layer
        self._group_channel = group_channel
        self._client = client
        self._cond = threading.Condition()
        self._pending: dict[int, Update] = {}
        self._busy = False
        self._direct: _DirectConnection | None = None
        self._direct_tried = 0.0  # when the thread last tried to open it (monotonic s)
        self._direct_backoff = 0.0  # seconds after that try before the next one
        self._direct_kwargs = direct_kwargs
        threading.Thread(target=self._run, name="tabletop-publisher-redis", daemon=True).start()

    @classmethod
    def for_layer(cls, publisher: Publisher, layer) -> _RedisSender | None:
        """A sender for ``layer`` when it is the pub/sub layer on a single Redis given by
        address or host/port, else None (channels_redis internals, pinned <5: anything
        unexpected is logged and the loop path is used)."""
        if not isinstance(layer, RedisPubSubChannelLayer):
            return None
        try:
            naming = RedisPubSubLoopLayer(*layer._args, **layer._kwargs, channel_layer=layer)
            if len(naming._shards) != 1:
                return None
            host = dict(naming._shards[0].host)
            if "master_name" in host:
                return None  # Sentinel: group_send knows how
            timeout = _timeout()
            host.update(socket_timeout=timeout, socket_connect_timeout=timeout,
                        retry=Retry(NoBackoff(), 1))
            address = host.pop("address", None)
            client = redis.Redis.from_url(address, **host) if address else redis.Redis(**host)
            direct = None
            # plain TCP only: a TLS connection has records of its own to read (and a unix
            # socket is fast enough either way)
            if (getattr(settings, "TABLETOP_PUBLISH_DIRECT", True)
                    and client.connection_pool.connection_class is redis.Connection):
                direct = {**client.connection_pool.connection_kwargs,
                          "retry": Retry(NoBackoff(), 0)}
        except Exception:
            log.warning("publishing through group_send: no direct pub/sub path", exc_info=True)
            return None
        return cls(publisher, layer, naming._get_group_channel_name, client, direct)

    def _packed(self, table_id: int, update: Update) -> tuple[str, bytes]:
        """``(channel, data)`` of the ``PUBLISH`` that tells ``table.<table_id>`` ``update``:
        the channel the layer's ``group_send`` publishes to, the message as it serializes it."""
        return (self._group_channel(f"table.{table_id}"),
                self._layer.serialize(_message(table_id, update)))

    def put(self, table_id: int, update: Update) -> None:
        direct = self._direct
        if direct is not None:
            packed = self._packed(table_id, update)
            with self._cond:
                # only when nothing waits for the thread: a table's messages stay in order
                if self._direct is direct and not self._pending and not self._busy:
                    if direct.publish(*packed):
                        self._publisher.sent += 1
                        self._publisher.direct += 1
                        return
                    self._direct = None  # the thread opens a new one in a second
                    self._direct_tried, self._direct_backoff = time.monotonic(), _DIRECT_RETRY
                    direct.close()
        with self._cond:
            old = self._pending.get(table_id)
            self._pending[table_id] = update if old is None else merge_updates(old, update)
            if not self._busy:
                self._cond.notify()

    def idle(self) -> bool:
        with self._cond:
            return not self._pending and not self._busy

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._wants_direct():
                    self._cond.wait(self._direct_wait())
                batch, self._pending = self._pending, {}
                self._busy = bool(batch)
            if not batch:
                self._open_direct()  # not busy meanwhile: queued updates wait at most its timeout
                continue
            try:
                self._send(batch)
            except Exception:  # never let the thread die: the next batch is sent
                log.exception("publisher: sending %s failed", counted(len(batch), "table update"))
            finally:
                with self._cond:
                    self._busy = False

    def _wants_direct(self) -> bool:
        return (self._direct_kwargs is not None and self._direct is None
                and time.monotonic() >= self._direct_tried + self._direct_backoff)

    def _direct_wait(self) -> float | None:
        if self._direct_kwargs is None or self._direct is not None:
            return None
        return max(0.0, self._direct_tried + self._direct_backoff - time.monotonic())

    def _open_direct(self) -> None:
        """Open the reply-less connection (in this thread: a hung Redis costs it the connect
        timeout, never a command); after a failure try again in 1 s, then 2, 4 ... 30 s."""
        self._direct_tried = time.monotonic()
        try:
            direct = _DirectConnection(self._direct_kwargs)
        except _NoDirectPath:
            log.warning("publisher: Redis does not take CLIENT REPLY OFF; one thread sends all")
            self._direct_kwargs = None
            return
        except Exception:
            if self._direct_backoff <= _DIRECT_RETRY:  # once per outage, not every try
                log.warning("publisher: no direct connection to Redis yet", exc_info=True)
            self._direct_backoff = min(_DIRECT_RETRY_MAX, 2 * max(self._direct_backoff,
                                                                   _DIRECT_RETRY / 2))
            return
        self._direct_backoff = _DIRECT_RETRY
        with self._cond:
            self._direct = direct

    def _send(self, batch: dict[int, Update]) -> None:
        publisher = self._publisher
        messages = [self._packed(table_id, update) for table_id, update in batch.items()]
        try:
            if len(messages) == 1:  # a pipeline costs more than it saves for one message
                self._client.publish(*messages[0])
            else:
                pipe = self._client.pipeline(transaction=False)
                for channel, data in messages:
                    pipe.publish(channel, data)
                pipe.execute()
            publisher.sent += len(batch)
            publisher.round_trips += 1
        except Exception:  # a broken or hung Redis must never undo a committed command
            publisher.failed += len(batch)
            log.warning("could not notify %s, e.g. %s", counted(len(batch), "table"), next(iter(batch)),
                        exc_info=True)


#: Seconds before the thread opens a new direct connection (``_DirectConnection``) after one
#: closed, doubled after each failed try up to ``_DIRECT_RETRY_MAX``.
_DIRECT_RETRY = 1.0
_DIRECT_RETRY_MAX = 30.0


class _NoDirectPath(Exception):
    """The server (or a proxy in front of it) does not take ``CLIENT REPLY OFF``."""


def publish_command(channel: str, data: bytes) -> bytes:
    """``PUBLISH channel data`` in Redis's protocol (RESP), the bytes redis-py's
    ``pack_command`` writes for it, in a few microseconds less."""
    name = channel.encode()
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n" % (
        len(name), name, len(data), data)


class _DirectConnection:
    """A connection to Redis on which the server sends no replies (``CLIENT REPLY OFF``, Redis
    3.2+), so a ``PUBLISH`` is one non-blocking write and nothing to wait for. Opened with
    redis-py's ``Connection`` (its handshake: AUTH, SELECT, the client name), then probed: ``OFF``
    is answered by nothing and ``ON`` by ``OK``, where a server or proxy that does not know the
    command answers both with errors (``_NoDirectPath``). Thread-safe only under the sender's
    lock (``_RedisSender.put``)."""

    def __init__(self, kwargs: dict) -> None:
        self._conn = redis.Connection(**kwargs)
        self._conn.connect()
        self._conn.send_command("CLIENT", "REPLY", "OFF")
        self._conn.send_command("CLIENT", "REPLY", "ON")
        try:
            answer = self._conn.read_response()
        except redis.ResponseError as exc:
            self._conn.disconnect()
            raise _NoDirectPath() from exc
        if answer not in (b"OK", "OK"):
            self._conn.disconnect()
            raise _NoDirectPath()
        self._conn.send_command("CLIENT", "REPLY", "OFF")
        self._sock = self._conn._sock
        self._sock.setblocking(False)
        # Redis never writes on this connection: anything readable is its end (a restart, a
        # CLIENT KILL, an idle timeout), seen before a PUBLISH is written into the void.
        self._poll = select.poll()
        self._poll.register(self._sock, select.POLLIN | select.POLLERR | select.POLLHUP)

    def publish(self, channel: str, data: bytes) -> bool:
        """Write ``PUBLISH channel data`` without blocking: True when all of it was written;
        False (nothing or part of it written: the caller closes this connection, and Redis
        drops a command cut short by the close) when the connection is closed or Redis is not
        reading."""
        if self._poll.poll(0):
            return False
        payload = publish_command(channel, data)
        try:
            return self._sock.send(payload) == len(payload)
        except OSError:  # BlockingIOError (the buffer is full), a reset connection, ...
            return False

    def close(self) -> None:
        try:
            self._conn.disconnect()
        except Exception:  # noqa: BLE001 - closing a broken socket
            pass


def _message(table_id: int, update: Update) -> dict:
    version, lobby, seat, row = update
    message = {"type": "table.updated", "table": table_id, "version": version, "lobby": lobby,
               "seat": seat}
    if row is not None:
        message["row"] = row
    return message


PUBLISHER = Publisher()


def publish(
    table_id: int, version: int, lobby: bool = False, seat: int | None = None,
    row: dict | None = None,
) -> None:
    """``PUBLISHER.publish``: see ``Publisher.publish``."""
    PUBLISHER.publish(table_id, version, lobby, seat, row)

"""Fan-out of a table's new version to the phones connected to this process.

One ``Hub`` per event loop (one per web process). The hub, not each socket, is the member of
the Channels group ``table.<id>`` of every table that has a phone connected here, so a
``group_send`` reaches each process once. On ``table.updated`` the hub reads the table once,
renders the live region once per distinct view and hands each socket its frame:

- a *view* is what one frame shows: the seat (its own secrets, "you", host tools), or
  "watching" for every spectator and public screen; and the host name the phone used (the join
  link in the lobby). Two phones of one seat, or any number of spectators, share one render;
- renders run in a worker thread off the request path (never the process's one
  thread-sensitive thread), all views of one update in one hop with one database read;
- updates that arrive while a table is being rendered coalesce: the next render is of the
  latest state, once, whatever number of versions were committed meanwhile; each socket also
  keeps only the newest frame it has not sent yet (``TableConsumer.offer``), so a phone that
  is behind gets the latest state once;
- every frame is the live region ``<section id="live" data-version="N" ...>``: the table
  version it shows is in ``data-version``.

Other message types sent to the group are handed to each local consumer's handler as usual.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tabletop import jsontext
from tabletop.live import extend_tail, live_context, render_region
from tabletop.models import Table
from tabletop.publisher import PUBLISHER, Update, merge_updates
from tabletop.seats import table_seats

log = logging.getLogger(__name__)

# Seats change in the lobby (a "lobby" update re-reads them); re-read them anyway this often.
SEATS_FRESH_FOR = 10.0
# Group memberships expire in channels_redis's list layer (group_expiry, settings: 300 s): a
# room renews its own every minute, so a killed server's rooms drop out within minutes.
REFRESH_GROUPS_EVERY = 60.0
# Heartbeats (``Hub.current_version``) arriving within this many seconds share one read of the
# versions of all their tables: a few queries a second per process, whatever the phone count.
PING_BATCH = 0.25


class Member(Protocol):
    table_id: int
    sent_version: int

    def view_key(self) -> tuple: ...
    def view_seat(self): ...
    def base_url(self) -> str: ...
    def offer(self, version: int, html: str, force: bool = False) -> None: ...
    async def dispatch(self, message: dict) -> None: ...
    async def close(self, code: int | None = None) -> None: ...


def render_views(
    table_id: int, views: dict[tuple, tuple], seats: list | None = None, on_frame=None,
    base: Table | None = None, row: dict | None = None, reuse: bool = False,
    acting: int | None = None,
) -> tuple[int, dict[tuple, str], list, Table] | None:
    """``(version, {key: html}, seats, table)``: the live region of each view at the table's
    current state, from one read of the table (and of its seats unless ``seats`` is given);
    None when the table is gone. ``views``: ``{key: (seat or None, base_url)}``, rendered in
    that order; ``on_frame(key, version, html)`` is called as soon as each one is rendered.
    ``base`` and ``row``: the table as last rendered and what commands committed since
    (``services.notify_table``'s row): when ``row`` goes on from ``base`` (written over
    ``base``'s version or an older one, to a newer one) the table is ``base`` with the row
    applied and is not read (``with_row``). ``table`` is what was rendered (the next
    ``base``). ``reuse``: a region this process already rendered for a view of this state
    (the acting phone's answer) is sent as it is (``tabletop.live.render_region``; never for
    a lobby-type update); ``acting``: with ``reuse``, the seat number whose region is kept for
    its phone's answer still to come (the others' are not kept). The fan-out runs it in a
    worker thread (``render_views_async``)."""
    table = with_row(base, row) if base is not None and row is not None else None
    if table is not None and row.get("events"):  # the newest log lines without a query
        extend_tail(table.pk, row["since"], table.version, row["events"], table.updated_at)
    if table is None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None
        global table_reads
        table_reads += 1
    if seats is None:
        seats = table_seats(table)
    current = {(s.pk, s.nonce): s for s in seats}
    shared: dict = {}  # what every view of this state shares (tabletop.live.table_shared)
    frames = {}
    for key, (seat, base_url) in views.items():
        lost = False
        if seat is not None:
            # read again by id and secret: a moved, revoked or removed seat now watches
            seat = current.get((seat.pk, seat.nonce))
            lost = seat is None
        frames[key] = render_region(
            live_context(None, table, seat, base_url=base_url, seat_lost=lost, seats=seats,
                         shared=shared), reuse=reuse,
            keep=reuse and seat is not None and seat.number == acting)
        if on_frame is not None:
            on_frame(key, table.version, frames[key])
    return table.version, frames, seats, table


def refreshed(html: str) -> str:
    """The live region ``html`` marked ``data-refresh``: the page swaps it in even at the
    version it shows (frontend/app.js), as a lobby-type change needs (seats renamed, moved
    or revoked, options, a closed mission's next one: no new version). Other frames of the
    version a phone shows are left out, so a reconnect does not close an open card."""
    return html.replace('<section id="live" ', '<section id="live" data-refresh="1" ', 1)


#: Tables read by ``render_views`` in this process (tests, bench): a fan-out that had the
#: committed row read none.
table_reads = 0


def with_row(base: Table, row: dict) -> Table | None:
    """A new ``Table``: ``base`` with what ``row`` (``services.notify_table``) committed
    applied (status, state, meta, version, updated_at, and setup when the row has it), or None
    when the row does not go on from ``base``: it was written over a version newer than
    ``base``'s (``base`` missed a command: something else may have changed) or it is not newer
    than ``base``. Every other column only changes in the lobby, whose updates carry no row.
    JSON is decoded here (the worker thread). The objects' keys come in the order they were
    written, where a read from PostgreSQL gives ``jsonb``'s order: the live regions do not
    depend on it (tests/tabletop/test_fanout_rows.py compares the frames of both, DemLoc's
    included, byte for byte)."""
    if not row["since"] <= base.version < row["version"]:
        return None
    fields = {f.attname: getattr(base, f.attname) for f in Table._meta.concrete_fields}
    fields.update(status=row["status"], version=row["version"],
                  state=jsontext.loads_kept(row["state"]), meta=jsontext.loads(row["meta"]),
                  updated_at=datetime.fromisoformat(row["updated_at"]))
    if "setup" in row:
        fields["setup"] = jsontext.loads(row["setup"])
    table = Table(**fields)
    table._state.adding, table._state.db = False, base._state.db
    return table


def bare_base(table: Table) -> Table:
    """``table`` without its state and meta: all ``with_row`` reads of a base (it takes the
    state and meta from the row). What a room keeps between fan-outs: the decoded state of
    each table (hundreds of KB of small objects for a DemLoc mission, where the caches that
    need it keep their own: ``tabletop.jsontext.loads_kept``, ``missions.rules.view``) is not
    held once more per table for as long as a phone of it is connected."""
    fields = {f.attname: getattr(table, f.attname) for f in Table._meta.concrete_fields}
    fields.update(state=None, meta=None)
    bare = Table(**fields)
    bare._state.adding, bare._state.db = False, table._state.db
    return bare


#: In a worker thread off the request path, with Django's stale connections closed before and
#: after, as a request does (Channels' ``database_sync_to_async``).
render_views_async = database_sync_to_async(render_views, thread_sensitive=False)


def table_versions(table_ids: list[int]) -> dict[int, int]:
    """``{table_id: version}`` of the tables that still exist, in one query (worker thread)."""
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


table_versions_async = database_sync_to_async(table_versions, thread_sensitive=False)


class Room:
    """The phones of one table connected to this process, and the one channel through which
    this process is a member of the table's group."""

    def __init__(self, hub: Hub, table_id: int) -> None:
        self.hub = hub
        self.table_id = table_id
        self.group = f"table.{table_id}"
        self.members: set[Member] = set()
        self.channel: str | None = None
        self.receiver: asyncio.Task | None = None
        self.renewer: asyncio.Task | None = None
        self.pending: Update | None = None
        self.fanning: asyncio.Task | None = None
        self.seats: list | None = None  # the table's seats, read by the last fan-out
        self.seats_at = 0.0
        self.version = -1  # the newest committed version this room heard of or read
        self.table: Table | None = None  # the table as last rendered (with_row's base)

    async def open(self) -> None:
        layer = self.hub.layer
        # The default prefix: channels_redis reads one process-wide list per prefix.
        self.channel = await layer.new_channel()
        await layer.group_add(self.group, self.channel)
        self.receiver = self.hub.loop.create_task(self._receive())
        self.renewer = self.hub.loop.create_task(self._renew())

    async def close(self) -> None:
        for task in (self.receiver, self.renewer):
            if task is not None:
                task.cancel()
        await self.hub.layer.group_discard(self.group, self.channel)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_GROUPS_EVERY)
            try:
                await self.hub.layer.group_add(self.group, self.channel)
            except Exception:
                log.warning("table %s: could not renew the group", self.table_id, exc_info=True)

    async def _receive(self) -> None:
        layer, loop = self.hub.layer, self.hub.loop
        while True:
            try:
                message = await layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("table %s: channel layer receive failed; retrying", self.table_id,
                            exc_info=True)
                await asyncio.sleep(1.0)
                continue
            if message.get("type") == "table.updated":
                row = message.get("row")
                self.updated(int(message.get("version", 0)), bool(message.get("lobby", False)),
                             message.get("seat"), row if isinstance(row, dict) else None)
            else:  # anything else sent to the group: each phone's own handler, as before
                for member in list(self.members):
                    loop.create_task(member.dispatch(message))

    def updated(self, version: int, lobby: bool, seat: int | None = None,
                row: dict | None = None) -> None:
        """A newer ``version`` (``lobby``: re-render even at the same version), made by the
        seat numbered ``seat`` (its phone already has the answer: rendered last); ``row``:
        what the command committed (``services.notify_table``), None to read the table."""
        self.version = max(self.version, version)
        update: Update = (version, lobby, seat, row)
        self.pending = update if self.pending is None else merge_updates(self.pending, update)
        if self.fanning is None or self.fanning.done():
            self.fanning = self.hub.loop.create_task(self._fan_out())

    def saw(self, table: Table) -> None:
        """``table`` was read just now (a phone's own render): the newest base for rows."""
        self.version = max(self.version, table.version)
        if self.table is None or table.version >= self.table.version:
            self.table = bare_base(table)

    async def _fan_out(self) -> None:
        while self.pending is not None:
            (version, lobby, acting, row), self.pending = self.pending, None
            targets = [m for m in self.members if lobby or m.sent_version < version]
            if not targets:
                continue

            def last_if_acting(m, acting=acting):
                seat = m.view_seat()
                return acting is not None and seat is not None and seat.number == acting

            by_key: dict[tuple, list] = {}
            views: dict[tuple, tuple] = {}
            for m in sorted(targets, key=last_if_acting):
                by_key.setdefault(m.view_key(), []).append(m)
                views.setdefault(m.view_key(), (m.view_seat(), m.base_url()))
            loop = self.hub.loop
            if lobby or loop.time() - self.seats_at > SEATS_FRESH_FOR:
                self.seats = None

            def deliver(key, now, html, force=lobby, by_key=by_key):
                self.hub.renders += 1
                if force:
                    html = refreshed(html)
                for m in by_key.get(key, ()):
                    m.offer(now, html, force=force)

            def on_frame(key, now, html, deliver=deliver, loop=loop):
                loop.call_soon_threadsafe(deliver, key, now, html)

            try:
                result = await render_views_async(self.table_id, views, self.seats, on_frame,
                                                  self.table, row, reuse=not lobby,
                                                  acting=acting)
            except Exception:
                log.exception("table %s: could not render the live region", self.table_id)
                continue
            if result is None:
                for m in targets:
                    await m.close(code=4404)
                continue
            _, _, seats, table = result  # the frames went out as they were rendered (deliver)
            self.saw(table)
            if seats is not self.seats:
                self.seats, self.seats_at = seats, loop.time()


class Hub:
    """The fan-out of one process (one event loop); see the module docstring."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.layer = get_channel_layer()
        self.rooms: dict[int, Room] = {}
        self._lock = asyncio.Lock()
        self.renders = 0  # live regions rendered by fan-outs (tests, bench)
        self.version_reads = 0  # batched version reads for heartbeats (tests, bench)
        self._asked: dict[int, list[asyncio.Future]] = {}
        self._checker: asyncio.Task | None = None

    def known_version(self, table_id: int) -> int:
        """The newest committed version of the table this process heard of (a
        ``table.updated`` or a read), -1 when none; no I/O."""
        room = self.rooms.get(table_id)
        return room.version if room is not None else -1

    def fanning_out(self, table_id: int) -> bool:
        """True while this process renders or is about to render a new version of the table
        for its phones (each phone not yet sent that version is then sent a frame of it,
        unless the render fails); no I/O."""
        room = self.rooms.get(table_id)
        return room is not None and (
            room.pending is not None or (room.fanning is not None and not room.fanning.done()))

    def saw(self, table: Table) -> None:
        """``table`` (a committed state) was read just now (a phone's own render)."""
        room = self.rooms.get(table.pk)
        if room is not None:
            room.saw(table)

    async def current_version(self, table_id: int) -> int | None:
        """The table's version read from the database *after* this call (None: the table is
        gone). Calls within ``PING_BATCH`` seconds share one query for all their tables, so
        a heartbeat costs no query of its own and is never answered from a memory
        that may have missed a push. A room found behind fans out at once: every
        phone of it that missed the push is repaired, not only the one asking."""
        future = self.loop.create_future()
        self._asked.setdefault(table_id, []).append(future)
        if self._checker is None or self._checker.done():
            self._checker = self.loop.create_task(self._check_versions())
        return await future

    async def _check_versions(self) -> None:
        while self._asked:
            await asyncio.sleep(PING_BATCH)
            asked, self._asked = self._asked, {}
            try:
                versions = await table_versions_async(list(asked))
            except Exception as exc:  # the database is down: each heartbeat hears of it
                for futures in asked.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(exc)
                continue
            self.version_reads += 1
            for table_id, futures in asked.items():
                version = versions.get(table_id)
                room = self.rooms.get(table_id)
                if room is not None and version is not None and version > room.version:
                    room.updated(version, False)  # a push this process missed
                for future in futures:
                    if not future.done():
                        future.set_result(version)

    async def join(self, member: Member) -> None:
        """Receive the updates of ``member.table_id`` from now on."""
        PUBLISHER.set_home_loop(self.loop)
        async with self._lock:
            room = self.rooms.get(member.table_id)
            if room is None:
                room = Room(self, member.table_id)
                await room.open()
                self.rooms[member.table_id] = room
            room.members.add(member)

    async def leave(self, member: Member) -> None:
        """Stop sending ``member`` anything; the last phone of a table closes its room."""
        async with self._lock:
            room = self.rooms.get(member.table_id)
            if room is None or member not in room.members:
                return
            room.members.discard(member)
            if not room.members:
                del self.rooms[member.table_id]
                await room.close()


_HUBS: dict[asyncio.AbstractEventLoop, Hub] = {}


def get_hub() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    hub = _HUBS.get(loop)
    if hub is None:
        for old in [lp for lp in _HUBS if lp.is_closed()]:
            del _HUBS[old]
        hub = _HUBS[loop] = Hub(loop)
    return hub

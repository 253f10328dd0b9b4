"""The table's websocket: each phone receives its own seat's live region (docs/architecture.md "The live path").

Thin (the rendering is the fan-out's): found by the table's code (``/ws/tables/<code>/``, the table gate; the
Origin must be this site's own, ``tabletop.gate.SameOriginWebsocket``); on connect it finds the
phone's seat, joins this process's fan-out hub for
the table (``tabletop.fanout``: the hub is the member of ``table.<id>``, renders once per
distinct view and hands each phone its frame) and sends the current live region at once (a
reconnecting phone catches up); it leaves on disconnect. Phones never send commands over the
socket; they POST (one write path, CSRF, idempotency).

A heartbeat ``{"ping": <shown version>}`` from the phone is answered with the live region when
the table moved on (a missed push), else ``{"pong": <version>}``. A phone behind a version this
process already heard of gets the region without any query, unless a newer frame is on its
way to it (queued, being rendered by the fan-out, or sent after the phone's previous heartbeat
and less than ``FRAME_GRACE`` seconds ago): that frame is then the heartbeat's answer. At a busy table a heartbeat often crosses the
frame of the last tap, and answering each with the whole region as well (66 KiB of DemLoc,
rendered again) doubled the bytes of an evening's frames. Otherwise the version is
read after the ping arrived, in one query shared by all the pings of about a quarter of a
second (``Hub.current_version``), so the heartbeats of 400 phones cost a few queries a second
where they cost one each.

Every frame is the live region ``<section id="live" data-version="N" ...>`` (an htmx
out-of-band swap); ``data-version`` is the table version it shows. Frames to one phone are
sent in version order by one task per phone that always sends the newest frame not yet sent
(a phone that is behind gets the latest state once). The seat is checked again (id and
secret) at each render: one that moved to another phone, was revoked or removed gets the
watcher's view with a notice, so its secrets stop at once.

The database read and the render run in a worker thread (``thread_sensitive=False``), not in
the process's one thread-sensitive thread, so pushes to phones do not queue behind one another
or behind the sockets' user lookups.
"""

from __future__ import annotations

import asyncio
import json

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tabletop import blocks
from tabletop.errors import TabletopError
from tabletop.fanout import get_hub, render_views_async
from tabletop.gate import scope_request, table_by_code
from tabletop.models import Seat
from tabletop.seats import find_seat
from tabletop.signals import phone_heartbeat, socket_closed, socket_opened


def _find_seat(code: str, user, cookies: dict, scope: dict):
    try:
        table = table_by_code(code, scope_request(scope))
    except TabletopError:  # no such table, or too many wrong codes from this address
        return None, None
    # Non-browser clients (the bench) may send their seat token as a header, like the API.
    token = dict(scope.get("headers") or []).get(b"x-seat-token", b"").decode("latin-1")
    seat = find_seat(table, user, cookies, token or None)
    if seat is not None and Seat.table.is_cached(seat):
        # The socket keeps its seat for as long as it is open: not with the row a command
        # would read first (``Table.first_read``: the state's JSON text, about 20 KB a DemLoc
        # phone; docs/performance.md "DemLoc at an evening's scale", sitting of 2026-12-07 05:57).
        seat.table.first_read = None
    return table, seat


def _ping_version(text_data: str | None) -> int | None:
    """The version in a heartbeat ``{"ping": <int>}`` from frontend/app.js, else None."""
    if not text_data or '"ping"' not in text_data:
        return None
    try:
        value = json.loads(text_data).get("ping")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: In a worker thread, Django's stale connections closed before and after (Channels).
locate_seat = database_sync_to_async(_find_seat, thread_sensitive=False)


#: The largest message a phone sends is a heartbeat ``{"ping": <version>}``.
MAX_MESSAGE = 256
#: A heartbeat makes at most one render per socket this often (``TableConsumer.catch_up``).
CATCH_UP_SECONDS = 1.0
#: Seconds a frame sent to a phone counts as on its way: a heartbeat showing an older
#: version meanwhile crossed it and is not answered with the region (``frame_coming``), unless
#: the frame was sent before the phone's previous heartbeat (then it was not applied).
FRAME_GRACE = 2.0


class TableConsumer(AsyncWebsocketConsumer):
    #: No channel of its own: every message for a phone comes through this process's hub
    #: (``tabletop.fanout``, the one member of the table's group), so a socket does not
    #: subscribe to a channel of its own on the layer (a Redis SUBSCRIBE, a queue and a
    #: waiting task per phone; docs/performance.md "DemLoc at an evening's scale").
    #: An alias with no layer configured: Channels then gives the consumer none.
    channel_layer_alias = "phones-have-no-channel"
    sent_version = -1
    table_id = None
    _caught_up_at = float("-inf")
    _sent_at = float("-inf")  # loop time the last frame went to the phone
    _sent_before_ping = -1  # ``sent_version`` when the phone's previous heartbeat came

    async def dispatch(self, message):
        """Hand ``message`` to its handler, as Channels' ``AsyncConsumer.dispatch`` does but
        without its ``aclose_old_connections()`` first: that is a hop, for every message, into
        the process's one thread for thread-sensitive calls made outside a request (asgiref's
        ``SyncToAsync.single_thread_executor``, which every socket of the process shares, and
        Channels' user and session lookups of each socket that connects use), so each phone's
        heartbeat (every 2.5 s) cost a thread switch and queued behind the other sockets'. This
        consumer touches the database only through ``database_sync_to_async`` in worker
        threads of its own, which close their stale connections before and after
        (``locate_seat``, ``render_views_async``, ``Hub.current_version``), never in that thread
        (docs/performance.md "DemLoc at an evening's scale", the sitting of 2026-12-07 21:07).
        Raises ``ValueError`` for a message type without a handler, as Channels does."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope.get("user")  # resolved by AuthMiddlewareStack before we run
        table, seat = await locate_seat(code, user, self.scope.get("cookies", {}), self.scope)
        if table is None:
            await self.close(code=4404)
            return
        self.table_id = table.pk
        self.seat = seat
        self.group = table.group_name
        self.sent_version = -1
        self._frame: tuple[int, str, bool] | None = None
        self._shown: blocks.Shown | None = None  # what the phone was sent last (its blocks)
        self._sender: asyncio.Task | None = None
        self._base_url = self._scope_base_url()
        await self.accept()
        socket_opened.send(TableConsumer, table_id=self.table_id)
        self.hub = get_hub()
        await self.hub.join(self)
        await self.push(force=True)

    async def disconnect(self, code):
        if getattr(self, "table_id", None) is not None:
            socket_closed.send(TableConsumer, table_id=self.table_id)
        hub = getattr(self, "hub", None)
        if hub is not None:
            await hub.leave(self)
        sender = getattr(self, "_sender", None)
        if sender is not None:
            sender.cancel()

    async def receive(self, text_data=None, bytes_data=None):
        # The heartbeat {"ping": <version the phone shows>} (frontend/app.js, every 2.5 s): a
        # phone behind the table (a push it missed) gets the live region, else {"pong": N}.
        # A bare "ping" keeps idle connections open through proxies. Anything else is junk
        # (phones send nothing else): ignored, and a message over MAX_MESSAGE bytes closes the
        # socket, so no message makes the server render (``heed_message``).
        # (Group memberships are renewed by the hub's room of the table, not per phone.)
        if not await self.heed_message(text_data, bytes_data):
            return
        shown = _ping_version(text_data)
        if shown is not None:
            phone_heartbeat.send(TableConsumer, table_id=self.table_id)  # ops: its figures
            sent_before, self._sent_before_ping = self._sent_before_ping, self.sent_version
            known = self.hub.known_version(self.table_id)
            if shown < known:  # behind what was committed
                if not self.frame_coming(shown, sent_before):  # else that frame answers it
                    await self.catch_up()
                return
            try:
                current = await self.hub.current_version(self.table_id)  # batched: see Hub
            except Exception:  # the database is down: say nothing (the phone's banner shows)
                return
            if current is None:
                await self.close(code=4404)
            elif current == shown:
                await self.send(text_data=json.dumps({"pong": current}))
            elif current < shown or not self.frame_coming(shown, sent_before):
                # (a push this process missed: ``current_version`` had the room fan it out
                # to every phone of the table, this one too; that frame answers it)
                await self.catch_up()
            return
        await self.send(text_data='{"pong": true}')

    async def heed_message(self, text_data, bytes_data) -> bool:
        """True for a message worth answering: a text heartbeat (``{"ping": N}`` or a bare
        ping) of at most ``MAX_MESSAGE`` bytes. A bigger one closes the socket (1009, "too
        big"); binary or other text is ignored."""
        size = len(text_data or "") + len(bytes_data or b"")
        if size > MAX_MESSAGE:
            await self.close(code=1009)
            return False
        return bool(text_data) and "ping" in text_data

    def frame_coming(self, shown: int, sent_before: int) -> bool:
        """True when a frame newer than ``shown`` (the version the phone's heartbeat says it
        shows) is on its way to this phone and the heartbeat crossed it, so that frame
        answers it. ``sent_before``: ``sent_version`` when the phone's previous heartbeat
        came (-1: none).

        - The phone was sent a newer version than it shows: the heartbeat crossed it when it
          was sent after the previous heartbeat and less than ``FRAME_GRACE`` s ago. Sent
          before the previous heartbeat (2.5 s earlier), it was not applied: a delta on a base
          the phone lacks (it drops it, frontend/app.js, and every later delta), so the
          heartbeat is answered with the whole region, which every later delta builds on.
        - The phone shows all it was sent: a newer frame queued for it (its sender running) or
          this process's fan-out of the table pending or running (a push just heard of, or
          one a heartbeat found missed: ``Hub.current_version``) is on its way.

        So a phone that applies no frame is repaired by its next heartbeat after the one that
        crossed it, within 5 s, however busy the table."""
        if self.sent_version > shown:
            if sent_before > shown:
                return False
            return asyncio.get_running_loop().time() - self._sent_at < FRAME_GRACE
        if (self._frame is not None and self._frame[0] > shown  # queued (version, html, force)
                and self._sender is not None and not self._sender.done()):
            return True
        return self.hub.fanning_out(self.table_id)

    async def catch_up(self) -> None:
        """Send the live region to a phone behind the table, at most once per
        ``CATCH_UP_SECONDS`` for heartbeats (a socket repeating ``{"ping": 0}`` costs one
        render a second, not one per message; a real phone pings every 2.5 s)."""
        now = asyncio.get_running_loop().time()
        if now - self._caught_up_at < CATCH_UP_SECONDS:
            return
        self._caught_up_at = now
        await self.push(force=True)

    async def push(self, force: bool = False) -> None:
        """Render this phone's view now and send it (connect, a phone asking, a lone update)."""
        result = await render_views_async(self.table_id, {self.view_key(): (self.seat,
                                                                            self.base_url())})
        if result is None:
            await self.close(code=4404)
            return
        version, frames, _, table = result
        self.hub.saw(table)
        self.offer(version, frames[self.view_key()], force=force)

    # --- what the fan-out hub needs (tabletop.fanout.Member) ---

    def view_key(self) -> tuple:
        """Phones with equal keys are shown the same HTML: the seat and its secret (None:
        watching) and the host name the phone used (the lobby's join link)."""
        seat = self.seat
        return (seat.pk, seat.nonce) if seat is not None else (None, None), self.base_url()

    def view_seat(self):
        return self.seat

    def offer(self, version: int, html: str, force: bool = False) -> None:
        """Queue ``html`` (the live region at ``version``) for this phone; a newer frame
        replaces one not sent yet; an older one is dropped, and one of the version already
        sent too unless ``force``d (a lobby change re-renders the same version). Never older
        than what the phone was sent or will be: a push that read the table before a command
        committed can end after the fan-out sent the command's frame (its row needs no read),
        and the page would swap an older lobby region in (frontend/app.js)."""
        if version < self.sent_version:
            return
        if self._frame is not None:
            queued_version, _, queued_force = self._frame
            if version < queued_version:
                return
            force = force or (queued_force and version == queued_version)
        elif not force and version <= self.sent_version:
            return
        self._frame = (version, html, force)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_frames())

    async def _send_frames(self) -> None:
        while self._frame is not None:
            (version, html, force), self._frame = self._frame, None
            if version < self.sent_version or (not force and version == self.sent_version):
                continue
            # Only the blocks that changed since the last frame, when nothing else did and the
            # frame is not a forced whole region (connect, catch-up, lobby): tabletop.blocks.
            message = None if force else blocks.delta(self._shown, version, html)
            self._shown = blocks.shown(version, html)
            self.sent_version = version
            self._sent_at = asyncio.get_running_loop().time()
            try:
                await self.send(text_data=html if message is None else message)
            except Exception:  # the phone went away meanwhile: disconnect() cleans up
                return

    def base_url(self) -> str:
        """Scheme and host this phone used, e.g. ``http://192.168.1.5:8000``."""
        return self._base_url

    def _scope_base_url(self) -> str:
        headers = dict(self.scope.get("headers", []))
        host = headers.get(b"host", b"localhost").decode()
        scheme = "https" if self.scope.get("scheme") == "wss" else "http"
        return f"{scheme}://{host}"

"""The table's websocket: each phone receives its own seat's live region (DESIGN.md, live sync).

Thin (STYLE.md 8): found by the table's code (``/ws/tables/<code>/``, the table gate; the
Origin must be this site's own, ``tabletop.gate.SameOriginWebsocket``), joins ``table.<id>`` on connect and sends the current live region at once
(a reconnecting phone catches up), leaves on disconnect, and on ``table.updated`` re-renders the
live region for its seat from the stored projection and sends it as an htmx out-of-band swap.
Phones never send commands over the socket; they POST (one write path, CSRF, idempotency).

The consumer is async; the database read and the render run in a worker thread that is *not*
the one thread Django's sync views share (``thread_sensitive=False``), so pushes to phones do
not queue behind page requests.
"""

from __future__ import annotations

import json
import time

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import close_old_connections
from django.template.loader import render_to_string

from tabletop.errors import TabletopError
from tabletop.gate import scope_request, table_by_code
from tabletop.models import Seat, Table
from tabletop.seats import find_seat


def _render_live(table_id: int, seat, base_url: str) -> tuple[int, str] | None:
    """``(version, html)`` of the live region of ``seat`` at the table's current state. The
    seat is read again (by id and secret): one that moved to another phone, was revoked or
    removed renders the watcher's view with a notice, so its secrets stop at once."""
    from tabletop.views import live_context

    close_old_connections()
    try:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None
        current, lost = None, False
        if seat is not None:
            current = Seat.objects.filter(pk=seat.pk, nonce=seat.nonce, table_id=table_id).first()
            lost = current is None
        html = render_to_string(
            "tabletop/table.html#live",
            live_context(None, table, current, base_url=base_url, seat_lost=lost),
        )
        return table.version, html
    finally:
        close_old_connections()


def _find_seat(code: str, user, cookies: dict, scope: dict):
    close_old_connections()
    try:
        try:
            table = table_by_code(code, scope_request(scope))
        except TabletopError:  # no such table, or too many wrong codes from this address
            return None, None
        # Non-browser clients (the bench) may send their seat token as a header, like the API.
        token = dict(scope.get("headers") or []).get(b"x-seat-token", b"").decode("latin-1")
        return table, find_seat(table, user, cookies, token or None)
    finally:
        close_old_connections()


def _table_version(table_id: int) -> int | None:
    close_old_connections()
    try:
        return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    finally:
        close_old_connections()


def _ping_version(text_data: str | None) -> int | None:
    """The version in a heartbeat ``{"ping": <int>}`` from frontend/app.js, else None."""
    if not text_data or '"ping"' not in text_data:
        return None
    try:
        value = json.loads(text_data).get("ping")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


REJOIN_EVERY = 60.0  # seconds; channels-redis forgets a member after group_expiry (settings)

render_live = sync_to_async(_render_live, thread_sensitive=False)
table_version = sync_to_async(_table_version, thread_sensitive=False)
locate_seat = sync_to_async(_find_seat, thread_sensitive=False)


class TableConsumer(AsyncWebsocketConsumer):
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
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined_at = time.monotonic()
        await self.accept()
        await self.push(force=True)

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # The heartbeat {"ping": <version the phone shows>} (frontend/app.js, every 2.5 s): a
        # phone behind the table (a push it missed) gets the live region, else {"pong": N}.
        # A bare "ping" keeps idle connections open through proxies; anything else: the state.
        shown = _ping_version(text_data)
        if shown is not None:
            await self._rejoin()
            current = await table_version(self.table_id)
            if current is None:
                await self.close(code=4404)
            elif current != shown:
                await self.push(force=True)
            else:
                await self.send(text_data=json.dumps({"pong": current}))
            return
        if text_data and '"ping"' in text_data:
            await self.send(text_data='{"pong": true}')
            return
        await self.push(force=True)

    async def _rejoin(self) -> None:
        # Membership of a group expires (group_expiry): a live phone renews it, the channels
        # of a killed server drop out on their own.
        now = time.monotonic()
        if now - getattr(self, "joined_at", 0.0) >= REJOIN_EVERY:
            self.joined_at = now
            await self.channel_layer.group_add(self.group, self.channel_name)

    async def table_updated(self, message):
        # Under load several messages queue up for one phone; each push renders the latest
        # state, so a message at or below the version already sent is skipped (coalescing).
        # Lobby changes (a seat joined, options changed) keep the version: "lobby" forces.
        lobby = message.get("lobby", False)
        if not lobby and message.get("version", 0) <= self.sent_version:
            return
        await self.push(force=lobby)

    async def push(self, force: bool = False) -> None:
        result = await render_live(self.table_id, self.seat, self.base_url())
        if result is None:
            await self.close(code=4404)
            return
        version, html = result
        if not force and version <= self.sent_version:
            return
        self.sent_version = version
        await self.send(text_data=html)

    def base_url(self) -> str:
        headers = dict(self.scope.get("headers", []))
        host = headers.get(b"host", b"localhost").decode()
        scheme = "https" if self.scope.get("scheme") == "wss" else "http"
        return f"{scheme}://{host}"

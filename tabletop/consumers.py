"""The table's websocket: each phone receives its own seat's live region (DESIGN.md, live sync).

Thin (STYLE.md 8): joins ``table.<id>`` on connect and sends the current live region at once
(a reconnecting phone catches up), leaves on disconnect, and on ``table.updated`` re-renders the
live region for its seat from the stored projection and sends it as an htmx out-of-band swap.
Phones never send commands over the socket; they POST (one write path, CSRF, idempotency).
"""

from __future__ import annotations

from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from tabletop.models import Table
from tabletop.seats import find_seat


class TableConsumer(WebsocketConsumer):
    def connect(self):
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            self.close(code=4404)
            return
        self.table_id = table.pk
        self.seat = find_seat(table, self.scope.get("user"), self.scope.get("cookies", {}))
        self.group = table.group_name
        self.sent_version = -1
        from asgiref.sync import async_to_sync

        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.push(table)

    def disconnect(self, code):
        if getattr(self, "group", None):
            from asgiref.sync import async_to_sync

            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        # "ping" keeps idle connections open through proxies; anything else: send the state.
        if text_data and '"ping"' in text_data:
            self.send(text_data='{"pong": true}')
            return
        self.push(Table.objects.get(pk=self.table_id), force=True)

    def table_updated(self, message):
        # Under load several messages queue up for one phone; each push renders the latest
        # state, so a message at or below the version already sent is skipped (coalescing).
        # Lobby changes (a seat joined, options changed) keep the version: "lobby" forces.
        lobby = message.get("lobby", False)
        if not lobby and message.get("version", 0) <= self.sent_version:
            return
        self.push(Table.objects.get(pk=self.table_id), force=lobby)

    def push(self, table: Table, force: bool = False) -> None:
        if not force and table.version <= self.sent_version and self.sent_version >= 0:
            return
        from tabletop.views import live_context

        html = render_to_string(
            "tabletop/table.html#live",
            live_context(None, table, self.seat, base_url=self.base_url()),
        )
        self.sent_version = table.version
        self.send(text_data=html)

    def base_url(self) -> str:
        headers = dict(self.scope.get("headers", []))
        host = headers.get(b"host", b"localhost").decode()
        scheme = "https" if self.scope.get("scheme") == "wss" else "http"
        return f"{scheme}://{host}"

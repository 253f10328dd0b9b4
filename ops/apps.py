import asyncio

from django.apps import AppConfig

from tabletop import signals

from . import live


def _opened(sender, table_id, **kwargs):
    live.socket_opened(table_id)


def _closed(sender, table_id, **kwargs):
    live.socket_closed(table_id)


def _heartbeat(sender, **kwargs):
    if live.heartbeat_due():  # the figures' cache I/O in a worker thread, off the event loop
        asyncio.get_running_loop().run_in_executor(None, live.publish_now)


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        # The kit imports no ops: it says when a phone's socket opens, closes or beats, and the
        # operations page's counters listen (ops.live: no I/O on the event loop).
        signals.socket_opened.connect(_opened, dispatch_uid="ops.socket_opened")
        signals.socket_closed.connect(_closed, dispatch_uid="ops.socket_closed")
        signals.phone_heartbeat.connect(_heartbeat, dispatch_uid="ops.heartbeat")

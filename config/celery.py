"""The Celery app. Broker from settings (Redis, or kombu's SQL transport on a SQLite file).

``WorkerClock`` replaces Celery beat: every worker sends the periodic tasks of
``settings.WORKER_CLOCK`` itself, so no single process's death stops the city's clock, and
sends the ``on_connect`` tasks each time it (re)connects to its broker.
"""

import functools
import logging
import os
import time
from datetime import datetime, timedelta

from celery import Celery, bootsteps
from celery.worker.consumer import Consumer as _Consumer
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

app = Celery("demloc")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _send(task: str, kwargs: dict, expires: float | None) -> None:
    """Send one clock task; a broker hiccup costs this tick only (the next tick sends again)."""
    try:
        app.send_task(task, kwargs=kwargs, expires=expires)
    except Exception:  # noqa: BLE001 - the clock must keep ticking through broker outages
        log.warning("worker clock: could not send %s", task, exc_info=True)


def _tick(entry: dict) -> None:
    kwargs = dict(entry.get("kwargs") or {})
    if entry.get("period_kwarg"):
        # The period this tick belongs to: workers ticking in the same period send the same
        # value, and the task does its work once per period.
        kwargs[entry["period_kwarg"]] = int(time.time() // entry["seconds"])
    _send(entry["task"], kwargs, expires=entry["seconds"])


SQL_BROKER_KEEP = 3600.0  # seconds a delivered message stays in the SQL broker's table


def _prune_sql_broker() -> None:
    """kombu's SQL transport keeps every delivered message (``visible = 0``) for ever; the
    clock's own ticks would add 86,400 rows a day. Delete those delivered over an hour ago
    (an unacknowledged one is held in its worker's memory, and a worker that stops puts it
    back as a new row)."""
    from sqlalchemy import create_engine, text  # noqa: PLC0415 - SQL broker only; a heavy import

    url = app.conf.broker_url.removeprefix("sqla+")
    try:
        engine = create_engine(url, connect_args={"timeout": 20})
        with engine.begin() as conn:
            # kombu stamps rows with the local naive datetime.now(): compare in the same terms.
            cutoff = datetime.now() - timedelta(seconds=SQL_BROKER_KEEP)
            conn.execute(
                text("DELETE FROM kombu_message WHERE visible = :no AND timestamp < :cutoff"),
                {"no": False, "cutoff": cutoff},
            )
        engine.dispose()
    except Exception:  # noqa: BLE001 - housekeeping only
        log.warning("worker clock: could not prune the SQL broker", exc_info=True)


def _heartbeat(name: str, started) -> None:
    """Write this worker's heartbeat through ``settings.WORKER_CLOCK["heartbeat"]`` (a dotted
    path: the operations app's ``ops.models.record_worker_beat``), from its main process."""
    try:
        import_string(settings.WORKER_CLOCK["heartbeat"])(name, started)
    except Exception:  # noqa: BLE001 - a database hiccup costs one heartbeat
        log.warning("worker clock: could not write the heartbeat", exc_info=True)
    finally:
        close_old_connections()


class WorkerClock(bootsteps.StartStopStep):
    """A consumer bootstep: started each time the worker's consumer (re)connects, stopped when
    it loses the connection or shuts down. On start it sends ``WORKER_CLOCK["on_connect"]`` and
    arms one repeating timer per ``WORKER_CLOCK["every"]`` entry (``task``, ``seconds``, optional
    ``kwargs`` and ``period_kwarg``), each message expiring after one interval so a backlog never
    piles up. The timers run in the worker's main process (like Celery's own heartbeat)."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent, **kwargs):
        super().__init__(parent, **kwargs)
        self.timers: list = []

    def start(self, parent):
        clock = getattr(settings, "WORKER_CLOCK", {}) or {}
        for entry in clock.get("on_connect", []):
            _send(entry["task"], dict(entry.get("kwargs") or {}), expires=60.0)
        self.timers = [
            parent.timer.call_repeatedly(entry["seconds"], _tick, (entry,), priority=0)
            for entry in clock.get("every", [])
        ]
        if clock.get("heartbeat_seconds") and clock.get("heartbeat"):
            args = (parent.hostname, timezone.now())
            _heartbeat(*args)
            self.timers.append(
                parent.timer.call_repeatedly(clock["heartbeat_seconds"], _heartbeat, args)
            )
        if (app.conf.broker_url or "").startswith("sqla+"):
            _prune_sql_broker()
            self.timers.append(parent.timer.call_repeatedly(600.0, _prune_sql_broker))

    def stop(self, parent):
        for timer in self.timers:
            timer.cancel()
        self.timers = []

    shutdown = stop


app.steps["consumer"].add(WorkerClock)


class Consumer(_Consumer):
    """The worker's consumer (``CELERY_WORKER_CONSUMER``), reconnecting to a broker that came
    back within half a second to two seconds, not kombu's 2, 4, 6 ... 30 s back-off: timers
    fall due while a worker waits to reconnect."""

    def ensure_connected(self, conn):
        plain = conn.ensure_connection
        conn.ensure_connection = functools.partial(
            plain, interval_start=0.5, interval_step=0.5, interval_max=2.0
        )
        return super().ensure_connected(conn)


@app.on_after_configure.connect
def _make_queue_folder(sender, **kwargs):
    """The SQLite broker file's folder must exist before kombu opens it."""
    url = sender.conf.broker_url or ""
    if url.startswith("sqla+sqlite:///"):
        os.makedirs(os.path.dirname(url.removeprefix("sqla+sqlite:///")), exist_ok=True)

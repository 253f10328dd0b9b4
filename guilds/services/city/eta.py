"""The timers' tasks: after commit, a deadline within ``ETA_HORIZON`` gets the shared Celery
task of its ``ETA_BUCKET`` (the package's docstring, "Timers")."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from ...models import (
    Expedition,
    GuildEvent,
    IncomePeriod,
)

log = logging.getLogger(__name__)


# Deadlines nearer than this get their ETA task after commit; later ones from the sweeper. Kept
# below the broker visibility timeout (settings: 5 min), so no held ETA message is redelivered.
ETA_HORIZON = timedelta(minutes=2)


TASKS = {
    Expedition: "guilds.tasks.settle_expedition",
    IncomePeriod: "guilds.tasks.settle_income",
    GuildEvent: "guilds.tasks.settle_city_event",
}
DUE_TASK = "guilds.tasks.settle_due_timers"
ETA_BUCKET = timedelta(milliseconds=250)


def _send_eta(model, pk: int, due_at: datetime) -> None:
    """Hand the broker the settlement task of one timer (the admin's and old messages' path;
    deadlines are scheduled by ``_send_due``). A broker outage is logged, never raised: the
    sweeper settles the row anyway (docs/architecture.md)."""
    try:
        current_app.send_task(TASKS[model], args=(pk,), eta=due_at)
    except Exception:  # noqa: BLE001 - any broker failure only delays settlement
        log.warning("Could not schedule %s %s; the sweeper will settle it.", model.__name__, pk)


def _bucket(due_at: datetime) -> datetime:
    """``due_at`` rounded up to the next multiple of ``ETA_BUCKET`` (UTC epoch)."""
    step = ETA_BUCKET.total_seconds()
    ts = due_at.timestamp()
    ticks = -(-round(ts * 1000) // round(step * 1000))  # ceil, in whole milliseconds
    return datetime.fromtimestamp(ticks * step, tz=due_at.tzinfo or timezone.get_current_timezone())


def _send_due(due_at: datetime, force: bool = False) -> bool:
    """Hand the broker one ``settle_due_timers`` task at the end of ``due_at``'s bucket
    (``ETA_BUCKET``, 250 ms), unless one was already sent for that bucket: the deadlines of one
    moment share one task, which settles everything due then in chunks. The "already sent"
    mark is kept in Django's cache (per process with the default local memory cache, shared
    with a Redis cache); a missing mark only costs a duplicate task that finds nothing due.
    ``force``: send even if marked (a restarted worker: the dead one's messages are invisible
    in Redis until the visibility timeout). A broker outage is logged, never raised: the
    sweeper settles the rows anyway (docs/architecture.md). Returns True if a task was sent."""
    eta = _bucket(due_at)
    key = f"guilds:city-due:{eta.timestamp():.3f}"
    ttl = int((ETA_HORIZON + timedelta(minutes=5)).total_seconds())
    # This runs after commit: a cache or broker outage must never turn committed work into an
    # error answer (docs/architecture.md), so every failure here is logged and left to the sweeper.
    try:
        if force:
            cache.set(key, 1, ttl)
        elif not cache.add(key, 1, ttl):
            return False
    except Exception:  # noqa: BLE001 - the mark only saves duplicate tasks
        log.warning("The cache is unreachable; sending the task of %s unmarked.", eta)
    try:
        current_app.send_task(DUE_TASK, args=(eta.isoformat(),), eta=eta)
    except Exception:  # noqa: BLE001 - any broker failure only delays settlement
        try:
            cache.delete(key)
        except Exception:  # noqa: BLE001
            pass
        log.warning("Could not schedule the timers due at %s; the sweeper will settle them.", eta)
        return False
    return True


def _schedule(timer) -> None:
    """After commit, send the (shared) settlement task of the deadline's moment if the deadline
    is within ``ETA_HORIZON``; mark the row sent (in this transaction) so the sweeper does not
    send it again."""
    if timer.due_at - timezone.now() > ETA_HORIZON:
        return
    model, pk, due_at = type(timer), timer.pk, timer.due_at
    model.objects.filter(pk=pk).update(eta_sent_at=timezone.now())
    transaction.on_commit(lambda: _send_due(due_at))

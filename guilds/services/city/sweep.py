"""Settling due timers in chunks, the sweeper that sends the tasks of the deadlines coming
near, and a Guild's overdue timers settled from its page (the package's docstring, "Timers")."""

from __future__ import annotations

import functools
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from ...models import (
    CityNews,
    ControlPoint,
    Expedition,
    Guild,
    GuildEvent,
    IncomePeriod,
    KnownPoint,
    Mercenary,
)
from .common import _lock_guilds
from .eta import ETA_HORIZON, _bucket, _send_due
from .events import _settle_event
from .expeditions import _settle_expedition
from .income import _settle_income

log = logging.getLogger(__name__)


SWEEP_BATCH = 500

SETTLERS: dict[type[Expedition] | type[IncomePeriod] | type[GuildEvent], Callable[[int], bool]] = {
    Expedition: lambda pk: _settle_expedition(pk, skip_locked=True),
    IncomePeriod: lambda pk: _settle_income(pk, skip_locked=True),
    GuildEvent: lambda pk: _settle_event(pk, None, skip_locked=True),
}
SETTLE_CHUNK = 200
SETTLE_BUDGET = 20.0  # seconds one task spends settling before it leaves the rest to others


def _explorations_settle(explorations: list[Expedition], now) -> None:
    """Settle locked, due explorations together, with the same outcome, report, news and
    mercenary states as ``_settle_expedition`` (whose rules this mirrors), in a fixed number of
    queries. The caller holds the expedition rows and their Guilds' locks."""
    ids = [e.pk for e in explorations]
    through = Expedition.mercenaries.through
    party: dict[int, list[Mercenary]] = defaultdict(list)
    for link in (
        through.objects.filter(expedition_id__in=ids)
        .select_related("mercenary__card")
        .order_by("mercenary_id")
    ):
        party[link.expedition_id].append(link.mercenary)
    points = ControlPoint.objects.select_related("area").in_bulk({e.point_id for e in explorations})
    # The known points of these Guilds among these points (at most Guilds x map size rows).
    known = set(
        KnownPoint.objects.filter(
            guild_id__in={e.guild_id for e in explorations}, point_id__in=points.keys()
        ).values_list("guild_id", "point_id")
    )
    new_known, news = [], []
    for e in explorations:
        point = points[e.point_id]
        if (e.guild_id, e.point_id) in known:
            e.outcome, e.report = Expedition.Outcome.NOTHING, f"{point.name} was already known."
        else:
            known.add((e.guild_id, e.point_id))
            new_known.append(KnownPoint(guild_id=e.guild_id, point_id=point.pk, known_at=now))
            names = ", ".join(m.card.name for m in party[e.pk])
            e.outcome = Expedition.Outcome.EXPLORED
            e.report = (
                f"{names} explored {point.name} ({point.area.name}): "
                f"a {point.get_kind_display().lower()}. It is known now; send a party to "
                "acquire it."
            )
        e.settled_at = now
        news.append(
            CityNews(
                guild_id=e.guild_id,
                created_at=now,
                headline=f"Back from {point.name}: {e.get_outcome_display().lower()}"[:200],
                body=e.report,
                reference=f"expedition:{e.pk}",
            )
        )
    KnownPoint.objects.bulk_create(new_known)
    Mercenary.objects.filter(
        pk__in=[m.pk for e in explorations for m in party[e.pk]],
        status=Mercenary.Status.EXPLORING,
    ).update(status=Mercenary.Status.ACTIVE, status_note="", status_changed_at=now)
    # One statement run for many rows (psycopg pipelines it); bulk_update's CASE expression
    # cost more CPU than the rest of the settlement.
    meta = Expedition._meta
    fields = {f.name: f for f in meta.concrete_fields}
    column = {f: fields[f].column for f in ("outcome", "report", "settled_at", "id")}
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {meta.db_table} SET {column['outcome']} = %s, {column['report']} = %s, "
            f"{column['settled_at']} = %s WHERE {column['id']} = %s",
            [(e.outcome, e.report, e.settled_at, e.pk) for e in explorations],
        )
    CityNews.objects.bulk_create(news)


def _settle_expedition_chunk(limit: int = SETTLE_CHUNK) -> tuple[int, int]:
    """Claim up to ``limit`` due, unsettled expeditions (oldest first; rows another settler
    holds are skipped, ``SELECT ... FOR UPDATE SKIP LOCKED``) and settle them in one
    transaction: explorations together (``_explorations_settle``), acquisitions one by one in
    a savepoint each (a failing one is logged and left for later). Lock order as everywhere:
    the timer rows, then the control points, then the Guilds, each by id.

    Returns ``(claimed, settled)``; ``claimed`` 0 means nothing due is left unclaimed. If the
    chunk fails as a whole, it is rolled back and its rows are settled one by one instead."""
    claimed: list[int] = []
    try:
        with transaction.atomic():
            now = timezone.now()
            rows = list(
                Expedition.objects.select_for_update(skip_locked=True)
                .filter(settled_at__isnull=True, due_at__lte=now)
                .order_by("due_at", "pk")[:limit]
            )
            claimed = [e.pk for e in rows]
            if not rows:
                return 0, 0
            acquisitions = [e for e in rows if e.action == Expedition.Action.ACQUIRE]
            holders = set()
            if acquisitions:
                holders = set(
                    ControlPoint.objects.select_for_update(of=("self",))
                    .filter(pk__in={e.point_id for e in acquisitions})
                    .order_by("pk")
                    .values_list("holder_id", flat=True)
                )
            _lock_guilds(*{e.guild_id for e in rows}, *holders)
            explorations = [e for e in rows if e.action == Expedition.Action.EXPLORE]
            settled = len(explorations)
            if explorations:
                _explorations_settle(explorations, now)
            for e in acquisitions:
                try:
                    settled += _settle_expedition(e.pk)  # a savepoint; we hold its locks
                except Exception:  # noqa: BLE001 - one bad row must not stop the others
                    log.exception("Settling expedition %s failed; retrying later.", e.pk)
            return len(rows), settled
    except Exception:  # noqa: BLE001 - e.g. a deadlock with a mission: row by row instead
        log.exception("Settling expeditions %s together failed; one by one now.", claimed)
        settled = 0
        for pk in claimed:
            try:
                settled += bool(_settle_expedition(pk, skip_locked=True, only_if_due=True))
            except Exception:  # noqa: BLE001
                log.exception("Settling expedition %s failed; retrying later.", pk)
        return len(claimed), settled


def _settle_due_rows(model, limit: int) -> int:
    """Settle up to ``limit`` due rows of ``model`` one by one (income periods and events:
    few, and each touches the ledger), oldest first; a failing row is logged and left."""
    due = list(
        model.objects.filter(settled_at__isnull=True, due_at__lte=timezone.now())
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )
    done = 0
    for pk in due:
        try:
            done += bool(SETTLERS[model](pk))
        except Exception:  # noqa: BLE001 - one bad row must not stop the others
            log.exception("Settling %s %s failed; retrying next sweep.", model.__name__, pk)
    return done


def city_timers_settle_due(*, budget: float = SETTLE_BUDGET) -> dict[str, int]:
    """Settle every timer due now: expeditions in chunks of ``SETTLE_CHUNK``
    (``_settle_expedition_chunk``), until none is left unclaimed or ``budget`` seconds have
    passed (the sweeper and the next tasks take the rest); then due income periods and
    events, up to ``SWEEP_BATCH`` each. Several workers may run it at once: each claims other
    rows. Returns ``{"Expedition": settled, "IncomePeriod": ..., "GuildEvent": ...}``."""
    started = time.monotonic()
    settled = 0
    while True:
        claimed, done = _settle_expedition_chunk()
        settled += done
        if claimed < SETTLE_CHUNK or time.monotonic() - started > budget:
            break
    return {
        "Expedition": settled,
        "IncomePeriod": _settle_due_rows(IncomePeriod, SWEEP_BATCH),
        "GuildEvent": _settle_due_rows(GuildEvent, SWEEP_BATCH),
    }


def _send_all_due(moments: list[datetime], force: bool) -> None:
    """``_send_due`` for each moment (after the commit that marked their timers sent)."""
    for moment in moments:
        _send_due(moment, force=force)


def _schedule_upcoming(now, limit: int, force: bool = False) -> int:
    """Send the settlement tasks of open timers due by ``now + ETA_HORIZON`` that have none
    yet (one per ``ETA_BUCKET`` they fall in). Returns how many timers were covered."""
    scheduled = 0
    for model in SETTLERS:
        soon = list(
            model.objects.filter(
                settled_at__isnull=True, eta_sent_at__isnull=True, due_at__lte=now + ETA_HORIZON
            )
            .order_by("due_at")
            .values_list("pk", "due_at")[:limit]
        )
        if soon:
            model.objects.filter(pk__in=[pk for pk, _ in soon]).update(eta_sent_at=now)
            moments = sorted({_bucket(max(due_at, now)) for _, due_at in soon})
            transaction.on_commit(functools.partial(_send_all_due, moments, force))
            scheduled += len(soon)
    return scheduled


def city_timers_sweep(*, limit: int = SWEEP_BATCH, rearm: bool = False) -> dict[str, int]:
    """The beat sweeper (docs/architecture.md): hand the broker the settlement tasks of timers due within
    ``ETA_HORIZON`` that have none yet (one task per ``ETA_BUCKET`` of deadlines), after
    settling every overdue timer itself (``city_timers_settle_due``, 4 s at most; rows another
    settler holds are skipped: they are being settled). A failing row is logged and left for
    the next run.

    ``rearm``: first forget which tasks were sent, so all of them are sent again. A worker that
    starts does this: the ETA messages a killed worker had taken stay invisible in Redis until
    the visibility timeout, and a duplicate costs only a task that finds nothing due.

    Returns ``{"Expedition": settled, "IncomePeriod": ..., "GuildEvent": ..., "scheduled": n}``.
    """
    now = timezone.now()
    if rearm:
        for model in SETTLERS:
            model.objects.filter(settled_at__isnull=True, due_at__lte=now + ETA_HORIZON).update(
                eta_sent_at=None
            )
    counts = city_timers_settle_due(budget=4.0)  # the backlog first (a restarted worker)
    counts["scheduled"] = _schedule_upcoming(now, 10**6 if rearm else limit, force=rearm)
    return counts


def city_overdue_settle(*, guild: Guild) -> int:
    """Settle the Guild's overdue timers now (the page calls it when a countdown ends, so the
    result shows even with no worker running). Each timer in its own transaction; idempotent.
    Returns how many it settled."""
    now = timezone.now()
    done = 0
    for model, settle in SETTLERS.items():
        for pk in model.objects.filter(
            guild=guild, settled_at__isnull=True, due_at__lte=now
        ).values_list("pk", flat=True):
            done += bool(settle(pk))
    return done

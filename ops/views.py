"""The operations page of the admin (``/admin/ops/``, staff only): what an operator
needs to see at a glance while players are at their tables."""

from datetime import UTC, datetime, timedelta

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Min
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from guilds.models import Expedition, GuildEvent, IncomePeriod
from tabletop.models import Event, Table

from . import live
from .health import ALIVE_WITHIN
from .models import WorkerBeat

OVERDUE_AFTER = timedelta(seconds=5)


def _commands_since(since) -> int:
    return (
        Event.objects.filter(created_at__gte=since)
        .values("table_id", "command_id")
        .distinct()
        .count()
    )


def operations_context(now=None) -> dict:
    """Figures of the page: ``tables`` (live tables with their connected phones), ``phones``,
    ``commands_per_minute`` (last minute, and the mean of the last 10), ``overdue`` (per timer
    kind: count and oldest lag in s), ``workers`` (name, alive, last heartbeat), ``errors``
    (the last hour's, newest first, at most 50) and ``processes`` reporting."""
    now = now or timezone.now()
    procs = live.snapshot()
    sockets: dict[int, int] = {}
    errors = []
    for p in procs:
        for table_id, n in p.get("sockets", {}).items():
            sockets[int(table_id)] = sockets.get(int(table_id), 0) + n
        errors += [{**e, "process": p["process"]} for e in p.get("errors", [])]
    errors.sort(key=lambda e: e["at"], reverse=True)
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, updated_at__gte=now - timedelta(hours=6))
        .order_by("-updated_at")
        .values("id", "code", "ruleset", "title", "version", "updated_at")[:100]
    )
    for t in tables:
        t["phones"] = sockets.get(t["id"], 0)
    overdue = []
    for model in (Expedition, IncomePeriod, GuildEvent):
        late = model.objects.filter(settled_at__isnull=True, due_at__lt=now - OVERDUE_AFTER)
        oldest = late.aggregate(m=Min("due_at"))["m"]
        overdue.append(
            {
                "kind": model._meta.verbose_name_plural,
                "count": late.count(),
                "oldest_s": round((now - oldest).total_seconds()) if oldest else None,
            }
        )
    workers = [
        {
            "name": w.name,
            "pid": w.pid,
            "alive": w.last_seen >= now - ALIVE_WITHIN,
            "last_seen": w.last_seen,
            "ago_s": round((now - w.last_seen).total_seconds()),
        }
        for w in WorkerBeat.objects.order_by("-last_seen")[:50]
    ]
    return {
        "tables": tables,
        "phones": sum(sockets.values()),
        "commands_last_minute": _commands_since(now - timedelta(minutes=1)),
        "commands_per_minute_10": round(_commands_since(now - timedelta(minutes=10)) / 10, 1),
        "overdue": overdue,
        "workers": workers,
        "errors": [{**e, "at": datetime.fromtimestamp(e["at"], tz=UTC)} for e in errors[:50]],
        "processes": len(procs),
    }


@require_GET
@staff_member_required
def operations(request):
    """The page; it refreshes itself every 10 s."""
    context = {**admin.site.each_context(request), "title": "Operations", **operations_context()}
    return render(request, "ops/operations.html", context)

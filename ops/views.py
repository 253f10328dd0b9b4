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
from tabletop.live import table_status_text
from tabletop.models import Event, Seat, Table

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


def turn_text(state) -> str:
    """Where a live table's game is, from its stored projection (a dict, or None in the lobby):
    "round 2 · turn 3 · phase shooting" with the parts the game keeps at the top of its state
    (``round``, ``turn``, ``phase``, each when present and not a container), ``""`` when none."""
    if not isinstance(state, dict):
        return ""
    parts = []
    for key in ("round", "turn", "phase"):
        value = state.get(key)
        if value is not None and value != "" and not isinstance(value, dict | list):
            parts.append(f"{key} {value}")
    return " · ".join(parts)


def operations_context(now=None) -> dict:
    """Figures of the page: ``tables`` (live tables, each with its connected phones, its
    ``players`` (seat names in seat order), ``stage`` (the table page's status words, e.g.
    "Preparing: Objective") and ``turn`` (``turn_text``)), ``phones``,
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
        .order_by("-updated_at")[:100]
    )
    players: dict[int, list[str]] = {}
    for table_id, name in (
        Seat.objects.filter(table_id__in=[t.pk for t in tables])
        .order_by("table_id", "number")
        .values_list("table_id", "name")
    ):
        players.setdefault(table_id, []).append(name)
    rows = []
    for t in tables:
        rows.append(
            {
                "id": t.pk,
                "code": t.code,
                "ruleset": t.ruleset,
                "title": t.title,
                "version": t.version,
                "updated_at": t.updated_at,
                "phones": sockets.get(t.pk, 0),
                "players": players.get(t.pk, []),
                "stage": table_status_text(t),
                "turn": turn_text(t.state),
            }
        )
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
        "tables": rows,
        "phones": sum(sockets.values()),
        "commands_last_minute": _commands_since(now - timedelta(minutes=1)),
        "commands_per_minute_10": round(_commands_since(now - timedelta(minutes=10)) / 10, 1),
        "overdue": overdue,
        "workers": workers,
        # the logger's dotted name in its parts: the page breaks the line at a dot, never inside
        # a word ("django.re|quest" in a phone-wide column)
        "errors": [{**e, "at": datetime.fromtimestamp(e["at"], tz=UTC),
                    "logger_parts": str(e.get("logger", "")).split(".")} for e in errors[:50]],
        "processes": len(procs),
    }


@require_GET
@staff_member_required
def operations(request):
    """The page; it refreshes itself every 10 s."""
    context = {**admin.site.each_context(request), "title": "Operations", **operations_context()}
    return render(request, "ops/operations.html", context)

"""The map of DemLoc in the Master's office (DemLoc rulebook 6.2 item 5, "Exploring and
conquering the City of DemLoc", "Random events"). Thin function views over
``guilds.services.city``; everything starts from the user's Guild (so another Guild's rows answer 404).

Live countdowns run in the browser from the server's deadlines (``guilds/city.js``); when one
ends the page asks ``city/refresh/`` for its main partial, and that view first settles this
Guild's overdue timers (idempotent), so the result shows with any channel layer, or with no
worker at all.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from tabletop.errors import TabletopError

from . import city_rules, services
from .models import (
    CityArea,
    ControlPoint,
    KnownPoint,
    Mercenary,
)
from .views import ALREADY_DONE, _base, _guild


def map_context(guild) -> dict:
    """Areas with their points as this Guild sees them, the parties under way, open events, the
    digest of unseen news, the last reports and the mercenaries free to send."""
    known = set(KnownPoint.objects.filter(guild=guild).values_list("point_id", flat=True))
    under_way = {
        e.point_id: e
        for e in guild.expeditions.filter(settled_at__isnull=True)
        .select_related("point")
        .prefetch_related("mercenaries__card")
    }
    points = ControlPoint.objects.select_related("holder").prefetch_related("bonuses")
    by_area: dict[int, list[dict]] = {}
    for n, point in enumerate(points, start=1):
        if point.holder_id == guild.pk:
            state = "held"
        elif point.pk in known:
            state = "known"
        else:
            state = "unknown"
        by_area.setdefault(point.area_id, []).append(
            {"point": point, "state": state, "number": n, "party": under_way.get(point.pk)}
        )
    areas = [(a, by_area.get(a.pk, [])) for a in CityArea.objects.all() if by_area.get(a.pk)]
    # Mercenaries at a mission table are listed too (marked): choosing one shows why it cannot
    # go (6.4: the Guild is frozen while it plays) instead of hiding it without a word.
    free = list(
        guild.mercenaries.filter(
            status__in=[Mercenary.Status.ACTIVE, Mercenary.Status.ON_MISSION]
        )
        .select_related("card", "hold")
        .order_by("card__name")
    )
    return {
        "areas": areas,
        "free": free,
        "parties": sorted(under_way.values(), key=lambda e: e.due_at),
        "events": guild.city_events.filter(settled_at__isnull=True)
        .select_related("event")
        .prefetch_related("event__options"),
        "digest": guild.city_news.filter(seen_at__isnull=True)[:30],
        "reports": guild.expeditions.filter(settled_at__isnull=False).select_related("point")[:5],
        "held": guild.control_points.count(),
        "max_party": city_rules.MAX_PARTY,
        "server_now": timezone.now(),
    }


def _render(request, guild, extra: dict | None = None, status: int = 200):
    context = {**_base(guild), **map_context(guild), "page": "city", **(extra or {})}
    template = "guilds/city.html#main" if request.htmx else "guilds/city.html"
    return render(request, template, context, status=status)


@require_GET
@login_required
def city(request):
    """The map of DemLoc: areas, control points (unknown, known, held; ensigns), parties under
    way with countdowns, events to answer, the digest."""
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    return _render(request, guild)


@require_GET
@login_required
def refresh(request):
    """The map's main partial after settling this Guild's overdue timers (a countdown ended)."""
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    if services.city_overdue_settle(guild=guild):
        guild.refresh_from_db()
    return _render(request, guild)


def _ids(request) -> list[str]:
    return request.GET.getlist("mercenary") or request.POST.getlist("mercenary")


@require_GET
@login_required
def preview(request, pk: int):
    """Duration and chance of the chosen party for point ``pk`` (an htmx fragment)."""
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    try:
        plan = services.expedition_preview(guild=guild, point_id=pk, mercenary_ids=_ids(request))
    except TabletopError as exc:
        return render(request, "guilds/city.html#preview", {"preview_error": exc, "pk": pk})
    return render(request, "guilds/city.html#preview", {"plan": plan, "pk": pk})


def _act(request, action, done: str, at: str, open_point: int | None = None, **kwargs):
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    try:
        ran, _ = services.form_once(
            guild=guild, key=request.POST.get("once", ""), action=action, **kwargs
        )
    except TabletopError as exc:
        guild.refresh_from_db()
        extra = {"error": exc, "error_at": at, "open_point": open_point}
        return _render(request, guild, extra, status=exc.status)
    guild.refresh_from_db()
    if request.htmx:  # a double tap: the same form again ran nothing (services.form_once)
        return _render(request, guild, {"done": done if ran else ALREADY_DONE})
    return redirect("guilds:city")


@require_POST
@login_required
def send(request, pk: int):
    """Send the chosen mercenaries to point ``pk``: Explore or Acquire (6.2)."""
    return _act(
        request,
        services.expedition_start,
        "Your mercenaries are on their way.",
        f"point-{pk}",
        open_point=pk,
        point_id=pk,
        mercenary_ids=_ids(request),
    )


@require_POST
@login_required
def answer(request, pk: int):
    """Answer event ``pk`` with the chosen option (6.2 "Random events")."""
    return _act(
        request,
        services.city_event_answer,
        "Your answer is given.",
        f"event-{pk}",
        event_id=pk,
        option_id=request.POST.get("option") or 0,
    )


@require_POST
@login_required
def seen(request):
    """Mark the digest as read (clears the badge in the office)."""
    return _act(request, services.city_news_seen, "", "digest")

"""Pages of the missions app: the mission lobby (open a mission), the lifecycle actions posted
from the table page (bring my Guild, close, continue), the battle report, the quick-game form
and the rules reference. Thin: they call ``missions.services`` and ``missions.report``."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tabletop import live as live_reads
from tabletop.errors import NotFound, RuleViolation, TabletopError
from tabletop.gate import table_by_code
from tabletop.ids import parse_int
from tabletop.seats import find_seat
from tabletop.views import live_response, to_table

from . import report, services
from .models import Mission, MissionDefinition, MissionMode
from .rules import OPTIONS_SCHEMA, resolution
from .rules.reference import grouped, search_text
from .rules.score import KILL_KINDS, KILL_LEVELS


@require_http_methods(["GET", "POST"])
def lobby(request):
    """Open a mission (6.4): choose it and the mode; you take seat 1 and the others join with
    the table's code or QR code."""
    error = None
    if request.method == "POST":
        try:
            mission, seat = services.mission_open(
                host=request.user,
                definition_id=request.POST.get("definition"),
                mode=request.POST.get("mode", ""),
                options={k[4:]: v for k, v in request.POST.items() if k.startswith("opt.")},
            )
        except TabletopError as exc:
            error = exc
        else:
            return to_table(seat, request)
    guild = services.guild_of(request.user)
    recent = (
        Mission.objects.filter(table__seats__user=request.user).select_related(
            "table", "definition"
        )[:5]
        if request.user.is_authenticated
        else []
    )
    # The way back from a live table (the phone's Back button lands here after the table was
    # opened from this page): the user's missions still running, first, with their table.
    running = services.running_missions(request.user)
    return render(
        request,
        "missions/lobby.html",
        {
            "definitions": MissionDefinition.objects.filter(is_active=True),
            "modes": MissionMode.choices,
            "guild": guild,
            "error": error,
            "recent": recent,
            "running": running,
            "options": [
                {"name": name, **spec}
                for name, spec in OPTIONS_SCHEMA.items()
                if not spec.get("hidden")
                and name not in ("turn_limit", "turn_limit_hidden", "objective_turns")
            ],
        },
        status=error.status if error else 200,
    )


def _seated(request, table):
    """The caller's seat, or ``NotFound("not_seated")`` (404, like a table that is not there)."""
    seat = find_seat(table, request.user, request.COOKIES)
    if seat is None:
        raise NotFound("not_seated", "You have no seat at this table.")
    return seat


def _live(request, table, error=None):
    return live_response(request, table, find_seat(table, request.user, request.COOKIES), error)


def _seat_service(request, code: str, service) -> object:
    """Run ``service(table=, seat=, user=)`` for this phone's seat and answer with the live
    region, a refusal shown at the button that sent it (the Guild's bind and leave)."""
    table = table_by_code(code, request)
    seat = _seated(request, table)
    error = None
    try:
        service(table=table, seat=seat, user=request.user)
    except TabletopError as exc:
        error = exc
    return _live(request, table, error)


@require_POST
def bind(request, code: str):
    """This phone brings its Guild to the mission (6.4: players "connect their profiles")."""
    return _seat_service(request, code, services.mission_guild_bind)


@require_POST
def leave(request, code: str):
    """This phone takes its Guild out of the mission (6.4 "disconnecting";
    ``missions.rules.leave``): the live region again, with the refusal at the button."""
    return _seat_service(request, code, services.mission_guild_leave)


@require_POST
def guest_bind(request, code: str):
    """A Guild Master brings one of their guest Guilds for a friend's seat (section 4)."""
    table = table_by_code(code, request)
    _seated(request, table)
    error = None
    try:
        number = parse_int(request.POST.get("seat", ""), minimum=1)
        if number is None:  # "²", "١" pass str.isdigit but are no seat number (tabletop.ids)
            raise RuleViolation("bad_number", "Choose the friend's seat: its number, 0-9.")
        seat = table.seats.filter(number=number).first()
        if seat is None:
            raise NotFound("seat_not_found", "Choose the friend's seat.")
        services.mission_guest_bind(
            table=table, seat=seat, user=request.user, guest_guild_id=request.POST.get("guest")
        )
    except TabletopError as exc:
        error = exc
    return _live(request, table, error)


@require_POST
def close(request, code: str):
    """Close the ended mission: the result goes into the guilds, once (6.4.1 resolution)."""
    table = table_by_code(code, request)
    _seated(request, table)
    mission = get_object_or_404(Mission, table=table)
    error = None
    try:
        services.mission_close(mission_id=mission.pk)
    except TabletopError as exc:
        error = exc
    return _live(request, table, error)


@require_POST
def continue_mission(request, code: str):
    """Another mission with the same players (6.4.1, end of the resolution phase)."""
    table = table_by_code(code, request)
    _seated(request, table)
    mission = get_object_or_404(Mission, table=table)
    try:
        new = services.mission_continue(
            mission_id=mission.pk,
            user=request.user,
            definition_id=request.POST.get("definition"),
            mode=request.POST.get("mode", ""),
        )
    except TabletopError as exc:
        return _live(request, table, exc)
    url = reverse("tabletop:table", args=[new.table.code])
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_GET
def piece_forms(request, code: str, piece: str):
    """The forms of a character's sheet (``missions/_piece_forms.html``: its actions,
    abilities, effects, possession), fetched when the phone opens the sheet: the live region's
    card leaves them out (docs/architecture.md, "The live region"). What this phone's seat may
    do with ``piece`` now, from the same seat view as the live region (a watcher: the
    abilities only). Raises ``NotFound("not_found")`` (no such table) and
    ``NotFound("piece_not_found")`` (no such character in play at this table, or the table in
    its lobby)."""
    table = table_by_code(code, request)
    seat = find_seat(table, request.user, request.COOKIES)
    view = live_reads.seat_view(table, seat) if table.status != "lobby" else {}
    sheet = next((p for p in view.get("pieces") or () if p["id"] == piece), None)
    if sheet is None:
        raise NotFound("piece_not_found", "No such character at this table.")
    command_url = reverse("tabletop:command", args=[table.code])
    return render(request, "missions/_piece_forms.html",
                  {"p": sheet, "view": view, "command_url": command_url, "table": table})


@require_GET
def battle_report(request, code: str):
    """The battle report of a mission (shareable: anyone with the table's code): timeline of
    first players, kills, possessions, summonings, and the final result."""
    table = table_by_code(code, request)
    mission = get_object_or_404(Mission.objects.select_related("definition"), table=table)
    data = report.battle_report(mission)
    return render(request, "missions/report.html", {"report": data, "mission": mission})


@require_GET
def battle_report_json(request, code: str):
    """The battle report as JSON (same content as the page)."""
    table = table_by_code(code, request)
    mission = get_object_or_404(Mission.objects.select_related("definition"), table=table)
    return JsonResponse(report.battle_report(mission))


@require_GET
def mission_new(request):
    """The quick-game form: the kit's new-table form with the demloc table options (demo
    guilds, nothing written anywhere)."""
    options = [
        {"name": name, **spec} for name, spec in OPTIONS_SCHEMA.items() if not spec.get("hidden")
    ]
    default_name = request.user.get_username() if request.user.is_authenticated else ""
    return render(request, "missions/new.html", {"options": options, "default_name": default_name})


@require_GET
def reference(request):
    """The searchable rules reference (6.4.2 "consulting the rules"): every chapter of the
    rulebook, what a mission pays (6.4.1: the amounts of ``missions.rules.resolution``'s
    ``DEFAULT_REWARDS`` and of each active mission, through its ``payouts``), then the table
    options with their defaults (read from the ruleset, so the page never tells an old
    default). The search runs in the page (``missions/reference.js``), so it needs no network
    once the page is loaded."""
    groups = [
        (name, [{**e, "search": search_text(e)} for e in entries]) for name, entries in grouped()
    ]
    options = [
        {
            "name": name,
            "label": spec["label"],
            "help": spec.get("help", ""),
            "choices": [
                {"text": text, "default": value == spec["default"]}
                for value, text in spec["choices"]
            ],
        }
        for name, spec in OPTIONS_SCHEMA.items()
        if not spec.get("hidden")
    ]
    pays = [
        pay_table("defaults", "Unless the mission says otherwise", resolution.DEFAULT_REWARDS)
    ] + [
        pay_table(f"mission-{d.pk}", d.name, d.rewards())
        for d in MissionDefinition.objects.filter(is_active=True)
    ]
    total = sum(len(entries) for _, entries in groups) + len(options) + len(pays) + 1
    return render(
        request,
        "missions/reference.html",
        {"groups": groups, "options": options, "total": total, "pays": pays},
    )


def pay_table(key: str, title: str, rewards: dict) -> dict:
    """One table of the reference's "What a mission pays" (6.4.1 resolution phase): the rows
    ``missions.rules.resolution.payouts`` gives for ``rewards``, the kills apart as a grid of
    kinds by level, and the healing per broken heart."""
    rows = resolution.payouts(rewards)
    kills = {r["key"]: r for r in rows if r["key"].startswith("kill-")}
    return {
        "key": key,
        "title": title,
        "rows": [r for r in rows if not r["key"].startswith("kill-")],
        "kinds": KILL_KINDS,
        "kills": [
            {"level": n, "cells": [kills[f"kill-{k}-{n}"] for k in KILL_KINDS]} for n in KILL_LEVELS
        ],
        "heal": int(rewards.get("heal_feods_per_heart", 0) or 0),
    }

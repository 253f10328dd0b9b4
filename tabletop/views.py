"""Table pages: create, join, play, log, QR codes (htmx; thin: they call ``tabletop.services``)."""

from __future__ import annotations

import io
import json
import re

import segno
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tabletop import services
from tabletop.errors import NotAllowed, NotFound, RuleViolation, TabletopError
from tabletop.models import Table
from tabletop.registry import all_rulesets, get_ruleset
from tabletop.rules import Command
from tabletop.seats import COOKIE_AGE, cookie_name, find_seat, seat_from_token, seat_token


def _table(code: str) -> Table:
    return get_object_or_404(Table, code=code.upper().replace("-", "").strip())


def _seat(request, table):
    return find_seat(table, request.user, request.COOKIES)


def remember_seat(response, seat) -> None:
    """Put the seat's token in its one-year cookie on ``response`` (``tabletop.seats``)."""
    response.set_cookie(
        cookie_name(seat.table_id),
        seat_token(seat),
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
    )


def to_table(seat):
    """Redirect to the seat's table page with its token in the cookie."""
    response = redirect("tabletop:table", code=seat.table.code)
    remember_seat(response, seat)
    return response


def live_response(request, table: Table, seat, error: TabletopError | None = None):
    """The re-rendered live region for ``seat``; the error's status when one is given."""
    table.refresh_from_db()
    response = render(request, "tabletop/table.html#live", live_context(request, table, seat, error))
    if error is not None:
        response.status_code = error.status
    return response


def live_context(
    request, table: Table, seat, error: TabletopError | None = None, base_url: str | None = None
) -> dict:
    """The context of the live region (``tabletop/table.html#live``) for one seat.
    ``request`` may be None (websocket pushes): then ``base_url`` gives scheme and host."""
    if base_url is None:
        base_url = request.build_absolute_uri("/").rstrip("/")
    game = get_ruleset(table.ruleset)
    seats = list(table.seats.order_by("number"))
    meta = table.meta or {}
    return {
        "table": table,
        "game": game,
        "seat": seat,
        "seats": seats,
        "view": services.seat_view(table, seat),
        "command_url": reverse("tabletop:command", args=[table.code]),
        "can_undo": bool(meta.get("undo")),
        "can_redo": bool(meta.get("redo")),
        "can_start": seat is not None and seat.number == 0 and len(seats) >= game.min_seats,
        "error": error,
        "join_url": base_url + reverse("tabletop:join", args=[table.code]),
        "final_commands": sorted(game.final_commands),
        "option_rows": option_rows(game, table.options),
        # The latest lines of the log, narrated from events (the projection holds no prose).
        "log_lines": services.log_lines(table, limit=8, recent=True) if table.state is not None else [],
    }


def option_rows(game, chosen: dict) -> list[dict]:
    """The visible table options with their current value and its label, for the lobby."""
    rows = []
    for key, spec in (getattr(game, "options_schema", {}) or {}).items():
        if spec.get("hidden") or not spec.get("choices"):
            continue
        value = chosen.get(key, spec.get("default"))
        labels = {str(v): text for v, text in spec["choices"]}
        rows.append({"key": key, "label": spec.get("label", key), "choices": spec["choices"],
                     "value": value, "value_label": labels.get(str(value), value),
                     "help": spec.get("help", "")})
    return rows


@require_POST
def table_options(request, code: str):
    """The host changes the table options in the lobby; answers with the live region."""
    table = _table(code)
    seat = _seat(request, table)
    error = None
    try:
        options = {k[4:]: v for k, v in request.POST.items() if k.startswith("opt.")}
        table = services.table_options_set(table=table, seat=seat, options=options)
    except TabletopError as exc:
        error = exc
    return live_response(request, table, seat, error)


@require_http_methods(["GET", "POST"])
def table_new(request):
    """Open a new table: choose the game and your name; you take seat 1 as host."""
    games = all_rulesets()
    error = None
    if request.method == "POST":
        try:
            options = {k[4:]: v for k, v in request.POST.items() if k.startswith("opt.")}
            table, seat = services.table_create(
                ruleset=request.POST.get("ruleset", ""),
                host=request.user,
                host_name=request.POST.get("name", ""),
                options=options,
            )
        except TabletopError as exc:
            error = exc
        else:
            return to_table(seat)
    default_name = request.user.get_username() if request.user.is_authenticated else ""
    return render(
        request,
        "tabletop/new.html",
        {
            "games": games,
            "error": error,
            "default_name": default_name,
            "chosen": request.GET.get("game", ""),
        },
    )


@require_http_methods(["GET", "POST"])
def join(request, code: str | None = None):
    """Join a table by its code. A phone that already holds a seat goes straight back to it."""
    code = (code or request.GET.get("code") or request.POST.get("code") or "").upper()
    code = code.replace("-", "").replace(" ", "")
    error = None
    table = Table.objects.filter(code=code).first() if code else None
    if code and table is None:
        error = NotFound("unknown_table", f"No table has the code {code}. Check the letters.")
    if table is not None:
        seat = _seat(request, table)
        if seat is not None:
            return to_table(seat)
        if request.method == "POST" and request.POST.get("name") is not None:
            try:
                seat = services.seat_join(table=table, name=request.POST["name"], user=request.user)
            except TabletopError as exc:
                error = exc
            else:
                return to_table(seat)
    default_name = request.user.get_username() if request.user.is_authenticated else ""
    return render(
        request,
        "tabletop/join.html",
        {"table": table, "code": code, "error": error, "default_name": default_name},
        status=400 if error and table is None and request.method == "POST" else 200,
    )


@require_GET
def rejoin(request, token: str):
    """A seat's own rejoin link (its QR code): puts the seat token back on this phone."""
    seat = seat_from_token(token)
    if seat is None:
        raise NotFound("bad_seat_token", "This rejoin code is not valid any more.")
    return to_table(seat)


@require_GET
def table_page(request, code: str):
    """The table: lobby or game, live over the websocket."""
    table = _table(code)
    seat = _seat(request, table)
    if seat is None and table.status == Table.Status.LOBBY:
        return redirect("tabletop:join", code=table.code)
    context = live_context(request, table, seat)
    context["ws_path"] = f"/ws/tables/{table.pk}/"
    if seat is not None:
        context["rejoin_url"] = request.build_absolute_uri(
            reverse("tabletop:rejoin", args=[seat_token(seat)])
        )
    return render(request, "tabletop/table.html", context)


_INT = re.compile(r"-?[0-9]{1,15}")  # ASCII digits only; longer numbers stay strings


def parse_command_form(post) -> tuple[Command, int | None, str | None]:
    """A command from form fields: ``type``; ``data`` (a JSON object) and/or ``d.<key>``
    fields (digit strings become ints); ``expected_version``; ``idempotency_key``.
    Raises ``RuleViolation("bad_command")`` on malformed input."""
    data: dict = {}
    raw = post.get("data")
    if raw:
        try:
            data = json.loads(raw)
        except ValueError:
            raise RuleViolation("bad_command", "The command data is not valid JSON.") from None
        if not isinstance(data, dict):
            raise RuleViolation("bad_command", "The command data must be an object.")
    for key in post:
        if key.startswith("d."):
            values = post.getlist(key)
            parsed = [int(v) if _INT.fullmatch(v) else v for v in values]
            name = key[2:].removesuffix("[]")
            data[name] = parsed if len(parsed) > 1 or key.endswith("[]") else parsed[0]
    expected = post.get("expected_version")
    try:
        expected_version = int(expected) if expected not in (None, "") else None
    except ValueError:
        raise RuleViolation("bad_command", "expected_version must be a number.") from None
    return (
        Command(post.get("type", ""), data),
        expected_version,
        post.get("idempotency_key") or None,
    )


@require_POST
def command(request, code: str):
    """Run one command for this phone's seat; answer with the re-rendered live region
    (status 400/403/409 with the message shown in it when the command was refused)."""
    table = _table(code)
    seat = _seat(request, table)
    error = None
    try:
        if seat is None:
            raise NotAllowed("not_seated", "You have no seat at this table.")
        cmd, expected, key = parse_command_form(request.POST)
        services.run_command(table, seat, cmd, expected_version=expected, idempotency_key=key)
    except TabletopError as exc:
        error = exc
    table.refresh_from_db()
    response = render(
        request, "tabletop/table.html#live", live_context(request, table, seat, error)
    )
    if error is not None:
        response.status_code = error.status
    return response


@require_GET
def live(request, code: str):
    """The live region alone (a phone that wakes up fetches it)."""
    table = _table(code)
    return render(
        request, "tabletop/table.html#live", live_context(request, table, _seat(request, table))
    )


@require_GET
def join_qr(request, code: str):
    """The join link as an SVG QR code (segno)."""
    table = _table(code)
    url = request.build_absolute_uri(reverse("tabletop:join", args=[table.code]))
    return _qr_response(url)


@require_GET
def seat_qr(request, code: str):
    """This phone's rejoin link as an SVG QR code; 404 for a phone without a seat."""
    table = _table(code)
    seat = _seat(request, table)
    if seat is None:
        raise NotFound("not_seated", "You have no seat at this table.")
    return _qr_response(
        request.build_absolute_uri(reverse("tabletop:rejoin", args=[seat_token(seat)]))
    )


def _qr_response(url: str) -> HttpResponse:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, dark="#111", light="#fff", border=2, xmldecl=True
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@require_GET
def table_log(request, code: str):
    """The table's log in plain words, newest first. Event data is not shown (it may hold
    another seat's secrets); the ruleset's label says what happened."""
    table = _table(code)
    seat = _seat(request, table)
    if seat is None:
        raise NotFound("not_seated", "You have no seat at this table.")
    return render(request, "tabletop/log.html", {"table": table, "entries": log_entries(table)})


def log_entries(table: Table, limit: int = 200) -> list[dict]:
    """Up to ``limit`` newest log lines (``services.log_lines``: narrated from the events)."""
    return services.log_lines(table, limit=limit)

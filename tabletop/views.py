"""Table pages: create, join, play, log, QR codes (htmx; thin: they call ``tabletop.services``)."""

from __future__ import annotations

import io
import logging

import segno
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tabletop import seats as seat_service
from tabletop import services
from tabletop.errors import NotAllowed, NotFound, RuleViolation, TabletopError
from tabletop.gate import (
    SeatJoinThrottle,
    TableCreateThrottle,
    seat_by_cookie,
    table_by_code,
    throttle,
)
from tabletop.ids import parse_int, plain_numbers
from tabletop.jsonsafe import JSONTooDeep, loads_bounded
from tabletop.live import live_context, log_lines, page_response, region_response
from tabletop.models import Table
from tabletop.registry import all_rulesets
from tabletop.rules import Command
from tabletop.seats import find_seat, move_token, remember_seat
from tabletop.signals import join_note, seat_name_offered

log = logging.getLogger(__name__)

__all__ = ["live_context", "live_response", "remember_seat", "to_table"]


def _table(request, code: str) -> Table:
    return table_by_code(code, request)


def _seat(request, table):
    return find_seat(table, request.user, request.COOKIES)


def _seated(request, table):
    """The caller's seat, or ``NotFound("not_seated")``: what a seat may see or do is a 404
    for everyone else, the same as a table that does not exist."""
    seat = _seat(request, table)
    if seat is None:
        raise NotFound("not_seated", "You have no seat at this table.")
    return seat


def to_table(seat, request=None):
    """Redirect to the seat's table page with the seat put in the phone's seat cookie
    (``request``: the cookie's other seats are kept)."""
    response = redirect("tabletop:table", code=seat.table.code)
    remember_seat(response, seat, request)
    return response


def live_response(request, table: Table, seat, error: TabletopError | None = None):
    """The re-rendered live region for ``seat``; the error's status when one is given."""
    table.refresh_from_db()
    return region_response(request, live_context(request, table, seat, error),
                           error.status if error is not None else 200)


@require_POST
def table_options(request, code: str):
    """The host changes the table options in the lobby; answers with the live region."""
    table = _table(request, code)
    seat = _seated(request, table)
    error = None
    try:
        options = {k[4:]: v for k, v in request.POST.items() if k.startswith("opt.")}
        table = services.table_options_set(table=table, seat=seat, options=options)
    except TabletopError as exc:
        error = exc
    return live_response(request, table, seat, error)


@require_POST
def seat_move(request, code: str, number: int):
    """The host moves a seat up or down in the lobby (``services.seat_move``): the seat order
    is the order people sit. Answers with the live region."""
    table = _table(request, code)
    seat = _seated(request, table)
    error = None
    try:
        offset = {"up": -1, "down": 1}.get(request.POST.get("to", ""), 0)
        table = services.seat_move(table=table, seat=seat, number=number, offset=offset)
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
            throttle(request, TableCreateThrottle)
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
            return to_table(seat, request)
    default_name = request.POST.get("name") or (
        request.user.get_username() if request.user.is_authenticated else ""
    )
    # A real game preselected (the kit's counter demo is for developers: last, never chosen
    # for the player), or the game asked for (?game=), or the one refused a moment ago.
    games = sorted(games, key=lambda g: g.name == "counter")
    chosen = request.POST.get("ruleset") or request.GET.get("game") or games[0].name
    return render(
        request,
        "tabletop/new.html",
        {"games": games, "error": error, "default_name": default_name, "chosen": chosen},
    )


@require_http_methods(["GET", "POST"])
def join(request, code: str | None = None):
    """Join a table by its code. A phone that already holds a seat goes straight back to it.
    A code that names no table is counted against the caller (``tabletop.gate``)."""
    raw = code or request.GET.get("code") or request.POST.get("code") or ""
    shown = raw.upper().replace("-", "").replace(" ", "")[:12]
    error = None
    table = None
    if raw:
        try:
            table = table_by_code(raw, request)
        except TabletopError as exc:
            error = exc
            if exc.code == "not_found":
                error = NotFound("not_found", f"No table has the code {shown}. Check the letters.")
    if table is not None:
        seat = _seat(request, table)
        if seat is not None:
            return to_table(seat, request)
        if request.method == "POST" and request.POST.get("name") is not None:
            try:
                throttle(request, SeatJoinThrottle)
                seat = services.seat_join(table=table, name=request.POST["name"], user=request.user)
            except TabletopError as exc:
                error = exc
            else:
                return to_table(seat, request)
    # A refused name stays in the field to be corrected (docs/playing.md: names), not emptied.
    # A logged-in player is offered the game's name for their seat (DemLoc: their Guild's, the
    # name the seat takes once the Guild is brought), else their account's.
    default_name = request.POST.get("name") or seat_name_offered(table, request.user)
    status = 200
    if error is not None and table is None:
        status = error.status
    # Who is joining (a logged-in account, named), and what the game says about it (DemLoc: a
    # Guild mission to an account without a Guild).
    joining_as = request.user.get_username() if request.user.is_authenticated else ""
    note = join_note(table, request.user) if table is not None and table.status == "lobby" else None
    # A refused name is said under its field, where the thumb corrects it (found by a new user:
    # "Someone at this table is already called ..." at the top of the page).
    name_error = error if error is not None and table is not None and error.code in NAME_ERRORS else None
    context = {"table": table, "code": shown, "error": error, "default_name": default_name,
               "joining_as": joining_as, "join_note": note, "name_error": name_error}
    return render(request, "tabletop/join.html", context, status=status)


#: The join refusals about the name typed, said at the name field (``join``).
NAME_ERRORS = frozenset({"name_taken", "bad_name", "too_large"})


@require_http_methods(["GET", "POST"])
def rejoin(request, token: str):
    """A seat's move link (its rejoin QR): GET asks "take this seat on this phone?", POST moves
    the seat here (the old phone loses it, ``tabletop.seats.seat_move``)."""
    seat = seat_service.seat_from_move_token(token)
    if seat is None:
        raise NotFound("bad_seat_token", "This rejoin code is not valid any more.")
    if request.method == "POST":
        seat = seat_service.seat_move(token=token, user=request.user)
        return to_table(seat, request)
    return render(request, "tabletop/rejoin.html", {"seat": seat, "table": seat.table})


def _move_link(request, seat) -> str:
    """The absolute link that moves ``seat`` to the phone opening it (``tabletop:rejoin`` with
    its move token): the page's own "on another phone" link, its QR code and the host's
    handover link on the Seats page."""
    return request.build_absolute_uri(reverse("tabletop:rejoin", args=[move_token(seat)]))


@require_GET
def table_page(request, code: str):
    """The table: lobby or game, live over the websocket. Anyone with the code may watch; a
    phone's own seat is renewed in its seat cookie on every visit. A phone without a seat at a
    table in the lobby is asked first (the join page: take a seat, or watch: ``?watch``)."""
    table = _table(request, code)
    seat = _seat(request, table)
    if seat is None and table.status == Table.Status.LOBBY and "watch" not in request.GET:
        return redirect("tabletop:join", code=table.code)
    context = live_context(request, table, seat)
    context["ws_path"] = f"/ws/tables/{table.code}/"
    if seat is not None:
        context["rejoin_url"] = _move_link(request, seat)
    response = page_response(request, context)
    if seat is not None and seat.user_id is None:
        remember_seat(response, seat, request)
    return response


def parse_command_form(post) -> tuple[Command, int | None, str | None]:
    """A command from form fields: ``type``; ``data`` (a JSON object, at most
    ``tabletop.jsonsafe.MAX_DEPTH`` deep) and/or ``d.<key>`` fields (strings of ASCII digits
    become ints, ``tabletop.ids.parse_int``); ``expected_version``; ``idempotency_key``.
    Raises ``RuleViolation("bad_command")`` on malformed input."""
    data: dict = {}
    raw = post.get("data")
    if raw:
        try:
            data = loads_bounded(raw)
        except JSONTooDeep:
            raise RuleViolation("bad_command", "The command data is nested too deeply.") from None
        except ValueError:
            raise RuleViolation("bad_command", "The command data is not valid JSON.") from None
        if not isinstance(data, dict):
            raise RuleViolation("bad_command", "The command data must be an object.")
    for key in post:
        if key.startswith("d."):
            values = post.getlist(key)
            parsed = [_form_value(v) for v in values]
            name = key[2:].removesuffix("[]")
            data[name] = parsed if len(parsed) > 1 or key.endswith("[]") else parsed[0]
    plain_numbers(data)
    expected = post.get("expected_version")
    expected_version = None
    if expected not in (None, ""):
        expected_version = parse_int(expected, minimum=0)
        if expected_version is None:
            raise RuleViolation("bad_command", "expected_version must be a number.")
    return (
        Command(post.get("type", ""), data),
        expected_version,
        post.get("idempotency_key") or None,
    )


def _form_value(value: str):
    number = parse_int(value)
    return value if number is None else number


@require_POST
def command(request, code: str):
    """Run one command for this phone's seat; answer with the re-rendered live region
    (status 400/403/409 with the message shown in it when the command was refused; 404
    ``not_seated`` for a phone without a seat here)."""
    seat = seat_by_cookie(code, request)  # the seat and its table in one query
    if seat is not None:
        table = seat.table
    else:
        table = _table(request, code)
        seat = _seated(request, table)
    error, current = None, False
    try:
        cmd, expected, key = parse_command_form(request.POST)
        result = services.run_command(
            table, seat, cmd, expected_version=expected, idempotency_key=key
        )
        current = not result.replayed  # run_command left the committed state on ``table``
    except TabletopError as exc:
        error = exc
    if error is not None:
        table.refresh_from_db()
        return region_response(request, live_context(request, table, seat, error), error.status)
    return _answer_committed(request, table, seat, fresh=not current)


def _answer_committed(request, table, seat, *, fresh: bool):
    """The live region after a command that committed. Committed work never answers 500
    (docs/architecture.md): a database error now (the connection died after the commit) gets
    one more try on a fresh connection, then a short answer that the tap was applied, with
    htmx's ``HX-Refresh`` so the page loads itself again."""
    for attempt in (1, 2):
        try:
            if fresh or attempt > 1:
                table.refresh_from_db()
            # the fan-out of this version sends this seat the same region: rendered once
            return region_response(request, live_context(request, table, seat), reuse=True)
        except DatabaseError:
            log.warning("Rendering table %s after its commit failed (try %s).", table.pk, attempt)
            connection.close()
    response = HttpResponse(
        '<p class="notice" role="status">Your tap was applied. Loading the table again…</p>'
    )
    response["HX-Refresh"] = "true"
    return response


@require_GET
def live(request, code: str):
    """The live region alone (a phone that wakes up fetches it)."""
    table = _table(request, code)
    return region_response(request, live_context(request, table, _seat(request, table)))


@require_GET
def join_qr(request, code: str):
    """The join link as an SVG QR code (segno)."""
    table = _table(request, code)
    url = request.build_absolute_uri(reverse("tabletop:join", args=[table.code]))
    return _qr_response(url)


@require_GET
def seat_qr(request, code: str):
    """A move link as an SVG QR code: this phone's own seat, or (``?n=<seat number>``, host
    only) a seat the host took from its phone (``Seat.handover``: revoked, not yet opened
    elsewhere), to hand it to another phone. The host never gets the link of a seat a phone
    holds: opening it would show that seat's secrets. 404 for a phone without a seat or
    another seat's number; ``NotAllowed("revoke_first")`` for a seat still held."""
    table = _table(request, code)
    seat = _seated(request, table)
    if request.GET.get("n") not in (None, ""):
        number = parse_int(request.GET["n"], minimum=0)
        if seat.number != 0 or number is None:
            raise NotFound("no_such_seat", "There is no such seat.")
        target = table.seats.filter(number=number).first()
        if target is None:
            raise NotFound("no_such_seat", "There is no such seat.")
        if target.pk != seat.pk and not target.handover:
            raise NotAllowed(
                "revoke_first",
                "A phone holds this seat: take the seat from its phone first, then give it.",
            )
        seat = target
    return _qr_response(_move_link(request, seat))


@require_http_methods(["GET", "POST"])
def table_seats(request, code: str):
    """The host's seat list: remove a seat from the lobby, take a seat from its phone (a lost
    or wrong phone) and show the QR that gives it to another phone. 404 for anyone but the
    table's players; ``host_only`` (403) for the other players."""
    table = _table(request, code)
    seat = _seated(request, table)
    error = None
    if request.method == "POST":
        number = parse_int(request.POST.get("n"), minimum=0)
        action = request.POST.get("action")
        try:
            if number is None or action not in ("remove", "revoke"):
                raise RuleViolation("bad_command", "Choose a seat and what to do with it.")
            if action == "remove":
                seat_service.seat_remove(table=table, by=seat, number=number)
            else:
                seat_service.seat_revoke(table=table, by=seat, number=number)
        except TabletopError as exc:
            error = exc
        else:
            if not request.headers.get("HX-Request"):
                return redirect("tabletop:seats", code=table.code)
    table.refresh_from_db()
    seats = list(table.seats.order_by("number"))
    if seat.number == 0:  # the host's link for a seat taken from its phone (as its QR code)
        for s in seats:
            if s.handover and s.number != 0:
                s.handover_url = _move_link(request, s)
    response = render(
        request,
        "tabletop/seats.html",
        {"table": table, "seat": seat, "seats": seats, "error": error,
         "is_host": seat.number == 0},
    )
    if error is not None:
        response.status_code = error.status
    return response


#: The QR code's light modules: a dim grey, not white, so the code does not glare in a dark
#: room (found by a new user) while keeping ~8:1 contrast with the dark modules, which phone
#: cameras read as well as black on white.
QR_LIGHT = "#a9adb4"


def _qr_response(url: str) -> HttpResponse:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, dark="#111", light=QR_LIGHT, border=2, xmldecl=True
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@require_GET
def table_log(request, code: str):
    """The table's log in plain words, newest first. Event data is not shown (it may hold
    another seat's secrets); the ruleset's label says what happened."""
    table = _table(request, code)
    _seated(request, table)
    return render(request, "tabletop/log.html", {"table": table, "entries": log_entries(table)})


def log_entries(table: Table, limit: int = 200) -> list[dict]:
    """Up to ``limit`` newest log lines (``tabletop.live.log_lines``: narrated from the events)."""
    return log_lines(table, limit=limit)

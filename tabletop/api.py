"""JSON API of the kit (docs/architecture.md "Interfaces and errors"), and the one DRF exception handler.

A table is addressed by its join code (``/api/tables/{code}/...``, the table gate: a wrong code
is a 404 like a missing table). Guests prove their seat with the ``X-Seat-Token`` header
(returned when they create or join); logged-in users by their session. Cookies are not used for
seats here, so a cross-site form cannot act for a guest. What needs a seat answers 404
``not_seated`` to everyone else.
"""

from __future__ import annotations

import logging

import orjson
from channels.layers import get_channel_layer
from django.core.exceptions import SuspiciousOperation
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions as drf_exceptions
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, throttle_classes
from rest_framework.fields import SkipField, empty
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tabletop import live as live_reads
from tabletop import services
from tabletop.errors import NotFound, TabletopError
from tabletop.gate import (
    SeatJoinThrottle,
    TableCreateThrottle,
    Throttled,
    seat_by_token,
    table_by_code,
)
from tabletop.ids import plain_numbers
from tabletop.jsonsafe import loads_bounded
from tabletop.models import Heartbeat, Table
from tabletop.names import MAX_NAME
from tabletop.openapi import KIT_CODES, error_responses, game_codes
from tabletop.rules import Command
from tabletop.seats import find_seat, seat_token

log = logging.getLogger(__name__)

_DJANGO_JSON = DjangoJSONEncoder()
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME


def json_answer(value, status: int = 200) -> HttpResponse:
    """``value`` (a dict, list or scalar) as a JSON answer with ``status``: what
    ``JsonResponse(value, safe=False)`` answers, written by orjson (a DemLoc seat's view,
    ~40 KB of JSON, is the bulk of a command's answer: several times less CPU than the
    standard library's encoder; docs/performance.md). Dates and times, decimals, UUIDs and
    lazy strings are written as Django's ``DjangoJSONEncoder`` writes them, keys that are not
    strings as strings (as ``json.dumps``); ``NaN`` and the infinities come out as ``null``
    (valid JSON, where ``json.dumps`` writes ``NaN``, which no JSON parser reads). An integer
    beyond 64 bits falls back to ``JsonResponse``. Raises ``TypeError`` for a value JSON cannot
    hold, as ``JsonResponse`` does."""
    try:
        body = orjson.dumps(value, default=_DJANGO_JSON.default, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        try:  # a key that is not a string: written as a string, as json.dumps does
            body = orjson.dumps(value, default=_DJANGO_JSON.default,
                                option=_ORJSON_OPTIONS | orjson.OPT_NON_STR_KEYS)
        except orjson.JSONEncodeError:  # an integer beyond 64 bits, a value JSON cannot hold
            return JsonResponse(value, status=status, safe=False)
    return HttpResponse(body, status=status, content_type="application/json")


def exception_handler(exc, context):
    """Every API error as ``{"code", "detail"}``: ``TabletopError`` with its status, DRF's
    errors with theirs (validation: 400 ``invalid`` with the field messages), an oversized body
    400 ``too_large``."""
    if isinstance(exc, Http404):
        exc = NotFound("not_found", "No such table, or it is not yours to see.")
    if isinstance(exc, drf_exceptions.Throttled):
        wait = int(exc.wait or 1) + (0 if exc.wait is None or exc.wait == int(exc.wait) else 1)
        exc = Throttled("throttled", f"Too many tries: try again in {wait} s.", wait=wait)
    if isinstance(exc, TabletopError):
        response = Response(exc.as_dict(), status=exc.status)
        if isinstance(exc, Throttled):
            response["Retry-After"] = str(exc.wait)
        return response
    if isinstance(exc, SuspiciousOperation):
        return Response(
            {"code": "too_large", "detail": "The request is too large or malformed."}, status=400
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, drf_exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": exc.detail}
    elif isinstance(exc, drf_exceptions.APIException):
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        response.data = {
            "code": exc.get_codes() if isinstance(exc.get_codes(), str) else "error",
            "detail": detail,
        }
    return response


ERRORS = error_responses(*KIT_CODES)
CREATE_ERRORS = error_responses("unknown_game", "bad_option", "bad_name", "too_large")
JOIN_ERRORS = error_responses(
    "not_found", "table_started", "table_full", "name_taken", "bad_name", "too_large"
)
VIEW_ERRORS = error_responses("not_found", "not_seated")
EVENTS_ERRORS = error_responses("not_found")
# permission_denied: a logged-in browser's POST without its CSRF token (and without a seat
# token: SessionUnlessSeatToken).
COMMAND_ERRORS = error_responses(
    *KIT_CODES, "bad_number", "permission_denied", games=game_codes()
)

SEAT_TOKEN = OpenApiParameter(
    "X-Seat-Token",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="A guest's seat token (from create/join); logged-in players use their session.",
)
CODE = OpenApiParameter(
    "code", OpenApiTypes.STR, OpenApiParameter.PATH, description="The table's join code."
)


def api_not_found(request, *args, **kwargs):
    """Every unknown ``/api/`` path: 404 ``{"code": "not_found", "detail"}`` as JSON."""
    return JsonResponse(
        {"code": "not_found", "detail": "There is nothing at this address."}, status=404
    )


class TableCreateIn(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=MAX_NAME)
    title = serializers.CharField(max_length=80, required=False, default="")
    options = serializers.DictField(required=False, default=dict)


class JoinIn(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME)


class SeatOut(serializers.Serializer):
    code = serializers.CharField()
    seat = serializers.IntegerField()
    seat_token = serializers.CharField()


class CommandIn(serializers.Serializer):
    """A command's body: the one definition of a valid command (the schema documents it,
    ``read_command`` reads every body with its fields)."""

    type = serializers.CharField(max_length=80)
    data = serializers.DictField(required=False, default=dict)
    expected_version = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    idempotency_key = serializers.CharField(required=False, allow_null=True, max_length=80)

    def validate_data(self, value):
        return plain_numbers(value)


class CommandOut(serializers.Serializer):
    version = serializers.IntegerField()
    command_id = serializers.IntegerField()
    replayed = serializers.BooleanField()
    events = serializers.ListField(child=serializers.DictField())
    view = serializers.DictField(allow_null=True)  # null: committed, but read it with GET view


class ViewOut(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    view = serializers.DictField()


def seat_out(seat) -> dict:
    """``{"code", "seat", "seat_token"}``: what a client keeps to act for ``seat``."""
    return {
        "code": seat.table.code,
        "seat": seat.number,
        "seat_token": seat_token(seat),
    }


def api_seat(request, table):
    """The caller's seat at ``table`` for the API: ``X-Seat-Token`` or the session's user (never
    the seat cookie, so a cross-site form cannot act for a guest); None if none."""
    return find_seat(table, request.user, {}, request.headers.get("X-Seat-Token"))


def _seated(request, table):
    seat = api_seat(request, table)
    if seat is None:
        raise NotFound("not_seated", "You have no seat at this table.")
    return seat


@extend_schema(request=TableCreateIn, responses={201: SeatOut, **CREATE_ERRORS})
@api_view(["POST"])
@throttle_classes([TableCreateThrottle])
def table_create(request):
    """Open a table in the lobby; the caller takes seat 0 (host)."""
    body = TableCreateIn(data=request.data)
    body.is_valid(raise_exception=True)
    table, seat = services.table_create(
        ruleset=body.validated_data["ruleset"],
        host=request.user,
        host_name=body.validated_data["name"],
        title=body.validated_data["title"],
        options=body.validated_data["options"],
    )
    return Response(seat_out(seat), status=status.HTTP_201_CREATED)


@extend_schema(request=JoinIn, responses={201: SeatOut, **JOIN_ERRORS}, parameters=[CODE])
@api_view(["POST"])
@throttle_classes([SeatJoinThrottle])
def table_join(request, code: str):
    """Take the next free seat (lobby only) of the table with this join code."""
    table = table_by_code(code, request)
    body = JoinIn(data=request.data)
    body.is_valid(raise_exception=True)
    seat = services.seat_join(table=table, name=body.validated_data["name"], user=request.user)
    return Response(seat_out(seat), status=status.HTTP_201_CREATED)


class SessionUnlessSeatToken(SessionAuthentication):
    """The session (with its CSRF check), except for a request that names its seat with
    ``X-Seat-Token``: the token is what it acts with (``find_seat`` prefers it), and no other
    site can make a browser send that header, so a logged-in phone's token request needs no
    CSRF token here either, as in the hot path of ``table_command`` (found by review)."""

    def authenticate(self, request):
        if request.headers.get("X-Seat-Token"):
            return None
        return super().authenticate(request)


class SessionUnlessSeatTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for ``SessionUnlessSeatToken``: the session cookie, as DRF's own
    session authentication (the seat token is the ``X-Seat-Token`` parameter)."""

    target_class = SessionUnlessSeatToken
    name = "sessionUnlessSeatToken"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": "sessionid"}


@extend_schema(
    request=CommandIn, responses={200: CommandOut, **COMMAND_ERRORS}, parameters=[CODE, SEAT_TOKEN]
)
@api_view(["POST"])
@authentication_classes([SessionUnlessSeatToken])
def _table_command_api(request, code: str):
    """Send one command for your seat (``X-Seat-Token`` or your session)."""
    seat = seat_by_token(code, request.headers.get("X-Seat-Token"))
    if seat is not None:
        table = seat.table
    else:
        table = table_by_code(code, request)
        seat = _seated(request, table)
    return Response(_command_answer(table, seat, read_command(request.data)))


@csrf_exempt
def table_command(request, code: str):
    """``POST /api/tables/<code>/commands``: the kit's hot path, the DRF view
    ``_table_command_api`` without DRF's request, content negotiation and renderer for a
    phone's tap: a POST with a valid ``X-Seat-Token`` and a JSON body, read by the same
    ``read_command`` as the DRF view's. Same answer, same coded errors (``TabletopError`` as
    ``{"code", "detail"}`` with its status, the body's field errors 400 ``invalid``, an
    oversized body 400 ``too_large``); anything else (a session instead of a token, a forged
    token, another method or body type, JSON that does not parse) is handed to the DRF view.
    No CSRF check is skipped: the DRF view checks a session's, and a token is a header no
    other site can make a browser send. The OpenAPI schema documents the
    DRF view (``cls``/``initkwargs`` below are what drf-spectacular reads). One difference
    left on purpose: the hot path answers JSON whatever ``Accept`` says (the DRF view would
    answer 406 to ``Accept: application/xml``, or its browsable page to ``text/html``)."""
    return served_tap(request, code) or _table_command_api(request, code)


def served_tap(request, code: str) -> HttpResponse | None:
    """The answer of ``table_command``'s hot path to ``request`` (a POST with a valid
    ``X-Seat-Token`` and a JSON body that parses), or None when only the DRF view can answer
    it. Needs nothing of the request but its method, headers and body (no session, no user,
    no CSRF token): ``tabletop.middleware.SeatTapMiddleware`` serves it before them."""
    token = request.headers.get("X-Seat-Token")
    if request.method != "POST" or not token or request.content_type != "application/json":
        return None
    seat = seat_by_token(code, token)
    if seat is None:
        return None
    try:
        body = loads_bounded(request.body)
    except SuspiciousOperation:
        return json_answer(
            {"code": "too_large", "detail": "The request is too large or malformed."}, status=400
        )
    except ValueError:
        return None  # malformed or too deep: the DRF view's parse_error
    try:
        return json_answer(_command_answer(seat.table, seat, read_command(body)))
    except drf_exceptions.ValidationError as exc:  # as exception_handler answers it
        return json_answer({"code": "invalid", "detail": exc.detail}, status=400)
    except TabletopError as exc:
        return json_answer(exc.as_dict(), status=exc.status)


_table_command_api.cls.name = "Table command"  # type: ignore[attr-defined]  # OPTIONS, docs
table_command.cls = _table_command_api.cls  # type: ignore[attr-defined]
table_command.initkwargs = _table_command_api.initkwargs  # type: ignore[attr-defined]


def _command_answer(table, seat, data: dict) -> dict:
    result = services.run_command(
        table,
        seat,
        Command(data["type"], data.get("data") or {}),
        expected_version=data.get("expected_version"),
        idempotency_key=data.get("idempotency_key"),
    )
    return {
        "version": result.version,
        "command_id": result.command_id,
        "replayed": result.replayed,
        "events": result.events,
        "view": _view_after_commit(table, seat, current=not result.replayed),
    }


#: ``CommandIn``'s fields, bound once: what ``read_command`` checks a body with.
_COMMAND_FIELDS = CommandIn().fields


def _taken_as_is(name: str, value) -> bool:
    """True when ``CommandIn``'s field ``name`` takes ``value`` (not missing) unchanged and
    without an error: a trimmed printable string within the field's length (the type, the
    key), an object (``data``), a whole number not below the field's minimum or null (the
    version), null where the field allows it. Anything else goes through the field itself."""
    field = _COMMAND_FIELDS[name]
    if value is None:
        return field.allow_null
    if name == "data":
        return type(value) is dict
    if name == "expected_version":
        return type(value) is int and value >= field.min_value
    return (type(value) is str and 0 < len(value) <= field.max_length and value.isprintable()
            and value == value.strip())


def read_command(body) -> dict:
    """The checked command of a request's body (a JSON value, or DRF's ``request.data``):
    ``{"type", "data", ...}`` as ``CommandIn`` validates it, ``expected_version`` and
    ``idempotency_key`` only when given. The one parser of both command views. Each field
    is read with ``CommandIn``'s own field (its coercions, its messages), skipped for a value
    it would take unchanged (``_taken_as_is``: a phone's tap, ~0.2 ms less than a
    serializer); a body that is not an object (or a form's) goes to ``CommandIn`` whole.
    Raises DRF's ``ValidationError`` (``{field: [message]}``) and
    ``RuleViolation("bad_number")``, as ``CommandIn.is_valid`` would."""
    if type(body) is not dict:
        checked = CommandIn(data=body)
        checked.is_valid(raise_exception=True)
        return dict(checked.validated_data)
    command, errors = {}, {}
    for name, field in _COMMAND_FIELDS.items():
        value = body.get(name, empty)
        try:
            if value is empty and name == "data":
                value = {}
            elif value is empty or not _taken_as_is(name, value):
                value = field.run_validation(value)
            if name == "data":
                value = plain_numbers(value)
        except drf_exceptions.ValidationError as exc:
            errors[name] = exc.detail
        except SkipField:
            continue
        else:
            command[name] = value
    if errors:
        raise drf_exceptions.ValidationError(errors)
    return command


def _view_after_commit(table, seat, *, current: bool = False) -> dict | None:
    """The seat's view once its command has committed. ``current``: ``run_command`` left the
    state it committed on ``table`` (no read needed); else the table is read again. A database
    error now (a connection killed after the commit) must not answer 500 for committed work
    (docs/architecture.md): one retry on a fresh connection, then ``None`` (the command stands; GET view
    reads the state)."""
    for attempt in (1, 2):
        try:
            if not current or attempt > 1:
                table.refresh_from_db()
            return live_reads.seat_view(table, seat)
        except DatabaseError:
            log.warning("Reading table %s after its commit failed (try %s).", table.pk, attempt)
            connection.close()
    return None


@extend_schema(responses={200: ViewOut, **VIEW_ERRORS}, parameters=[CODE, SEAT_TOKEN])
@api_view(["GET"])
def table_view(request, code: str):
    """What your seat may see now."""
    table = table_by_code(code, request)
    seat = _seated(request, table)
    response = Response(
        {
            "version": table.version,
            "status": table.status,
            "seat": seat.number,
            "view": live_reads.seat_view(table, seat),
        }
    )
    return response


@extend_schema(
    parameters=[CODE],
    responses={
        200: inline_serializer(
            "EventOut",
            {
                "version": serializers.IntegerField(),
                "type": serializers.CharField(),
                "data": serializers.DictField(),
                "seat": serializers.IntegerField(allow_null=True),
                "command_id": serializers.IntegerField(),
                "final": serializers.BooleanField(),
                "created_at": serializers.DateTimeField(),
            },
            many=True,
        ),
        **EVENTS_ERRORS,
    },
)
@api_view(["GET"])
def table_events(request, code: str):
    """The raw event log of a table (staff only: it holds every seat's secrets; 404 for
    everyone else, like a table that does not exist)."""
    if not (request.user.is_authenticated and request.user.is_staff):
        raise NotFound("not_found", "No such table, or it is not yours to see.")
    table = table_by_code(code, request)
    return Response(
        [
            {
                "version": e.version,
                "type": e.type,
                "data": e.data,
                "seat": e.seat,
                "command_id": e.command_id,
                "final": e.final,
                "created_at": e.created_at,
            }
            for e in table.events.order_by("version")
        ]
    )


@extend_schema(
    request=None,
    responses={
        200: inline_serializer(
            "Health",
            {
                "ok": serializers.BooleanField(),
                "database": serializers.BooleanField(),
                "channel_layer": serializers.BooleanField(),
            },
        )
    },
)
@api_view(["GET", "POST"])
def health(request):
    """Liveness for monitors: GET reads; POST from a staff account also writes one
    ``Heartbeat`` row (the write probe). Anyone else's POST only reads, so the public cannot
    grow the table a row per request."""
    if request.method == "POST" and request.user.is_staff:
        Heartbeat.objects.create(source="api")
    database = Table.objects.exists() or True
    return Response(
        {"ok": True, "database": database, "channel_layer": get_channel_layer() is not None}
    )

"""Who sits where: seat secrets, the phone's seat cookie, and the seat changes a host makes.

A seat's secret is its ``nonce``. Three things carry it, all ``django.core.signing`` (salted,
timestamped), and all die together when the nonce changes:

- the *seat token* ``{"s": seat_id, "n": nonce}``: the ``X-Seat-Token`` header of the API
  (returned when a client creates or joins a table);
- the phone's one *seat cookie* ``seats``: a signed list of at most ``MAX_COOKIE_SEATS``
  ``[seat_id, nonce, table_id]`` entries, newest first, one per table, so the cookie stays small however many tables a
  phone has sat at (each table used to add a cookie of its own: legacy ``seat_<table id>``
  cookies are still read, and removed whenever the seat cookie is written);
- the *move link* ``/rejoin/<token>/`` (its own salt, shown as a QR on the seat's phone or on
  the host's for a seat): opening it moves the seat to the phone that opened it and changes the
  nonce, so the old phone (told over its websocket) and every older token lose the seat.

A token or cookie entry is honoured only while the table is open, and for ``AFTER_FINISH``
seconds after its last change once it is finished; a cookie older than ``COOKIE_AGE`` (renewed
on every visit of the table) and a move link older than ``MOVE_AGE`` are refused.
Logged-in players' seats are found by their account instead (revoking a seat's phone also
detaches the account, so the host can hand the seat to someone else).
"""

from __future__ import annotations

import datetime as dt

from django.core import signing
from django.db import connection, transaction
from django.utils import timezone

from tabletop import prepared
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.log import HANDOVER_COMMAND
from tabletop.models import Seat, Table, new_nonce
from tabletop.rules import Command
from tabletop.services import READ_COLUMNS, notify_table, run_command

SALT = "tabletop.seat"
MOVE_SALT = "tabletop.seat.move"
COOKIE_SALT = "tabletop.seats-cookie"
COOKIE = "seats"
COOKIE_AGE = 30 * 24 * 3600  # seconds; renewed on every visit of a table
MAX_COOKIE_SEATS = 20
TOKEN_AGE = 90 * 24 * 3600  # seconds: an API seat token is refused after this
MOVE_AGE = 24 * 3600  # seconds: a move link (rejoin QR) is refused after this
AFTER_FINISH = 12 * 3600  # seconds a finished table's seats still open it


def cookie_name(table_id: int) -> str:
    """Name of the legacy per-table cookie (read, never written any more)."""
    return f"seat_{table_id}"


def seat_token(seat: Seat) -> str:
    """A signed token that proves the holder may act for ``seat`` (``X-Seat-Token``)."""
    return signing.dumps({"s": seat.pk, "n": seat.nonce}, salt=SALT, compress=True)


def move_token(seat: Seat) -> str:
    """A signed one-time link secret that moves ``seat`` to the phone that opens it."""
    return signing.dumps({"s": seat.pk, "n": seat.nonce}, salt=MOVE_SALT, compress=True)


def seat_usable(seat: Seat, now: dt.datetime | None = None) -> bool:
    """False once the seat's table has been finished for longer than ``AFTER_FINISH`` s."""
    table = seat.table
    if table.status != Table.Status.FINISHED:
        return True
    now = now or timezone.now()
    return (now - table.updated_at).total_seconds() <= AFTER_FINISH


def _load(token: str | None, salt: str, max_age: int) -> dict | None:
    if not token or not isinstance(token, str) or len(token) > 400:
        return None
    try:
        data = signing.loads(token, salt=salt, max_age=max_age)
    except signing.BadSignature:  # also SignatureExpired
        return None
    except ValueError:  # a forged compressed payload that does not inflate
        return None
    if not isinstance(data, dict) or not isinstance(data.get("s"), int):
        return None
    return data


# The seat and the light columns of its table, in one statement written once (the
# ORM spends ~0.6 ms compiling this query on every command). The table's JSON columns
# (options, setup, state, meta) stay deferred on the model (read on first use); their text is
# handed to ``run_command`` as its first read (``Table.first_read``).
_SEAT_FIELDS = tuple(Seat._meta.concrete_fields)
_TABLE_FIELDS = tuple(
    f for f in Table._meta.concrete_fields if f.name not in ("options", "setup", "state", "meta")
)
_SEAT_SQL = (
    "SELECT "
    + ", ".join(f's."{f.column}"' for f in _SEAT_FIELDS)
    + ", "
    + ", ".join(f't."{f.column}"' for f in _TABLE_FIELDS)
    + ", "
    + ", ".join(f't."{c}"' for c in READ_COLUMNS)
    + f' FROM "{Seat._meta.db_table}" s JOIN "{Table._meta.db_table}" t'
    + ' ON t."id" = s."table_id" WHERE s."id" = %s AND s."nonce" = %s'
)


_CONVERTERS: dict[tuple, list] = {}


def _converted(fields, values):
    """``values`` read by raw SQL for ``fields``, converted as the ORM converts them (the
    backend's converters, then the field's own ``from_db_value``)."""
    key = (connection.vendor, fields)
    plan = _CONVERTERS.get(key)
    if plan is None:
        plan = []
        for f in fields:
            col = f.get_col(f.model._meta.db_table)
            convs = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
            plan.append((col, convs))
        _CONVERTERS[key] = plan
    out = []
    for (col, convs), value in zip(plan, values, strict=True):
        for convert in convs:
            value = convert(value, col, connection)
        out.append(value)
    return out


def seat_with_table(seat_id: int, nonce: str) -> Seat | None:
    """The seat ``seat_id`` if its nonce is ``nonce``, with its table loaded (the table's JSON
    columns deferred: read on first use), in one query; else None."""
    if not isinstance(seat_id, int) or not isinstance(nonce, str):
        return None
    with prepared.cursor() as cursor:
        cursor.execute(_SEAT_SQL, [seat_id, nonce])
        row = cursor.fetchone()
    return _seat_of_row(row) if row is not None else None


def _seat_of_row(row) -> Seat:
    """The seat and its table (JSON columns deferred, ``first_read`` set) of a row of
    ``_SEAT_SQL``'s columns."""
    db = connection.alias
    n, m = len(_SEAT_FIELDS), len(_SEAT_FIELDS) + len(_TABLE_FIELDS)
    seat = Seat.from_db(db, [f.attname for f in _SEAT_FIELDS], _converted(_SEAT_FIELDS, row[:n]))
    table = Table.from_db(
        db, [f.attname for f in _TABLE_FIELDS], _converted(_TABLE_FIELDS, row[n:m])
    )
    # What run_command reads first, read here already (one round trip less per command).
    table.first_read = tuple(row[m:])
    seat.table = table
    return seat


# The seats of a cookie at the table of a code: ``_SEAT_SQL``'s columns, by the table's code
# and up to MAX_COOKIE_SEATS seat ids (the list padded with 0, never a seat's id: one
# statement text, prepared once per connection).
_SEATS_AT_CODE_SQL = _SEAT_SQL.split(" WHERE ")[0] + (
    ' WHERE t."code" = %s AND s."id" IN (' + ", ".join(["%s"] * MAX_COOKIE_SEATS) + ")"
)


def seats_at_code(code: str, seat_ids: list[int]) -> dict[int, Seat]:
    """``{seat id: seat}`` of those of ``seat_ids`` (at most ``MAX_COOKIE_SEATS``, the first
    ones kept) at the table whose code is ``code``, each with its table loaded as
    ``seat_with_table`` loads it (the JSON columns deferred; what ``run_command`` reads first
    set aside), in one prepared query. The caller checks each seat's nonce."""
    ids = [i for i in seat_ids if isinstance(i, int)][:MAX_COOKIE_SEATS]
    if not ids:
        return {}
    with prepared.cursor() as cursor:
        cursor.execute(_SEATS_AT_CODE_SQL, [code, *ids, *[0] * (MAX_COOKIE_SEATS - len(ids))])
        rows = cursor.fetchall()
    seats = (_seat_of_row(row) for row in rows)
    return {seat.pk: seat for seat in seats}


# A table's seats in number order: ``_SEAT_FIELDS`` alone, one statement written once.
_TABLE_SEATS_SQL = (
    "SELECT "
    + ", ".join(f'"{f.column}"' for f in _SEAT_FIELDS)
    + f' FROM "{Seat._meta.db_table}" WHERE "{Seat._meta.get_field("table").column}" = %s'
    + ' ORDER BY "number"'
)


def table_seats(table: Table) -> list[Seat]:
    """``list(table.seats.order_by("number"))``, each seat's ``table`` being ``table`` as the
    related manager sets it, in one prepared statement (the live region's context of every
    command's answer reads them: the ORM spent ~0.3 ms compiling the query each time)."""
    with prepared.cursor() as cursor:
        cursor.execute(_TABLE_SEATS_SQL, [table.pk])
        rows = cursor.fetchall()
    db = connection.alias
    names = [f.attname for f in _SEAT_FIELDS]
    seats = []
    for row in rows:
        seat = Seat.from_db(db, names, _converted(_SEAT_FIELDS, row))
        seat.table = table
        seats.append(seat)
    return seats


def _seat_for(data: dict | None, table_id: int | None) -> Seat | None:
    if data is None or not isinstance(data.get("n"), str):
        return None
    seat = seat_with_table(data["s"], data["n"])
    if seat is None or (table_id is not None and seat.table_id != table_id):
        return None
    return seat if seat_usable(seat) else None


def seat_from_token(token: str | None, table_id: int | None = None) -> Seat | None:
    """The seat a seat token stands for, or None if it is forged, revoked, expired, for a
    table over for more than ``AFTER_FINISH`` s, or (``table_id`` given) for another table."""
    return _seat_for(_load(token, SALT, TOKEN_AGE), table_id)


def seat_from_move_token(token: str | None) -> Seat | None:
    """The seat a move link stands for (not yet moved), or None (used, revoked, old)."""
    return _seat_for(_load(token, MOVE_SALT, MOVE_AGE), None)


def cookie_entries(cookies) -> list[tuple[int, str, int]]:
    """The ``(seat_id, nonce, table_id)`` entries of the phone's seat cookie, newest first
    (they may be stale: the caller checks the nonce)."""
    raw = cookies.get(COOKIE)
    if not raw or len(raw) > 4000:
        return []
    try:
        data = signing.loads(raw, salt=COOKIE_SALT, max_age=COOKIE_AGE)
    except (signing.BadSignature, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [
        (e[0], e[1], e[2])
        for e in data[:MAX_COOKIE_SEATS]
        if isinstance(e, list)
        and len(e) == 3
        and isinstance(e[0], int)
        and isinstance(e[1], str)
        and isinstance(e[2], int)
    ]


def cookie_seats(cookies) -> list[Seat]:
    """Every seat the phone's cookies still hold (valid nonce, usable table), newest first."""
    entries = cookie_entries(cookies)
    found = {
        s.pk: s
        for s in Seat.objects.filter(pk__in=[e[0] for e in entries]).select_related("table")
    }
    seats = [found[pk] for pk, nonce, _ in entries if pk in found and found[pk].nonce == nonce]
    for name, value in cookies.items():
        if name.startswith("seat_"):
            seat = seat_from_token(value)
            if seat is not None:
                seats.append(seat)
    unique = {}
    for seat in seats:
        if seat_usable(seat):
            unique.setdefault(seat.pk, seat)
    return list(unique.values())


def find_seat(table: Table, user, cookies, header_token: str | None = None) -> Seat | None:
    """The caller's seat at ``table``: a valid ``header_token``'s (when one is given), else the
    logged-in user's, else the phone's seat cookie's; None when none."""
    if header_token:
        return seat_from_token(header_token, table.pk)
    if user is not None and getattr(user, "is_authenticated", False):
        seat = table.seats.filter(user=user).first()
        if seat is not None:
            return seat
    legacy = cookies.get(cookie_name(table.pk))
    seat = seat_from_token(legacy, table.pk) if legacy else None
    if seat is not None:
        return seat
    for pk, nonce, table_id in cookie_entries(cookies):
        if table_id == table.pk:
            # ``table.seats`` gives each seat this very table: no second read of its state
            seat = table.seats.filter(pk=pk, nonce=nonce).first()
            return seat if seat is not None and seat_usable(seat) else None
    return None


def remember_seat(response, seat: Seat, request=None) -> None:
    """Put ``seat`` first in the phone's one seat cookie on ``response`` (keeping the seats at
    other tables that ``request`` carried, at most ``MAX_COOKIE_SEATS``), drop legacy cookies."""
    cookies = request.COOKIES if request is not None else {}
    entries = [[seat.pk, seat.nonce, seat.table_id]] + [
        list(e) for e in cookie_entries(cookies) if e[2] != seat.table_id
    ]
    _write_cookie(response, entries[:MAX_COOKIE_SEATS], request)
    for name in cookies:
        if name.startswith("seat_"):
            response.delete_cookie(name)


def forget_seat(response, seat_id: int, request) -> None:
    """Take ``seat_id`` out of the phone's seat cookie (a seat that moved or was removed)."""
    entries = [list(e) for e in cookie_entries(request.COOKIES) if e[0] != seat_id]
    _write_cookie(response, entries, request)


def cookie_value(*seats: Seat) -> str:
    """The value of a seat cookie holding ``seats`` (newest first), as a phone would carry it."""
    return signing.dumps(
        [[s.pk, s.nonce, s.table_id] for s in seats[:MAX_COOKIE_SEATS]],
        salt=COOKIE_SALT,
        compress=True,
    )


def _write_cookie(response, entries: list, request) -> None:
    response.set_cookie(
        COOKIE,
        signing.dumps(entries, salt=COOKIE_SALT, compress=True),
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=bool(request is not None and request.is_secure()),
    )


def _host_check(table: Table, by: Seat | None) -> None:
    if by is None or by.table_id != table.pk:
        raise NotFound("not_seated", "You have no seat at this table.")
    if by.number != 0:
        raise NotAllowed("host_only", "Only the host (seat 1) can do that.")


def seat_remove(*, table: Table, by: Seat | None, number: int) -> None:
    """The host removes seat ``number`` (1.., not the host's own 0) from the lobby; the seats
    after it move up one place, so the numbers stay 0..n-1. Its phone loses the seat.
    Raises ``NotFound("not_seated"|"no_such_seat")``, ``NotAllowed("host_only")``,
    ``RuleViolation("table_started"|"host_stays")``."""
    _host_check(table, by)
    if number == 0:
        raise RuleViolation("host_stays", "The host's own seat cannot be removed.")
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != Table.Status.LOBBY:
            raise RuleViolation("table_started", "The game has started: seats are fixed.")
        seat = locked.seats.filter(number=number).first()
        if seat is None:
            raise NotFound("no_such_seat", "There is no such seat.")
        seat.delete()
        for later in locked.seats.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        locked.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: notify_table(locked.pk, locked.version, lobby=True))


def seat_revoke(*, table: Table, by: Seat | None, number: int) -> Seat:
    """The host takes seat ``number`` away from the phone (and account) that holds it: a new
    nonce makes every token, cookie and move link of it useless; the host's page then offers
    the seat's new move link to hand to the right phone. Returns the seat.
    Raises ``NotFound("not_seated"|"no_such_seat")``, ``NotAllowed("host_only")``,
    ``RuleViolation("host_stays")``."""
    _host_check(table, by)
    if number == 0:
        raise RuleViolation("host_stays", "The host keeps their own seat.")
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
        if seat is None:
            raise NotFound("no_such_seat", "There is no such seat.")
        seat.nonce = new_nonce()
        seat.user = None
        seat.handover = True
        seat.save(update_fields=["nonce", "user", "handover"])
        transaction.on_commit(lambda: notify_table(table.pk, table.version, lobby=True))
    return seat


def seat_move(*, token: str, user=None) -> Seat:
    """Open a move link: the seat gets a new nonce (the old phone, its tokens and this link
    stop working; its websocket is told) and is returned for the new phone to remember. A
    logged-in ``user`` without a seat at that table is attached to it. A seat the host took
    from its phone (``seat_revoke``) and opened here once the game has started is told to the
    table in the same transaction: the kit's ``table.seat.moved`` event, a log line on every
    phone (docs/operations.md "The host never sees a seat's secret").
    Raises ``NotFound("bad_seat_token")`` for a used, revoked, expired or forged link."""
    with transaction.atomic():
        seat = seat_from_move_token(token)
        if seat is not None:
            seat = Seat.objects.select_for_update().filter(pk=seat.pk, nonce=seat.nonce).first()
        if seat is None:
            raise NotFound("bad_seat_token", "This rejoin code is not valid any more.")
        handed_over = seat.handover
        seat.nonce = new_nonce()
        seat.handover = False
        fields = ["nonce", "handover"]
        authenticated = user is not None and user.is_authenticated
        if authenticated and seat.user_id != user.pk:
            if not seat.table.seats.filter(user=user).exists():
                seat.user = user
            else:
                seat.user = None
            fields.append("user")
        elif not authenticated and seat.user_id is not None:
            seat.user = None  # the account's phones lose it too: it moved to this phone
            fields.append("user")
        seat.save(update_fields=fields)
        table = seat.table
        if handed_over and table.status != Table.Status.LOBBY:
            run_command(table, None, Command(HANDOVER_COMMAND, {"seat": seat.number}))
        transaction.on_commit(lambda: notify_table(table.pk, table.version, lobby=True))
    return seat

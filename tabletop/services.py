"""The kit's write path: creating and joining tables and ``run_command`` (docs/architecture.md).

``run_command`` is the only way a game changes: the htmx views, the JSON API, the websocket
consumer and the tests all call it.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections import OrderedDict
from contextlib import nullcontext
from dataclasses import dataclass, field

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.utils import timezone

from tabletop import jsontext, prepared
from tabletop.dice import make_dice
from tabletop.errors import Conflict, NotAllowed, NotFound, RuleViolation, TabletopError
from tabletop.log import KIT_COMMANDS, LoggedEvent, Meta, rebuild, step
from tabletop.models import Event, Seat, Table, new_join_code
from tabletop.names import MAX_NAME, clean_name, clean_title, names_clash
from tabletop.publisher import publish
from tabletop.registry import content_provider, get_ruleset
from tabletop.rules import Command, SeatInfo
from tabletop.signals import applied_wanted, command_applied, game_sender

log = logging.getLogger(__name__)

MAX_SEAT_NAME = MAX_NAME
# A push waits at most this long for the channel layer (seconds): a hung Redis costs a late
# push, which the phones repair (they fetch the live region on a version gap), never an answer.
# The answer itself never waits for it at all (tabletop.publisher sends after it).
PUSH_TIMEOUT = settings.TABLETOP_PUBLISH_TIMEOUT


@dataclass
class CommandResult:
    """What ``run_command`` returns: the table's new ``version``, the ``command_id`` and the
    ``(version, type)`` of each appended event, and whether it was a ``replayed`` idempotent
    repeat. Event *data* is left out on purpose: it may hold another seat's secrets."""

    version: int
    command_id: int
    events: list[dict] = field(default_factory=list)
    replayed: bool = False


def table_create(
    *,
    ruleset: str,
    host=None,
    host_name: str,
    title: str = "",
    options: dict | None = None,
    setup: dict | None = None,
) -> tuple[Table, Seat]:
    """Open a table in the lobby with its host in seat 0.

    ``ruleset``: a registered name; ``options``: checked against ``options_schema`` (unknown
    keys or values are a ``RuleViolation("bad_option")``), defaults filled in; ``setup``: the
    JSON content the game's ``setup`` reads at ``table.start`` (see ``table_setup_set``).
    Raises ``NotFound("unknown_game")``, ``RuleViolation("bad_name"|"bad_option")``.
    """
    game = get_ruleset(ruleset)
    name = _clean_name(host_name)
    chosen = _clean_options(game, options or {})
    with transaction.atomic():
        for _ in range(10):
            code = new_join_code()
            if not Table.objects.filter(code=code).exists():
                break
        table = Table.objects.create(
            code=code,
            ruleset=game.name,
            title=clean_title(title) or game.title,
            options=chosen,
            setup=setup or {},
            host=host if host is not None and host.is_authenticated else None,
        )
        seat = Seat.objects.create(
            table=table,
            number=0,
            name=name,
            user=host if host is not None and host.is_authenticated else None,
        )
    return table, seat


def seat_join(*, table: Table, name: str, user=None) -> Seat:
    """Take the next free seat of a table in the lobby; a logged-in user who already has a
    seat there gets it back. Raises ``RuleViolation("table_started"|"table_full"|"bad_name")``.
    """
    game = get_ruleset(table.ruleset)
    authenticated = user is not None and user.is_authenticated
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if authenticated:
            existing = locked.seats.filter(user=user).first()
            if existing:
                return existing
        if locked.status != Table.Status.LOBBY:
            raise RuleViolation("table_started", "This game has already started: no new seats.")
        count = locked.seats.count()
        if count >= game.max_seats:
            raise RuleViolation("table_full", f"{game.title} seats at most {game.max_seats}.")
        clean = _clean_name(name)
        taken = next((s.name for s in locked.seats.all() if names_clash(clean, s.name)), None)
        if taken is not None:
            raise RuleViolation(
                "name_taken", f"Someone at this table is already called {taken} (or close)."
            )
        seat = Seat.objects.create(
            table=locked, number=count, name=clean, user=user if authenticated else None
        )
        locked.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: notify_table(locked.pk, locked.version, lobby=True))
    return seat


def seat_move(*, table: Table, seat: Seat | None, number: int, offset: int) -> Table:
    """The host moves seat ``number`` (0-based) one place ``offset`` (-1: earlier, +1: later) in the lobby, so the
    seat numbers follow the order people sit around the table ("clockwise" in DemLoc 6.4.1
    deployment and activation; turn order in the card games). Seat 1 is the host and stays
    first: any order around a table can be read clockwise from the host, so the others are
    ordered after it. Raises ``NotAllowed("host_only")``, ``RuleViolation``
    ``table_started`` / ``bad_move``, ``NotFound("seat_not_found")``."""
    if seat is None or seat.table_id != table.pk or seat.number != 0:
        raise NotAllowed("host_only", "Only the host (seat 1) can change the seat order.")
    if offset not in (-1, 1):
        raise RuleViolation("bad_move", "A seat moves one place up or down.")
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != Table.Status.LOBBY:
            raise RuleViolation("table_started", "The game has started: the seats are fixed.")
        seats = {s.pk: s for s in locked.seats.select_for_update()}
        moving = next((s for s in seats.values() if s.number == number), None)
        if moving is None:
            raise NotFound("seat_not_found", "No such seat at this table.")
        to = moving.number + offset
        other = next((s for s in seats.values() if s.number == to), None)
        if moving.number == 0 or to < 1 or other is None:
            raise RuleViolation(
                "bad_move", "The host stays in seat 1; the others move between seats 2 and up."
            )
        old = moving.number
        moving.number = 32000  # out of the way of the unique (table, number) pair
        moving.save(update_fields=["number"])
        other.number = old
        other.save(update_fields=["number"])
        moving.number = to
        moving.save(update_fields=["number"])
        locked.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: notify_table(locked.pk, locked.version, lobby=True))
    return locked


def table_options_set(*, table: Table, seat: Seat | None, options: dict) -> Table:
    """Change the table options while in the lobby (host only), e.g. after the game refused to
    start with a combination that does not fit the player count. Options not named keep their
    value. Raises ``NotAllowed("host_only")``, ``RuleViolation("table_started"|"bad_option")``.
    """
    game = get_ruleset(table.ruleset)
    if seat is None or seat.table_id != table.pk or seat.number != 0:
        raise NotAllowed("host_only", "Only the host (seat 1) can change the table options.")
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != Table.Status.LOBBY:
            raise RuleViolation("table_started", "The game has started: the options are fixed.")
        locked.options = _clean_options(game, {**locked.options, **options})
        locked.save(update_fields=["options", "updated_at"])
        transaction.on_commit(lambda: notify_table(locked.pk, locked.version, lobby=True))
    return locked


def table_setup_set(*, table: Table, setup: dict) -> Table:
    """Replace the content handed to the game's ``setup`` at ``table.start`` (JSON dict), while
    the table is in the lobby: the opening service gathers it (e.g. a mission's snapshot of the
    bound Guilds) so ``setup`` reads no database. Raises ``RuleViolation("table_started")``."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != Table.Status.LOBBY:
            raise RuleViolation("table_started", "The game has started: its content is fixed.")
        locked.setup = json.loads(json.dumps(setup))
        locked.save(update_fields=["setup", "updated_at"])
    table.setup = locked.setup
    return locked


def run_command(
    table: Table | int,
    seat: Seat | None,
    command: Command,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> CommandResult:
    """Decide and append one command (docs/architecture.md "The live path").

    Reads the table, returns the first result if ``idempotency_key`` was seen (appending
    nothing), checks ``expected_version`` (stale: ``Conflict("stale_version")``), asks the
    ruleset to decide (the pure ``tabletop.log.step``), then appends the events and updates the
    projection in one write guarded by the version it read (optimistic concurrency).
    When another command committed in between, the write changes nothing and the command is
    read and decided again (up to ``MAX_TRIES`` times); with ``expected_version`` the caller
    gets ``Conflict("stale_version")`` instead, unless the game says the command may be
    decided on the newer state (``Ruleset.rebase_ok(command.type)``: independent choices of
    different players, e.g. DemLoc's picks during a mission's preparation): then a stale
    ``expected_version`` (older than the table's) is decided on the current state, the
    ruleset checking everything again there. The read is this process's snapshot of what
    it last wrote to the table when it has one (``SNAPSHOTS``: then the write is also guarded
    by the time of that write, and a miss costs one more try; a command *refused* on such a copy
is decided again on the committed row before the refusal is raised: a command is never
refused on state older than the table's committed version, docs/architecture.md). Unique ``(table, version)`` and
    ``(table, idempotency_key)`` stay the last guards. ``table.start`` reads the table under its row lock
    instead (the seats it seats must not change under it). On PostgreSQL outside any
    transaction, with no ``command_applied`` receiver for the game, the write is one statement;
    otherwise one transaction with the receivers. After commit the table's group is told the
    new version, and a ``Table`` passed in shows what was committed (its state is not touched
    when the command is refused).

    ``table``: the table or its id. A ``Table`` whose ``first_read`` is set (a row of
    ``READ_COLUMNS``, as ``tabletop.seats.seat_with_table`` and ``seats_at_code`` load it with
    the seat) is decided on that row first, no read of its own; ``run_command`` clears it.
    ``seat``: the acting seat (must belong to the table) or None for the kit/host tools.
    Kit commands: ``table.start`` (host only, in the lobby), ``table.undo``, ``table.redo``.
    Raises ``RuleViolation``, ``Conflict``, ``NotAllowed``, ``NotFound``.
    """
    table_id = table.pk if isinstance(table, Table) else table
    if seat is not None and seat.table_id != table_id:
        raise NotAllowed("not_your_table", "That seat is not at this table.")
    _check_command_shape(command, idempotency_key)
    seat_number = seat.number if seat is not None else None
    offered = None
    if isinstance(table, Table):
        offered, table.first_read = table.first_read, None
    fresh = False
    for _try in range(MAX_TRIES):
        try:
            outcome = _attempt(table_id, seat, command, expected_version, idempotency_key,
                               offered, fresh=fresh)
            offered = None
        except _RefusedOnCopy:
            # Refused on this process's copy of the table (SNAPSHOTS, or a row read before
            # the command came): another process may have moved the table since, and a
            # refusal must be decided on the committed state. Read it and decide again.
            SNAPSHOTS.drop(table_id)
            offered, fresh = None, True
            continue
        except TabletopError as exc:
            if idempotency_key and getattr(exc, "code", "") != "idempotency_key_reused":
                replay = _replayed(table_id, seat_number, command, idempotency_key)
                if replay is not None:
                    return replay
            raise
        except IntegrityError as exc:
            replay = (
                _replayed(table_id, seat_number, command, idempotency_key)
                if idempotency_key else None
            )
            if replay is not None:
                return replay
            raise Conflict(
                "stale_version", "Someone else acted at the same moment; try again."
            ) from exc
        if outcome is None:
            # Another command committed between the read and the write (another process's,
            # when the read was this process's cached snapshot): read the table next time.
            SNAPSHOTS.drop(table_id)
            continue
        result, committed, row = outcome
        if isinstance(table, Table):
            # The caller's copy now shows what was committed (the answer's view needs no read).
            (table.state, table.meta, table.version, table.status, table.setup,
             table.updated_at) = committed
        notify_table(table_id, result.version, seat=seat_number, row=row)
        return result
    raise Conflict("stale_version", "The table is busy: try again.")


#: How many times ``run_command`` reads and decides again when other commands keep committing
#: between its read and its write.
MAX_TRIES = 20
#: Commands decided under the table's row lock: the seats they read must not change meanwhile.
LOCKED_COMMANDS = frozenset({"table.start"})

#: The columns of a table ``run_command`` reads (``Table.first_read`` is a row of them).
READ_COLUMNS = ("code", "ruleset", "status", "version", "state", "meta", "options", "setup")
_READ_SQL = (
    "SELECT " + ", ".join(f'"{c}"' for c in READ_COLUMNS) + ' FROM "tabletop_table" WHERE "id" = %s'
)
_EVENT_COLUMNS = ("version", "type", "data", "seat", "command_id", "command_type",
                  "idempotency_key", "final", "tape", "created_at")
_EVENT_ROW = ("(%s::integer, %s::varchar, %s::jsonb, %s::smallint, %s::integer, %s::varchar, "
              "%s::varchar, %s::boolean, %s::jsonb, %s::timestamptz)")


@dataclass
class _Snapshot:
    """The table as one read saw it (JSON decoded afresh: the step may fold it in place).
    ``updated_at``: set when it came from ``SNAPSHOTS`` (the write is then guarded by it too)."""

    id: int
    code: str
    ruleset: str
    status: str
    version: int
    state: object
    meta: dict
    options: dict
    setup: dict
    updated_at: object = None


class SnapshotCache:
    """Each process's last committed projection of its most recently written tables (docs/architecture.md
    "The live path": a command decided on it needs no read of the table, so an append is one statement).

    What it holds is never trusted, only tried: a command decided on a cached snapshot is
    written only if the table's row still has the cached ``version`` *and* ``updated_at`` (the
    time of the write that made it, to the microsecond; every change of a table row sets it:
    a command, a seat joining or moving, the lobby's options). When another process (another
    web server, a Celery worker) or a transaction that was rolled back moved the table, the
    guarded write changes nothing, the entry is dropped and the command is read and decided
    again, as for any lost race (``run_command``). The eventsourcing library's aggregate cache
    is the same idea with the same guard (its version check on insert).

    ``put`` stores ``state`` and ``meta`` as the JSON text just written, decoded afresh by each
    ``get`` (the step folds states in place); ``options`` and ``setup`` are fixed once the
    table has started and are shared read-only (only ``table.start`` reads ``setup``, and it
    always reads the table under its row lock). Tables in the lobby are not kept. At most
    ``size`` tables (least recently written dropped first; ``TABLETOP_SNAPSHOT_CACHE``, 0: off).
    Thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._rows: OrderedDict[int, tuple] = OrderedDict()

    def get(self, table_id: int) -> _Snapshot | None:
        """A fresh ``_Snapshot`` of the cached row of ``table_id``, or None."""
        with self._lock:
            row = self._rows.get(table_id)
        if row is None:
            return None
        code, ruleset, status, version, state, meta, options, setup, updated_at = row
        return _Snapshot(table_id, code, ruleset, status, version, jsontext.loads(state),
                         jsontext.loads(meta), options, setup, updated_at)

    def put(self, new: _Snapshot, row: dict, updated_at) -> None:
        """Keep ``new`` (just written: ``row`` its JSON text, ``updated_at`` its time)."""
        if self.size <= 0 or new.status == Table.Status.LOBBY:
            return
        entry = (new.code, new.ruleset, new.status, new.version, row["state"], row["meta"],
                 new.options, new.setup, updated_at)
        with self._lock:
            self._rows[new.id] = entry
            self._rows.move_to_end(new.id)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def drop(self, table_id: int) -> None:
        with self._lock:
            self._rows.pop(table_id, None)


#: This process's ``SnapshotCache``.
SNAPSHOTS = SnapshotCache(getattr(settings, "TABLETOP_SNAPSHOT_CACHE", 256))


def _json(value):
    return jsontext.loads(value) if isinstance(value, (str, bytes, bytearray)) else value


def _read(table_id: int, *, lock: bool = False) -> _Snapshot:
    sql = _READ_SQL + (" FOR UPDATE" if lock and connection.features.has_select_for_update else "")
    with prepared.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist(f"No table {table_id}.")
    return _snapshot(table_id, row)


def _snapshot(table_id: int, row) -> _Snapshot:
    code, ruleset, status, version, state, meta, options, setup = row
    return _Snapshot(table_id, code, ruleset, status, version, _json(state), _json(meta) or {},
                     _json(options) or {}, _json(setup) or {})


class _RefusedOnCopy(Exception):  # noqa: N818 - a signal inside run_command, never raised out
    """A command was refused on a copy of the table that may be older than the committed
    row (``SNAPSHOTS`` or ``Table.first_read``): ``run_command`` reads the table and decides again."""


def _attempt(table_id, seat, command, expected_version, idempotency_key, offered=None, *,
             fresh=False):
    """One read, decide and write: ``(CommandResult, committed fields)``, or None when the
    table moved on between the read and the write. ``offered``: a row already read (``Table.first_read``);
    ``fresh``: read the table (neither ``offered`` nor ``SNAPSHOTS``). A refusal decided on a
    copy raises ``_RefusedOnCopy`` (a command is never refused on state older than the
    table's committed version: the copy may be another process's past)."""
    if command.type in LOCKED_COMMANDS:
        with transaction.atomic():
            snapshot = _read(table_id, lock=True)
            return _decide_and_write(snapshot, seat, command, expected_version, idempotency_key,
                                     atomic=False)
    snapshot = None
    if fresh:
        pass
    elif offered is not None:
        snapshot = _snapshot(table_id, offered)
        if expected_version is not None and expected_version != snapshot.version:
            return None  # the row offered may be older than what the phone saw: read it
    else:
        snapshot = SNAPSHOTS.get(table_id)
        if snapshot is not None and expected_version not in (None, snapshot.version):
            snapshot = None  # the phone may have seen a newer version than this process
    if snapshot is None:
        return _decide_and_write(_read(table_id), seat, command, expected_version,
                                 idempotency_key, atomic=True)
    try:
        return _decide_and_write(snapshot, seat, command, expected_version, idempotency_key,
                                 atomic=True)
    except TabletopError as exc:
        raise _RefusedOnCopy() from exc


def _decide_and_write(snapshot, seat, command, expected_version, idempotency_key, *, atomic):
    game = get_ruleset(snapshot.ruleset)
    if expected_version is not None and expected_version != snapshot.version and not (
        expected_version < snapshot.version and game.rebase_ok(command.type)
    ):
        raise Conflict(
            "stale_version",
            "Someone acted just before you: look, then tap again.",
        )
    seed = settings.TABLETOP_RNG_SEED
    dice_seed = f"{seed}:{snapshot.id}:{snapshot.version}" if seed not in (None, "") else None
    seats = ()
    setup_changed = False
    if command.type == "table.start":
        seats = tuple(
            SeatInfo(number, name)
            for number, name in Seat.objects.filter(table_id=snapshot.id)
            .order_by("number").values_list("number", "name")
        )
        provider = content_provider(game.name)
        if not snapshot.setup and provider is not None and snapshot.status == Table.Status.LOBBY:
            # The game's setup reads no database: gather its content now and keep it.
            snapshot.setup = json.loads(json.dumps(provider(dict(snapshot.options))))
            setup_changed = True
    stepped = step(
        game,
        state=game.load(snapshot.state) if snapshot.state is not None else game.initial_state(),
        meta=Meta.load(snapshot.meta),
        status=snapshot.status,
        version=snapshot.version,
        seat=seat.number if seat is not None else None,
        command=command,
        dice_for=lambda tape: make_dice(dice_seed, tape),
        history=lambda: load_log(snapshot.id, upto=snapshot.version),
        seats=seats,
        options=dict(snapshot.options),
        content=snapshot.setup or None,
        seat_names=dict(Seat.objects.filter(table_id=snapshot.id).values_list("number", "name"))
        if getattr(game, "undo_own_only", False) else None,
    )
    logged = stepped.events
    new = _Snapshot(snapshot.id, snapshot.code, snapshot.ruleset, stepped.status,
                    logged[-1].version, game.dump(stepped.state), stepped.meta.dump(),
                    snapshot.options, snapshot.setup)
    guard = snapshot.updated_at  # a cached snapshot: the row must still be the one it cached
    now = timezone.now()
    receivers = (command_applied.has_listeners(sender=game_sender(game.name))
                 and applied_wanted(game.name, logged))
    db = connections[DEFAULT_DB_ALIAS]  # this thread's connection, looked up once
    # One statement is its own transaction; anything more (a receiver, SQLite's two
    # statements, a savepoint inside a caller's transaction) gets one around it.
    one_statement = not receivers and not db.in_atomic_block and db.vendor == "postgresql"
    # The projection as the JSON text stored, and as the fan-out gets it (``notify_table``).
    row = {"since": snapshot.version, "version": new.version, "status": new.status,
           "state": jsontext.dumps_kept(new.state), "meta": jsontext.dumps(new.meta),
           "updated_at": now.isoformat(),
           # the events appended, for the live region's newest log lines (``tabletop.live``'s
           # tails: the fan-out reads none)
           "events": [jsontext.dumps([e.version, e.type, e.data, e.seat, e.command_id,
                                      e.command_type, bool(e.final)]) for e in logged]}
    if setup_changed:
        row["setup"] = jsontext.dumps(new.setup)
    with transaction.atomic() if atomic and not one_statement else nullcontext():
        if not _write(snapshot.version, new, logged, idempotency_key, row, now, guard, db):
            return None
        _tell_receivers(game, new, stepped.state, logged, receivers)
    SNAPSHOTS.put(new, row, now)
    result = CommandResult(
        version=new.version,
        command_id=stepped.command_id,
        events=[{"version": e.version, "type": e.type} for e in logged],
    )
    return result, (new.state, new.meta, new.version, new.status, new.setup, now), row


def _tell_receivers(game, new: _Snapshot, state, logged, receivers: bool) -> None:
    if not receivers:
        return
    table = Table(id=new.id, code=new.code, ruleset=new.ruleset, status=new.status,
                  version=new.version, state=new.state, meta=new.meta, options=new.options,
                  setup=new.setup)
    command_applied.send(sender=game_sender(game.name), table=table, state=state, events=logged)


def _write(expected: int, new: _Snapshot, logged, idempotency_key, row: dict, now,
           guard=None, db=None) -> bool:
    """Append ``logged`` and store ``new`` as the projection, only if the table is still at
    version ``expected`` (and, with ``guard``, was last written at that time: a snapshot from
    ``SNAPSHOTS``): True when written, False when another command got there first.
    ``row``: ``new``'s state, meta (and setup when it changed) as JSON text; ``db``: the
    connection (the default one when None)."""
    db = connections[DEFAULT_DB_ALIAS] if db is None else db
    setup_changed = "setup" in row
    rows = [
        (e.version, e.type, jsontext.dumps(e.data), e.seat, e.command_id, e.command_type,
         idempotency_key if i == 0 else None, e.final,
         None if e.tape is None else jsontext.dumps(e.tape), now)
        for i, e in enumerate(logged)
    ]
    if db.vendor == "postgresql":
        sets = ['"state" = %s::jsonb', '"meta" = %s::jsonb', '"version" = %s', '"status" = %s',
                '"updated_at" = %s']
        params: list = [row["state"], row["meta"], new.version, new.status, now]
        if setup_changed:
            sets.append('"setup" = %s::jsonb')
            params.append(row["setup"])
        params += [new.id, expected]
        where = '"id" = %s AND "version" = %s'
        if guard is not None:
            where += ' AND "updated_at" = %s'
            params.append(guard)
        for row in rows:
            params.extend(row)
        sql = (
            f'WITH "moved" AS (UPDATE "tabletop_table" SET {", ".join(sets)} '
            f'WHERE {where} RETURNING "id") '
            'INSERT INTO "tabletop_event" ("table_id", '
            + ", ".join(f'"{c}"' for c in _EVENT_COLUMNS)
            + ') SELECT "moved"."id", e.* FROM "moved", (VALUES '
            + ", ".join([_EVENT_ROW] * len(rows))
            + ") AS e (" + ", ".join(f'"{c}"' for c in _EVENT_COLUMNS) + ")"
        )
        with prepared.cursor(db) as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount > 0
    fields = {"state": new.state, "meta": new.meta, "version": new.version,
              "status": new.status, "updated_at": now}
    if setup_changed:
        fields["setup"] = new.setup
    found = Table.objects.filter(pk=new.id, version=expected)
    if guard is not None:
        found = found.filter(updated_at=guard)
    if not found.update(**fields):
        return False
    Event.objects.bulk_create(
        [
            Event(table_id=new.id, version=e.version, type=e.type, data=e.data, seat=e.seat,
                  command_id=e.command_id, command_type=e.command_type, final=e.final,
                  tape=e.tape, idempotency_key=idempotency_key if i == 0 else None,
                  created_at=now)
            for i, e in enumerate(logged)
        ]
    )
    return True


def _replayed(table_id, seat_number, command, idempotency_key) -> CommandResult | None:
    """The first result of the command sent with ``idempotency_key``, or None (a new key).
    Raises ``Conflict("idempotency_key_reused")`` when the key came with another command.
    Outside a transaction a dead connection gets one retry on a fresh one: the command it
    answers for has committed (docs/architecture.md: committed work never answers 500)."""
    if connection.in_atomic_block:
        return _first_result(table_id, seat_number, command, idempotency_key)
    try:
        return _first_result(table_id, seat_number, command, idempotency_key)
    except DatabaseError:
        log.warning("Reading the first result of a repeated tap failed; trying again.")
        connection.close()
        return _first_result(table_id, seat_number, command, idempotency_key)


def _first_result(table_id, seat_number, command, idempotency_key) -> CommandResult | None:
    first = Event.objects.filter(table_id=table_id, idempotency_key=idempotency_key).first()
    if first is None:
        return None
    if first.seat != seat_number or first.command_type != command.type:
        raise Conflict(
            "idempotency_key_reused", "That request id was already used for another command."
        )
    events = Event.objects.filter(table_id=table_id, command_id=first.command_id)
    version = Table.objects.values_list("version", flat=True).get(pk=table_id)
    return CommandResult(
        version=version,
        command_id=first.command_id,
        replayed=True,
        events=[{"version": e.version, "type": e.type} for e in events.order_by("version")],
    )


def load_log(table: Table | int, *, upto: int | None = None) -> list[LoggedEvent]:
    """The table's whole log, oldest first, as pure ``LoggedEvent`` records; ``upto``: only
    the events up to that version (the log a command's read saw: events committed after it
    must not mix into its decision, whose write the version guard refuses anyway)."""
    table_id = table.pk if isinstance(table, Table) else table
    events = Event.objects.filter(table_id=table_id)
    if upto is not None:
        events = events.filter(version__lte=upto)
    return [e.logged() for e in events.order_by("version")]


def table_replay(table: Table) -> dict:
    """Rebuild ``table`` from its events and compare with the stored projection.

    Returns ``{"version", "events", "state_matches", "meta_matches", "state"}``; writes nothing.
    """
    game = get_ruleset(table.ruleset)
    events = load_log(table)
    state, meta = rebuild(game, events)
    dumped = json.loads(json.dumps(game.dump(state))) if events else None
    stored = json.loads(json.dumps(table.state)) if table.state is not None else None
    last = events[-1].version if events else 0
    return {
        "version": table.version,
        "events": len(events),
        "last_event_version": last,
        "state_matches": dumped == stored and last == table.version,
        "meta_matches": json.loads(json.dumps(meta.dump())) == (table.meta or Meta().dump()),
        "state": dumped,
    }


def notify_table(
    table_id: int, version: int, lobby: bool = False, seat: int | None = None,
    row: dict | None = None,
) -> None:
    """Tell the table's Channels group its new version, after commit (inside a transaction:
    on its commit; outside: now). ``lobby``: the seats or options changed without a new event,
    so every phone re-renders anyway; ``seat``: the number of the seat that acted (its phone
    is answered already, so the other phones are rendered first); ``row``: what the command
    committed, ``{"since": <version it was written over>, "version", "status", "state" and
    "meta" (JSON text), "updated_at" (ISO 8601), "events" (each event appended as the JSON
    text of ``[version, type, data, seat, command_id, command_type, final]``), and "setup"
    (JSON text) when it changed}``, so the fan-out renders it without reading the table or
    its newest events (``tabletop.fanout``). Costs
    microseconds and never waits for Redis: the long-lived ``tabletop.publisher`` sends it (a
    broken channel layer is logged, never raised).
    """
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: publish(table_id, version, lobby, seat, row))
    else:
        publish(table_id, version, lobby, seat, row)


def _clean_name(name: str) -> str:
    return clean_name(name)  # tabletop.names: NFKC, no invisible characters, 1..MAX_NAME


def _clean_options(game, options: dict) -> dict:
    schema = getattr(game, "options_schema", {}) or {}
    chosen = {}
    for key, spec in schema.items():
        value = options.get(key, spec.get("default"))
        choices = [c[0] for c in spec.get("choices", [])]
        if choices and value not in choices:
            raise RuleViolation("bad_option", f"{spec.get('label', key)}: choose one of {choices}.")
        chosen[key] = value
    unknown = set(options) - set(schema)
    if unknown:
        raise RuleViolation("bad_option", f"Unknown option{'s' if len(unknown) != 1 else ''}: {', '.join(sorted(unknown))}.")
    return chosen


#: Text JSON carries but PostgreSQL's jsonb and text refuse (the write would be a 500).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _holds_unstorable_text(value) -> bool:
    """True when a string (a key or a value) anywhere in ``value`` holds ``_UNSTORABLE``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _UNSTORABLE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def _check_command_shape(command: Command, idempotency_key: str | None) -> None:
    if not isinstance(command.type, str) or not command.type or len(command.type) > 80:
        raise RuleViolation("bad_command", "A command needs a type (a short string).")
    if not isinstance(command.data, dict):
        raise RuleViolation("bad_command", "A command's data must be an object.")
    if len(json.dumps(command.data)) > settings.TABLETOP_MAX_COMMAND_BYTES:
        raise RuleViolation("too_large", "That command is too large.")
    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 80
        or _UNSTORABLE.search(idempotency_key)
    ):
        raise RuleViolation("bad_idempotency_key", "The request id must be 1-80 characters.")
    if _holds_unstorable_text(command.data):
        raise RuleViolation(
            "bad_command", "The command holds a character that cannot be stored (NUL or a lone "
            "UTF-16 surrogate)."
        )
    if command.type.startswith("table.") and command.type not in KIT_COMMANDS:
        raise RuleViolation("unknown_command", f"Unknown command {command.type!r}.")

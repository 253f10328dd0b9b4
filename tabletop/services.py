"""The kit's write path: creating and joining tables and ``run_command`` (DESIGN.md).

``run_command`` is the only way a game changes: the htmx views, the JSON API, the websocket
consumer and the tests all call it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction

from tabletop.dice import make_dice
from tabletop.errors import Conflict, NotAllowed, NotFound, RuleViolation
from tabletop.log import KIT_COMMANDS, LoggedEvent, Meta, narrated, rebuild, recent_lines, step
from tabletop.models import Event, Seat, Table, new_join_code
from tabletop.names import clean_name, names_clash
from tabletop.publisher import publish
from tabletop.registry import content_provider, event_label, get_ruleset
from tabletop.rules import Command, SeatInfo
from tabletop.signals import command_applied

log = logging.getLogger(__name__)

MAX_SEAT_NAME = 40
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
            title=title[:80] or game.title,
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
    """Decide and append one command, in one transaction (DESIGN.md, the one write path).

    Loads the table under a row lock, returns the first result if ``idempotency_key`` was seen
    (appending nothing), checks ``expected_version`` (stale: ``Conflict("stale_version")``),
    asks the ruleset to decide, appends the events (unique ``(table, version)`` as the last
    guard), and updates the projection. After commit the table's group is told the new version.

    ``seat``: the acting seat (must belong to the table) or None for the kit/host tools.
    Kit commands: ``table.start`` (host only, in the lobby), ``table.undo``, ``table.redo``.
    Raises ``RuleViolation``, ``Conflict``, ``NotAllowed``.
    """
    table_id = table.pk if isinstance(table, Table) else table
    if seat is not None and seat.table_id != table_id:
        raise NotAllowed("not_your_table", "That seat is not at this table.")
    _check_command_shape(command, idempotency_key)
    try:
        with transaction.atomic():
            result, version, committed = _run_locked(
                table_id, seat, command, expected_version, idempotency_key
            )
    except IntegrityError as exc:
        raise Conflict(
            "stale_version", "Someone else acted at the same moment; try again."
        ) from exc
    if not result.replayed:
        # run_command's transaction has committed here
        if isinstance(table, Table):
            # The caller's copy now shows what was committed (the answer's view needs no read).
            table.state, table.meta, table.version, table.status = committed
        notify_table(table_id, version, seat=seat.number if seat is not None else None)
    return result


def _run_locked(table_id, seat, command, expected_version, idempotency_key):
    table = Table.objects.select_for_update().get(pk=table_id)
    seat_number = seat.number if seat is not None else None
    if idempotency_key:
        first = table.events.filter(idempotency_key=idempotency_key).first()
        if first is not None:
            if first.seat != seat_number or first.command_type != command.type:
                raise Conflict(
                    "idempotency_key_reused",
                    "That request id was already used for another command.",
                )
            events = table.events.filter(command_id=first.command_id).order_by("version")
            return CommandResult(
                version=table.version,
                command_id=first.command_id,
                replayed=True,
                events=[{"version": e.version, "type": e.type} for e in events],
            ), table.version, None
    if expected_version is not None and expected_version != table.version:
        raise Conflict(
            "stale_version",
            f"The table moved on (version {table.version}, you saw {expected_version}).",
        )
    game = get_ruleset(table.ruleset)
    seed = settings.TABLETOP_RNG_SEED
    dice_seed = f"{seed}:{table.pk}:{table.version}" if seed not in (None, "") else None
    seats = ()
    if command.type == "table.start":
        seats = tuple(SeatInfo(s.number, s.name) for s in table.seats.order_by("number"))
        provider = content_provider(game.name)
        if not table.setup and provider is not None and table.status == Table.Status.LOBBY:
            # The game's setup reads no database: gather its content now and keep it.
            table.setup = json.loads(json.dumps(provider(dict(table.options))))
            table.save(update_fields=["setup"])
    stepped = step(
        game,
        state=game.load(table.state) if table.state is not None else game.initial_state(),
        meta=Meta.load(table.meta),
        status=table.status,
        version=table.version,
        seat=seat_number,
        command=command,
        dice_for=lambda tape: make_dice(dice_seed, tape),
        history=lambda: load_log(table),
        seats=seats,
        options=dict(table.options),
        content=table.setup or None,
        seat_names=dict(table.seats.values_list("number", "name"))
        if getattr(game, "undo_own_only", False) else None,
    )
    logged = stepped.events
    Event.objects.bulk_create(
        [
            Event(
                table=table,
                version=e.version,
                type=e.type,
                data=e.data,
                seat=e.seat,
                command_id=e.command_id,
                command_type=e.command_type,
                final=e.final,
                tape=e.tape,
                idempotency_key=idempotency_key if i == 0 else None,
            )
            for i, e in enumerate(logged)
        ]
    )
    table.state = game.dump(stepped.state)
    table.meta = stepped.meta.dump()
    table.version = logged[-1].version
    table.status = stepped.status
    table.save(update_fields=["state", "meta", "version", "status", "updated_at"])
    command_applied.send(sender=game.name, table=table, state=stepped.state, events=logged)
    return CommandResult(
        version=table.version,
        command_id=stepped.command_id,
        events=[{"version": e.version, "type": e.type} for e in logged],
    ), table.version, (table.state, table.meta, table.version, table.status)


def load_log(table: Table) -> list[LoggedEvent]:
    """The table's whole log, oldest first, as pure ``LoggedEvent`` records."""
    return [e.logged() for e in table.events.order_by("version")]


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


def log_lines(table: Table, *, limit: int | None = None, recent: bool = False) -> list[dict]:
    """The table's log in words, newest first: ``[{"version", "seat", "who", "text",
    "undone", "time"}]``. ``text`` is the game's narration of the event (``Ruleset.narrate``)
    or, when it has none, ``"<who> <label>"``. ``recent``: only the newest ``limit`` events,
    narrated against the current state (cheap, for the live region); otherwise the whole log
    is replayed once and each event narrated against the state just before it (the log page,
    the battle report). Event data never leaves this function (it may hold secrets)."""
    game = get_ruleset(table.ruleset)
    names = {s.number: s.name for s in table.seats.all()}
    rows = table.events.order_by("-version")
    if recent:
        rows = list(rows[: (limit or 8) * 2])[::-1]
        logged = [e.logged() for e in rows]
        undone = set((table.meta or {}).get("undone", []))
        state = game.load(table.state) if table.state is not None else game.initial_state()
        lines = recent_lines(game, state, logged, undone)
    else:
        rows = list(rows)[::-1]
        lines = narrated(game, [e.logged() for e in rows])
    times = {e.version: e.created_at for e in rows}
    out = []
    for line in reversed(lines):
        who = names.get(line.subject, "The table")
        out.append(
            {
                "version": line.version,
                "seat": line.seat,
                "who": who,
                "text": line.text or f"{who} {event_label(game, line.type)}",
                "narrated": line.text is not None,
                "label": event_label(game, line.type),
                "undone": line.undone,
                "time": times.get(line.version),
            }
        )
        if limit and len(out) >= limit:
            break
    return out


def seat_view(table: Table, seat: Seat | None) -> dict:
    """The view of ``seat`` (None: spectator) from the stored projection; ``{}`` in the lobby."""
    if table.state is None:
        return {}
    game = get_ruleset(table.ruleset)
    return game.view(game.load(table.state), seat.number if seat is not None else None)


def notify_table(
    table_id: int, version: int, lobby: bool = False, seat: int | None = None
) -> None:
    """Tell the table's Channels group its new version, after commit (inside a transaction:
    on its commit; outside: now). ``lobby``: the seats or options changed without a new event,
    so every phone re-renders anyway; ``seat``: the number of the seat that acted (its phone
    is answered already, so the other phones are rendered first). Costs microseconds and never waits for Redis: the
    long-lived ``tabletop.publisher`` sends it (a broken channel layer is logged, never raised).
    """
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: publish(table_id, version, lobby, seat))
    else:
        publish(table_id, version, lobby, seat)


def _clean_name(name: str) -> str:
    return clean_name(name)  # tabletop.names: NFKC, no invisible characters, 1..40


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
        raise RuleViolation("bad_option", f"Unknown option(s): {', '.join(sorted(unknown))}.")
    return chosen


def _check_command_shape(command: Command, idempotency_key: str | None) -> None:
    if not isinstance(command.type, str) or not command.type or len(command.type) > 80:
        raise RuleViolation("bad_command", "A command needs a type (a short string).")
    if not isinstance(command.data, dict):
        raise RuleViolation("bad_command", "A command's data must be an object.")
    if len(json.dumps(command.data)) > settings.TABLETOP_MAX_COMMAND_BYTES:
        raise RuleViolation("too_large", "That command is too large.")
    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 80
    ):
        raise RuleViolation("bad_idempotency_key", "The request id must be 1-80 characters.")
    if command.type.startswith("table.") and command.type not in KIT_COMMANDS:
        raise RuleViolation("unknown_command", f"Unknown command {command.type!r}.")

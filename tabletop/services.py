"""The kit's write path: creating and joining tables and ``run_command`` (DESIGN.md).

``run_command`` is the only way a game changes: the htmx views, the JSON API, the websocket
consumer and the tests all call it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError, transaction

from tabletop.dice import make_dice
from tabletop.errors import Conflict, NotAllowed, RuleViolation
from tabletop.log import (
    KIT_COMMANDS,
    REDO_EVENT,
    START_EVENT,
    UNDO_EVENT,
    LoggedEvent,
    Meta,
    apply_command,
    rebuild,
    tape_key,
)
from tabletop.models import Event, Seat, Table, new_join_code
from tabletop.registry import get_ruleset
from tabletop.rules import Command, NewEvent, SeatInfo

log = logging.getLogger(__name__)

MAX_SEAT_NAME = 40


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
    *, ruleset: str, host=None, host_name: str, title: str = "", options: dict | None = None
) -> tuple[Table, Seat]:
    """Open a table in the lobby with its host in seat 0.

    ``ruleset``: a registered name; ``options``: checked against ``options_schema`` (unknown
    keys or values are a ``RuleViolation("bad_option")``), defaults filled in.
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
        if locked.seats.filter(name__iexact=clean).exists():
            raise RuleViolation("name_taken", f"Someone at this table is already called {clean}.")
        seat = Seat.objects.create(
            table=locked, number=count, name=clean, user=user if authenticated else None
        )
        locked.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: notify_table(locked.pk, locked.version, lobby=True))
    return seat


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
            result, version = _run_locked(
                table_id, seat, command, expected_version, idempotency_key
            )
    except IntegrityError as exc:
        raise Conflict(
            "stale_version", "Someone else acted at the same moment; try again."
        ) from exc
    if not result.replayed:
        notify_table(table_id, version)  # run_command's transaction has committed here
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
            ), table.version
    if expected_version is not None and expected_version != table.version:
        raise Conflict(
            "stale_version",
            f"The table moved on (version {table.version}, you saw {expected_version}).",
        )
    game = get_ruleset(table.ruleset)
    meta = Meta.load(table.meta)
    seed = settings.TABLETOP_RNG_SEED
    dice_seed = f"{seed}:{table.pk}:{table.version}" if seed not in (None, "") else None

    if command.type == "table.start":
        new_events, state = _start(table, game, seat, dice_seed)
        dice_tape = None
    elif command.type in ("table.undo", "table.redo"):
        if table.status == Table.Status.LOBBY:
            raise RuleViolation("not_started", "The game has not started yet.")
        if seat is None:
            raise NotAllowed("not_seated", "Only a player at the table can undo.")
        new_events = [_undo_event(meta) if command.type == "table.undo" else _redo_event(meta)]
        _check_undo_owner(game, meta, new_events[0].data["command"], seat)
        state, dice_tape = None, None
    else:
        _require_playing(table)
        replay = meta.tapes.get(tape_key(seat_number, command.type))
        dice = make_dice(dice_seed, replay)
        state = game.load(table.state)
        new_events = game.decide(state, command, seat_number, dice)
        if not new_events:
            raise RuleViolation("nothing_happened", "That changes nothing.")
        dice_tape = dice.tape

    cid = table.version + 1
    logged = []
    for offset, ev in enumerate(new_events):
        version = table.version + 1 + offset
        logged.append(
            LoggedEvent(
                version=version,
                type=ev.type,
                data=ev.data,
                seat=seat_number,
                command_id=cid,
                command_type=command.type,
                final=ev.final,
                tape=dice_tape if offset == 0 else None,
            )
        )
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
    meta = apply_command(meta, logged)
    if command.type in ("table.undo", "table.redo"):
        state, _ = rebuild(game, load_log(table))
    else:
        for e in logged:
            if e.type != START_EVENT:
                state = game.evolve(state, e.record())
    table.state = game.dump(state)
    table.meta = meta.dump()
    table.version = logged[-1].version
    if table.status == Table.Status.LOBBY and command.type == "table.start":
        table.status = Table.Status.PLAYING
    if table.status != Table.Status.LOBBY and getattr(game, "is_finished", None):
        # Undoing the last move of a finished game reopens it.
        finished = game.is_finished(state)
        table.status = Table.Status.FINISHED if finished else Table.Status.PLAYING
    table.save(update_fields=["state", "meta", "version", "status", "updated_at"])
    return CommandResult(
        version=table.version,
        command_id=cid,
        events=[{"version": e.version, "type": e.type} for e in logged],
    ), table.version


def _start(table: Table, game, seat: Seat | None, dice_seed) -> tuple[list[NewEvent], object]:
    if table.status != Table.Status.LOBBY:
        raise RuleViolation("already_started", "The game has already started.")
    if seat is not None and seat.number != 0:
        raise NotAllowed("host_only", "Only the host (seat 1) can start the game.")
    seats = tuple(SeatInfo(s.number, s.name) for s in table.seats.order_by("number"))
    if len(seats) < game.min_seats:
        raise RuleViolation(
            "not_enough_players", f"{game.title} needs at least {game.min_seats} players."
        )
    dice = make_dice(dice_seed)
    opening = game.setup(dict(table.options), seats, dice)
    start = NewEvent(
        START_EVENT,
        {
            "seats": [[s.number, s.name] for s in seats],
            "options": table.options,
            "ruleset": game.name,
        },
    )
    return [start, *opening], game.initial_state()


def _check_undo_owner(game, meta: Meta, target: int, seat: Seat) -> None:
    """With ``Ruleset.undo_own_only`` (simultaneous play), only the seat that sent a command
    may undo or redo it; otherwise anyone at the table may (shared bookkeeping)."""
    if not getattr(game, "undo_own_only", False):
        return
    owner = meta.commands.get(str(target), [None])[0]
    if owner is not None and owner != seat.number:
        name = seat.table.seats.filter(number=owner).values_list("name", flat=True).first()
        raise NotAllowed("not_your_action",
                         f"The last action is {name or 'another player'}'s: only they can undo it.")


def _undo_event(meta: Meta) -> NewEvent:
    if not meta.undo:
        raise RuleViolation(
            "nothing_to_undo",
            "Nothing to undo (the last action showed hidden information or started the game).",
        )
    target = meta.undo[-1]
    return NewEvent(UNDO_EVENT, {"command": target})


def _redo_event(meta: Meta) -> NewEvent:
    if not meta.redo:
        raise RuleViolation("nothing_to_redo", "Nothing to redo.")
    return NewEvent(REDO_EVENT, {"command": meta.redo[-1]})


def _require_playing(table: Table) -> None:
    if table.status == Table.Status.LOBBY:
        raise RuleViolation("not_started", "The game has not started yet.")
    if table.status == Table.Status.FINISHED:
        raise RuleViolation("game_over", "This game is over.")


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


def seat_view(table: Table, seat: Seat | None) -> dict:
    """The view of ``seat`` (None: spectator) from the stored projection; ``{}`` in the lobby."""
    if table.state is None:
        return {}
    game = get_ruleset(table.ruleset)
    return game.view(game.load(table.state), seat.number if seat is not None else None)


def notify_table(table_id: int, version: int, lobby: bool = False) -> None:
    """Tell the table's Channels group its new version (call after commit). ``lobby``: the
    seats or options changed without a new event, so every phone re-renders anyway."""

    def send():
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(
                f"table.{table_id}", {"type": "table.updated", "version": version, "lobby": lobby}
            )
        except Exception:  # a broken channel layer must never undo a committed command
            log.exception("could not notify table %s", table_id)

    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(send)
    else:
        send()


def _clean_name(name: str) -> str:
    clean = " ".join(str(name or "").split())
    if not clean:
        raise RuleViolation("bad_name", "Please give a name for your seat.")
    if len(clean) > MAX_SEAT_NAME:
        raise RuleViolation("bad_name", f"Names are at most {MAX_SEAT_NAME} characters.")
    return clean


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

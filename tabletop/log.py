"""Folding a table's log: the game state and the kit's undo bookkeeping. Pure (no Django).

Commands are the unit of undo: all events one command appended share its ``command_id``.
The kit's own commands are ``table.start``, ``table.undo`` and ``table.redo``, and
``table.seat.handover`` (sent by the server only, never a seat: a seat the host took from its phone
was opened on another phone mid-game; its event ``table.seat.moved`` tells the table in the log,
whatever the game). Kit events are never folded into the game state nor narrated by the game.

Undo (docs/architecture.md): ``table.undo`` appends ``table.action.undone`` naming the last applied
command; the state is the fold of every event whose command is not undone. Only the last
not-yet-undone command can be undone, repeatedly back to the last *barrier*: ``table.start``
or a command with a ``final`` event (it showed hidden information), and at most
``UNDO_DEPTH`` (100) commands back, so the bookkeeping stays bounded over a long game. ``table.redo`` re-applies
the most recently undone command while no other command came after the undo.
When a command that drew randomness is undone, its dice tape is kept under ``"*:type"``;
the next command of that type, whichever seat sends it, is handed the tape to replay
(``tabletop.dice``), so undoing and sending the command again is never a re-roll.

``meta`` shape: ``{"undo": [command_id...], "redo": [command_id...], "undone": [command_id...],
"tapes": {"*:<type>": [[n, result]...]}}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.rules import Command, EventRecord, NewEvent, SeatInfo

#: The server's own command when a seat the host took from its phone is opened on another phone
#: mid-game (``tabletop.seats.seat_move``); its event is ``SEAT_MOVED_EVENT``.
HANDOVER_COMMAND = "table.seat.handover"
KIT_COMMANDS = frozenset({"table.start", "table.undo", "table.redo", HANDOVER_COMMAND})
#: How many commands back undo reaches (besides stopping at a barrier).
UNDO_DEPTH = 100
UNDO_EVENT = "table.action.undone"
REDO_EVENT = "table.action.redone"
START_EVENT = "table.started"
#: ``{"seat": <number>}``: the seat moved to another phone after the host took it from its old one.
SEAT_MOVED_EVENT = "table.seat.moved"
#: The kit's events: the game never folds or narrates them.
KIT_EVENTS = (START_EVENT, UNDO_EVENT, REDO_EVENT, SEAT_MOVED_EVENT)


@dataclass(frozen=True)
class LoggedEvent:
    """A stored event with its command bookkeeping (mirrors ``tabletop.models.Event``)."""

    version: int
    type: str
    data: dict
    seat: int | None
    command_id: int
    command_type: str
    final: bool = False
    tape: list | None = None

    def record(self) -> EventRecord:
        return EventRecord(type=self.type, data=self.data, seat=self.seat, version=self.version)


@dataclass
class Meta:
    undo: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    tapes: dict[str, list] = field(default_factory=dict)
    # command_id -> (seat, type, tape); kept only for commands that may still be undone/redone
    commands: dict[str, list] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict | None) -> Meta:
        data = data or {}
        return cls(
            undo=list(data.get("undo", [])),
            redo=list(data.get("redo", [])),
            undone=list(data.get("undone", [])),
            tapes=dict(data.get("tapes", {})),
            commands=dict(data.get("commands", {})),
        )

    def dump(self) -> dict:
        return {
            "undo": self.undo,
            "redo": self.redo,
            "undone": self.undone,
            "tapes": self.tapes,
            "commands": self.commands,
        }


def tape_key(seat: int | None, command_type: str) -> str:
    """The key an undone command's dice tape is kept under: its command type only, so the
    next command of that type replays the same draws *whoever* sends it (undo is never a
    re-roll, docs/architecture.md). ``seat`` is accepted for the callers' symmetry and ignored."""
    return f"*:{command_type}"


def apply_command(meta: Meta, group: list[LoggedEvent]) -> Meta:
    """The bookkeeping after one command's events (all with the same ``command_id``)."""
    first = group[0]
    cid = first.command_id
    if first.command_type == HANDOVER_COMMAND:
        return meta  # not a move of the game: nothing to undo, and a pending redo stays
    if first.command_type == "table.undo":
        target = first.data["command"]
        meta.undo = [c for c in meta.undo if c != target]
        meta.redo.append(target)
        meta.undone.append(target)
        seat, ctype, tape = meta.commands.get(str(target), [None, "", None])
        if tape:
            meta.tapes[tape_key(seat, ctype)] = tape
    elif first.command_type == "table.redo":
        target = first.data["command"]
        meta.redo = [c for c in meta.redo if c != target]
        meta.undone = [c for c in meta.undone if c != target]
        meta.undo.append(target)
        seat, ctype, _ = meta.commands.get(str(target), [None, "", None])
        meta.tapes.pop(tape_key(seat, ctype), None)
    else:
        meta.tapes.pop(tape_key(first.seat, first.command_type), None)
        for stale in meta.redo:
            meta.commands.pop(str(stale), None)
        meta.redo = []
        if first.command_type == "table.start" or any(e.final for e in group):
            meta.undo = []  # a barrier: nothing before it can be undone
            meta.commands = {}
        else:
            meta.undo.append(cid)
            meta.commands[str(cid)] = [first.seat, first.command_type, first.tape or []]
            if len(meta.undo) > UNDO_DEPTH:
                # Undo reaches back UNDO_DEPTH commands: the bookkeeping stays bounded over a
                # whole mission instead of growing with every command.
                oldest = meta.undo.pop(0)
                meta.commands.pop(str(oldest), None)
    return meta


def group_commands(events: list[LoggedEvent]) -> list[list[LoggedEvent]]:
    """Split the log into consecutive groups of one command each."""
    groups: list[list[LoggedEvent]] = []
    for event in events:
        if groups and groups[-1][0].command_id == event.command_id:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def rebuild(ruleset, events: list[LoggedEvent]) -> tuple[Any, Meta]:
    """Fold the whole log: ``(game state, meta)``. The state excludes undone commands and the
    kit's own events; the ruleset sees its events in log order (``apply``: in place)."""
    state: Any = None
    meta = Meta()
    for item in replay(ruleset, events, narrate=False):
        state, meta = item[3], item[4]
    if state is None:
        state = ruleset.initial_state()
    return state, meta


@dataclass(frozen=True)
class LogLine:
    """One line of a table's log as pages and reports show it: ``version``, acting ``seat``,
    event ``type``, ``text`` (the game's narration, or None: show the label), and whether the
    command was ``undone`` later."""

    version: int
    seat: int | None
    type: str
    command_id: int
    text: str | None
    undone: bool
    #: The seat the event is about: its data's int ``"seat"`` if any, else the acting seat.
    subject: int | None = None


def _subject(event: LoggedEvent) -> int | None:
    seat = event.data.get("seat") if isinstance(event.data, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else event.seat


def replay(
    ruleset, events: list[LoggedEvent], *, narrate: bool = True
) -> Iterator[tuple[LoggedEvent, str | None, bool, Any, Meta]]:
    """The kit's replay iterator: fold the log once, yielding for every stored event
    ``(event, line, undone, state_after, meta)``. ``line`` is the ruleset's narration of the
    event against the state just before it, given by the fold itself (``apply_narrated``; None
    when ``narrate`` is False or nothing narrates it); ``undone``: the event's command was
    undone later (it is narrated, ``narrate``, but not folded). ``state_after`` is the one working state, mutated in place: copy it to keep it.
    Pure: used by ``rebuild``, the table log, ``replay_table`` and the battle report."""
    meta = Meta()
    groups = group_commands(events)
    for group in groups:
        meta = apply_command(meta, group)
    undone = set(meta.undone)
    state = ruleset.initial_state()
    for group in groups:
        skip = group[0].command_type in ("table.undo", "table.redo") or group[0].command_id in undone
        for event in group:
            record = event.record()
            line = None
            if event.type in KIT_EVENTS:
                pass
            elif skip:
                line = ruleset.narrate(record, state) if narrate else None
            elif narrate:
                state, line = ruleset.apply_narrated(state, record)
            else:
                state = ruleset.apply(state, record)
            yield event, line, group[0].command_id in undone, state, meta


def narrated(ruleset, events: list[LoggedEvent]) -> list[LogLine]:
    """Every event of the log as a ``LogLine`` (see ``replay``)."""
    return [
        LogLine(e.version, e.seat, e.type, e.command_id, line, undone, _subject(e))
        for e, line, undone, _state, _meta in replay(ruleset, events)
    ]


def recent_lines(ruleset, state: Any, events: list[LoggedEvent], undone: set[int]) -> list[LogLine]:
    """The latest ``events`` (a tail of the log) narrated against the *current* ``state``, for
    the live view: no replay. ``undone``: the command ids undone (``Meta.undone``). A seat's
    move to another phone (``SEAT_MOVED_EVENT``) is kept with no text (its label says it)."""
    out = []
    for e in events:
        if e.type in (START_EVENT, UNDO_EVENT, REDO_EVENT):
            continue
        text = None if e.type in KIT_EVENTS else ruleset.narrate(e.record(), state)
        out.append(LogLine(e.version, e.seat, e.type, e.command_id,
                           text, e.command_id in undone, _subject(e)))
    return out


# --------------------------------------------------------------------------------------------
# The pure step: what run_command does between loading a table and saving it.

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"


@dataclass
class Stepped:
    """The outcome of ``step``: the new ``events`` (to append), the new ``state`` and ``meta``,
    the table ``status`` after it, and the ``command_id``."""

    events: list[LoggedEvent]
    state: Any
    meta: Meta
    status: str
    command_id: int


def step(
    ruleset,
    *,
    state: Any,
    meta: Meta,
    status: str,
    version: int,
    seat: int | None,
    command: Command,
    dice_for: Callable[[list | None], Any],
    history: Callable[[], list[LoggedEvent]],
    seats: tuple[SeatInfo, ...] = (),
    options: dict | None = None,
    content: dict | None = None,
    seat_names: dict[int, str] | None = None,
) -> Stepped:
    """One command through the kit, pure (docs/architecture.md "The event-sourced table").

    ``state``: the current game state, *owned by the step* (it is folded in place; pass a copy
    to keep the old one); ``meta``: the undo bookkeeping; ``status``: ``lobby``/``playing``/
    ``finished``; ``version``: the table's version; ``seat``: the acting seat number (None: the
    kit or the host tools); ``dice_for(replay_tape)``: a fresh ``Dice`` for this command (the
    tape replays an undone command's draws); ``history()``: the whole log so far (read only for
    undo and redo); ``seats``/``options``/``content``: for ``table.start`` (the ruleset's
    ``setup`` gets ``content``, the data the opening service gathered, when there is any).

    Kit commands: ``table.start`` (host only, in the lobby), ``table.undo`` and ``table.redo``
    (a seat at the table; with ``undo_own_only`` only the command's own seat),
    ``table.seat.handover`` (``{"seat": <number>}``, the server only: ``seat`` None, once the
    game has started; it changes no game state and no undo bookkeeping).
    Raises ``RuleViolation("already_started"|"not_enough_players"|"not_started"|"game_over"|
    "nothing_to_undo"|"nothing_to_redo"|"nothing_happened"|...)``, ``NotAllowed("host_only"|
    "not_your_action")``, ``NotFound("not_seated")`` and whatever the ruleset's ``decide`` raises.
    """
    dice_tape = None
    if command.type == "table.start":
        if status != LOBBY:
            raise RuleViolation("already_started", "The game has already started.")
        if seat is not None and seat != 0:
            raise NotAllowed("host_only", "Only the host (seat 1) can start the game.")
        if len(seats) < ruleset.min_seats:
            raise RuleViolation(
                "not_enough_players", f"{ruleset.title} needs at least {ruleset.min_seats} players."
            )
        dice = dice_for(None)
        extra = {"content": content} if content else {}
        opening = ruleset.setup(dict(options or {}), seats, dice, **extra)
        start = NewEvent(
            START_EVENT,
            {"seats": [[s.number, s.name] for s in seats], "options": options or {},
             "ruleset": ruleset.name},
        )
        new_events = [start, *opening]
        state = ruleset.initial_state()
    elif command.type in ("table.undo", "table.redo"):
        if status == LOBBY:
            raise RuleViolation("not_started", "The game has not started yet.")
        if seat is None:
            raise NotFound("not_seated", "Only a player at the table can undo.")
        if command.type == "table.redo":
            new_events = [redo_event(meta)]
        else:
            new_events = [undo_event(meta, "" if meta.undo else barrier_words(ruleset, history()))]
        _check_undo_owner(ruleset, meta, new_events[0].data["command"], seat, seat_names or {})
    elif command.type == HANDOVER_COMMAND:
        if seat is not None:
            raise NotAllowed("host_only", "Only the host's tools move a seat to another phone.")
        if status == LOBBY:
            raise RuleViolation("not_started", "The game has not started yet.")
        number = command.data.get("seat")
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise RuleViolation("bad_command", "A seat hand-over names the seat's number.")
        new_events = [NewEvent(SEAT_MOVED_EVENT, {"seat": number})]
    else:
        if status == LOBBY:
            raise RuleViolation("not_started", "The game has not started yet.")
        if status == FINISHED:
            raise RuleViolation("game_over", "This game is over.")
        dice = dice_for(meta.tapes.get(tape_key(seat, command.type)))
        new_events = ruleset.decide(state, command, seat, dice)
        if not new_events:
            raise RuleViolation("nothing_happened", "That changes nothing.")
        dice_tape = dice.tape

    cid = version + 1
    logged = [
        LoggedEvent(
            version=version + 1 + offset,
            type=ev.type,
            data=ev.data,
            seat=seat,
            command_id=cid,
            command_type=command.type,
            final=ev.final,
            tape=dice_tape if offset == 0 else None,
        )
        for offset, ev in enumerate(new_events)
    ]
    meta = apply_command(meta, logged)
    if command.type in ("table.undo", "table.redo"):
        state, _ = rebuild(ruleset, [*history(), *logged])
    else:
        for e in logged:
            if e.type not in KIT_EVENTS:
                state = ruleset.apply(state, e.record())
    if command.type == "table.start":
        status = PLAYING
    if status != LOBBY and getattr(ruleset, "is_finished", None):
        # Undoing the last move of a finished game reopens it.
        status = FINISHED if ruleset.is_finished(state) else PLAYING
    return Stepped(events=logged, state=state, meta=meta, status=status, command_id=cid)


def undo_event(meta: Meta, why: str = "") -> NewEvent:
    """The ``table.action.undone`` event for the last undoable command. ``why``: what stops it,
    in a few words (``barrier_words``), said in the refusal.
    Raises ``RuleViolation("nothing_to_undo")``."""
    if not meta.undo:
        if meta.redo:
            why = "everything is undone already (Redo brings it back)"
        raise RuleViolation(
            "nothing_to_undo",
            f"Nothing to undo: {why}."
            if why
            else "Nothing to undo (the last action showed hidden information or started the game).",
        )
    return NewEvent(UNDO_EVENT, {"command": meta.undo[-1]})


def barrier_words(ruleset, events: list[LoggedEvent]) -> str:
    """Why the last action of ``events`` (the table's log, oldest first) cannot be undone, in a
    few words for a refusal (docs/architecture.md "The event-sourced table"): what its final event showed, as
    ``ruleset.final_words`` names its type ("card drawn (it showed hidden information)"),
    ``"the game just started"``, or ``""`` when it says nothing (undo and redo events are
    skipped: they are not actions). A barrier that hid nothing (DemLoc's Guild brought) is said
    as ``ruleset.final_reasons`` gives it ("a Guild brought stays: only its Guild Master takes
    it out")."""
    last = next(
        (e for e in reversed(events) if e.type not in (UNDO_EVENT, REDO_EVENT, SEAT_MOVED_EVENT)),
        None,
    )
    if last is None:
        return ""
    if last.type == START_EVENT:
        return "the game just started"
    shown = [e for e in events if e.command_id == last.command_id and e.final]
    if not shown:
        return ""
    reason = (getattr(ruleset, "final_reasons", None) or {}).get(shown[-1].type)
    if reason:
        return reason
    words = (getattr(ruleset, "final_words", None) or {}).get(shown[-1].type)
    return f"{words} (it showed hidden information)" if words else ""


def redo_event(meta: Meta) -> NewEvent:
    """The ``table.action.redone`` event. Raises ``RuleViolation("nothing_to_redo")``."""
    if not meta.redo:
        raise RuleViolation("nothing_to_redo", "Nothing to redo.")
    return NewEvent(REDO_EVENT, {"command": meta.redo[-1]})


def _check_undo_owner(ruleset, meta: Meta, target: int, seat: int, names: dict[int, str]) -> None:
    """With ``Ruleset.undo_own_only`` (simultaneous play), only the seat that sent a command
    may undo or redo it; otherwise anyone at the table may (shared bookkeeping)."""
    if not getattr(ruleset, "undo_own_only", False):
        return
    owner = meta.commands.get(str(target), [None])[0]
    if owner is not None and owner != seat:
        raise NotAllowed(
            "not_your_action",
            f"The last action is {names.get(owner) or 'another player'}'s: only they can undo it.",
        )

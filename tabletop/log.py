"""Folding a table's log: the game state and the kit's undo bookkeeping. Pure (no Django).

Commands are the unit of undo: all events one command appended share its ``command_id``.
The kit's own commands are ``table.start``, ``table.undo`` and ``table.redo``.

Undo (DESIGN.md): ``table.undo`` appends ``table.action.undone`` naming the last applied
command; the state is the fold of every event whose command is not undone. Only the last
not-yet-undone command can be undone, repeatedly back to the last *barrier*: ``table.start``
or a command with a ``final`` event (it showed hidden information). ``table.redo`` re-applies
the most recently undone command while no other command came after the undo.
When a command that drew randomness is undone, its dice tape is kept under ``"seat:type"``;
the next command of that type by that seat is handed the tape to replay (``tabletop.dice``), so
undoing and sending the command again is never a re-roll.

``meta`` shape: ``{"undo": [command_id...], "redo": [command_id...], "undone": [command_id...],
"tapes": {"<seat>:<type>": [[n, result]...]}}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.rules import EventRecord

KIT_COMMANDS = frozenset({"table.start", "table.undo", "table.redo"})
UNDO_EVENT = "table.action.undone"
REDO_EVENT = "table.action.redone"
START_EVENT = "table.started"


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
    return f"{seat}:{command_type}"


def apply_command(meta: Meta, group: list[LoggedEvent]) -> Meta:
    """The bookkeeping after one command's events (all with the same ``command_id``)."""
    first = group[0]
    cid = first.command_id
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
    kit's own events; ``evolve`` sees the ruleset's events in log order."""
    meta = Meta()
    groups = group_commands(events)
    for group in groups:
        meta = apply_command(meta, group)
    undone = set(meta.undone)
    state = ruleset.initial_state()
    for group in groups:
        if group[0].command_type in ("table.undo", "table.redo") or group[0].command_id in undone:
            continue
        for event in group:
            if event.type == START_EVENT:
                continue
            state = ruleset.evolve(state, event.record())
    return state, meta

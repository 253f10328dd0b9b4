"""Playing a ruleset without a database, for pure rule tests (no Django import).

``play(ruleset, seats, commands, seed)`` runs ``setup`` then each ``(seat, Command)`` through
``decide`` and ``evolve`` exactly as ``run_command`` does (same per-command dice seeding), and
checks on the way that folding the log from scratch gives the same state (a replay test).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tabletop.dice import make_dice
from tabletop.rules import Command, EventRecord, SeatInfo


@dataclass
class Played:
    """The outcome of ``play``: final ``state``, every ``EventRecord`` in order, and the
    ``errors`` (``(index, code)``) of commands that were refused when ``strict`` is False."""

    state: Any
    events: list[EventRecord] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)


def play(ruleset, seats: int | list[str] = 2, commands: list[tuple[int | None, Command]] = (),
         seed: int | str = 0, options: dict | None = None, strict: bool = True) -> Played:
    """Set up a game for ``seats`` (a count, or names) and play ``commands``.

    ``strict``: a refused command raises its ``RuleViolation`` (default) or is recorded in
    ``Played.errors`` and skipped. Asserts that replaying the events from scratch equals the
    incremental state (through ``dump``, as JSON).
    """
    names = [f"P{n + 1}" for n in range(seats)] if isinstance(seats, int) else list(seats)
    infos = tuple(SeatInfo(n, name) for n, name in enumerate(names))
    version = 1  # the kit's table.started event
    events: list[EventRecord] = []
    state = ruleset.initial_state()
    for ev in ruleset.setup(dict(options or {}), infos, make_dice(f"{seed}:setup")):
        version += 1
        record = EventRecord(ev.type, ev.data, 0, version)
        events.append(record)
        state = ruleset.evolve(state, record)
    played = Played(state, events)
    for index, (seat, command) in enumerate(commands):
        try:
            new = ruleset.decide(state, command, seat, make_dice(f"{seed}:{version}"))
        except Exception as exc:
            if strict or not hasattr(exc, "code"):
                raise
            played.errors.append((index, exc.code))
            continue
        for ev in new:
            version += 1
            record = EventRecord(ev.type, json.loads(json.dumps(ev.data)), seat, version)
            events.append(record)
            state = ruleset.evolve(state, record)
    replayed = ruleset.fold(events) if hasattr(ruleset, "fold") else None
    if replayed is not None:
        assert json.dumps(ruleset.dump(replayed), sort_keys=True) == json.dumps(
            ruleset.dump(state), sort_keys=True), "replay differs from the incremental state"
    played.state = state
    return played

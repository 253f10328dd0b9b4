"""Playing a ruleset without a database: the one pure driver of every game's tests, and the
random playouts that protect every rules engine. No Django import.

``Sim`` runs commands through ``tabletop.log.step``, the very function ``run_command`` uses
(same kit checks, same undo/redo, same per-command dice seeding and tapes), keeping the log in
memory. ``play`` is the short form for a list of commands. ``playout`` plays a seeded random
game choosing among the commands the seats' views offer (``Ruleset.moves``) and checks the
properties every game must keep (see its docstring).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from tabletop.decider import copy_json
from tabletop.dice import make_dice
from tabletop.errors import TabletopError
from tabletop.log import (
    FINISHED,
    KIT_EVENTS,
    LOBBY,
    PLAYING,
    LoggedEvent,
    Meta,
    narrated,
    rebuild,
    recent_lines,
    step,
)
from tabletop.rules import Command, EventRecord, SeatInfo

#: What the standard library's ``json`` refuses, orjson refuses too (then ``json`` runs and
#: raises as before): dataclasses, datetimes, subclasses of str, int, dict and list.
_STRICT = (
    orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _round_trip(value: Any) -> Any:
    """``value`` as it comes back from JSON text: what ``json.loads(json.dumps(value))`` gives
    (non-string keys become strings, tuples lists), through orjson where it can (several times
    faster: the playouts spend a quarter of their time here with the standard library)."""
    try:
        return orjson.loads(orjson.dumps(value, option=_STRICT))
    except TypeError:  # a key that is not a string, an integer beyond 64 bits...
        return json.loads(json.dumps(value))


def _sorted_text(value: Any) -> bytes:
    """``value`` as JSON with sorted keys, to compare two values as their JSON texts (one
    spelling whichever way it was made: a value with integer keys is read back first)."""
    try:
        return orjson.dumps(value, option=_STRICT | orjson.OPT_SORT_KEYS)
    except TypeError:
        plain = json.loads(json.dumps(value))
        try:
            return orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # an integer beyond 64 bits
            return json.dumps(plain, sort_keys=True).encode()


def _dump(ruleset, state: Any) -> bytes:
    return _sorted_text(ruleset.dump(state))


class Sim:
    """A table in memory. ``seats``: a count or names; ``options``: as the host chose them
    (defaults filled in from ``options_schema``); ``content``: the setup data the opening
    service would store with the table; ``seed``: the dice seed; ``start``: send
    ``table.start`` at once (as the host).

    Attributes: ``state`` (the game state), ``meta`` (undo bookkeeping), ``status``
    (lobby/playing/finished), ``log`` (every ``LoggedEvent``), ``version``.
    """

    def __init__(
        self,
        ruleset,
        seats: int | list[str] = 2,
        *,
        options: dict | None = None,
        content: dict | None = None,
        seed: int | str = 0,
        start: bool = True,
    ) -> None:
        self.ruleset = ruleset
        names = [f"P{n + 1}" for n in range(seats)] if isinstance(seats, int) else list(seats)
        self.seats = tuple(SeatInfo(n, name) for n, name in enumerate(names))
        schema = getattr(ruleset, "options_schema", {}) or {}
        self.options = {k: spec.get("default") for k, spec in schema.items()}
        self.options.update(options or {})
        self.content = content
        self.seed = seed
        self.state: Any = None
        self.meta = Meta()
        self.status = LOBBY
        self.log: list[LoggedEvent] = []
        if start:
            self.send(0, "table.start")

    @property
    def version(self) -> int:
        return self.log[-1].version if self.log else 0

    def send(self, seat: int | None, type_: str, data: dict | None = None) -> list[LoggedEvent]:
        """Run one command (JSON round-tripped like the API does) and return its events.
        Raises what ``run_command`` would (``RuleViolation``, ``NotAllowed``...); on error the
        table is unchanged."""
        command = Command(type_, _round_trip(data or {}))
        version = self.version
        # The ruleset's own copy policy when it has one (content it never folds is shared).
        # (A test may have changed ``state`` in place: the copy is of the state as it is now.)
        copy = getattr(self.ruleset, "copy", copy_json)
        stepped = step(
            self.ruleset,
            state=copy(self.state) if self.state is not None else None,
            meta=Meta.load(_round_trip(self.meta.dump())),
            status=self.status,
            version=version,
            seat=seat,
            command=command,
            dice_for=lambda tape: make_dice(f"{self.seed}:{version}", tape),
            history=lambda: list(self.log),
            seats=self.seats,
            options=self.options,
            content=self.content,
            seat_names={s.number: s.name for s in self.seats},
        )
        events = [
            LoggedEvent(**{**e.__dict__, "data": _round_trip(e.data)})
            for e in stepped.events
        ]
        self.log.extend(events)
        # Like run_command: the stored projection is the JSON dump, loaded again next time.
        self.state = self.ruleset.load(_round_trip(self.ruleset.dump(stepped.state)))
        self.meta = stepped.meta
        self.status = stepped.status
        return events

    def try_send(self, seat: int | None, type_: str, data: dict | None = None) -> str | None:
        """``send``, returning the error code of a refused command (None when it landed)."""
        try:
            self.send(seat, type_, data)
        except TabletopError as exc:
            return exc.code
        return None

    def undo(self, seat: int = 0) -> list[LoggedEvent]:
        return self.send(seat, "table.undo")

    def redo(self, seat: int = 0) -> list[LoggedEvent]:
        return self.send(seat, "table.redo")

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (None: a spectator), as JSON (what the page receives)."""
        return _round_trip(self.ruleset.view(self.state, seat))

    def records(self) -> list[EventRecord]:
        """The events the game state folds (undone commands and kit events left out)."""
        undone = set(self.meta.undone)
        return [
            e.record() for e in self.log
            if e.command_id not in undone and e.command_type not in ("table.undo", "table.redo")
            and e.type not in KIT_EVENTS
        ]

    def lines(self) -> list[str]:
        """The narrated log (text, or the event label when nothing narrates it)."""
        labels = getattr(self.ruleset, "event_labels", {}) or {}
        return [line.text or labels.get(line.type, line.type) for line in narrated(self.ruleset, self.log)]

    def assert_replay_equal(self) -> None:
        """Rebuilding from the log gives the incremental state and meta (a replay test)."""
        state, meta = rebuild(self.ruleset, self.log)
        assert _dump(self.ruleset, state) == _dump(self.ruleset, self.state), "replay differs"
        assert _sorted_text(meta.dump()) == _sorted_text(self.meta.dump())

    @property
    def finished(self) -> bool:
        return self.status == FINISHED


@dataclass
class Played:
    """The outcome of ``play``: final ``state``, every ``EventRecord`` in order, and the
    ``errors`` (``(index, code)``) of commands that were refused when ``strict`` is False."""

    state: Any
    events: list[EventRecord] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    sim: Sim | None = None


def play(ruleset, seats: int | list[str] = 2, commands: Sequence[tuple[int | None, Command]] = (),
         seed: int | str = 0, options: dict | None = None, strict: bool = True,
         content: dict | None = None) -> Played:
    """Set up a game for ``seats`` (a count, or names) and play ``commands`` through ``Sim``.

    ``strict``: a refused command raises (default) or is recorded in ``Played.errors`` and
    skipped. Asserts that replaying the events from scratch equals the incremental state."""
    sim = Sim(ruleset, seats, options=options, content=content, seed=seed)
    played = Played(sim.state, sim=sim)
    for index, (seat, command) in enumerate(commands):
        try:
            sim.send(seat, command.type, command.data)
        except TabletopError as exc:
            if strict:
                raise
            played.errors.append((index, exc.code))
    sim.assert_replay_equal()
    played.state = sim.state
    played.events = sim.records()
    return played


# --------------------------------------------------------------------------------------------
# Random playouts


def playout_seeds(default: int = 2) -> list[int]:
    """The seeds a playout test plays for each case: ``range(PLAYOUT_SEEDS)`` (environment,
    ``default`` when unset; ``make playouts`` sets 200), or, to reproduce a failure alone, the
    seeds listed in ``PLAYOUT_SEED_ONLY`` (comma separated, e.g. ``55`` or ``45,55``), which
    wins over ``PLAYOUT_SEEDS``. Raises ``ValueError`` on a value that is not an integer."""
    only = os.environ.get("PLAYOUT_SEED_ONLY", "").strip()
    if only:
        return [int(part) for part in only.split(",") if part.strip()]
    return list(range(int(os.environ.get("PLAYOUT_SEEDS", str(default)))))


@dataclass
class Playout:
    """What ``playout`` saw: ``commands`` sent, ``refused`` (error codes), ``undos``,
    ``finished``, and the ``sim`` itself."""

    sim: Sim
    commands: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    undos: int = 0
    finished: bool = False


def playout(
    ruleset,
    seats: int,
    seed: int,
    *,
    options: dict | None = None,
    content: dict | None = None,
    max_commands: int = 400,
    undo_rate: float = 0.05,
    conserved: Callable[[Any], Any] | None = None,
    perturb: Callable[[Any, int, random.Random], Any] | None = None,
    must_finish: bool = False,
    check_every: int = 1,
    choose: Callable[[list[Command], random.Random, Sim], Command] | None = None,
) -> Playout:
    """A seeded random game through the pure step, choosing among the commands the views offer.

    Each turn a seat is drawn among those whose page (``ruleset.moves(view, seat)``: ``Command``
    objects, their data filled in as the page would) offers a command, and one of its commands
    is picked at random (``choose(commands, rnd, sim)`` when given: a policy, e.g. biased
    towards progress; ``sim`` is read only), now and then an undo instead. The seats' views are worked out in random order
    until one offers something, so a seat's page is not built when another seat's move is
    already chosen; every seat's view is built at each check (and found to be plain JSON, as
    the page receives it).

    Asserts: no exception but the kit's coded errors; never stuck (while unfinished some seat
    is offered a move); no offered command is unknown to the rules (``unknown_command``); replay from scratch equals the incremental state (at the end, and after
    64, 128, 256... commands); every ``check_every`` commands (and after the last): ``conserved(state)``
    is unchanged (cards never appear or vanish), every seat's view and the watcher's (seat
    None) is built, and ``perturb(state, seat, rnd)``, which changes only secrets *not*
    belonging to ``seat`` (with ``seat`` None: every secret), leaves ``seat``'s view unchanged; with ``must_finish``, the game ends within
    ``max_commands``."""
    rnd = random.Random(seed)
    sim = Sim(ruleset, seats, options=options, content=content, seed=f"playout:{seed}")
    out = Playout(sim)
    baseline = conserved(sim.state) if conserved else None

    def check(index: int) -> None:
        if conserved:
            assert conserved(sim.state) == baseline, f"cards not conserved (seed {seed}, step {index})"
        # The live view's latest log lines (undone ones too) narrate against the current state
        # without an error: a narrator that fails there makes the table page fail for everyone.
        recent_lines(ruleset, sim.state, sim.log[-8:], set(sim.meta.undone))
        # Every seat's view, and the watcher's (None: a spectator or a public screen, who
        # holds no secret at all, so ``perturb(state, None, rnd)`` may change every secret).
        for seat in [*range(seats), None]:
            raw = ruleset.view(sim.state, seat)
            before = _sorted_text(raw)
            # The page gets the view as JSON: the moves below read the view as built, so it
            # must be JSON already (no tuples, no int keys).
            assert orjson.loads(before) == raw, f"seat {seat}'s view is not plain JSON (seed {seed})"
            if perturb:
                other = perturb(copy_json(sim.state), seat, random.Random(seed * 31 + index))
                after = _sorted_text(ruleset.view(other, seat))
                assert before == after, f"seat {seat} sees another seat's secret (seed {seed})"

    for index in range(max_commands):
        if sim.finished:
            break
        order = list(range(seats))
        rnd.shuffle(order)
        seat, offered = order[0], []
        for seat in order:
            offered = list(ruleset.moves(ruleset.view(sim.state, seat), seat))
            if offered:
                break
        assert offered, f"stuck: no seat is offered a move (seed {seed}, command {index})"
        if sim.meta.undo and rnd.random() < undo_rate:
            seat = rnd.randrange(seats)
            code = sim.try_send(seat, "table.undo")
            out.undos += code is None
        else:
            command = choose(offered, rnd, sim) if choose else rnd.choice(offered)
            code = sim.try_send(seat, command.type, command.data)
            out.commands += 1
            # A page that offers a command the rules do not know is a dead button (and the
            # playout would never play what it stands for).
            assert code != "unknown_command", (
                f"seat {seat}'s page offers {command.type!r}, which the rules do not know (seed {seed})"
            )
        if code is not None:
            out.refused[code] = out.refused.get(code, 0) + 1
        if index % check_every == 0:
            check(index)
        if index + 1 >= 64 and (index + 1) & index == 0:  # after 64, 128, 256... commands
            sim.assert_replay_equal()
    check(max_commands)
    out.finished = sim.finished
    sim.assert_replay_equal()
    if must_finish:
        assert sim.finished, f"not finished within {max_commands} commands (seed {seed})"
    return out


__all__ = [
    "FINISHED", "LOBBY", "PLAYING", "Played", "Playout", "Sim", "play", "playout", "playout_seeds",
]

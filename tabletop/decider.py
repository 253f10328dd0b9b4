"""The decider toolkit: how every game at the table is written (docs/architecture.md, "The event-sourced
table"; KIT.md). Pure Python, no Django import.

A game is a ``DeciderRuleset`` made of *topics*. A topic module (``shooting.py``, ``turns.py``,
``market.py``...) holds, side by side, the commands of one part of the rules, the events they
record and the folds of those events::

    duel = Topic("duel")

    @duel.command("espionage.duel.challenge", reveals=False)        # seated only (default)
    def challenge(d: Decision, data: Data) -> None:
        opponent = data.seat("opponent", players=len(d.state["players"]), code="bad_opponent")
        d.require(opponent != d.seat, "bad_opponent", "Choose another player to duel.")
        d.emit("espionage.duel.challenged", {"initiator": d.seat, "opponent": opponent})

    @duel.evolver("espionage.duel.challenged", label="challenged a player to a duel")
    def challenged(state: dict, event: EventRecord) -> None:
        state["duel"] = {...}                                        # mutate in place

    @duel.narrator("espionage.duel.challenged")
    def say_challenged(event: EventRecord, state: dict) -> str:
        return f"{name(state, event.data['initiator'])} challenged ..."

    class EspionageRuleset(DeciderRuleset):
        topics = (setup_topic, duel, actions, turns)

Policies, in one place for every game:

- **Dispatch**: the registry maps a command type to its handler and *seat policy*: ``SEATED``
  (a seat of the game; a spectator gets ``NotFound("not_seated")``, the same 404 as
  the table gate gives a phone without a seat), ``HOST`` (seat 0 only:
  ``NotAllowed("host_only")``) or ``ANYONE``. An unregistered type is
  ``RuleViolation("unknown_command")``; any command on a finished game (``is_finished``) is
  ``RuleViolation("game_over")`` unless registered with ``after_end=True``.
- **Rebase**: ``rebase=True`` marks a command that may be decided on a newer state than the
  one its page showed: when its ``expected_version`` is older than the table's, ``run_command``
  decides it on the current state instead of refusing it with ``Conflict("stale_version")``
  (``DeciderRuleset.rebase_ok``). Only for a command whose meaning does not depend on what
  happened meanwhile (a player's own choice among independent ones, DemLoc's picks during a
  mission's preparation), never for one acting on another player's piece, undo/redo or turn
  and phase commands: the handler still checks everything on the newer state, so a choice no
  longer valid is refused with its own coded error.
- **Reveals**: ``reveals=True`` marks a command that can show a player hidden information: the
  page asks for confirmation, and undo stops at it when one of its events is emitted
  ``final=True``. ``final_commands`` is derived from the registry.
- **Copying**: a fold *mutates* the state it is given. The toolkit hands folds a private working
  state: ``decide`` copies the state once per command (``copy_json``), the kit's log fold and
  ``run_command`` fold into a state freshly loaded from JSON. ``evolve`` (the protocol's pure
  fold) copies first, so callers that keep old states stay safe. No game copies state itself.
- **Unknown events**: folding an event type no topic registered raises ``UnknownEvent`` (a
  programming error, never silently skipped: a replay that skipped events would lie).
- **Narration is not state**: the projection holds no prose. A narrator turns an event into a
  log line from the event's data and a state in which its referents exist (the state just
  before the event in a full replay; the current state for the latest lines of the live view),
  so narrators use stable facts (names) and the event's own numbers.
- **Consequences**: ``DeciderRuleset.after_fold(state, event)`` is the one hook that runs after
  every fold (the game's rules that follow from any event: DemLoc's daemons leaving, relics
  falling, total elimination). It mutates ``state`` like a fold; default: nothing.
- **Saying**: a fold or ``after_fold`` may say lines for the log with ``say(...)``. The kit
  listens only while it narrates (``listening``); deciding a command or rebuilding a state
  says to nobody, so ``say`` costs a call. A game whose folds tell the whole story, the
  consequences included, sets ``folds_narrate = True`` (DemLoc): in a replay an event's log
  line is then what its fold and ``after_fold`` said (``apply_narrated``, the fold the replay
  does anyway, no copy), and its narrator speaks only where the event is not folded: the live
  view's latest lines, from the current state (``holds``).
- **Command data** is read through ``Data``: every reader raises a coded ``RuleViolation``
  (default code ``bad_data``) naming the field; integers from outside are parsed by
  ``parse_int`` only (ASCII digits; "²" or "1e3" are refused).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson

from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent

SEATED = "seated"
HOST = "host"
ANYONE = "anyone"
POLICIES = (SEATED, HOST, ANYONE)

_REQUIRED = object()
_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")
_ASCII_INT = re.compile(r"^-?[0-9]{1,18}$")


class UnknownEvent(Exception):
    """A fold was asked for an event type no topic registered (a bug, not a player's error)."""


def parse_int(value: Any) -> int | None:
    """The one parser of integers that come from outside (command data, URL ids, form fields).

    Accepts an ``int`` (not a ``bool``) or a string of at most 18 ASCII digits with an optional
    leading minus and surrounding spaces. Returns None for anything else ("²", "1.5", "", None,
    "１" full-width, 10**30), so callers raise their own coded error."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) < 10**18 else None
    if isinstance(value, str):
        text = value.strip()
        if _ASCII_INT.match(text):
            return int(text)
    return None


#: The lines said while the kit listens (``listening``); None: nobody listens.
_SAID: ContextVar[list[str] | None] = ContextVar("tabletop_decider_said", default=None)


def say(*lines: str) -> None:
    """Say ``lines`` for the log of the event being folded, from a fold or ``after_fold``
    (module docstring, "Saying"). Appended in order to what the kit collects while it
    listens; does nothing otherwise (a command being decided, a state being rebuilt)."""
    said = _SAID.get()
    if said is not None:
        said.extend(lines)


def heard() -> bool:
    """Whether what ``say`` is told is heard now (the kit narrates the log). A game may skip
    work done only to say something (DemLoc reads who had an active character before a fold)."""
    return _SAID.get() is not None


@contextmanager
def listening() -> Iterator[list[str]]:
    """Collect what ``say`` is told inside the block: yields the list the lines go to.
    Nested blocks each collect their own lines (the outer one hears none of the inner's)."""
    said: list[str] = []
    token = _SAID.set(said)
    try:
        yield said
    finally:
        _SAID.reset(token)


#: What folding an event into a state it does not fit raises (a fold looks up what the
#: state lacks): ``DeciderRuleset.narrate`` then lets the narrator speak instead.
MISFIT = (LookupError, TypeError, ValueError, AttributeError, StopIteration)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, str, int, float, bool, None); tuples come
    back as lists. Several times faster than ``copy.deepcopy`` on game states.

    A dict or list is copied by writing it as JSON and reading it back (orjson: a DemLoc state
    in about 0.1 ms, a third of the walk's time), kept only when it reads back equal to
    ``value``; otherwise (a tuple inside, a NaN, a key that is not a string, an integer beyond
    64 bits) it is copied by walking it, as before."""
    if isinstance(value, dict | list):
        try:
            copied = orjson.loads(orjson.dumps(value))
        except (TypeError, orjson.JSONDecodeError):
            return _walk_copy(value)
        if copied == value:
            return copied
    return _walk_copy(value)


def _walk_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _walk_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_walk_copy(v) for v in value]
    return value


# Data's readers are named after the types they read (data.int, data.str...): inside the class
# those names are the methods, so its annotations use these aliases.
type _Int = int
type _Str = str
type _Bool = bool


class Data:
    """Readers of a command's ``data`` (a dict from the page or the API). Each raises
    ``RuleViolation(code, message)``; ``code`` defaults to ``bad_data`` and ``message`` to one
    naming the field. ``default`` makes a field optional (absent, None or "" gives it)."""

    def __init__(self, raw: dict | None) -> None:
        self.raw = raw if isinstance(raw, dict) else {}

    def has(self, key: _Str) -> _Bool:
        """True when ``key`` is present and not None or ""."""
        return self.raw.get(key) not in (None, "")

    def get(self, key: _Str, default: Any = None) -> Any:
        """The raw value (no check): for games that parse a structure themselves."""
        return self.raw.get(key, default)

    def _missing(self, key: _Str, default: Any, code: _Str, message: _Str | None) -> Any:
        if default is _REQUIRED:
            raise RuleViolation(code, message or f"Missing {key.replace('_', ' ')}.")
        return default

    def int(
        self,
        key: _Str,
        *,
        lo: _Int | None = None,
        hi: _Int | None = None,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """A whole number in ``lo..hi`` (both inclusive, each optional)."""
        if not self.has(key):
            return self._missing(key, default, code, message)
        value = parse_int(self.raw[key])
        if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
            span = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
            raise RuleViolation(
                code, message or f"{key.replace('_', ' ').capitalize()} must be a whole number{span}."
            )
        return value

    def bool(self, key: _Str, *, default: _Bool = False, code: _Str = "bad_data") -> _Bool:
        """A boolean: true/false, 1/0, "true"/"false"/"on"/"1"/"0"/"yes"/"no"."""
        value = self.raw.get(key)
        if value in (None, ""):
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "on", "1", "yes", "false", "0", "no", "off"):
            return value.lower() in ("true", "on", "1", "yes")
        raise RuleViolation(code, f"{key.replace('_', ' ').capitalize()} must be yes or no.")

    def choice(
        self,
        key: _Str,
        choices: Iterable[Any],
        *,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """One of ``choices`` (compared as given; an int choice also accepts its digits)."""
        options = list(choices)
        if not self.has(key):
            return self._missing(key, default, code, message)
        value = self.raw[key]
        if value in options and not isinstance(value, bool):
            return value
        number = parse_int(value)
        if number is not None and number in options:
            return number
        raise RuleViolation(code, message or f"Choose a valid {key.replace('_', ' ')}.")

    def id(
        self, key: _Str, *, default: Any = _REQUIRED, code: _Str = "bad_data", message: _Str | None = None
    ) -> Any:
        """An identifier: 1-64 of letters, digits and ``_.:-`` (a card key, ``s1-m7``...)."""
        if not self.has(key):
            return self._missing(key, default, code, message)
        value = self.raw[key]
        if isinstance(value, str) and _ID.match(value):
            return value
        raise RuleViolation(code, message or f"Unknown {key.replace('_', ' ')}.")

    def seat(
        self,
        key: _Str,
        *,
        players: _Int,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """A seat number ``0..players-1``."""
        return self.int(key, lo=0, hi=players - 1, default=default, code=code,
                        message=message or f"Choose a player for {key.replace('_', ' ')}.")

    def str(
        self,
        key: _Str,
        *,
        max_length: _Int = 200,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """A string of at most ``max_length`` characters, whitespace collapsed."""
        if not self.has(key):
            return self._missing(key, default, code, message)
        value = self.raw[key]
        if not isinstance(value, str) or len(value) > max_length:
            raise RuleViolation(code, message or f"{key.replace('_', ' ').capitalize()} is too long.")
        return " ".join(value.split())

    def list(
        self,
        key: _Str,
        *,
        max_items: _Int = 100,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """A list (a single value becomes a one-item list) of at most ``max_items`` items."""
        if key not in self.raw or self.raw[key] in (None, ""):
            return self._missing(key, default, code, message)
        value = self.raw[key]
        items = value if isinstance(value, list) else [value]
        if len(items) > max_items:
            raise RuleViolation(code, message or f"Too many {key.replace('_', ' ')}.")
        return list(items)

    def ints(
        self,
        key: _Str,
        *,
        lo: _Int | None = None,
        hi: _Int | None = None,
        max_items: _Int = 100,
        default: Any = _REQUIRED,
        code: _Str = "bad_data",
        message: _Str | None = None,
    ) -> Any:
        """A list of whole numbers, each in ``lo..hi``."""
        if not self.has(key) and default is not _REQUIRED:
            return default
        items = self.list(key, max_items=max_items, code=code, message=message)
        out = []
        for item in items:
            value = parse_int(item)
            if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
                raise RuleViolation(code, message or f"{key.replace('_', ' ').capitalize()}: whole numbers only.")
            out.append(value)
        return out


@dataclass(frozen=True)
class CommandSpec:
    """A registered command: its ``handler(d: Decision, data: Data) -> None``, seat ``policy``,
    whether it ``reveals`` hidden information, whether it is allowed ``after_end``, and
    whether a stale ``expected_version`` may be decided on the newer state (``rebase``: see
    the module docstring)."""

    type: str
    handler: Callable[..., None]
    policy: str = SEATED
    reveals: bool = False
    after_end: bool = False
    topic: str = ""
    rebase: bool = False


@dataclass(frozen=True)
class EvolverSpec:
    """A registered fold: ``fold(state, event) -> None`` mutates ``state``; ``label`` is the
    short human label of the event type ("dealt the cards"), shown when nothing narrates it."""

    type: str
    fold: Callable[[Any, EventRecord], Any]
    label: str = ""
    topic: str = ""


class Topic:
    """One part of a game's rules: its commands, folds and narrators (see the module docstring).
    Registering a type twice in one topic is a ``ValueError`` at import time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.commands: dict[str, CommandSpec] = {}
        self.evolvers: dict[str, EvolverSpec] = {}
        self.narrators: dict[str, Callable[[EventRecord, Any], str | None]] = {}

    def command(
        self,
        type_: str,
        *,
        policy: str = SEATED,
        reveals: bool = False,
        after_end: bool = False,
        rebase: bool = False,
    ) -> Callable:
        """Register ``handler(d: Decision, data: Data) -> None`` for command ``type_``.
        ``rebase``: a stale ``expected_version`` is decided on the newer state (module
        docstring, "Rebase"); a kit command (``table.*``) can never be marked."""
        if policy not in POLICIES:
            raise ValueError(f"unknown seat policy {policy!r}")
        if rebase and type_.startswith("table."):
            raise ValueError(f"kit command {type_!r} cannot be rebased")

        def register(handler: Callable) -> Callable:
            if type_ in self.commands:
                raise ValueError(f"command {type_!r} registered twice in topic {self.name}")
            self.commands[type_] = CommandSpec(
                type_, handler, policy, reveals, after_end, self.name, rebase
            )
            return handler

        return register

    def evolver(self, type_: str, *, label: str) -> Callable:
        """Register ``fold(state, event) -> None`` (mutating ``state``) for event ``type_``."""

        def register(fold: Callable) -> Callable:
            if type_ in self.evolvers:
                raise ValueError(f"event {type_!r} registered twice in topic {self.name}")
            self.evolvers[type_] = EvolverSpec(type_, fold, label, self.name)
            return fold

        return register

    def narrator(self, type_: str) -> Callable:
        """Register ``narrate(event, state) -> str | None`` for event ``type_`` (see the module
        docstring for which state it gets)."""

        def register(narrate: Callable) -> Callable:
            self.narrators[type_] = narrate
            return narrate

        return register


@dataclass
class Registry:
    """The union of a game's topics. A type registered by two topics is a ``ValueError``."""

    commands: dict[str, CommandSpec] = field(default_factory=dict)
    evolvers: dict[str, EvolverSpec] = field(default_factory=dict)
    narrators: dict[str, Callable] = field(default_factory=dict)

    @classmethod
    def of(cls, topics: Sequence[Topic]) -> Registry:
        registry = cls()
        tables: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for topic in topics:
            tables = [
                (registry.commands, topic.commands),
                (registry.evolvers, topic.evolvers),
                (registry.narrators, topic.narrators),
            ]
            for table, items in tables:
                for key, value in items.items():
                    if key in table:
                        raise ValueError(f"{key!r} registered by two topics")
                    table[key] = value
        for key in registry.narrators:
            if key not in registry.evolvers:
                raise ValueError(f"narrator for {key!r} has no evolver")
        return registry

    @property
    def final_commands(self) -> frozenset[str]:
        return frozenset(t for t, spec in self.commands.items() if spec.reveals)

    @property
    def rebase_commands(self) -> frozenset[str]:
        return frozenset(t for t, spec in self.commands.items() if spec.rebase)

    @property
    def event_labels(self) -> dict[str, str]:
        return {t: spec.label for t, spec in self.evolvers.items()}


class Decision:
    """The working context of one command, handed to its handler.

    ``state``: a private copy of the game state, folded as events are emitted (so later checks
    in the same command see their effect); ``seat``: the acting seat number (None only for
    ``ANYONE`` commands sent without a seat); ``rng``: the command's ``tabletop.dice.Dice``;
    ``ruleset``: the game; ``events``: what was emitted so far."""

    def __init__(self, ruleset: DeciderRuleset, state: Any, seat: int | None, rng: Any) -> None:
        self.ruleset = ruleset
        self.state = state
        self.seat = seat
        self.rng = rng
        self.events: list[NewEvent] = []

    def emit(self, type_: str, data: dict | None = None, *, final: bool = False) -> None:
        """Record an event and fold it into ``state`` at once."""
        payload = data or {}
        self.events.append(NewEvent(type_, payload, final))
        self.ruleset.fold_into(
            self.state, EventRecord(type_, payload, self.seat, len(self.events))
        )

    @staticmethod
    def require(condition: Any, code: str, message: str) -> None:
        """Raise ``RuleViolation(code, message)`` unless ``condition`` holds."""
        if not condition:
            raise RuleViolation(code, message)


class DeciderRuleset(BaseRuleset):
    """A ruleset written with the toolkit. Subclasses set ``topics`` (and the usual ``name``,
    ``title``, seats, ``template``, ``options_schema``), implement ``setup`` and ``view``, and
    may override ``is_finished``, ``players`` and ``initial_state``.

    ``decide`` dispatches through the registry with the kit's policies; ``evolve`` copies then
    folds; ``fold_into`` folds in place, then ``after_fold``; ``narrate`` gives a log line;
    ``apply_narrated`` folds in place and gives the line (the kit's replay)."""

    topics: ClassVar[tuple[Topic, ...]] = ()
    #: The folds (and ``after_fold``) say the log's lines (module docstring, "Saying").
    folds_narrate: ClassVar[bool] = False
    registry: ClassVar[Registry] = Registry()
    event_labels: ClassVar[dict[str, str]] = {}
    rebase_commands: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.topics:
            cls.registry = Registry.of(cls.topics)
            cls.final_commands = cls.registry.final_commands
            cls.event_labels = cls.registry.event_labels
            cls.rebase_commands = cls.registry.rebase_commands

    # -- the protocol ----------------------------------------------------------------------

    def players(self, state: Any) -> int:
        """How many seats play the game in ``state`` (``SEATED`` accepts ``0..players-1``).
        Default: ``len(state["players"])`` or ``len(state["names"])``, else any seat."""
        if isinstance(state, dict):
            for key in ("players", "names", "seats"):
                if isinstance(state.get(key), list | dict):
                    return len(state[key])
        return 1 << 30

    def is_finished(self, state: Any) -> bool:
        return False

    def rebase_ok(self, command_type: str) -> bool:
        """True when ``command_type`` was registered with ``rebase=True`` (module docstring,
        "Rebase"): ``run_command`` decides it on the current state when its
        ``expected_version`` is stale."""
        return command_type in self.rebase_commands

    def check_seat(self, spec: CommandSpec, state: Any, seat: int | None) -> None:
        """The seat policy of ``spec`` for ``seat``. Raises ``NotFound("not_seated")``,
        ``NotAllowed("host_only")``."""
        if spec.policy == ANYONE:
            return
        if seat is None or not 0 <= seat < self.players(state):
            raise NotFound("not_seated", "Only a player at the table can do that.")
        if spec.policy == HOST and seat != 0:
            raise NotAllowed("host_only", "Only the host (seat 1) can do that.")

    def decide(self, state: Any, command: Command, seat: int | None, rng: Any) -> list[NewEvent]:
        """Dispatch ``command`` (see the module docstring). Never changes ``state``.
        Raises ``RuleViolation("unknown_command"|"game_over"|...)``, ``NotAllowed``."""
        spec = self.registry.commands.get(command.type)
        if spec is None:
            raise RuleViolation("unknown_command", f"Unknown command {command.type!r}.")
        self.check_seat(spec, state, seat)
        if not spec.after_end and self.is_finished(state):
            raise RuleViolation("game_over", "This game is over.")
        decision = Decision(self, self.copy(state), seat, rng)
        spec.handler(decision, Data(command.data))
        return decision.events

    def copy(self, state: Any) -> Any:
        """The one copy policy: a deep copy of the JSON-shaped state."""
        return copy_json(state)

    def fold_into(self, state: Any, event: EventRecord) -> Any:
        """Fold ``event`` into ``state`` in place, then ``after_fold`` (returns ``state``). The
        fold gets a copy of the event's data, so the state never shares an object with the
        stored event (a fold may keep a list of it and a later fold change that list).
        Raises ``UnknownEvent``."""
        spec = self.registry.evolvers.get(event.type)
        if spec is None:
            raise UnknownEvent(f"{self.name}: no fold for event {event.type!r}")
        spec.fold(state, EventRecord(event.type, copy_json(event.data), event.seat, event.version))
        self.after_fold(state, event)
        return state

    def after_fold(self, state: Any, event: EventRecord) -> None:
        """The consequences of ``event``, once its fold has run (module docstring,
        "Consequences"): mutate ``state`` and ``say`` what happened. Default: none."""

    def holds(self, state: Any, event: EventRecord) -> bool:
        """Whether ``state`` already holds ``event`` (it was folded through it): the current
        state of the live view's latest lines. Only asked when ``folds_narrate``; such a game
        keeps the version it folded last (DemLoc: ``state["version"]``). Default: never."""
        return False

    def evolve(self, state: Any, event: EventRecord) -> Any:
        """The protocol's pure fold: a new state, ``state`` untouched."""
        return self.fold_into(self.copy(state), event)

    def apply(self, state: Any, event: EventRecord) -> Any:
        """Fold into a state the caller owns (the kit's log fold): no copy."""
        return self.fold_into(state, event)

    def apply_narrated(self, state: Any, event: EventRecord) -> tuple[Any, str | None]:
        """Fold ``event`` into ``state`` in place and give its log line: ``(state, line)``.
        With ``folds_narrate``, the line is what the fold and ``after_fold`` said (None when
        they said nothing); otherwise the narrator's, against the state before the fold."""
        if not self.folds_narrate:
            return super().apply_narrated(state, event)
        with listening() as said:
            self.fold_into(state, event)
        return state, " ".join(said) or None

    def narrate(self, event: EventRecord, state: Any) -> str | None:
        """The log line of ``event`` or None (then the kit shows its label). With
        ``folds_narrate`` and a ``state`` that does not hold the event yet, what folding it
        into a copy says: an event the replay does not fold (its command was undone later), or
        the undone tail the live view lists after the current state. An undone event may not
        fit that state (the command before it was undone too: a "Shot applied" finds no shot
        waiting): folding it raises one of ``MISFIT``, and the narrator speaks instead."""
        if (
            self.folds_narrate
            and event.type in self.registry.evolvers
            and not self.holds(state, event)
        ):
            try:
                return self.apply_narrated(self.copy(state), event)[1]
            except MISFIT:
                pass
        narrator = self.registry.narrators.get(event.type)
        return narrator(event, state) if narrator is not None else None

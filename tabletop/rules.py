"""The Ruleset protocol: how a game plugs into the kit (docs/architecture.md, "The event-sourced table").

Pure Python, no Django import, so each game's rules are tested without a database.

A game is a *decider*:

- ``setup(options, seats, rng) -> list[NewEvent]``: the opening events when the table starts.
  ``seats`` is a tuple of ``SeatInfo`` (number 0..n-1 in table order, display name).
- ``decide(state, command, seat, rng) -> list[NewEvent]``: checks the rules against ``state`` and
  returns the events that record what happened; raises ``RuleViolation(code, message)``.
  Randomness only through ``rng`` (a ``tabletop.dice.Dice``), and its outcome written into the
  events: ``evolve`` never draws.
- ``evolve(state, event) -> state``: pure fold of one ``EventRecord`` into a new state.
  Must not mutate its input (return a new object).
- ``view(state, seat) -> dict``: everything seat number ``seat`` may see (``None``: a spectator).
  Hidden information of other seats must not appear in it, not even as a count that was not
  public at the table.
- ``initial_state() -> state``: the state before any event.
- ``dump(state) -> JSON-able`` and ``load(data) -> state``: how the stored projection
  (``Table.state``) is written and read. The defaults assume the state *is* JSON-able.

A ``NewEvent`` with ``final=True`` showed a player something hidden (a drawn card, a revealed
soul): undo stops at it (docs/architecture.md). Pages ask for confirmation before sending such commands;
list their command types in ``Ruleset.final_commands`` so the page and API can say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from tabletop.errors import RuleViolation

JSON = Any


@dataclass(frozen=True)
class SeatInfo:
    """One seat at the table. ``number``: 0..max_seats-1; ``name``: display name."""

    number: int
    name: str


@dataclass(frozen=True)
class Command:
    """What a player asked for: ``type`` (e.g. ``"counter.add"``) and JSON ``data``."""

    type: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class NewEvent:
    """An event a ruleset wants appended. ``type``: dotted, past tense (``"counter.added"``);
    ``data``: JSON-able dict; ``final``: True when it revealed hidden information (no undo)."""

    type: str
    data: dict = field(default_factory=dict)
    final: bool = False


@dataclass(frozen=True)
class EventRecord:
    """A stored event as ``evolve`` sees it. ``version``: 1, 2, 3... in the table's stream;
    ``seat``: the acting seat number or None (the kit or the host)."""

    type: str
    data: dict
    seat: int | None = None
    version: int = 0


class Ruleset(Protocol):
    """What every game implements (see the module docstring)."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    final_commands: frozenset[str]

    def initial_state(self) -> Any: ...
    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng: Any) -> list[NewEvent]: ...
    def decide(
        self, state: Any, command: Command, seat: int | None, rng: Any
    ) -> list[NewEvent]: ...
    def evolve(self, state: Any, event: EventRecord) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def dump(self, state: Any) -> JSON: ...
    def load(self, data: JSON) -> Any: ...


class BaseRuleset:
    """Convenience base: JSON-able state, no options, identity ``dump``/``load``.

    Subclasses set ``name``, ``title``, ``min_seats``, ``max_seats``, and the page template
    ``template`` (a Django template with a ``{% partialdef live %}`` rendering ``view``), and
    implement ``setup``, ``decide``, ``evolve`` and ``view``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 8
    final_commands: ClassVar[frozenset[str]] = frozenset()
    template: ClassVar[str] = ""
    #: True: ``template`` and ``bar_template`` are Jinja2 templates (the app's ``jinja2/``,
    #: ``tabletop.jinja``; DemLoc's); False: Django templates, which the kit's Jinja2 live
    #: region includes (docs/architecture.md, "The live region").
    jinja_live: ClassVar[bool] = False
    #: Optional: a template rendered (same context as ``template``) in the page's fixed bottom
    #: bar, just above the kit's Undo/Redo/Log toolbar: the game's primary actions, in reach
    #: of the thumb of the hand that holds the phone (DemLoc: Next: pass).
    bar_template: ClassVar[str] = ""
    #: Optional, with ``bar_template``: the fields of the view the bar reads, as the
    #: ``pick`` filter names them (``"phase my_turn players[seat]"``). The bottom bar is then
    #: rendered only when they (or the kit's undo and redo) changed, its bytes shared by
    #: every phone with the same (``tabletop.blocks``); empty: rendered for every phone at
    #: every version. ``bar_fresh(view) -> bool``, optional: true when the bar shows what is
    #: not in the view (read from the database): rendered every time then.
    bar_reads: ClassVar[str] = ""
    #: Options a host may set when creating the table: {name: {"label", "choices", "default"}}.
    options_schema: ClassVar[dict] = {}
    #: True for games played in unison: only the seat that sent the last command may undo it.
    undo_own_only: ClassVar[bool] = False
    #: What a final event showed, in a few words for the greyed Undo (``tabletop.live.undo_why``:
    #: "cards shown" for a type not listed; a word or two, the width of the button): {event
    #: type: words}.
    final_words: ClassVar[dict[str, str]] = {}
    #: What the enabled Undo takes back, in a word or two under it (``tabletop.live.undo_what``):
    #: {command type: words}; a type not listed is said by its name ("demloc.fate.gain" ->
    #: "fate gain").
    undo_words: ClassVar[dict[str, str]] = {}
    #: Why Undo stops at a final event, as the refusal of an Undo tapped anyway says it
    #: (``tabletop.log.barrier_words``: "Nothing to undo: <reason>."), for a barrier that hid
    #: nothing (DemLoc's Guild brought, the mission opened): {event type: a phrase}. A type not
    #: listed is said as its ``final_words`` and "(it showed hidden information)".
    final_reasons: ClassVar[dict[str, str]] = {}
    #: Pages of the game outside a table, listed on the home page: ((label, url name), ...).
    links: ClassVar[tuple] = ()

    def initial_state(self) -> Any:
        return {}

    def evolve(self, state: Any, event: EventRecord) -> Any:
        """Fold one event into a new state (subclasses implement it; toolkit games get it)."""
        raise NotImplementedError

    def dump(self, state: Any) -> JSON:
        return state

    def load(self, data: JSON) -> Any:
        return data

    def fold(self, events: list[EventRecord], state: Any = None) -> Any:
        """Fold ``events`` into ``state`` (default: the initial state). Pure."""
        state = self.initial_state() if state is None else state
        for event in events:
            state = self.evolve(state, event)
        return state

    def apply(self, state: Any, event: EventRecord) -> Any:
        """Fold ``event`` into a state the caller owns and return the result (the kit's log
        fold). Toolkit games fold in place; the default falls back to ``evolve``."""
        return self.evolve(state, event)

    def apply_narrated(self, state: Any, event: EventRecord) -> tuple[Any, str | None]:
        """Fold ``event`` into a state the caller owns and give its log line: ``(state,
        line)``, the line narrated against the state before the fold (the kit's replay, which
        folds every event anyway). Toolkit games whose folds say their lines override it
        (``tabletop.decider``, "Saying")."""
        line = self.narrate(event, state)
        return self.apply(state, event), line

    def rebase_ok(self, command_type: str) -> bool:
        """True when a ``command_type`` sent with a stale ``expected_version`` may be decided
        on the table's current state instead of being refused with
        ``Conflict("stale_version")`` (``tabletop.services.run_command``). Default: never.
        Toolkit games mark such commands ``rebase=True`` (``tabletop.decider``, "Rebase")."""
        return False

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands ``seat``'s page offers given its ``view`` (data filled in as the page
        would), for random playouts (``tabletop.testing.playout``). Default: none."""
        return []

    def narrate(self, event: EventRecord, state: Any) -> str | None:
        """The log line of ``event`` (``state``: the game state just before it in a full
        replay, or the current state for the latest lines). None: the kit shows the label."""
        return None


def require(condition: bool, code: str, message: str) -> None:
    """Raise ``RuleViolation(code, message)`` unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(code, message)


def counted(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun in the number it takes, for log lines and refusals written by pure
    rules code (no Django here, so not ``django.template.defaultfilters.pluralize``, whose
    choice it copies: the singular for exactly 1, else the plural; templates use that filter):
    ``counted(1, "heart token")`` -> "1 heart token", ``counted(2, "heart token")`` -> "2 heart
    tokens", ``counted(1, "arcane die", "arcane dice")`` -> "1 arcane die". ``words``: the
    plural when it is not ``word + "s"``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"

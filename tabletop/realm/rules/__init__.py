"""Pixel Demon's Realm on the decider toolkit (pure, no Django import).

Rulebook: the Pixel Demon's Realm rulebook; sections are named in each
docstring. Seats are numbered clockwise, so "the player on your left" is ``(seat + 1) % n``
and play passes to that seat.

Where things are (one topic module each, commands and folds side by side):
``prelude`` (opening, Pacts, Afflictions), ``turns`` (Draw, Reset, Purge, new demons),
``deck`` (drawing, reshuffling, discarding), ``binding`` (the ritual, its disruption, curses),
``actions`` (releasing a Demon, summoning a Vessel), ``eaters`` (attaching and feeding),
``wardens`` (Seekers, Keepers, Mimics), ``winning`` (announcing a Pact); ``common`` (shared
checks: whose turn, which cards a curse bans), ``view`` (what a seat sees, its moves),
``cards`` (components, the binding check, curses, pacts), ``state`` (the shapes).

Choices where the rulebook is silent (documented again where applied):

- Pacts: option ``pacts`` = ``acolyte-a`` / ``acolyte-b`` (the two sides of the shared Acolyte
  Pact) or ``secret`` (each player picks one of the face-down Pact cards during the prelude).
- The Draw step happens automatically when a turn starts (1 card, then up to 6).
- Every card played in a ritual must meet at least one corner (at most 4 cards).
- A Mimic that finds no non-Vessel card draws a card, like a Seeker or Keeper that finds none.
- Curse bans apply wherever a card is played (FAQ "Curse Combinations": "Your Skulls are all
  3's, therefore, you may not play Skulls"): in a ritual, feeding an Eater, attaching an Eater,
  playing a Seeker or Keeper, summoning a Vessel, exorcising a Vessel (``cards.banned``).
  Outside a ritual a card otherwise keeps its printed suit and rank (summoning needs three of
  one printed suit or rank; an Eater is fed with its printed suit), and discarding is not
  playing. A Vessel in a ritual counts as its declared suit and rank before curses apply.
- Curses transforming a suit ("Your Skulls are all 8s") apply to every card of that suit,
  Aces and Wardens included.
- Option ``auto_pass``: skip the disruption prompt of a player who holds no usable card (faster,
  but everyone then learns they hold none). Off by default: everyone is asked, as at the table.
- Option ``affliction_demons``: without Afflictions, Demons whose curse relates only to them
  (rulebook "Afflictions": "you may choose not to play with these Demons") are left out by
  default, or kept (their curses then do nothing).
- A binder asked to feed an Eater may decline (the binding is disrupted); with no card of the
  Eater's suit it may play, the binding is disrupted at once.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import DeciderRuleset, Decision
from tabletop.errors import RuleViolation
from tabletop.rules import Command, EventRecord, NewEvent, SeatInfo

from . import cards as C
from .actions import actions
from .binding import binding
from .deck import deck
from .eaters import eaters
from .prelude import maybe_begin, prelude
from .state import OPENED, RealmState
from .turns import turns
from .view import moves as _moves
from .view import view as _view
from .wardens import wardens
from .winning import winning

__all__ = ["OPENED", "RealmRuleset"]

#: Events of a seat that do not close the hand it is looking at.
_KEEP_GLIMPSE = frozenset({"realm.hand.shown", "realm.cards.drawn"})


def _require(condition: object, code: str, message: str) -> None:
    if not condition:
        raise RuleViolation(code, message)


class RealmRuleset(DeciderRuleset):
    """Pixel Demon's Realm for 2-4 players (rulebook "Overview"). ``setup`` takes the content
    (demons, pacts, afflictions) as data, gathered at table start by the app's content
    provider (``tabletop.realm.content_db.gather``), and copies it into the opening event, so a
    replay never reads the content source again."""

    name = "realm"
    title = "Pixel Demon's Realm"
    min_seats = 2
    max_seats = 4
    template = "realm/live.html"
    bar_template = "realm/_bar.html"  # whose turn / what to choose, in the fixed bottom bar
    # Why Undo is greyed after each final event (tabletop.live.undo_why): a word or two, the
    # width of the Undo button at 360 px.
    final_words = {
        "realm.table.opened": "hands dealt",
        "realm.cards.drawn": "card drawn",
        "realm.pact.chosen": "Pact taken",
        "realm.affliction.given": "Affliction given",
        "realm.demon.bound": "curse shown",
        "realm.hand.shown": "hand shown",
        "realm.pact.fulfilled": "game over",
    }
    stylesheet = "realm/realm.css"
    script = "realm/realm.js"  # loaded once by the table page (no inline script: CSP)
    topics = (prelude, turns, deck, binding, actions, eaters, wardens, winning)
    options_schema = {
        "pacts": {
            "label": "Pacts",
            "choices": [
                ["acolyte-a", "Acolyte Pact, side A (shared)"],
                ["acolyte-b", "Acolyte Pact, side B (shared)"],
                ["secret", "Secret Pacts (each picks one face down)"],
            ],
            "default": "acolyte-a",
        },
        "afflictions": {
            "label": "Afflictions",
            "choices": [["off", "Off"], ["on", "On"]],
            "default": "off",
        },
        "affliction_demons": {
            "label": "Demons whose curse needs Afflictions (when Afflictions are off)",
            "choices": [
                ["leave-out", "Leave them out"],
                ["keep", "Keep them (their curses may do nothing)"],
            ],
            "default": "leave-out",
            "help": 'Rulebook, "Afflictions": "If you aren\'t playing with Afflictions, you may '
            'choose not to play with these Demons. If you still do, their curses may have no '
            'effect." With Afflictions on they are always in.',
        },
        "auto_pass": {
            "label": "Skip disruption prompts for players without a usable card",
            "choices": [["off", "Off (ask everyone)"], ["on", "On (faster)"]],
            "default": "off",
        },
    }

    # --- state ------------------------------------------------------------------------------

    def initial_state(self) -> RealmState:
        return {"phase": "new"}

    def is_finished(self, state: RealmState) -> bool:
        """True once a Pact was fulfilled (the kit then marks the table finished)."""
        return state.get("phase") == "over"

    def players(self, state: RealmState) -> int:
        return state.get("n", 0)

    def fold_into(self, state: Any, event: EventRecord) -> Any:
        """The toolkit's fold, after the one rule common to every event: any event of a seat
        (``data["seat"]``), except a draw or a hand shown, closes the hand it was looking at."""
        seat = event.data.get("seat") if isinstance(event.data, dict) else None
        if isinstance(seat, int) and "glimpse" in state and event.type not in _KEEP_GLIMPSE:
            state["glimpse"][seat] = None
        return super().fold_into(state, event)

    # --- setup (rulebook "Setup") -------------------------------------------------------------

    def setup(
        self, options: dict, seats: tuple[SeatInfo, ...], rng: Any, content: dict | None = None
    ) -> list[NewEvent]:
        """Opening events: shuffled Demon and Ritual decks, the Active Demon with the Portal Card
        beneath, a Personal Demon per player from the bottom of the Demon Deck, Pacts, 5 cards
        each, a random first player (rulebook "Setup"); Afflictions when the option is on
        (rulebook "Afflictions"). ``content``: ``{"demons", "pacts", "afflictions"}`` (lists of
        dicts in the shapes of ``cards``). Raises ``RuleViolation("seats"|"content")``."""
        n = len(seats)
        _require(2 <= n <= 4, "seats", "Realm is played by 2 to 4 players.")
        _require(
            isinstance(content, dict) and all(isinstance(content.get(k), list) for k in ("demons", "pacts", "afflictions")),
            "content",
            "No Realm content (demons, pacts, afflictions) was gathered for this table.",
        )
        assert content is not None
        options = {k: options.get(k, v["default"]) for k, v in self.options_schema.items()}
        demons = {d["id"]: d for d in content["demons"]}
        for demon in demons.values():
            C.validate_demon(demon)
        if options["afflictions"] == "off" and options["affliction_demons"] == "leave-out":
            demons = {k: d for k, d in demons.items() if not d.get("affliction_only")}
        _require(len(demons) >= n + 1, "content", "Not enough demons for this table.")
        mode = options["pacts"]
        if mode == "secret":
            pacts = [p for p in content["pacts"] if not p.get("acolyte")]
            _require(len(pacts) >= n, "content", "Not enough secret Pacts for this table.")
        else:
            pacts = [p for p in content["pacts"] if p["id"] == mode]
            _require(len(pacts) == 1, "content", "The Acolyte Pact is missing.")
        for pact in pacts:
            C.validate_conditions(pact["conditions"])
        afflictions = content["afflictions"] if options["afflictions"] == "on" else []
        _require(
            not afflictions or len(afflictions) >= 2 * n, "content", "Not enough Affliction cards for this table."
        )

        order = rng.shuffled(sorted(demons))
        active, below = order[0], order[1:]
        personal = [below.pop() for _ in range(n)]  # each takes the card at the bottom
        cards = rng.shuffled(C.RITUAL_DECK)
        hands = [cards[5 * k : 5 * k + 5] for k in range(n)]
        first = rng.randbelow(n)
        slots = rng.shuffled(sorted(p["id"] for p in pacts)) if mode == "secret" else []
        aff_deck = rng.shuffled(sorted(a["id"] for a in afflictions)) if afflictions else []
        drawer = rng.randbelow(n) if afflictions else None
        data = {
            "names": [s.name for s in seats],
            "options": options,
            "content": {
                "demons": demons,
                "pacts": {p["id"]: p for p in pacts},
                "afflictions": {a["id"]: a for a in afflictions},
            },
            "active": active,
            "demon_deck": below,
            "personal": personal,
            "deck": cards[5 * n :],
            "hands": hands,
            "vessels": list(C.VESSELS),
            "first": first,
            "acolyte": None if mode == "secret" else mode,
            "pact_slots": slots,
            "affliction_deck": aff_deck,
            "affliction_drawer": drawer,
        }
        d = Decision(self, self.initial_state(), None, rng)
        d.emit(OPENED, data, final=True)
        maybe_begin(d)
        return d.events

    # --- what a seat sees -----------------------------------------------------------------------

    def view(self, state: RealmState, seat: int | None) -> dict:
        """What ``seat`` sees (``view.view``; FAQ "Public Information")."""
        return _view(state, seat)

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands ``seat``'s page offers (``view.moves``)."""
        return _moves(view, seat)

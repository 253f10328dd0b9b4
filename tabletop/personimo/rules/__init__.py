"""Personimo, the Decktet district-building game by M. C. DeMarco, on the decider toolkit.

Pure Python, no Django import. Specification: the Personimo rules (cited by its
section titles). Where is what:

- ``options``: the variants (``OPTIONS_SCHEMA``), their checks and the sizes they set;
- ``setup``: start cards, deck, token order, first row [``personimo.game.set_up``];
- ``market``: sorting and dealing rows [``personimo.market.dealt``], turn order;
- ``claims``: ``personimo.claim`` [``personimo.card.claimed``], The Waning;
- ``placement``: ``personimo.place``/``discard``/``shift`` [``personimo.card.placed``,
  ``personimo.card.discarded``, ``personimo.district.shifted``];
- ``grid``: the geometry of a district (legal placements, shifting, the page's grid);
- ``end``: dealing the next season or ending the game [``personimo.game.ended``];
- ``scoring``: neighborhoods, scoring cards, bonuses, tiebreakers; ``cards``: the Decktet;
  ``physical``: scoring a district played with real cards; ``view``: views and page moves;
  ``state``: the TypedDicts of the state and the event payloads.

Flow of a game: setup deals the first sorted row; claims in token order (cards left unclaimed
are discarded); each season a new row is dealt (empty in the last season, when the deck is
exhausted) and, in the order of the tokens on the old row, each token's owner places the old
card (or discards it when no legal placement exists) and claims a card of the new row; the
player may shift their layout on their turn. After the last placement the game ends with the
final scores.

Choices where the rulebook is unclear (documented on the functions that implement them):

- Start cards: Setup step 1 names the Borderland, the Harvest, the Island, the Rite and the
  Window as "the Pawn and Court locations", but the Harvest and the Rite are events and The
  Kickoff variant is what "allows events (the Harvest, the Rite) to be start cards". Default:
  the three locations; option ``start_cards=kickoff`` adds the two events; ``head_start`` uses
  the three personalities. With a double Decktet there are two copies of each start card.
- Suits are assigned when a card is placed ("suits should be selected before the next card
  placement"); the app always asks then, so no block is left unassigned at the end.
- The layout lives on the ``size`` x ``size`` grid; "the entire layout may be shifted" is the
  ``shift`` command (one step, only while everything stays on the grid). A card is discarded
  only when no placement exists in any shifted position.
- A deck that does not divide into rows (Courting Danger, Excuses Wild, 6x6, Jacynimo) ends
  with a short row, shared out: a placer who already holds more of its cards than another
  player still to place passes (``market.may_claim``), so 6x6 deals 17 cards each and
  Jacynimo 15, what the districts hold. Tables set up before keep first come, first served.
- 7x7 with three players and Jacynimo with three use a three-card market (no discard), so the
  72-card pool is 24 cards each and Jacynimo's "15 cards per player" are all kept.
- Teamwork: seats 1-2, 3-4, 5-6 are teams; each team builds one 7x7 district (``teams``).
- Solitaire ratings (50+ / under 35; 7x7x3: 120+) apply to The Waning too (``view.rating``).
- Variants offered and refused, with the reasons: see ``options`` (``OPTIONS_SCHEMA`` help
  texts quote the rulebook; ``REFUSED``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tabletop.decider import DeciderRuleset
from tabletop.rules import Command, NewEvent, SeatInfo

from .claims import CLAIMED, claims, waning_allowed
from .end import ENDED, end, score_results
from .grid import (
    PLACEMENT_MESSAGES,
    SHIFT_DIRECTIONS,
    can_shift,
    district_grid,
    legal_placements,
    orientations,
    placeable_anywhere,
    placement_error,
    start_headquarters,
)
from .market import DEALT, market, next_market, sort_market
from .options import (
    DECKS,
    OPTIONS_SCHEMA,
    RACE_ORDER,
    START_CARDS,
    build_deck,
    deck_size,
    district_size,
    market_size,
    normalize_options,
    token_order,
)
from .placement import DISCARDED, PLACED, SHIFTED, placement
from .setup import SET_UP, set_up_events, setup
from .state import PersonimoState
from .view import moves, view


class PersonimoRuleset(DeciderRuleset):
    """Personimo for 1-6 players (solitaire: The Waning). See the package docstring. The last
    claim of a row deals the next row (cards come to light): ``personimo.claim`` reveals."""

    name = "personimo"
    title = "Personimo"
    min_seats = 1
    max_seats = 6
    template = "personimo/live.html"
    bar_template = "personimo/_bar.html"  # whose turn and my next step, at the bottom
    # Why Undo is greyed after a final event (tabletop.live.undo_why).
    final_words: ClassVar[dict[str, str]] = {"personimo.market.dealt": "market dealt"}
    links = (("Score a Personimo game played with real cards", "personimo:score"),)
    stylesheet = "personimo/personimo.css"
    script = "personimo/personimo.js"  # loaded once by the table page (no inline script: CSP)
    options_schema: ClassVar[dict] = OPTIONS_SCHEMA
    topics = (setup, market, claims, placement, end)

    def initial_state(self) -> PersonimoState:
        """``{"phase": "new"}``; the keys after setup: ``state.PersonimoState``."""
        return {"phase": "new"}

    def is_finished(self, state: PersonimoState) -> bool:
        """True once ``personimo.game.ended`` was folded in (the kit then closes the table)."""
        return state.get("phase") == "over"

    def setup(
        self, options: dict, seats: tuple[SeatInfo, ...], rng: Any, content: dict | None = None
    ) -> list[NewEvent]:
        """``setup.set_up_events`` (Personimo needs no content from the database)."""
        return set_up_events(options, seats, rng)

    def view(self, state: PersonimoState, seat: int | None) -> dict:
        """``view.view``: what ``seat`` (None: a spectator) sees."""
        return view(state, seat)

    def moves(self, view: dict, seat: int) -> list[Command]:
        """``view.moves``: the commands ``seat``'s page offers."""
        return moves(view, seat)


__all__ = [
    "CLAIMED", "DEALT", "DECKS", "DISCARDED", "ENDED", "OPTIONS_SCHEMA", "PLACED",
    "PLACEMENT_MESSAGES", "RACE_ORDER", "SET_UP", "SHIFTED", "SHIFT_DIRECTIONS", "START_CARDS",
    "PersonimoRuleset", "build_deck", "can_shift", "deck_size", "district_grid",
    "district_size", "legal_placements", "market_size", "next_market", "normalize_options",
    "orientations", "placeable_anywhere", "placement_error", "score_results", "sort_market",
    "start_headquarters", "token_order", "waning_allowed",
]  # fmt: skip

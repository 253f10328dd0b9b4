"""The shapes of Personimo's state and event payloads (JSON-able dicts). Pure, no Django.

Cells are ``[row, column]`` lists in ``0..size-1``; cards are instance ids ``"<key>/<copy>"``
(``"pact/1"``, ``cards.card``); seats are numbers ``0..players-1``.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Actor(TypedDict):
    """Whose turn it is: ``action`` "claim" or "place"; ``slot``: the old-row entry placed."""

    seat: int
    action: str
    slot: int | None


class RowEntry(TypedDict):
    """A card of the new market row and the seat whose token is on it (None: unclaimed)."""

    card: str
    seat: int | None


class OldRowEntry(TypedDict):
    """A claimed card of the old row, waiting to be placed (``done`` once placed)."""

    card: str
    seat: int
    done: bool


class Headquarters(TypedDict):
    """The start card on ``cell``; on 6x6 also ``cell2`` and, once chosen, ``suits`` (one list
    per square)."""

    card: str
    cell: list[int]
    cell2: NotRequired[list[int]]
    suits: NotRequired[list[list[str]]]


class Placed(TypedDict):
    """A placed card: its blocks and the suit on each (Jacynimo: one square, all suits)."""

    card: str
    cells: list[list[int]]
    suits: list[str]


class District(TypedDict):
    """One player's district. ``squares``: 1 in Jacynimo; ``sprawl``: Urban Sprawl."""

    hq: Headquarters
    cards: list[Placed]
    discards: list[str]
    squares: NotRequired[int]
    sprawl: NotRequired[bool]


class PersonimoState(TypedDict, total=False):
    """The projection. Before setup only ``phase`` ("new"); then phase ("claim" while the first
    row is claimed, "turn", "over"), names, options (normalized, ``options.normalize_options``),
    size (district side), deck (hidden order), set_aside, discard, tokens (initial token order,
    seat numbers), market_size, season (rows dealt), seasons (rows in the game), preview (The
    Soothsayer), row, old_row, claim_queue (tokens still to claim the first row), actor,
    picks (solitaire: the position claimed per row), results (final scores, one per seat),
    districts (one per seat; with Teamwork one per team), teams (Teamwork: seat -> team)."""

    phase: str
    names: list[str]
    options: dict[str, Any]
    size: int
    deck: list[str]
    set_aside: list[str]
    discard: list[str]
    tokens: list[int]
    market_size: int
    season: int
    seasons: int
    preview: list[str]
    row: list[RowEntry]
    old_row: list[OldRowEntry]
    claim_queue: list[int]
    actor: Actor | None
    picks: list[int]
    results: list[dict[str, Any]] | None
    districts: list[District]
    teams: list[int]


# --- event payloads ---------------------------------------------------------------------------


class SetUpData(TypedDict):
    """``personimo.game.set_up``: everything dealt before the first market."""

    names: list[str]
    options: dict[str, Any]
    size: int
    start_cards: list[str]
    deck: list[str]
    set_aside: list[str]
    tokens: list[int]
    market_size: int
    first_row: int
    teams: NotRequired[list[int]]


class DealtData(TypedDict):
    """``personimo.market.dealt``: the sorted new row (empty in the last season), how many
    cards left the deck, the season number, and The Soothsayer's next row."""

    cards: list[str]
    season: int
    dealt: int
    preview: NotRequired[list[str]]


class ClaimedData(TypedDict):
    """``personimo.card.claimed``: the row position and its card."""

    index: int
    card: str


class PlacedData(TypedDict):
    """``personimo.card.placed``."""

    card: str
    cells: list[list[int]]
    suits: list[str]


class DiscardedData(TypedDict):
    """``personimo.card.discarded``: a card with no legal placement."""

    card: str


class ShiftedData(TypedDict):
    """``personimo.district.shifted``: one step (``dr``, ``dc`` in -1..1, one of them 0)."""

    dr: int
    dc: int


class EndedData(TypedDict):
    """``personimo.game.ended``: ``scoring.score_table`` rows with ``seat`` and ``name``."""

    results: list[dict[str, Any]]

"""Declared shapes of Demon Espionage: the state and each event payload (JSON-shaped).

Seats are list indexes 0..n-1 in table order. Hidden information: a player's ``faction``
(until ``revealed``), the values of their ``souls``, the order of ``soul_deck`` and the duel
cards before the reveal (``view`` shows each to its owner only, and everything at the end)."""

from __future__ import annotations

from typing import TypedDict


class Card(TypedDict):
    """A combat card played face down: ``kind`` troop|dummy|action, ``damage`` 0..9,
    ``symbol`` rock|paper|scissors|None, ``name`` the action card key or None."""

    kind: str
    damage: int
    symbol: str | None
    name: str | None


class Player(TypedDict):
    name: str
    faction: str
    health: int  # 0..5
    souls: list[int]  # soul card values 1..3, in the order drawn
    revealed: bool
    eliminated: bool


class Duel(TypedDict, total=False):
    initiator: int
    opponent: int
    stage: str  # cards | actions | confirm | settling
    cards: list[Card | None]  # [initiator's, opponent's]
    actions: list[list[str] | None]
    revealed: bool
    claims: list[str | None]
    rps: bool
    by_cards: str


class Result(TypedDict):
    reason: str  # faction_eliminated | souls_exhausted
    factions: list[str]
    souls: list[list[int]]
    bonus_faction: str | None
    bonus: list[int]
    totals: dict[str, int]
    winner: str | None
    settled_by: str  # souls | survivors | health | shared


class State(TypedDict, total=False):
    phase: str  # new | playing | ended
    options: dict[str, str]
    players: list[Player]
    soul_deck: list[int]  # top first (hidden)
    reveal_cards: int  # Reveal cards kept in the combat deck (1 or 2)
    reveals_required: int  # the 2-health reveal rule (1 or 2 players)
    reveals_done: int
    active: int  # whose turn
    turn: int  # 1, 2, 3...
    used: list[int]  # combat cards each seat used this turn (the draw-back reminder)
    hand_changed: bool
    duel: Duel | None
    draw_back: list[list[int]]  # the last turn's reminder [[seat, cards], ...]
    result: Result | None


# ---- event payloads ------------------------------------------------------------------------


class Prepared(TypedDict):
    """``espionage.game.prepared`` (final)."""

    names: list[str]
    factions: list[str]
    soul_deck: list[int]
    first: int
    reveal_cards: int
    reveals_required: int
    options: dict[str, str]


class SeatOnly(TypedDict):
    """``espionage.turn.started``, ``espionage.hand.changed``."""

    seat: int


class Challenged(TypedDict):
    initiator: int
    opponent: int


class CardCommitted(TypedDict):
    seat: int
    card: Card


class ActionsCommitted(TypedDict):
    seat: int
    cards: list[str]


class Revealed(TypedDict, total=False):
    """``espionage.duel.revealed`` (final). ``initiator``/``opponent``: added for the log
    (events stored before carry only the cards)."""

    cards: list[Card]
    actions: list[list[str]]
    rps: bool
    by_cards: str
    needs_confirmation: bool
    initiator: int
    opponent: int


class Claimed(TypedDict):
    seat: int
    outcome: str  # initiator | opponent | tie


class Settled(TypedDict):
    outcome: str
    winner: int | None
    loser: int | None


class Cancelled(TypedDict):
    reason: str


class SoulDrawn(TypedDict):
    """``espionage.soul.drawn`` (final): ``reason`` duel|elimination."""

    seat: int
    value: int
    reason: str


class HealthChanged(TypedDict):
    seat: int
    delta: int
    health: int
    by: int | None


class FactionRevealed(TypedDict):
    """(final) ``reason`` two_health|eliminated."""

    seat: int
    faction: str
    reason: str


class Eliminated(TypedDict):
    seat: int
    by: int | None


class ActionRecorded(TypedDict):
    seat: int
    card: str
    target: int | None
    health: int  # -1, 0, +1


class TurnEnded(TypedDict):
    seat: int
    draw_back: list[list[int]]
    hand_changed: bool


class GameEnded(Result):
    """``espionage.game.ended`` (final): the scoring."""

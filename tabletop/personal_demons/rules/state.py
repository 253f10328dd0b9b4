"""Declared shapes of Personal Demons: the state (app-dealt and physical table) and the event
payloads (JSON-shaped). Card content and boards are described in ``board`` and ``content``."""

from __future__ import annotations

from typing import Any, TypedDict

#: A summoning circle (see ``board``): ``{"placements": [{pid, card, size, spaces, half,
#: face_up, fear}, ...] (bottom to top), "seals": [{sid, colour, active, point, on}, ...],
#: "next": int, "next_sid": int}``. A plain dict: ``board``'s pure functions take any board.
Board = dict[str, Any]


class Offer(TypedDict):
    """A colossal ability another player summoned that this player may use (FAQ): ``card``
    (the colossal's id), ``by`` (its summoner's seat)."""

    card: str
    by: int


class Player(TypedDict, total=False):
    name: str
    hand: list[str]  # card ids (hidden)
    candidates: list[str]  # the four hefty/colossal dealt at setup (hidden)
    personal: list[str]  # the two kept (hidden; their count is public)
    courage: list[str]
    board: Board
    sins: dict[str, int]  # glut/hate/want 0..6
    score: int
    setup_done: bool
    placed: str | None  # pid placed face down this turn
    reveal: dict[str, Any] | None  # the reveal choice (hidden until everyone chose)
    bonus: str | None  # None | declined | acted
    drawn: str | None  # a card drawn by a bonus action, to place
    keeper: list[str] | None  # Keeper: Knights and Fragments to choose among
    scoring: list[dict[str, Any]]  # the last scoring phase, line by line
    fear_card: str | None
    offers: list[Offer]  # colossal "may" abilities waiting for this player's choice


class State(TypedDict, total=False):
    phase: str  # new | setup | summoning | scoring | end | over (| physical)
    mode: str  # "physical" at a physical table
    catalog: dict[str, dict[str, Any]]  # id -> card face, copied in at setup
    geometry: dict[str, Any]
    options: dict[str, str]
    solo: bool
    leader: int
    round: int  # 1..3
    turn: int  # 0..6
    step: str  # setup | place | reveal | bonus | scoring | end | over
    bonus_order: list[int]
    players: list[Player]
    decks: dict[str, list[str]]  # draw piles, sorted ids (the draw is random)
    discards: dict[str, list[str]]  # royal / fragment / courage discard piles
    out: list[str]  # cards returned to the box (unkept candidates, discarded demons, Fears)
    winners: list[int]
    rating: str | None


# ---- event payloads (the main ones; every payload carries ``seat`` when it is one seat's) ----


class GameStarted(TypedDict):
    catalog: dict[str, dict[str, Any]]
    geometry: dict[str, Any]
    options: dict[str, str]
    seats: list[str]
    solo: bool
    leader: int


class CardsDealt(TypedDict):
    """(final) ``to``: courage | fear | candidates | hand."""

    seat: int
    to: str
    cards: list[str]


class SetupDone(TypedDict):
    seat: int
    fear_space: list[int]
    keep: list[str]


class SinChanged(TypedDict):
    seat: int
    sin: str
    delta: int
    value: int
    why: str


class ScoreGained(TypedDict, total=False):
    seat: int
    points: int
    reason: str
    scoring: bool


class PersonalSummoned(TypedDict):
    """(final)"""

    seat: int
    card: str
    spaces: list[list[int]]


class AbilityOffered(TypedDict):
    """``pd.ability.offered``: the ``seats`` that may use the colossal ``card``'s ability."""

    seat: int
    card: str
    seats: list[int]


class AbilityAnswered(TypedDict):
    """``pd.ability.used`` / ``pd.ability.declined``: ``seat`` chose about ``card``."""

    seat: int
    card: str


class PhysStarted(TypedDict):
    seats: list[str]
    leader: int

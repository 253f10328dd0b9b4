"""The shapes of Pixel Demon's Realm: the game state and every event payload (pure).

Card ids are strings (``tabletop.realm.rules.cards``); seats are ints numbered clockwise; a
demon *slot* is ``"active"`` or ``"p<seat>"`` (that seat's Personal Demon). The state holds no
prose: log lines are narrated from the events (``tabletop.decider``, "Narration is not state").
"""

from __future__ import annotations

from typing import Any, TypedDict

OPENED = "realm.table.opened"


class Demon(TypedDict, total=False):
    id: str
    name: str
    title: str
    lore: str
    curse: str
    lasting: bool
    corners: list[str]
    effects: list[dict[str, Any]]
    affliction_only: bool


class Pact(TypedDict, total=False):
    id: str
    name: str
    text: str
    side: str
    acolyte: bool
    conditions: list[dict[str, Any]]


class Affliction(TypedDict):
    id: str
    name: str
    text: str


class Content(TypedDict):
    """What setup receives (lists) and the opening event carries (dicts by id)."""

    demons: Any
    pacts: Any
    afflictions: Any


class Bound(TypedDict):
    demon: str
    personal: bool  # bound as its binder's Personal Demon


class Player(TypedDict):
    hand: list[str]
    personal: str | None
    bound: list[Bound]
    pact: str | None  # secret Pact id
    affliction: str | None


class Ritual(TypedDict):
    binder: int
    slot: str
    demon: str
    cards: list[str]
    declared: dict[str, dict[str, str]]
    assignment: list[dict[str, str]]
    step: str  # exorcise | eater | feed | bound
    responder: int | None
    eater: str | None


class Take(TypedDict):
    seat: int
    target: int
    choices: list[str]


class Glimpse(TypedDict):
    target: int
    kind: str
    ask: str | None
    cards: list[str]


class Afflictions(TypedDict):
    deck: list[str]
    drawer: int | None
    offer: list[str]


class LastCurse(TypedDict):
    seat: int
    name: str
    curse: str
    lasting: bool


class RealmState(TypedDict, total=False):
    phase: str  # new | prelude | act | ritual | over
    n: int
    names: list[str]
    options: dict[str, str]
    content: dict[str, dict[str, Any]]
    active: str | None
    demon_deck: list[str]  # below the Portal Card, top first
    deck: list[str]  # the Ritual Deck, top first
    discard: list[str]
    vessels: list[str]  # the Vessel Stack
    eaters: dict[str, list[str]]  # slot -> attached Eaters
    players: list[Player]
    first: int
    turn: int | None
    turn_no: int
    acted: bool
    must_end: bool
    ritual: Ritual | None
    take: Take | None
    glimpse: list[Glimpse | None]
    acolyte: str | None
    pact_slots: list[str]
    afflictions: Afflictions
    winner: int | None
    last_curse: LastCurse | None


# --- event payloads (types named in each topic module) ------------------------------------


class Opened(TypedDict):
    names: list[str]
    options: dict[str, str]
    content: dict[str, dict[str, Any]]
    active: str
    demon_deck: list[str]
    personal: list[str]
    deck: list[str]
    hands: list[list[str]]
    vessels: list[str]
    first: int
    acolyte: str | None
    pact_slots: list[str]
    affliction_deck: list[str]
    affliction_drawer: int | None


class PactChosen(TypedDict):
    seat: int
    pact: str


class AfflictionGiven(TypedDict):
    seat: int
    to: int
    card: str
    discarded: list[str]


class SeatOnly(TypedDict):
    """``realm.turn.started``, ``realm.turn.ended``."""

    seat: int


class CardsMoved(TypedDict):
    """``realm.cards.drawn`` / ``realm.cards.discarded`` / ``realm.turn.purged``; ``why``:
    draw, reset, purge, curse, release, seeker, keeper, mimic."""

    seat: int
    cards: list[str]
    why: str


class Reshuffled(TypedDict):
    order: list[str]


class RitualBegun(TypedDict):
    seat: int
    slot: str
    demon: str
    cards: list[str]
    declared: dict[str, dict[str, str]]
    assignment: list[dict[str, str]]


class RitualPassed(TypedDict):
    seat: int
    step: str
    auto: bool


class Exorcised(TypedDict):
    seat: int
    binder: int
    vessel: str
    card: str


class EaterPlayed(TypedDict):
    seat: int
    card: str


class Fed(TypedDict):
    seat: int
    eater: str
    card: str


class Disrupted(TypedDict):
    seat: int
    eater: str
    auto: bool


class DemonBound(TypedDict):
    seat: int
    slot: str
    demon: str
    cards: list[str]
    personal: bool


class DemonMoved(TypedDict):
    """``realm.demon.released`` (``seat``, ``demon``); ``realm.demon.revealed`` adds ``slot``."""

    seat: int
    demon: str


class Summoned(TypedDict):
    seat: int
    cards: list[str]
    vessel: str


class EaterAttached(TypedDict):
    seat: int
    card: str
    slot: str


class EaterFed(TypedDict):
    seat: int
    slot: str
    eater: str
    card: str


class WardenPlayed(TypedDict):
    seat: int
    card: str
    kind: str  # seeker | keeper | mimic
    target: int
    ask: str | None


class HandShown(TypedDict):
    seat: int
    target: int
    kind: str
    ask: str | None
    cards: list[str]
    choices: list[str]


class Taken(TypedDict):
    seat: int
    target: int
    card: str


class Fulfilled(TypedDict):
    seat: int
    pact: str

"""The Ritual Deck and the discard pile: drawing, reshuffling, discarding (rulebook "Ritual
Cards", FAQ "Discarding Vessels", "Drawing Cards")."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from . import cards as C
from .common import name
from .state import RealmState

deck = Topic("deck")


def draw(d: Decision, seat: int, count: int, why: str) -> None:
    """Draw ``count`` cards for ``seat``; when the Ritual Deck runs out the discard pile is
    shuffled into a new deck (rulebook "Ritual Cards"). Draws fewer if both are empty."""
    while count > 0:
        st = d.state
        if not st["deck"]:
            if not st["discard"]:
                return
            d.emit("realm.deck.reshuffled", {"order": d.rng.shuffled(st["discard"])})
            st = d.state
        take = st["deck"][: min(count, len(st["deck"]))]
        d.emit("realm.cards.drawn", {"seat": seat, "cards": take, "why": why}, final=True)
        count -= len(take)


def to_discard(st: RealmState, cards: list[str]) -> None:
    """Played or discarded cards: Vessels back to the Vessel Stack, the rest face up on the
    discard pile (FAQ "Discarding Vessels")."""
    for c in cards:
        (st["vessels"] if C.is_vessel(c) else st["discard"]).append(c)


def from_hand(st: RealmState, seat: int, cards: list[str]) -> None:
    hand = st["players"][seat]["hand"]
    for c in cards:
        hand.remove(c)


def _plural(k: int) -> str:
    return f"{k} card{'s' if k != 1 else ''}"


@deck.evolver("realm.cards.drawn", label="drew (or dealt) cards")
def _drawn(st: RealmState, event: EventRecord) -> None:
    d = event.data
    k = len(d["cards"])
    assert st["deck"][:k] == d["cards"], "drawn cards are not the top of the deck"
    st["deck"] = st["deck"][k:]
    st["players"][d["seat"]]["hand"] += d["cards"]


@deck.narrator("realm.cards.drawn")
def _say_drawn(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} drew {_plural(len(event.data['cards']))}."


@deck.evolver("realm.deck.reshuffled", label="reshuffled the discard pile")
def _reshuffled(st: RealmState, event: EventRecord) -> None:
    order = event.data["order"]
    assert sorted(order) == sorted(st["discard"]), "reshuffle must use the discard pile"
    st["deck"] = st["deck"] + list(order)
    st["discard"] = []


@deck.narrator("realm.deck.reshuffled")
def _say_reshuffled(event: EventRecord, st: RealmState) -> str:
    return "The discard pile was shuffled into a new Ritual Deck."


@deck.evolver("realm.cards.discarded", label="discarded cards")
def _discarded(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["seat"], d["cards"])
    to_discard(st, d["cards"])


@deck.narrator("realm.cards.discarded")
def _say_discarded(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} discarded {_plural(len(event.data['cards']))}."

"""Two plain actions of one's turn: releasing a bound Demon and summoning a Vessel (rulebook
"Releasing a Demon", "Vessels")."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from . import cards as C
from .common import acting, hand_cards, name, require_playable, seat_of
from .deck import draw, from_hand
from .state import RealmState

actions = Topic("actions")


@actions.command("realm.demon.release", reveals=True)
def release(d: Decision, data: Data) -> None:
    """``{"demon": id}``: move one of your bound demons to the bottom of the Demon Deck, its
    lasting curse ends, draw 3 cards (rulebook "Releasing a Demon"). Code ``not_bound``."""
    seat = seat_of(d)
    st = d.state
    acting(st, seat)
    demon = data.get("demon")
    d.require(
        isinstance(demon, str) and any(b["demon"] == demon for b in st["players"][seat]["bound"]),
        "not_bound",
        "That Demon is not bound to you.",
    )
    d.emit("realm.demon.released", {"seat": seat, "demon": demon})
    draw(d, seat, 3, "release")


@actions.evolver("realm.demon.released", label="released a Demon")
def _released(st: RealmState, event: EventRecord) -> None:
    bound = st["players"][event.data["seat"]]["bound"]
    bound[:] = [b for b in bound if b["demon"] != event.data["demon"]]
    st["demon_deck"].append(event.data["demon"])
    st["acted"] = True


@actions.narrator("realm.demon.released")
def _say_released(event: EventRecord, st: RealmState) -> str:
    demon = st["content"]["demons"][event.data["demon"]]["name"]
    return f"{name(st, event.data['seat'])} released {demon}."


def three_alike(cards: list[str]) -> bool:
    """Three Ritual Cards of one printed suit or one printed rank (rulebook "Vessels"; Mimics
    and Vessels have neither)."""
    faces = [C.printed(c) for c in cards]
    return (
        len(cards) == 3
        and all(f[0] for f in faces)
        and (len({f[0] for f in faces}) == 1 or len({f[1] for f in faces}) == 1)
    )


@actions.command("realm.vessel.summon")
def summon(d: Decision, data: Data) -> None:
    """``{"cards": [3 ids]}``: three Ritual Cards of one printed suit or one printed rank go
    to the discard pile; take a Vessel from the stack (rulebook "Vessels"). A card one's curses
    ban cannot be played for it (FAQ "Curse Combinations"). Codes ``not_three_of_a_kind``,
    ``card_banned``, ``no_vessel``."""
    seat = seat_of(d)
    st = d.state
    acting(st, seat)
    cards = hand_cards(st, seat, data, "cards")
    d.require(three_alike(cards), "not_three_of_a_kind", "Summon with three cards of one suit or one rank.")
    require_playable(st, seat, cards)
    d.require(bool(st["vessels"]), "no_vessel", "The Vessel Stack is empty.")
    d.emit("realm.vessel.summoned", {"seat": seat, "cards": cards, "vessel": st["vessels"][0]})


@actions.evolver("realm.vessel.summoned", label="summoned a Vessel")
def _summoned(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["seat"], d["cards"])
    st["discard"] += d["cards"]
    st["vessels"].remove(d["vessel"])
    st["players"][d["seat"]]["hand"].append(d["vessel"])
    st["acted"] = True


@actions.narrator("realm.vessel.summoned")
def _say_summoned(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} summoned a Vessel."

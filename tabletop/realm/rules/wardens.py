"""Seekers, Keepers and Mimics: look at an opponent's hand and take a card (rulebook "Realm
Wardens", "Seekers", "Keepers", "The Mimics"; FAQ "Curses and Your Hand", "Even or Odd")."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from . import cards as C
from .common import acting, hand_card, name, require_playable, seat_of
from .deck import draw, from_hand
from .state import RealmState

wardens = Topic("wardens")


def _look(d: Decision, data: Data, kind: str, rank: str | None, ask: str | None, choose: Callable[[str], bool]) -> None:
    """Play the Warden/Mimic, see the opponent's hand (printed faces, FAQ "Curses and Your
    Hand"), then take one of ``choose``'s cards, or draw when there is none. Codes
    ``wrong_card``, ``card_banned``, ``bad_target``."""
    st, seat = d.state, seat_of(d)
    acting(st, seat)
    card = hand_card(st, seat, data)
    if kind == "mimic":
        d.require(C.is_mimic(card), "wrong_card", "Play a Mimic.")
    else:
        d.require(C.printed(card)[1] == rank, "wrong_card", f"Play a {kind.title()}.")
    require_playable(st, seat, [card])
    target = data.seat("opponent", players=st["n"], code="bad_target", message="Choose an opponent.")
    d.require(target != seat, "bad_target", "Choose an opponent.")
    d.emit("realm.warden.played", {"seat": seat, "card": card, "kind": kind, "target": target, "ask": ask})
    hand = list(d.state["players"][target]["hand"])
    choices = [c for c in hand if choose(c)]
    d.emit(
        "realm.hand.shown",
        {"seat": seat, "target": target, "kind": kind, "ask": ask, "cards": hand, "choices": choices},
        final=True,
    )
    if not choices:
        draw(d, seat, 1, kind)


@wardens.command("realm.warden.seeker", reveals=True)
def seeker(d: Decision, data: Data) -> None:
    """``{"card": Seeker id, "opponent": seat, "suit": D|V|S|C}``: see the opponent's hand,
    take an Ace-10 of that suit, or draw a card if there is none (rulebook "Seekers").
    Code ``bad_suit``."""
    suit = data.choice("suit", C.SUITS, code="bad_suit", message="Name a suit.")

    def fits(c: str) -> bool:
        s, r = C.printed(c)
        return s == suit and (r == "A" or r in C.NUMERIC_RANKS)

    _look(d, data, "seeker", "S", suit, fits)


@wardens.command("realm.warden.keeper", reveals=True)
def keeper(d: Decision, data: Data) -> None:
    """``{"card": Keeper id, "opponent": seat, "parity": "odd"|"even"}``: see the opponent's
    hand, take a card of that parity (Wardens, Aces, Mimics, Vessels are neither), or draw
    (rulebook "Keepers", FAQ "Even or Odd"). Code ``bad_parity``."""
    par = data.choice("parity", ("odd", "even"), code="bad_parity", message="Choose odd or even.")
    _look(d, data, "keeper", "K", par, lambda c: C.parity(c) == par)


@wardens.command("realm.mimic.play", reveals=True)
def mimic(d: Decision, data: Data) -> None:
    """``{"card": Mimic id, "opponent": seat}``: see the opponent's hand and take a
    non-Vessel card (rulebook "The Mimics"); with none, draw a card (our choice)."""
    _look(d, data, "mimic", None, None, lambda c: not C.is_vessel(c))


@wardens.evolver("realm.warden.played", label="played a card's power")
def _played(st: RealmState, event: EventRecord) -> None:
    from_hand(st, event.data["seat"], [event.data["card"]])
    st["discard"].append(event.data["card"])
    st["acted"] = True


@wardens.narrator("realm.warden.played")
def _say_played(event: EventRecord, st: RealmState) -> str:
    d = event.data
    ask = {"seeker": f" naming {C.SUIT_NAMES.get(d['ask'], '')}", "keeper": f" naming {d['ask']}"}.get(d["kind"], "")
    return f"{name(st, d['seat'])} played a {d['kind'].title()} on {name(st, d['target'])}{ask}."


@wardens.evolver("realm.hand.shown", label="looked at a hand")
def _shown(st: RealmState, event: EventRecord) -> None:
    d = event.data
    st["glimpse"][d["seat"]] = {"target": d["target"], "kind": d["kind"], "ask": d["ask"], "cards": list(d["cards"])}
    st["take"] = {"seat": d["seat"], "target": d["target"], "choices": list(d["choices"])} if d["choices"] else None


@wardens.narrator("realm.hand.shown")
def _say_shown(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} looked at {name(st, event.data['target'])}'s hand."


@wardens.command("realm.card.take", reveals=True)
def take(d: Decision, data: Data) -> None:
    """``{"card": id}``: take the chosen card from the hand you are looking at. Codes
    ``not_now``, ``bad_card``."""
    seat = seat_of(d)
    pending = d.state["take"]
    d.require(pending is not None and pending["seat"] == seat, "not_now", "You are not choosing.")
    card = data.get("card")
    d.require(isinstance(card, str) and card in pending["choices"], "bad_card", "Choose one of the cards offered.")
    d.emit("realm.card.taken", {"seat": seat, "target": pending["target"], "card": card})


@wardens.evolver("realm.card.taken", label="took a card")
def _taken(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["target"], [d["card"]])
    st["players"][d["seat"]]["hand"].append(d["card"])
    st["take"] = None


@wardens.narrator("realm.card.taken")
def _say_taken(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} took a card from {name(st, event.data['target'])}."

"""Eaters played as an action: attached to an unbound Demon, fed to remove them (rulebook
"Eaters"). Eaters played during a ritual are in ``binding``."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from . import cards as C
from .common import acting, hand_card, name, require_playable, seat_of
from .deck import from_hand
from .state import RealmState

eaters = Topic("eaters")


def demon_in(st: RealmState, slot: object) -> str | None:
    """The unbound demon in ``slot`` (``"active"`` or ``"p<seat>"``), or None."""
    if slot == "active":
        return st["active"]
    if isinstance(slot, str) and slot.startswith("p") and slot[1:].isdigit():
        k = int(slot[1:])
        if 0 <= k < st["n"]:
            return st["players"][k]["personal"]
    return None


@eaters.command("realm.eater.attach")
def attach(d: Decision, data: Data) -> None:
    """``{"card": id, "slot": "active"|"p<seat>"}``: attach an Eater from your hand to an
    unbound demon; it cannot be bound until fed (rulebook "Eaters"). Codes ``not_eater``,
    ``card_banned``, ``no_demon``."""
    seat = seat_of(d)
    st = d.state
    acting(st, seat)
    card = hand_card(st, seat, data)
    d.require(C.printed(card)[1] == "E", "not_eater", "Play an Eater.")
    require_playable(st, seat, [card])
    slot = data.get("slot")
    d.require(demon_in(st, slot) is not None, "no_demon", "Choose an unbound Demon.")
    d.emit("realm.eater.attached", {"seat": seat, "card": card, "slot": slot})


@eaters.evolver("realm.eater.attached", label="attached an Eater")
def _attached(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["seat"], [d["card"]])
    st["eaters"].setdefault(d["slot"], []).append(d["card"])
    st["acted"] = True


@eaters.narrator("realm.eater.attached")
def _say_attached(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} attached the {C.card_label(event.data['card'])}."


@eaters.command("realm.eater.feed")
def feed(d: Decision, data: Data) -> None:
    """``{"slot", "eater": id, "card": id}``: feed an attached Eater a Ritual Card of its suit;
    both go to the discard pile (rulebook "Eaters"). Codes ``no_eater``, ``suit_mismatch``,
    ``card_banned``."""
    seat = seat_of(d)
    st = d.state
    acting(st, seat)
    slot, eater = data.get("slot"), data.get("eater")
    d.require(
        isinstance(slot, str) and isinstance(eater, str) and eater in st["eaters"].get(slot, []),
        "no_eater",
        "No such Eater there.",
    )
    card = hand_card(st, seat, data)
    d.require(C.printed(card)[0] == C.printed(eater)[0], "suit_mismatch", "Feed the Eater a card of its suit.")
    require_playable(st, seat, [card])
    d.emit("realm.eater.fed", {"seat": seat, "slot": slot, "eater": eater, "card": card})


@eaters.evolver("realm.eater.fed", label="fed an Eater")
def _fed(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["seat"], [d["card"]])
    st["eaters"][d["slot"]].remove(d["eater"])
    if not st["eaters"][d["slot"]]:
        del st["eaters"][d["slot"]]
    st["discard"] += [d["eater"], d["card"]]
    st["acted"] = True


@eaters.narrator("realm.eater.fed")
def _say_fed(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} fed the {C.card_label(event.data['eater'])}."

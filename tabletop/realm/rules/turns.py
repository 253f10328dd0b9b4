"""The turn: Draw, Act, Reset, Purge, and refilling the demons from below the Portal Card
(rulebook "Sequence of a Turn", "Step 1 - Draw", "Purge", "Step 3 - End Your Turn")."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord, counted

from . import cards as C
from .common import acting, effects, hand_cards, name, seat_of, slot_of
from .deck import draw, from_hand, to_discard
from .state import RealmState

turns = Topic("turns")


def start_turn(d: Decision, seat: int) -> None:
    """Play passes to ``seat``; the Draw step: one card, then up to 6 (rulebook "Step 1 -
    Draw": "You must always draw at least 1 card")."""
    d.emit("realm.turn.started", {"seat": seat})
    hand = d.state["players"][seat]["hand"]
    draw(d, seat, max(1, 6 - len(hand)), "draw")


@turns.evolver("realm.turn.started", label="passed play to the next player")
def _started(st: RealmState, event: EventRecord) -> None:
    st.update({"turn": event.data["seat"], "phase": "act", "acted": False, "must_end": False, "take": None})
    st["turn_no"] += 1
    st["glimpse"] = [None] * st["n"]


@turns.narrator("realm.turn.started")
def _say_started(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])}'s turn."


@turns.command("realm.turn.purge", reveals=True)
def purge(d: Decision, data: Data) -> None:
    """``{}``: discard the whole hand and draw as many; only when no action was taken this
    turn; the turn then ends (rulebook "Purge"). Code ``already_acted``."""
    seat = seat_of(d)
    st = d.state
    acting(st, seat)
    d.require(not st["acted"], "already_acted", "You can only purge before any other action.")
    hand = list(st["players"][seat]["hand"])
    d.emit("realm.turn.purged", {"seat": seat, "cards": hand})
    draw(d, seat, len(hand), "purge")


@turns.evolver("realm.turn.purged", label="purged")
def _purged(st: RealmState, event: EventRecord) -> None:
    from_hand(st, event.data["seat"], event.data["cards"])
    to_discard(st, event.data["cards"])
    st.update({"acted": True, "must_end": True})


@turns.narrator("realm.turn.purged")
def _say_purged(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} purged {counted(len(event.data['cards']), 'card')}."


@turns.command("realm.turn.end", reveals=True)
def end_turn(d: Decision, data: Data) -> None:
    """``{"discard": [ids]}``: Reset (rulebook "Step 3 - End Your Turn"): the hand to exactly 5
    (or a curse's size) by drawing or by discarding the chosen cards; refill this player's
    Personal Demon, then the Active Demon, from below the Portal Card; the next player
    (clockwise) starts. Codes ``discard_count``, ``bad_cards``, ``not_in_hand``."""
    st = d.state
    seat = seat_of(d)
    acting(st, seat, ending=True)
    size = C.hand_size(effects(st, seat))
    discard = hand_cards(st, seat, data, "discard")
    extra = max(0, len(st["players"][seat]["hand"]) - size)
    d.require(len(discard) == extra, "discard_count", f"Discard exactly {counted(extra, 'card')} to keep {size}.")
    if discard:
        d.emit("realm.cards.discarded", {"seat": seat, "cards": discard, "why": "reset"})
    short = size - len(d.state["players"][seat]["hand"])
    if short > 0:
        draw(d, seat, short, "reset")
    if d.state["players"][seat]["personal"] is None and d.state["demon_deck"]:
        d.emit("realm.demon.revealed", {"seat": seat, "slot": slot_of(seat), "demon": d.state["demon_deck"][0]})
    if d.state["active"] is None and d.state["demon_deck"]:
        d.emit("realm.demon.revealed", {"seat": seat, "slot": "active", "demon": d.state["demon_deck"][0]})
    d.emit("realm.turn.ended", {"seat": seat})
    start_turn(d, (seat + 1) % d.state["n"])


@turns.evolver("realm.demon.revealed", label="revealed a new Demon")
def _revealed(st: RealmState, event: EventRecord) -> None:
    d = event.data
    assert st["demon_deck"][0] == d["demon"]
    st["demon_deck"].pop(0)
    if d["slot"] == "active":
        st["active"] = d["demon"]
    else:
        st["players"][int(d["slot"][1:])]["personal"] = d["demon"]


@turns.narrator("realm.demon.revealed")
def _say_revealed(event: EventRecord, st: RealmState) -> str:
    return "A new Demon emerges from below the Portal."


@turns.evolver("realm.turn.ended", label="ended the turn")
def _ended(st: RealmState, event: EventRecord) -> None:
    """Nothing changes: the next ``realm.turn.started`` passes play."""


@turns.narrator("realm.turn.ended")
def _say_ended(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} ended the turn."

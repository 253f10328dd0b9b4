"""Checks and lookups every Realm topic shares (pure; no events here).

Where a card may be played: ``playable`` (curse bans, FAQ "Curse Combinations"); who may act:
``acting``; reading cards from command data: ``hand_card``/``hand_cards``.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision

from . import cards as C
from .state import RealmState, Ritual


def seat_of(d: Decision) -> int:
    """The acting seat of a ``SEATED`` command (the kit refused spectators before the handler)."""
    assert d.seat is not None
    return d.seat


def ritual_of(st: RealmState) -> Ritual:
    """The binding ritual being performed (callers checked the phase)."""
    assert st["ritual"] is not None
    return st["ritual"]


def slot_of(seat: int) -> str:
    """The demon slot of ``seat``'s Personal Demon: ``"p<seat>"``."""
    return f"p{seat}"


def name(st: RealmState, seat: int) -> str:
    """A seat's player name (for narration)."""
    return st["names"][seat]


def effects(st: RealmState, seat: int) -> list[dict[str, Any]]:
    """The lasting curse effects on ``seat`` (its bound demons with lasting curses, in binding
    order; rulebook "Curses")."""
    demons = st["content"]["demons"]
    return C.lasting_effects([demons[b["demon"]] for b in st["players"][seat]["bound"]])


def playable(st: RealmState, seat: int, card: str) -> bool:
    """Whether ``seat``'s curses let it play ``card`` at all (``cards.banned``): a card whose
    cursed face is forbidden cannot be played anywhere (FAQ "Curse Combinations": "Your Skulls
    are all 3's, therefore, you may not play Skulls")."""
    return not C.banned(card, effects(st, seat))


def require_playable(st: RealmState, seat: int, cards: list[str]) -> None:
    """Raise ``RuleViolation("card_banned")`` naming the first card a curse forbids."""
    for card in cards:
        Decision.require(
            playable(st, seat, card),
            "card_banned",
            f"Your curses forbid playing the {C.card_label(card)} "
            f"(it counts as {face_label(st, seat, card)}).",
        )


def face_label(st: RealmState, seat: int, card: str) -> str:
    """What a card counts as under ``seat``'s curses: ``"3 of Skulls"``."""
    suit, rank = C.face(card, effects(st, seat))
    label = C.WARDEN_RANKS.get(rank or "") or ("Ace" if rank == "A" else rank or "")
    return f"{label} of {C.SUIT_NAMES.get(suit or '', '')}".strip()


def phase_message(st: RealmState) -> str:
    if st["phase"] == "prelude":
        return "The game starts once every Pact and Affliction is given."
    if st["phase"] == "ritual":
        return "A binding ritual is waiting for answers."
    return "Not now."


def acting(st: RealmState, seat: int | None, *, ending: bool = False) -> None:
    """The guard of an action on one's own turn (rulebook "Step 2 - Perform Actions").
    Codes ``not_now``, ``not_your_turn``, ``take_pending``, ``turn_over``."""
    Decision.require(st["phase"] == "act", "not_now", phase_message(st))
    Decision.require(seat == st["turn"], "not_your_turn", "It is not your turn.")
    Decision.require(st["take"] is None, "take_pending", "First take a card from the hand you see.")
    if not ending:
        Decision.require(not st["must_end"], "turn_over", "Your turn is over: reset your hand.")


def hand_cards(st: RealmState, seat: int, data: Data, key: str, *, code: str = "not_in_hand") -> list[str]:
    """Distinct card ids of ``seat``'s hand from ``data[key]`` (a list; one ticked box arrives
    as a string). Codes ``bad_cards``, ``code`` (default ``not_in_hand``)."""
    cards = data.list(key, max_items=60, default=[], code="bad_cards", message="Choose cards from your hand.")
    Decision.require(all(isinstance(c, str) for c in cards), "bad_cards", "Choose cards from your hand.")
    Decision.require(len(set(cards)) == len(cards), "bad_cards", "Each card can be played once.")
    hand = st["players"][seat]["hand"]
    Decision.require(all(c in hand for c in cards), code, "Those cards are not in your hand.")
    return cards


def hand_card(st: RealmState, seat: int, data: Data, key: str = "card") -> str:
    """One card id of ``seat``'s hand from ``data[key]``. Codes ``bad_cards``, ``not_in_hand``."""
    card = data.get(key)
    Decision.require(isinstance(card, str), "bad_cards", "Choose a card from your hand.")
    Decision.require(card != "", "not_in_hand", "Tick a card of your hand first.")
    Decision.require(card in st["players"][seat]["hand"], "not_in_hand", "That card is not in your hand.")
    return card


def pact_of(st: RealmState, seat: int) -> dict[str, Any] | None:
    """The pact dict ``seat`` plays for (the shared Acolyte Pact or its own), None before it
    is chosen (rulebook "Pact Cards")."""
    pact_id = st["acolyte"] or st["players"][seat]["pact"]
    return st["content"]["pacts"].get(pact_id) if pact_id else None


def bound_demons(st: RealmState, seat: int) -> list[dict[str, Any]]:
    """``seat``'s bound demons as content dicts with ``personal`` (rulebook "How to Win")."""
    demons = st["content"]["demons"]
    return [dict(demons[b["demon"]], personal=b["personal"]) for b in st["players"][seat]["bound"]]


def feedable(st: RealmState, seat: int, eater: str) -> list[str]:
    """The cards of ``seat``'s hand that may feed ``eater``: Ritual Cards of its printed suit
    (Vessels and Mimics have none, rulebook "Eaters") that ``seat``'s curses do not ban."""
    suit = C.printed(eater)[0]
    return [
        c for c in st["players"][seat]["hand"] if C.printed(c)[0] == suit and playable(st, seat, c)
    ]

"""Small hand-made card sets for rule tests (the rules read content as data)."""

from __future__ import annotations

from tabletop.personal_demons.rules import PersonalDemonsRuleset
from tabletop.personal_demons.rules.content import demo_cards

BLUE4 = ["blue", "blue", "blue", "blue"]


def content(**decks) -> list[dict]:
    """The demo card list with every card of a deck updated: ``round1={"sigils": BLUE4}``
    updates all Round I cards; a callable ``f(card) -> dict`` updates card by card."""
    out = []
    for card in demo_cards():
        change = decks.get(card["deck"])
        if callable(change):
            change = change(card)
        out.append({**card, **(change or {})})
    return out


def ruleset(**decks) -> PersonalDemonsRuleset:
    cards = content(**decks)
    return PersonalDemonsRuleset(content=lambda: cards)


PLAIN = {
    "sigils": BLUE4,
    "value": 1,
    "sin": "glut",
    "sin_amount": 1,
    "requirements": [],
    "types": ["Imp"],
}

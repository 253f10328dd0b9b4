"""Small hand-made card sets for rule tests (the rules read content as data), and three
one-line shorthands over ``tabletop.testing.Sim`` (the kit's pure driver)."""

from __future__ import annotations

from tabletop.personal_demons.rules import PersonalDemonsRuleset
from tabletop.personal_demons.rules.content import demo_cards
from tabletop.testing import Sim

R = PersonalDemonsRuleset()
NAMES = ["Ann", "Ben", "Cat", "Dan"]

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


def with_cards(**changes) -> dict:
    """The setup content (as the content provider gathers it) with ``content(**changes)``."""
    return {"cards": content(**changes)}


def game(
    players: int = 2, seed: int = 1, options: dict | None = None, setup: dict | None = None
) -> Sim:
    """A started table of ``players`` (Ann, Ben, Cat, Dan) in the kit's pure driver, with the
    demo cards or ``setup`` content."""
    return Sim(R, NAMES[:players], seed=seed, options=options, content=setup or with_cards())


def cmd(g: Sim, seat: int, type_: str, **data):
    """One command through the pure step; returns its events."""
    return g.send(seat, type_, data)


def p(g: Sim, seat: int) -> dict:
    """A player of the game state."""
    return g.state["players"][seat]


PLAIN = {
    "sigils": BLUE4,
    "value": 1,
    "sin": "glut",
    "sin_amount": 1,
    "requirements": [],
    "types": ["Imp"],
}

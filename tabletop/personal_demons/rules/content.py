"""Card content and board geometry as data (the rulebook gives the rules, not the faces).

The demo set (``data/demo_content.json``) is invented but complete: Round I, II and III decks of
36, a Royal deck of 16 Royals and 8 Knights, a Fragment deck of 16 Fragments and 8 Knights, 12
Fears, 34 Courage cards, 12 hefty and 16 colossal Personal Demons. The default circle
(``data/board_default.json``) documents where the four built-in wild corners are assumed to be.

A game copies the content it uses into its opening event, so a later edit of a card never
changes a game already played (docs/architecture.md, "The event-sourced table").
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from tabletop.errors import RuleViolation

DATA = Path(__file__).resolve().parent.parent / "data"
DECKS = ("round1", "round2", "round3", "royal", "fragment", "fear", "courage", "hefty", "colossal")
SIGILS = (None, "blue", "red", "yellow", "purple")
SINS = ("glut", "hate", "want")
TYPES = ("Devil", "Imp", "Shade", "President", "Noble", "Royal", "Knight", "Fragment", "Fear")
REQUIREMENTS = ("blue", "red", "yellow", "any")
#: Courage effects the rules know (``effect.kind``) and Personal Demon abilities (``ability.kind``).
COURAGE_KINDS = (
    "type_score",
    "score_sins",
    "counts_as_seal",
    "pan_demonium",
    "keeper",
    "more_sins",
    "pile_up",
    "seal_score",
)
#: ``self_discard``: an ability that is only the summoner's forced discard (``ability.discard``).
ABILITY_KINDS = ("all_courage", "others_courage", "others_score", "others_sin", "self_discard")


@cache
def _demo() -> str:
    return (DATA / "demo_content.json").read_text()


@cache
def _geometry() -> str:
    return (DATA / "board_default.json").read_text()


def demo_cards() -> list[dict]:
    """A fresh copy of the demo cards (list of card dicts, see ``board`` for the shape)."""
    return json.loads(_demo())["cards"]


def default_geometry() -> dict:
    """A fresh copy of the default circle geometry (9 seal points, 4 printed wild corners)."""
    return json.loads(_geometry())


def validate_card(card: dict) -> None:
    """Raise ``RuleViolation("bad_card", ...)`` unless ``card`` is a well-formed card face."""

    def bad(why: str) -> None:
        raise RuleViolation("bad_card", f"Card {card.get('id')!r}: {why}.")

    if not card.get("id") or not card.get("name"):
        bad("needs an id and a name")
    if card.get("deck") not in DECKS:
        bad("unknown deck")
    sigils = card.get("sigils")
    if not isinstance(sigils, list) or len(sigils) != 4 or any(s not in SIGILS for s in sigils):
        bad("needs four corner sigils (blue, red, yellow, purple or none)")
    if not isinstance(card.get("value"), int) or card["value"] < 0:
        bad("needs a value >= 0")
    if any(t not in TYPES for t in card.get("types", [])) or len(card.get("types", [])) > 2:
        bad("one or two of the eight types")
    if any(r not in REQUIREMENTS for r in card.get("requirements", [])):
        bad("requirements are blue, red, yellow or any")
    if card["deck"].startswith("round"):
        if card.get("sin") not in (*SINS, "hell"):
            bad("needs a sin: glut, hate, want or hell")
        if card["sin"] != "hell" and not 1 <= card.get("sin_amount", 0) <= 6:
            bad("needs a sin amount 1..6")
        if not 1 <= len(card.get("types", [])) <= 2:
            bad("needs one or two types")
    if card["deck"] == "fear":
        tiers = card.get("tiers")
        if not isinstance(tiers, list) or len(tiers) != 4:
            bad("a Fear has four scoring tiers")
    if card["deck"] == "courage":
        effect = card.get("effect")
        if not isinstance(effect, dict) or effect.get("kind") not in COURAGE_KINDS:
            bad(f"a Courage card needs an effect, one of {', '.join(COURAGE_KINDS)}")
    if card["deck"] in ("hefty", "colossal"):
        cost = card.get("cost") or {}
        if cost.get("amount") != 6:
            bad("a Personal Demon costs 6 of a single sin")
        if card["deck"] == "colossal" and cost.get("sin") not in SINS:
            bad("a colossal card names its sin")
        ability = card.get("ability") or {}
        if ability.get("kind") not in ABILITY_KINDS:
            bad(f"a Personal Demon's ability is one of {', '.join(ABILITY_KINDS)}")
        # FAQ: "may" abilities are each other player's choice; a forced discard is not.
        if not isinstance(ability.get("may", False), bool):
            bad("ability.may is true or false")
        discard = ability.get("discard")
        if discard not in (None, "all") and not (
            isinstance(discard, list) and discard and all(t in TYPES for t in discard)
        ):
            bad("ability.discard is \"all\" or a list of demon types")
        if ability.get("kind") == "self_discard" and not discard:
            bad("a self_discard ability names what to discard")


def build_catalog(cards: list[dict]) -> dict[str, dict]:
    """``{id: card}`` after validating every card; raises ``RuleViolation`` for duplicates."""
    catalog: dict[str, dict] = {}
    for card in cards:
        validate_card(card)
        if card["id"] in catalog:
            raise RuleViolation("bad_card", f"Duplicate card id {card['id']!r}.")
        catalog[card["id"]] = card
    return catalog

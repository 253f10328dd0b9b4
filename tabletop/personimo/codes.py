"""The error codes of Personimo: every code raised in ``tabletop/personimo``, with its class
(hence its HTTP status) and its usual message (a raise may say more).
``tabletop.error_codes.catalogue()`` gathers the ``CODES`` of every app; the tests check them
against the source (``tests/tabletop/test_error_catalogue.py``; docs/architecture.md,
"Interfaces and errors").

``COMMAND_CODES``: what a table command of the game may answer besides the kit's codes (all of
them: each is raised by its rules or its content), for the API schema
(``tabletop.openapi.game_codes``).
"""

from __future__ import annotations

from tabletop.errors import RuleViolation, TabletopError

CODES: dict[str, tuple[type[TabletopError], str]] = {
    "already_claimed": (RuleViolation, "That card is taken."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_cell": (RuleViolation, "… is outside the …x… district."),
    "bad_cells": (RuleViolation, "Bad cells."),
    "bad_direction": (RuleViolation, "…: its second block is right or down."),
    "bad_index": (RuleViolation, "Choose a card of the market."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_player_count": (RuleViolation, "Personimo is for 1 to 6 players."),
    "bad_shift": (RuleViolation, "There is no room to shift that way."),
    "bad_suits": (RuleViolation, "… has no …."),
    "must_discard": (RuleViolation, "… cannot be placed: discard it."),
    "not_your_turn": (RuleViolation, "… places a miniature now."),
    "overlap": (RuleViolation, "… and … share …."),
    "placement_possible": (RuleViolation, "… can be placed, so it may not be discarded."),
    "position_used": (
        RuleViolation,
        "The Waning: you already took that position in this set of three rounds.",
    ),
    "too_many_copies": (RuleViolation, "…: a double Decktet has two."),
    "variant_unsupported": (RuleViolation, "Three's Company is for three players."),
    "wrong_step": (RuleViolation, "That is not possible at this step of the ritual."),
}

COMMAND_CODES = frozenset(CODES)

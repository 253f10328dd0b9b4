"""The error codes of Demon Espionage: every code raised in ``tabletop/espionage``, with its
class (hence its HTTP status) and its usual message (a raise may say more).
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
    "bad_action": (RuleViolation, "Choose which action card you played."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_opponent": (RuleViolation, "Choose another player to duel."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_outcome": (RuleViolation, "Choose who won the duel, or a tie."),
    "bad_player_count": (RuleViolation, "Demon Espionage is for 3 to 6 players."),
    "bad_target": (RuleViolation, "A character cannot free itself."),
    "duel_in_progress": (RuleViolation, "A duel is already under way."),
    "health_full": (RuleViolation, "Health cannot go above 5."),
    "no_duel": (RuleViolation, "No duel is under way."),
    "not_your_turn": (RuleViolation, "… places a miniature now."),
    "too_many_copies": (RuleViolation, "The game has only … cards."),
    "wrong_stage": (RuleViolation, "Wrong stage."),
}

COMMAND_CODES = frozenset(CODES)

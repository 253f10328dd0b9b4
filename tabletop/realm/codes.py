"""The error codes of Realm: every code raised in ``tabletop/realm`` (its rules and the content
it gathers when a table starts, ``content_db``), with its class (hence its HTTP status) and its
usual message (a raise may say more). ``tabletop.error_codes.catalogue()`` gathers the ``CODES``
of every app; the tests check them against the source
(``tests/tabletop/test_error_catalogue.py``; docs/architecture.md, "Interfaces and errors").

``COMMAND_CODES``: what a table command of the game may answer besides the kit's codes (all of
them: each is raised by its rules or its content), for the API schema
(``tabletop.openapi.game_codes``).
"""

from __future__ import annotations

from tabletop.errors import RuleViolation, TabletopError

CODES: dict[str, tuple[type[TabletopError], str]] = {
    "already_acted": (RuleViolation, "You can only purge before any other action."),
    "already_chosen": (RuleViolation, "… is already chosen."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_cards": (RuleViolation, "Choose Courage cards you hold."),
    "bad_declaration": (RuleViolation, "Bad declaration."),
    "bad_parity": (RuleViolation, "Choose odd or even."),
    "bad_slot": (RuleViolation, "A weapon goes in the primary or secondary space."),
    "bad_suit": (RuleViolation, "Name a suit."),
    "bad_target": (RuleViolation, "A character cannot free itself."),
    "bad_vessel": (RuleViolation, "Choose a Vessel of this ritual."),
    "card_banned": (RuleViolation, "Your curses forbid playing the … (it counts as …)."),
    "discard_count": (RuleViolation, "Discard exactly … cards to keep …."),
    "eater_attached": (RuleViolation, "An Eater is attached to this Demon: feed it first."),
    "no_demon": (RuleViolation, "There is no Demon there to bind."),
    "no_eater": (RuleViolation, "No such Eater there."),
    "no_vessel": (RuleViolation, "The Vessel Stack is empty."),
    "not_bound": (RuleViolation, "That Demon is not bound to you."),
    "not_eater": (RuleViolation, "Play an Eater."),
    "not_in_hand": (RuleViolation, "That card is not in your hand."),
    "not_now": (RuleViolation, "No ritual is being performed."),
    "not_three_of_a_kind": (RuleViolation, "Summon with three cards of one suit or one rank."),
    "not_your_prompt": (RuleViolation, "Another player must answer."),
    "not_your_turn": (RuleViolation, "… places a miniature now."),
    "pact_not_met": (RuleViolation, "Your Pact is not met yet."),
    "rank_mismatch": (RuleViolation, "Exorcise it with a … from your hand."),
    "ritual_fails": (RuleViolation, "Play 1 to 4 cards that meet the corners."),
    "suit_mismatch": (RuleViolation, "Feed the Eater a card of its suit."),
    "take_pending": (RuleViolation, "First take a card from the hand you see."),
    "turn_over": (RuleViolation, "The turn is over: tap Next turn."),
    "vessel_undeclared": (RuleViolation, "Declare a suit and a rank for each Vessel."),
    "wrong_card": (RuleViolation, "Play a Mimic."),
}

COMMAND_CODES = frozenset(CODES)

"""The error codes of Personal Demons: every code raised in ``tabletop/personal_demons`` (its
rules and the content it gathers when a table starts, ``content_db``), with its class (hence its
HTTP status) and its usual message (a raise may say more). ``tabletop.error_codes.catalogue()``
gathers the ``CODES`` of every app; the tests check them against the source
(``tests/tabletop/test_error_catalogue.py``; docs/architecture.md, "Interfaces and errors").

``COMMAND_CODES``: what a table command of the game may answer besides the kit's codes (all of
them: each is raised by its rules or its content), for the API schema
(``tabletop.openapi.game_codes``).
"""

from __future__ import annotations

from tabletop.errors import RuleViolation, TabletopError

CODES: dict[str, tuple[type[TabletopError], str]] = {
    "already_chosen": (RuleViolation, "… is already chosen."),
    "already_declined": (RuleViolation, "You have already declined."),
    "already_done": (RuleViolation, "You have already set up your circle."),
    "already_placed": (RuleViolation, "… is already placed."),
    "already_ready": (RuleViolation, "You tapped Next: your choice is made."),
    "bad_amount": (RuleViolation, "Add from -10 to 10, not 0."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_cards": (RuleViolation, "Choose Courage cards you hold."),
    "bad_colour": (RuleViolation, "Choose red, blue, yellow or green."),
    "bad_half": (RuleViolation, "A small card goes upright at the top or inverted at the bottom."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_points": (RuleViolation, "Points from -50 to 50."),
    "bad_seats": (RuleViolation, "Personal Demons is for 1 to 4 players."),
    "bad_sin": (RuleViolation, "Choose glut, hate or want."),
    "bad_size": (RuleViolation, "Unknown card size."),
    "bad_space": (RuleViolation, "Choose a space of the circle."),
    "bad_values": (RuleViolation, "Bad values."),
    "bonus_taken": (RuleViolation, "Only ONE bonus action per turn."),
    "can_place": (RuleViolation, "This card has a legal place: place it."),
    "deck_empty": (RuleViolation, "Both piles of that deck are empty."),
    "half_taken": (RuleViolation, "That half of the space is taken."),
    "keep_three": (RuleViolation, "Keep three Courage cards."),
    "keep_two": (RuleViolation, "Keep exactly two of your four hefty/colossal cards."),
    "no_choice": (RuleViolation, "Nothing to keep now."),
    "no_courage": (RuleViolation, "You have no Courage card to discard."),
    "no_discard": (RuleViolation, "You hold three Courage cards or fewer: keep them."),
    "no_fear": (RuleViolation, "You have no Fear left to face."),
    "no_offer": (RuleViolation, "No colossal ability waits for your choice."),
    "no_room": (RuleViolation, "You need an empty space or half-space to summon a Fragment."),
    "not_enough_sin": (RuleViolation, "You need … …; you have …."),
    "not_in_hand": (RuleViolation, "That card is not in your hand."),
    "not_your_bonus": (RuleViolation, "Wait: bonus actions go from the Leader clockwise."),
    "not_yours": (RuleViolation, "That is not one of your Personal Demons."),
    "nothing_drawn": (RuleViolation, "You have no summoned card to place."),
    "off_circle": (RuleViolation, "Cards must lie within the sixteen spaces."),
    "on_big_card": (RuleViolation, "Regular cards may not be placed on hefty or colossal cards."),
    "on_fear": (RuleViolation, "No card may ever be played on top of a Fear."),
    "over_empty": (RuleViolation, "Personal Demons may not be placed over empty spaces."),
    "over_face_down": (RuleViolation, "Personal Demons may not be placed over face-down cards."),
    "over_wrong_size": (RuleViolation, "Personal Demons go only over regular-sized cards."),
    "requirements_unmet": (RuleViolation, "You lack the seals this card requires."),
    "royal_face_down": (RuleViolation, "Cards from the Royal deck may never be placed face down."),
    "small_on_card": (RuleViolation, "Small cards may not be placed on top of other cards."),
    "too_late": (RuleViolation, "You declined and a later player has acted."),
    "unknown_command": (RuleViolation, "Unknown command …."),
    "wait_placement": (
        RuleViolation,
        "Wait until the drawn card is placed and every choice is made.",
    ),
    "wild_colour_needed": (RuleViolation, "Choose the colour of your all-purple seal."),
    "wrong_sin": (RuleViolation, "This card must be paid with …."),
    "wrong_step": (RuleViolation, "That is not possible at this step of the ritual."),
}

COMMAND_CODES = frozenset(CODES)

"""The error codes of the live-table kit: every code raised in the kit's own modules
(``tabletop/*.py``: the table services, the gate and seats, the API and pages, the pure kit; the
card games declare theirs), with its class (hence its HTTP status) and its usual message (a
raise may say more). ``tabletop.error_codes.catalogue()`` gathers the ``CODES`` of every app;
the tests check them against the source (``tests/tabletop/test_error_catalogue.py``;
docs/architecture.md, "Interfaces and errors").

``COMMAND_CODES``: what a command of the kit's example game (``tabletop.counter``) may answer
besides the kit's codes, for the API schema (``tabletop.openapi.game_codes``).
"""

from __future__ import annotations

from tabletop.errors import Conflict, NotAllowed, NotFound, RuleViolation, TabletopError, Throttled

CODES: dict[str, tuple[type[TabletopError], str]] = {
    "already_started": (RuleViolation, "The game has already started."),
    "bad_amount": (RuleViolation, "Add from -10 to 10, not 0."),
    "bad_command": (RuleViolation, "A command needs a type (a short string)."),
    "bad_idempotency_key": (RuleViolation, "The request id must be 1-80 characters."),
    "revoke_first": (NotAllowed, "A phone holds this seat: take the seat from its phone first, then give it."),
    "bad_move": (RuleViolation, "A seat moves one place up or down."),
    "bad_name": (RuleViolation, "A Guild name has … to … characters (yours: …)."),
    "bad_number": (RuleViolation, "…: numbers are written with 0-9."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_seat_token": (NotFound, "This rejoin code is not valid any more."),
    "game_over": (RuleViolation, "This game is over."),
    "host_only": (NotAllowed, "Only the host (seat 1) can do that."),
    "host_stays": (RuleViolation, "The host's own seat cannot be removed."),
    "idempotency_key_reused": (Conflict, "That request id was already used for another command."),
    "login_locked": (Throttled, "Too many failed logins: try again in … s."),
    "name_taken": (RuleViolation, "You already have a guest Guild of that name."),
    "no_such_seat": (NotFound, "There is no such seat."),
    "not_enough_players": (RuleViolation, "… needs at least … players."),
    "not_found": (NotFound, "No such table, or it is not yours to see."),
    "not_seated": (NotFound, "No such mission, or no seat of yours at its table."),
    "not_started": (RuleViolation, "The game has not started yet."),
    "not_your_action": (NotAllowed, "The last action is …'s: only they can undo it."),
    "not_your_table": (NotAllowed, "That seat is not at this table."),
    "nothing_happened": (RuleViolation, "That changes nothing."),
    "nothing_to_redo": (RuleViolation, "Nothing to redo."),
    "nothing_to_undo": (
        RuleViolation,
        "Nothing to undo (the last action showed hidden information or started the game).",
    ),
    "seat_not_found": (NotFound, "Choose the friend's seat."),
    "stale_version": (Conflict, "Someone acted just before you: look, then tap again."),
    "table_full": (RuleViolation, "… seats at most …."),
    "table_started": (RuleViolation, "The game has started: seats are fixed."),
    "throttled": (Throttled, "Too many tries: try again in … s."),
    "too_large": (RuleViolation, "That command is too large."),
    "unknown_command": (RuleViolation, "Unknown command …."),
    "unknown_game": (NotFound, "There is no game called …."),
}

COMMAND_CODES = frozenset(
    {
        "bad_amount",
    }
)

"""Signals of the kit. The kit imports no game; a game app may listen.

``command_applied``: sent by ``run_command`` inside its transaction, after the events are
appended and the projection saved, with ``sender`` the ruleset name and keyword arguments
``table`` (see below), ``state`` (the ruleset's
loaded state) and ``events`` (the ``LoggedEvent`` list just appended). A receiver that raises a
``TabletopError`` refuses the command: the whole transaction rolls back and the caller gets
that error, so what a game keeps outside the table (a Guild held by a mission) never drifts
from the log. ``table`` is a ``Table`` built from what was written (its row is locked by the
write until the transaction commits).
"""

import sys
from collections.abc import Callable
from typing import TypedDict

from django.dispatch import Signal

command_applied = Signal()

#: ``{game name: events -> bool}``: which commands a game's ``command_applied`` receivers
#: care about (``applied_when``); a game without an entry: every command.
_APPLIED_WHEN: dict[str, Callable[[list], bool]] = {}


def applied_when(name: str, wanted: Callable[[list], bool]) -> None:
    """Tell ``run_command`` that the ``command_applied`` receivers of the game named ``name``
    do something only when ``wanted(events)`` is true (``events``: the ``LoggedEvent`` list
    the command appends): the others are written in one statement, without the transaction
    and its two round trips, and the receivers are not sent them (they would have done
    nothing). ``wanted`` must be pure and cheap."""
    _APPLIED_WHEN[name] = wanted


def applied_wanted(name: str, events: list) -> bool:
    """Whether the ``command_applied`` receivers of game ``name`` are to hear a command that
    appends ``events`` (``applied_when``); True when the game said nothing."""
    wanted = _APPLIED_WHEN.get(name)
    return True if wanted is None else bool(wanted(events))


#: ``{game name: (table, user) -> str | None}``: the name a logged-in user's seat is offered
#: when joining a table of that game (``seat_name_offered``); a game without one: the account.
_SEAT_NAMES: dict[str, Callable] = {}


def seat_name_for(name: str, offer: Callable) -> None:
    """Tell the join page of the game named ``name`` which seat name to offer a logged-in user:
    ``offer(table, user)`` returns it, or None for the account's name (DemLoc: the user's
    Guild, the name the seat takes once the Guild is brought). ``offer`` may read the
    database; it changes nothing."""
    _SEAT_NAMES[name] = offer


def seat_name_offered(table, user) -> str:
    """The name the join page offers ``user`` for a seat at ``table``: the game's own
    (``seat_name_for``), else the account's username; ``""`` for an anonymous user."""
    if user is None or not user.is_authenticated:
        return ""
    offer = _SEAT_NAMES.get(table.ruleset) if table is not None else None
    return (offer(table, user) if offer else None) or user.get_username()


#: ``{game name: (table, user) -> JoinNote | None}``: what the join page of that game's tables
#: says to ``user`` about joining (``join_note``); a game without one: nothing.
_JOIN_NOTES: dict[str, Callable] = {}


class JoinNote(TypedDict):
    """A game's line on its join page: ``text`` (plain, one or two sentences) and a link to
    the page that helps (``url``, ``label``: the link's words), or ``url`` ``""`` for none."""

    text: str
    url: str
    label: str


def join_note_for(name: str, note: Callable) -> None:
    """Tell the join page of the game named ``name`` what to say to a user before they take a
    seat: ``note(table, user)`` returns a ``JoinNote`` or None (DemLoc: a Guild mission tells
    an account without a Guild what that means and links to found one). ``user`` may be
    anonymous. ``note`` may read the database; it changes nothing."""
    _JOIN_NOTES[name] = note


def join_note(table, user) -> JoinNote | None:
    """The game's note on ``table``'s join page for ``user`` (``join_note_for``), or None."""
    note = _JOIN_NOTES.get(table.ruleset) if table is not None else None
    return note(table, user) if note else None


#: A phone's websocket to a table opened / closed in this process (``tabletop.consumers``), with
#: ``table_id``. Sent on the event loop: a receiver does no I/O (the operations page counts
#: sockets this way: ``ops.apps``).
socket_opened = Signal()
socket_closed = Signal()
#: A phone's heartbeat reached this process (every 2.5 s per phone, on the event loop): a
#: receiver does no I/O there; it may schedule work on the running loop.
phone_heartbeat = Signal()


def game_sender(name: str) -> str:
    """The ``sender`` object of ``command_applied`` for the game named ``name``: connect a
    receiver with ``sender=game_sender("demloc")`` to hear only that game (Django matches
    senders by identity, so the name is interned on both sides). A game with no receiver of its
    own pays for no transaction: ``run_command`` writes it in one statement."""
    return sys.intern(name)

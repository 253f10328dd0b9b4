"""Signals of the kit. The kit imports no game; a game app may listen.

``command_applied``: sent by ``run_command`` inside its transaction, after the events are
appended and the projection saved, with ``sender`` the ruleset name and keyword arguments
``table`` (the locked ``Table``, its ``state`` already updated), ``state`` (the ruleset's
loaded state) and ``events`` (the ``LoggedEvent`` list just appended). A receiver that raises a
``TabletopError`` refuses the command: the whole transaction rolls back and the caller gets
that error, so what a game keeps outside the table (a Guild held by a mission) never drifts
from the log.
"""

from django.dispatch import Signal

command_applied = Signal()

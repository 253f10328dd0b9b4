"""Refolding stored projections: when a game's state shape changes (prose left the
projections, folds became topic modules), every stored table's ``state`` and ``meta`` are
rebuilt from its events with today's rules. Events are the truth and keep their types; the
projection is only a cache of their fold (docs/architecture.md)."""

from __future__ import annotations

import json
import logging

from django.utils import timezone

from tabletop.log import LoggedEvent, rebuild
from tabletop.registry import get_ruleset

log = logging.getLogger(__name__)


def refold_tables(Table, Event) -> tuple[int, int]:
    """Rebuild ``state`` and ``meta`` of every started table from its events. ``Table`` and
    ``Event``: the model classes (historical ones in a migration). A table whose events today's
    rules cannot fold is left as it was and logged. Returns ``(refolded, failed)``."""
    refolded = failed = 0
    for table in Table.objects.exclude(status="lobby").iterator():
        rows = Event.objects.filter(table_id=table.pk).order_by("version")
        events = [
            LoggedEvent(
                version=e.version, type=e.type, data=e.data, seat=e.seat,
                command_id=e.command_id, command_type=e.command_type, final=e.final, tape=e.tape,
            )
            for e in rows
        ]
        if not events:
            continue
        try:
            game = get_ruleset(table.ruleset)
            state, meta = rebuild(game, events)
            table.state = json.loads(json.dumps(game.dump(state)))
            table.meta = meta.dump()
        except Exception:  # noqa: BLE001 - one broken table must not stop the migration
            log.exception("could not refold table %s (%s)", table.pk, table.ruleset)
            failed += 1
            continue
        # updated_at too: a process's cached snapshot (tabletop.services.SNAPSHOTS) of the
        # table is then refused by the next command's guarded write
        Table.objects.filter(pk=table.pk).update(state=table.state, meta=table.meta,
                                                 updated_at=timezone.now())
        refolded += 1
    return refolded, failed

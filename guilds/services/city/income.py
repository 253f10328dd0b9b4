"""Income periods of the control points a Guild holds (DemLoc rulebook 6.2): settled at their
deadline, the next one started."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tabletop.errors import NotFound

from ... import rules
from ...models import (
    IncomePeriod,
    LedgerEntry,
)
from .._common import post
from .common import _lock_guilds, _lock_point, _news
from .points import _start_income


def _settle_income(period_id: int, skip_locked: bool = False, only_if_due: bool = False) -> bool:
    with transaction.atomic():
        found = IncomePeriod.objects.filter(pk=period_id, settled_at__isnull=True).first()
        if found is None or (only_if_due and found.due_at > timezone.now()):
            return False
        point = _lock_point(found.point_id)
        guilds = _lock_guilds(found.guild_id)
        period = (
            IncomePeriod.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=period_id)
            .first()
        )
        if period is None or period.settled_at is not None:
            return False
        now = timezone.now()
        period.settled_at = now
        period.save(update_fields=["settled_at"])
        if point.holder_id != period.guild_id:  # lost without the period being stopped
            period.stopped = True
            period.save(update_fields=["stopped"])
            return True
        guild = guilds[period.guild_id]
        ref = f"income:{period.pk}"
        note = f"Income of {point.name}"
        paid = []
        for currency in rules.CURRENCIES:
            amount = getattr(period, currency)
            if amount:
                post(guild, currency, amount, LedgerEntry.Reason.CITY, note, ref)
                paid.append(f"{amount} {currency.replace('_', ' ')}")
        _news(guild.pk, f"{point.name} paid {', '.join(paid) or 'nothing'}.", "", ref, now)
        # The next period starts when this one was due, so a late settlement never shifts the
        # rhythm (an overdue chain catches up one period per sweep).
        _start_income(point, guild.pk, period.due_at)
        return True


def income_settle(*, period_id: int, only_if_due: bool = False) -> IncomePeriod:
    """Pay one income period of a held control point into the ledger (reason "city",
    reference ``income:<id>``) and start the next one (6.2). Idempotent like
    ``expedition_settle``; a period of a point lost meanwhile pays nothing. Raises
    ``NotFound``. ``only_if_due``: as in ``expedition_settle``."""
    _settle_income(period_id, only_if_due=only_if_due)
    period = IncomePeriod.objects.filter(pk=period_id).first()
    if period is None:
        raise NotFound("income_not_found", "No such income period.")
    return period

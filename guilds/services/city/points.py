"""Control points, the interface for missions (DemLoc rulebook 6.2: bonuses "immediately
applied", income timers "activated"; 6.4.1 raffle)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from tabletop.errors import NotFound

from ...models import (
    ControlPoint,
    ControlPointBonus,
    Guild,
    IncomePeriod,
    LimitBonus,
)
from .common import _know, _lock_guilds, _lock_point, _news
from .eta import _schedule


def _bonus_source(point: ControlPoint) -> str:
    return f"control_point:{point.pk}"


def _apply_bonuses(point: ControlPoint, guild_id: int) -> None:
    LimitBonus.objects.bulk_create(
        LimitBonus(
            guild_id=guild_id, kind=b.kind, key=b.key, amount=b.amount, source=_bonus_source(point)
        )
        for b in point.bonuses.exclude(kind=ControlPointBonus.Kind.ARMORY_DISCOUNT)
    )


def _start_income(point: ControlPoint, guild_id: int, start) -> IncomePeriod | None:
    if not point.has_income:
        return None
    period = IncomePeriod.objects.create(
        guild_id=guild_id,
        point=point,
        started_at=start,
        due_at=start + timedelta(minutes=point.income_period_minutes),
        fame=point.income_fame,
        feods=point.income_feods,
        blood_stones=point.income_blood_stones,
    )
    _schedule(period)
    return period


@transaction.atomic
def control_point_transfer(
    *, point_id: int, to_guild_id: int | None, reason: str, reference: str = ""
) -> ControlPoint:
    """Give control point ``point_id`` to Guild ``to_guild_id`` (None: the point becomes free),
    in one transaction (6.2: bonuses "immediately applied", income timers "activated"; 6.4.1
    raffle: a standard mission can move a point between Guilds).

    The previous holder loses the point's bonuses (its ``LimitBonus`` rows; mercenaries already
    enlisted stay) and its running income period stops without pay; the new holder gets the
    bonuses, knows the point, and its first income period starts now. Both Guilds get a news
    item saying ``reason`` (e.g. "won in a standard mission"); ``reference`` (``"mission:12"``)
    is stored on them. Transferring to the current holder changes nothing.

    Raises ``NotFound`` ``control_point_not_found`` / ``guild_not_found``.
    """
    point = _lock_point(point_id)
    old = point.holder_id
    guilds = _lock_guilds(old, to_guild_id)
    if to_guild_id is not None and to_guild_id not in guilds:
        raise NotFound("guild_not_found", "No such Guild.")
    if old == to_guild_id:
        return point
    now = timezone.now()
    if old is not None:
        LimitBonus.objects.filter(guild_id=old, source=_bonus_source(point)).delete()
        IncomePeriod.objects.filter(point=point, settled_at__isnull=True).update(
            settled_at=now, stopped=True
        )
        taker = guilds[to_guild_id].name if to_guild_id else "nobody"
        _news(old, f"{point.name} is lost: now held by {taker}.", reason, reference, now)
    point.holder_id = to_guild_id
    point.held_since = now if to_guild_id else None
    point.save(update_fields=["holder", "held_since"])
    if to_guild_id is not None:
        _know(to_guild_id, point.pk, now)
        _apply_bonuses(point, to_guild_id)
        _start_income(point, to_guild_id, now)
        _news(
            to_guild_id,
            f"{point.name} is yours: your ensign flies over it.",
            reason,
            reference,
            now,
        )
    return point


def control_points_for_raffle(*, guild_ids: list[int]) -> list[ControlPoint]:
    """The control points a standard mission between ``guild_ids`` may be fought over (6.4.1
    raffle phase): free ones and those held by one of these Guilds, with ``area``, ``holder``
    and ``bonuses`` loaded, in map order. Reads only."""
    return list(
        ControlPoint.objects.filter(Q(holder__isnull=True) | Q(holder_id__in=guild_ids))
        .select_related("area", "holder")
        .prefetch_related("bonuses")
        .order_by("area__order", "order", "name")
    )


def armory_discount(guild: Guild) -> int:
    """Percent off weapon prices from the control points the Guild holds (0..50)."""
    total = (
        ControlPointBonus.objects.filter(
            point__holder=guild, kind=ControlPointBonus.Kind.ARMORY_DISCOUNT
        ).aggregate(s=Sum("amount"))["s"]
        or 0
    )
    return min(total, 50)

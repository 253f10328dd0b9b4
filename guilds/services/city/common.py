"""What the city's services share: locking the Guilds and a control point in the one lock
order, the news digest, the points a Guild knows, an expedition's party (the package's
docstring: lock order)."""

from __future__ import annotations

from django.utils import timezone

from tabletop.errors import NotFound

from ...ids import parse_id
from ...models import (
    CityNews,
    ControlPoint,
    Expedition,
    Guild,
    KnownPoint,
    Mercenary,
)


def _lock_guilds(*ids: int | None) -> dict[int, Guild]:
    """The Guild rows of ``ids`` (None ignored), locked in id order."""
    wanted = sorted({i for i in ids if i is not None})
    found = {
        g.pk: g for g in Guild.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    }
    return found


def _lock_point(point_id) -> ControlPoint:
    pk = parse_id(point_id)
    point = None
    if pk is not None:
        point = (
            ControlPoint.objects.select_related("area")
            .select_for_update(of=("self",))
            .filter(pk=pk)
            .first()
        )
    if point is None:
        raise NotFound("control_point_not_found", "No such control point.")
    return point


def _news(guild_id: int, headline: str, body: str = "", reference: str = "", now=None) -> None:
    CityNews.objects.create(
        guild_id=guild_id,
        created_at=now or timezone.now(),
        headline=headline[:200],
        body=body,
        reference=reference,
    )


def _know(guild_id: int, point_id: int, now) -> bool:
    """Mark the point known to the Guild; True if it was unknown. The caller holds the Guild's
    lock, so no one else adds the same row meanwhile (no savepoint needed)."""
    if KnownPoint.objects.filter(guild_id=guild_id, point_id=point_id).exists():
        return False
    KnownPoint.objects.create(guild_id=guild_id, point_id=point_id, known_at=now)
    return True


def _party_levels(expedition: Expedition) -> list[tuple[Mercenary, int]]:
    party = list(expedition.mercenaries.select_related("card").order_by("pk"))
    return [(m, m.card.level) for m in party]

"""The Guild's city digest: marking its news and returned expeditions read."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ...models import (
    CityNews,
    Expedition,
    Guild,
)


@transaction.atomic
def city_news_seen(*, guild: Guild) -> int:
    """Mark the Guild's digest and returned expeditions as read (clears the badge)."""
    now = timezone.now()
    n = CityNews.objects.filter(guild=guild, seen_at__isnull=True).update(seen_at=now)
    Expedition.objects.filter(guild=guild, settled_at__isnull=False, seen_at__isnull=True).update(
        seen_at=now
    )
    return n

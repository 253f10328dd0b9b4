"""Many explorations at once, for the timer tests and drills (docs/architecture.md "Guilds and timers")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.utils import timezone

from guilds import models

from .test_city import hire, make_point


def seed_explorations(
    found_guild, give, *, guilds: int, points: int, due_at: Callable[[int], datetime]
) -> list[models.Expedition]:
    """``points`` x ``guilds`` explorations, each Guild exploring every point with one hired
    mercenary (status ``exploring``), sure to succeed (chance 100, roll 1), not settled and no
    task sent. ``due_at(k)``: the deadline of the k-th row (points in order, each point's
    Guilds in order). Written in bulk (a few queries whatever the count)."""
    houses = [found_guild(f"House {i}") for i in range(guilds)]
    spots = [make_point(f"Point {i}", explore_minutes=1) for i in range(points)]
    party = {g.pk: hire(g, give, 1)[0] for g in houses}
    now = timezone.now()
    rows = models.Expedition.objects.bulk_create(
        models.Expedition(
            guild=g,
            point=p,
            action="explore",
            party_size=1,
            chance=100,
            roll=1,
            consequence_roll=1,
            started_at=now,
            due_at=due_at(i * guilds + j),
        )
        for i, p in enumerate(spots)
        for j, g in enumerate(houses)
    )
    through = models.Expedition.mercenaries.through
    through.objects.bulk_create(
        through(expedition_id=e.pk, mercenary_id=party[e.guild_id].pk) for e in rows
    )
    models.Mercenary.objects.update(status="exploring")
    return rows

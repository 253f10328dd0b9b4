"""Committed work always answers success (docs/architecture.md "Guilds and timers"): with the
cache (Redis) unreachable, sending a party still answers 201, the expedition is saved and its
timer is settled by the sweeper. The cache is a real Redis client pointed at a closed port."""

import pytest
import redis
import time_machine
from django.core.cache import cache

from guilds import models, services

from .test_city import hire, make_point

pytestmark = pytest.mark.django_db(transaction=True)

DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def test_sending_a_party_while_the_cache_is_down_answers_201_and_settles_later(
    client, guild, give, settings
):
    point = make_point(explore_minutes=1)  # due soon: its task is sent after commit
    (merc,) = hire(guild, give, 1)
    client.force_login(guild.master)
    settings.CACHES = DOWN
    with pytest.raises(redis.ConnectionError):  # the cache really is down
        cache.add("probe", 1)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        sent = client.post(
            "/api/guild/city/expeditions",
            {"point_id": point.pk, "mercenary_ids": [merc.pk]},
            content_type="application/json",
        )
        assert sent.status_code == 201, sent.content
        expedition = models.Expedition.objects.get(pk=sent.json()["id"])
        assert expedition.settled_at is None
        clock.shift(expedition.due_at - expedition.started_at)
        services.city_timers_sweep()
    expedition.refresh_from_db()
    assert expedition.settled_at is not None and expedition.outcome == "explored"

"""``/health/``: django-health-check with the database, the cache, Redis (when there is one)
and the Celery workers (heartbeats; with Redis also ``celery inspect ping``). 200 when all
pass, 500 otherwise; ``?format=json`` for machines. (``POST /api/health``, the bench's
one-row insert, is another endpoint and stays.)"""

from datetime import timedelta

from django.conf import settings
from health_check.views import HealthCheckView

checks: list = [
    "health_check.checks.Database",
    "health_check.checks.Cache",
    "ops.health.CeleryWorkers",
]
if settings.REDIS_URL:
    from redis.asyncio import Redis

    from config.celery import app

    checks += [
        (
            "health_check.contrib.redis.Redis",
            {"client_factory": lambda: Redis.from_url(settings.REDIS_URL)},
        ),
        ("health_check.contrib.celery.Ping", {"app": app, "timeout": timedelta(seconds=1)}),
    ]

health_view = HealthCheckView.as_view(checks=checks)

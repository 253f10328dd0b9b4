"""``/health/`` and ``/health/live/``: django-health-check with the database, the cache, Redis (when there is one)
and the Celery workers (their heartbeats, ``ops.health.CeleryWorkers``: no broadcast ping, so a
call costs a few milliseconds, not a second). 200 when all pass, 500 otherwise;
``?format=json`` for machines. Only for staff or a monitor with ``HEALTH_TOKEN`` (``Authorization:
Bearer <token>``): the report says which parts run, which nobody else needs to know; others get
404. ``/health/live/`` is public and tells only that the process answers (200 ``ok``, no
database, no details). (``POST /api/health``, the bench's one-row insert, is another endpoint.)"""

import dataclasses
import hmac
import os
from datetime import timedelta

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import timezone
from health_check.base import HealthCheck
from health_check.contrib.redis import Redis as RedisCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient

from ops.models import WorkerBeat

ALIVE_WITHIN = timedelta(seconds=30)


@dataclasses.dataclass
class CeleryWorkers(HealthCheck):
    """At least one Celery worker wrote its heartbeat (``ops.WorkerBeat``) within 30 s. Works
    on every broker (the embedded SQL transport has no broadcast for ``celery inspect ping``)."""

    def run(self):
        if not WorkerBeat.objects.filter(last_seen__gte=timezone.now() - ALIVE_WITHIN).exists():
            raise ServiceUnavailable("No Celery worker has been seen in the last 30 s")


@dataclasses.dataclass
class Redis(RedisCheck):
    """django-health-check's Redis check under a name that gives away nothing: its own repr and
    labels name the host, port and database."""

    def __repr__(self) -> str:
        return "Redis"

    @property
    def labels(self) -> dict[str, str]:
        return {"check": "Redis"}

checks: list = [
    "health_check.checks.Database",
    "health_check.checks.Cache",
    "ops.health.CeleryWorkers",
]
if settings.REDIS_URL:
    checks += [
        ("ops.health.Redis", {"client_factory": lambda: RedisClient.from_url(settings.REDIS_URL)}),
    ]

_report = HealthCheckView.as_view(checks=checks)


async def _may_see(request) -> bool:
    token = os.environ.get("HEALTH_TOKEN", "")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if token and hmac.compare_digest(given.encode(), token.encode()):
        return True
    user = await request.auser()
    return bool(user.is_active and user.is_staff)


async def health_view(request, *args, **kwargs):
    """The full report for staff or ``HEALTH_TOKEN``; 404 for anyone else."""
    if not await _may_see(request):
        raise Http404
    return await _report(request, *args, **kwargs)


def liveness(request):
    """``/health/live/``: 200 ``ok`` while the process answers; nothing else is said."""
    return HttpResponse("ok", content_type="text/plain")

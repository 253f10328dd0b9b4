"""``/health/``: django-health-check with the database, the cache, Redis (when there is one)
and the Celery workers (their heartbeats, ``ops.health.CeleryWorkers``: no broadcast ping, so a
call costs a few milliseconds, not a second). 200 when all pass, 500 otherwise;
``?format=json`` for machines. Only for staff or a monitor with ``HEALTH_TOKEN`` (``Authorization:
Bearer <token>``): the report says which parts run, which nobody else needs to know; others get
404. ``/health/live/`` is public and tells only that the process answers (200 ``ok``, no
database, no details). (``POST /api/health``, the bench's one-row insert, is another endpoint.)"""

import hmac
import os

from django.conf import settings
from django.http import Http404, HttpResponse
from health_check.views import HealthCheckView

checks: list = [
    "health_check.checks.Database",
    "health_check.checks.Cache",
    "ops.health.CeleryWorkers",
]
if settings.REDIS_URL:
    from redis.asyncio import Redis

    checks += [
        ("ops.health.Redis", {"client_factory": lambda: Redis.from_url(settings.REDIS_URL)}),
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

"""Health checks of our own for django-health-check (``/health/``)."""

import dataclasses
from datetime import timedelta

from django.utils import timezone
from health_check.base import HealthCheck
from health_check.contrib.redis import Redis as RedisCheck
from health_check.exceptions import ServiceUnavailable

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

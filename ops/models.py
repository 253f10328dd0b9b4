"""What the operations page needs to remember across processes: each Celery
worker's last heartbeat (written by the worker itself: config/celery.py WorkerClock calls
``record_worker_beat``, named in ``settings.WORKER_CLOCK["heartbeat"]``)."""

import os

from django.db import models
from django.utils import timezone


class WorkerBeat(models.Model):
    """One row per worker name (``celery@host``): ``last_seen`` is refreshed every 10 s while
    the worker's consumer is connected to its broker; ``pid`` of its main process."""

    name = models.CharField(max_length=200, unique=True)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def record_worker_beat(name: str, started_at) -> None:
    """Write the heartbeat of the worker ``name`` (its main process: this pid), started at
    ``started_at`` (an aware datetime): one row per name, ``last_seen`` now."""
    WorkerBeat.objects.update_or_create(
        name=name,
        defaults={"pid": os.getpid(), "started_at": started_at, "last_seen": timezone.now()},
    )

"""What the operations page needs to remember across processes: each Celery
worker's last heartbeat (written by the worker itself, config/celery.py WorkerClock)."""

from django.db import models


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

"""Workers that recover (docs/architecture.md "Guilds and timers"): a worker survives a Redis
restart while it holds ETA messages, and with the worker that ran the clock killed, the other
worker settles every timer within about a second of its deadline (no beat to lose)."""

import statistics
import time
from datetime import timedelta

import pytest
from django.db.models import Count
from django.utils import timezone

from guilds import models
from tests.guilds.expeditions import seed_explorations

from .conftest import kill9, start_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.drill]


def _expeditions(found_guild, give, n: int, first_in: float, spread: float):
    """``n`` explorations of 10 Guilds due from ``first_in`` s for ``spread`` s, no task sent
    yet (the workers' clocks send them, as the sweeper does for far deadlines)."""
    start = timezone.now() + timedelta(seconds=first_in)
    return seed_explorations(
        found_guild,
        give,
        guilds=10,
        points=n // 10,
        due_at=lambda k: start + timedelta(seconds=spread * k / n),
    )


def _wait_settled(timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while models.Expedition.objects.filter(settled_at__isnull=True).exists():
        if time.monotonic() > deadline:
            return
        time.sleep(0.2)


def _figures(label: str, total: int) -> dict:
    done = list(
        models.Expedition.objects.filter(settled_at__isnull=False).values_list(
            "due_at", "settled_at"
        )
    )
    lags = sorted((s - d).total_seconds() for d, s in done)
    reports = (
        models.CityNews.objects.filter(headline__startswith="Back from")
        .values("reference")
        .annotate(n=Count("id"))
    )
    twice = sum(1 for r in reports if r["n"] > 1)
    out = {
        "drill": label,
        "timers": total,
        "settled": len(done),
        "lost": total - len(done),
        "duplicated": twice,
        "lag_p50_s": round(statistics.median(lags), 2) if lags else None,
        "lag_max_s": round(lags[-1], 2) if lags else None,
    }
    print("\nDRILL", out)
    return out


def test_a_worker_holding_eta_messages_survives_a_redis_restart(
    found_guild, give, private_redis, tmp_path
):
    rows = _expeditions(found_guild, give, 100, first_in=15, spread=6)
    worker = start_worker(private_redis.url, "w1", tmp_path)
    try:
        # Started, and its clock has sent the ETA tasks of the coming deadlines: it holds them.
        deadline = time.monotonic() + 14
        sent = models.Expedition.objects.filter(eta_sent_at__isnull=False)
        while sent.count() < len(rows) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert sent.count() == len(rows), "the worker did not start in time"
        time.sleep(1)
        private_redis.restart(down_for=2.0)  # every message is gone (no persistence)
        assert private_redis.downs == 1  # the fault happened: Redis refused connections
        _wait_settled(30)
        alive = worker.poll() is None
    finally:
        kill9(worker)
    log = (tmp_path / "w1.log").read_text()
    assert alive, log[-3000:]
    assert "Unrecoverable error" not in log
    figures = _figures("redis restart, worker holding ETA messages", len(rows))
    assert figures["lost"] == 0 and figures["duplicated"] == 0
    assert figures["lag_max_s"] < 2.0


def test_killing_one_of_two_workers_strands_no_timer(found_guild, give, private_redis, tmp_path):
    rows = _expeditions(found_guild, give, 100, first_in=15, spread=8)
    first = start_worker(private_redis.url, "w1", tmp_path)
    second = start_worker(private_redis.url, "w2", tmp_path)
    try:
        deadline = time.monotonic() + 14
        sent = models.Expedition.objects.filter(eta_sent_at__isnull=False)
        while sent.count() < len(rows) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)  # both have started and hold some of the ETA messages
        assert first.poll() is None, "the first worker died before the drill's kill"
        kill9(first)  # its messages stay invisible in Redis for the visibility timeout
        assert first.returncode == -9  # the fault happened: killed, not exited
        _wait_settled(30)
        alive = second.poll() is None
    finally:
        kill9(first)
        kill9(second)
    assert alive
    figures = _figures("one of two workers kill -9", len(rows))
    assert figures["lost"] == 0 and figures["duplicated"] == 0
    assert figures["lag_max_s"] < 2.0

"""Timers done right, on PostgreSQL (docs/architecture.md "Guilds and timers"): the ETA task and the
sweeper settling the same expedition at the same moment settle it exactly once; a Celery worker
killed with ``kill -9`` in the middle of settling loses nothing (the sweeper of a restarted
worker settles the rest). Real concurrent transactions, a real worker on Redis."""

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, connections
from django.db.models import Count
from django.utils import timezone

from guilds import models, services, tasks

from .expeditions import seed_explorations
from .test_city import SUCCESS, hire, make_point

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL); SQLite serialises all writers")


def together(*actions):
    """Run the callables at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(actions))
    errors = []

    def run(action):
        try:
            barrier.wait()
            action()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors


def settled_once(expedition):
    """A settlement writes exactly one "Back from ..." news item for the expedition."""
    return models.CityNews.objects.filter(
        reference=f"expedition:{expedition.pk}", headline__startswith="Back from"
    ).count()


def test_eta_task_and_sweeper_at_the_same_moment_settle_exactly_once(guild, give):
    party = hire(guild, give, 2)
    points = [make_point(f"Point {i}", explore_minutes=1) for i in range(8)]
    for i, point in enumerate(points):
        models.KnownPoint.objects.create(guild=guild, point=point, known_at=timezone.now())
        exp = services.expedition_start(
            guild=guild,
            point_id=point.pk,
            mercenary_ids=[party[i % 2].pk],
            rng=random.Random(SUCCESS),
        )
        # Make it overdue now (the deadline has passed for both settlers).
        models.Expedition.objects.filter(pk=exp.pk).update(
            due_at=timezone.now() - timedelta(seconds=1)
        )
        pk = exp.pk
        together(
            lambda: tasks.settle_expedition(pk),  # noqa: B023 - joined before the loop moves on
            tasks.sweep_city_timers,
            lambda: tasks.settle_expedition(pk),  # noqa: B023 - a redelivered duplicate
        )
        exp.refresh_from_db()
        assert exp.settled_at is not None and settled_once(exp) == 1
        guild.refresh_from_db()
        for cached, total in services.guild_ledger_audit(guild=guild).values():
            assert cached == total
    assert not guild.mercenaries.filter(status="exploring").exists()
    assert guild.control_points.count() == len(points)


def _worker_env() -> dict:
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    return env


def _start_worker(beat_dir: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-B",
            "--concurrency=2",
            "--loglevel=warning",
            f"--schedule={beat_dir}/beat",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=_worker_env(),
        start_new_session=True,  # its own process group: kill -9 reaches the pool too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill9(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(5)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (set REDIS_URL)")
@pytest.mark.flaky(reruns=2)  # kill -9 at the right moment depends on the machine's load
def test_a_worker_killed_mid_settlement_loses_nothing(found_guild, give):
    from config.celery import app

    app.control.purge()
    # Not due while they are re-dated below: the workers' clock sweeps every second.
    later = timezone.now() + timedelta(hours=1)
    expeditions = seed_explorations(
        found_guild, give, guilds=6, points=50, due_at=lambda k: later
    )
    total = len(expeditions)
    open_ = models.Expedition.objects.filter(settled_at__isnull=True)
    with tempfile.TemporaryDirectory() as beat_dir:
        worker = _start_worker(beat_dir)
        try:
            # The worker is up and connected (its clock wrote its heartbeat): on a loaded
            # machine it may take many seconds, and all deadlines must not be past by then.
            from ops.models import WorkerBeat

            ready = time.monotonic() + 60
            while not WorkerBeat.objects.exists() and time.monotonic() < ready:
                time.sleep(0.1)
            # Deadlines spread over 3 s from 3 s on: a dozen shared tasks of ~25 each, sent as
            # expedition_start sends them.
            start = timezone.now() + timedelta(seconds=3)
            for i, exp in enumerate(expeditions):
                due = start + timedelta(seconds=3 * i / total)
                models.Expedition.objects.filter(pk=exp.pk).update(
                    due_at=due, eta_sent_at=timezone.now()
                )
                services.city._send_due(due)
            deadline = time.monotonic() + 15
            while open_.count() == total and time.monotonic() < deadline:
                time.sleep(0.02)
            _kill9(worker)  # in the middle: some settled, some not, some in flight
            left = open_.count()
            assert 0 < left < total, "the worker was not killed mid-settlement"
            # The restarted worker re-sends the ETA tasks and sweeps at once (its clock, on connect);
            # the ETA messages the killed one held stay invisible in Redis for an hour.
            worker = _start_worker(beat_dir)
            deadline = time.monotonic() + 20
            while open_.exists() and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            if worker.poll() is None:
                _kill9(worker)
    assert not open_.exists()
    per_ref = (
        models.CityNews.objects.filter(headline__startswith="Back from")
        .values("reference")
        .annotate(n=Count("id"))
    )
    assert len(per_ref) == total and {row["n"] for row in per_ref} == {1}
    assert models.KnownPoint.objects.count() == total
    assert not models.Mercenary.objects.filter(status="exploring").exists()

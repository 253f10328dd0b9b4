"""Benchmark of the city's timers (docs/architecture.md "Guilds and timers").

N expeditions fall due within one window (default 10,000 within 60 s); one Celery worker
(``celery -A config worker -B``, prefork, 2 processes) on Redis and PostgreSQL settles them.
Measured per expedition: the settlement lag (``settled_at - due_at``), p50/p99/max; how many
were settled exactly once (one "Back from ..." news item each), lost (never settled) or settled
twice. Then the same with the worker killed (``kill -9`` of its whole process group) halfway
through the window and restarted at once.

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/9 .venv/bin/python bench/timers.py [--n 10000] [--window 60]

Needs its own database (it is migrated, and its bench rows are replaced on each run) and its
own Redis database (purged). Run on demand, never by ``make test``.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.utils import timezone  # noqa: E402

from config.celery import app  # noqa: E402
from guilds import models  # noqa: E402
from guilds.services import city  # noqa: E402

PREFIX = "Bench "


def setup(n: int, guilds: int) -> list[int]:
    """Replace the bench rows: ``guilds`` Guilds, ``n // guilds`` points, one mercenary per
    expedition (busy, "exploring"), ``n`` open explorations. Returns the expedition ids."""
    models.Expedition.objects.filter(guild__name__startswith=PREFIX).delete()
    models.CityNews.objects.filter(guild__name__startswith=PREFIX).delete()
    models.KnownPoint.objects.filter(guild__name__startswith=PREFIX).delete()
    models.Mercenary.objects.filter(guild__name__startswith=PREFIX).delete()
    points_per_guild = n // guilds
    area, _ = models.CityArea.objects.get_or_create(name=f"{PREFIX}quarter")
    models.ControlPoint.objects.bulk_create(
        [
            models.ControlPoint(name=f"{PREFIX}point {i}", area=area, kind="tavern")
            for i in range(points_per_guild)
        ],
        ignore_conflicts=True,
    )
    points = list(
        models.ControlPoint.objects.filter(name__startswith=f"{PREFIX}point ").order_by("pk")
    )[:points_per_guild]
    card_set, _ = models.CardSet.objects.get_or_create(
        name=f"{PREFIX}set", defaults={"slug": "bench", "kind": "basic_guild"}
    )
    card, _ = models.MercenaryCard.objects.get_or_create(
        name=f"{PREFIX}runner", defaults={"type": "hunter", "area": area}
    )
    User = get_user_model()
    have = models.Guild.objects.filter(name__startswith=PREFIX).count()
    for i in range(have, guilds):
        user = User.objects.create(username=f"bench-master-{i}")
        code = models.AccountCode.objects.create(code=f"BNCH-{i:04d}-TIME", card_set=card_set)
        models.Guild.objects.create(
            master=user, account_code=code, name=f"{PREFIX}{i}", colour="red"
        )
    all_guilds = list(models.Guild.objects.filter(name__startswith=PREFIX).order_by("pk"))[:guilds]
    mercs = models.Mercenary.objects.bulk_create(
        models.Mercenary(guild=g, card=card, status="exploring") for g in all_guilds for _ in points
    )
    now = timezone.now()
    expeditions = models.Expedition.objects.bulk_create(
        models.Expedition(
            guild=m.guild,
            point=points[i % points_per_guild],
            action="explore",
            party_size=1,
            chance=100,
            roll=1,
            consequence_roll=1,
            started_at=now,
            due_at=now + timedelta(days=1),  # set by schedule()
            eta_sent_at=now,
        )
        for i, m in enumerate(mercs)
    )
    through = models.Expedition.mercenaries.through
    through.objects.bulk_create(
        through(expedition_id=e.pk, mercenary_id=m.pk)
        for e, m in zip(expeditions, mercs, strict=True)
    )
    return [e.pk for e in expeditions]


def schedule(ids: list[int], lead: float, window: float) -> tuple[float, int]:
    """Spread the deadlines evenly over ``window`` seconds starting ``lead`` s from now and hand
    each to the broker as ``expedition_start`` does after commit (``_send_due``: one shared task
    per 250 ms of deadlines). Returns the first deadline (epoch seconds) and the tasks sent."""
    start = timezone.now() + timedelta(seconds=lead)
    due = {pk: start + timedelta(seconds=window * i / len(ids)) for i, pk in enumerate(ids)}
    with connection.cursor() as cur:
        cur.executemany(
            "UPDATE guilds_expedition SET due_at = %s WHERE id = %s",
            [(d, pk) for pk, d in due.items()],
        )

    cache.clear()  # the marks of the previous run
    tasks = sum(city._send_due(d) for d in due.values())
    return start.timestamp(), tasks


# The worker, optionally with persistent database connections: the project's settings open a
# new connection per task (CONN_MAX_AGE 0), and a PostgreSQL login (SCRAM) costs more CPU than
# settling an expedition.
WORKER = """
import sys, django
from django.conf import settings
django.setup()
if {conn_max_age!r} != None:  # noqa: E711
    settings.DATABASES["default"]["CONN_MAX_AGE"] = {conn_max_age!r}
    settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
from celery.__main__ import main
sys.argv = ["celery", "-A", "config", "worker", "-B", "--concurrency=2", "--loglevel=error",
            "--schedule={beat_dir}/beat"] + {extra!r}
main()
"""


LEAN = ["--without-mingle", "--without-gossip"]


def start_worker(
    beat_dir: str, conn_max_age: int | None = None, lean: bool = False
) -> subprocess.Popen:
    """The worker; ``lean``: without mingle and gossip (a lone worker needs neither; it starts
    about a second sooner, which is what a ``kill -9`` costs)."""
    code = WORKER.format(conn_max_age=conn_max_age, beat_dir=beat_dir, extra=LEAN if lean else [])
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=open(os.environ.get("BENCH_WORKER_LOG", os.devnull), "a"),  # noqa: SIM115
    )


def wait_ready(timeout: float = 60) -> float:
    """Seconds until a worker answers a ping."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if app.control.ping(timeout=0.5):
            return time.time() - t0
    raise SystemExit("The worker did not start.")


def cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) used so far by the processes of a process group (Linux)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ...
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def kill9(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(10)


def wait_settled(ids: list[int], not_before: float, stall: float = 60) -> None:
    """Until every expedition is settled, or none was for ``stall`` seconds after
    ``not_before`` (the last deadline): what is left then is lost."""
    open_ = models.Expedition.objects.filter(pk__in=ids, settled_at__isnull=True)
    left, since = open_.count(), time.time()
    while left:
        time.sleep(1)
        now_left = open_.count()
        if now_left < left:
            left, since = now_left, time.time()
        elif time.time() > max(not_before, since) + stall:
            return


def measure(ids: list[int]) -> dict:
    rows = models.Expedition.objects.filter(pk__in=ids).values_list("due_at", "settled_at")
    lags = sorted((s - d).total_seconds() for d, s in rows if s is not None)
    news = dict(
        models.CityNews.objects.filter(
            reference__in=[f"expedition:{pk}" for pk in ids], headline__startswith="Back from"
        )
        .values_list("reference")
        .annotate(n=Count("id"))
    )
    once = sum(1 for pk in ids if news.get(f"expedition:{pk}") == 1)
    twice = sum(1 for pk in ids if news.get(f"expedition:{pk}", 0) > 1)
    q = statistics.quantiles(lags, n=100) if len(lags) > 1 else [0.0] * 99
    return {
        "settled": len(lags),
        "lost": len(ids) - len(lags),
        "once": once,
        "twice": twice,
        "p50": q[49],
        "p99": q[98],
        "max": lags[-1] if lags else 0.0,
    }


def run(
    n: int, window: float, guilds: int, lead: float, kill: bool, conn_max_age, lean: bool
) -> dict:
    ids = setup(n, guilds)
    app.control.purge()
    with tempfile.TemporaryDirectory() as beat_dir:
        worker = start_worker(beat_dir, conn_max_age, lean)
        cpu = 0.0
        try:
            wait_ready()
            cpu -= cpu_seconds(worker.pid)
            t0 = time.time()
            first, tasks = schedule(ids, lead, window)
            sent = time.time() - t0
            if kill:
                time.sleep(max(first + window / 2 - time.time(), 0))
                cpu += cpu_seconds(worker.pid)
                kill9(worker)
                worker = start_worker(beat_dir, conn_max_age, lean)
                print(f"  restarted worker ready after {wait_ready():.1f} s", flush=True)
                cpu -= cpu_seconds(worker.pid)
            wait_settled(ids, first + window)
            cpu += cpu_seconds(worker.pid)
        finally:
            if worker.poll() is None:
                kill9(worker)
    return {**measure(ids), "cpu_ms": 1000 * cpu / len(ids), "sent": sent, "tasks": tasks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--window", type=float, default=60.0, help="seconds")
    parser.add_argument("--guilds", type=int, default=100)
    parser.add_argument(
        "--lead", type=float, default=45.0, help="seconds before the first (covers sending)"
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="give the worker persistent DB connections (seconds); default: the settings'",
    )
    parser.add_argument(
        "--lean", action="store_true", help="start the worker without mingle and gossip"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL=postgres://... and REDIS_URL=redis://... (see the docstring).")
    call_command("migrate", verbosity=0)
    print(
        f"{args.n} expeditions due within {args.window:.0f} s, one worker (2 processes), "
        f"CONN_MAX_AGE {args.conn_max_age if args.conn_max_age is not None else 'from settings'}"
        f"{', lean worker' if args.lean else ''}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| run | settled | exactly once | lost | twice | lag p50 | lag p99 | lag max "
        "| worker CPU per settlement | tasks sent |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, kill in (("steady", False), ("kill -9 halfway, restart", True)):
        r = run(args.n, args.window, args.guilds, args.lead, kill, args.conn_max_age, args.lean)
        print(
            f"| {label} | {r['settled']} | {r['once']} | {r['lost']} | {r['twice']} | "
            f"{r['p50']:.2f} s | {r['p99']:.2f} s | {r['max']:.2f} s | {r['cpu_ms']:.2f} ms | {r['tasks']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

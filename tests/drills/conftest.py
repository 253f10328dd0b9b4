"""Slow fault drills (issue 18), run by ``make drills``, not by ``make test``: real workers,
a private Redis that is frozen or restarted, real PostgreSQL backends terminated. Each drill
prints its figures (acknowledged, lost, duplicated, lag) with ``-s``; README "Recovery"."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from tests.faults import private_redis  # noqa: F401 - fixture
from tests.guilds.conftest import found_guild, give  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("drills need PostgreSQL (set DATABASE_URL)")


def db_url() -> str:
    db = connection.settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def start_worker(redis_url: str, name: str, log_dir: Path) -> subprocess.Popen:
    """``celery -A config worker`` as make run starts it, on ``redis_url`` and the test DB."""
    env = dict(os.environ, DATABASE_URL=db_url(), REDIS_URL=redis_url)
    log = open(log_dir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-n",
            f"{name}@%h",
            "--concurrency=2",
            "--loglevel=warning",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def serve(redis_url: str, log_dir: Path, port: int) -> subprocess.Popen:
    """daphne serving ``config.asgi`` on ``port``, the test database and ``redis_url``, as a
    server is run (no debug pages; the psycopg pool, health-checked, its default)."""
    import httpx

    env = dict(
        os.environ,
        DATABASE_URL=db_url(),
        REDIS_URL=redis_url,
        DEBUG="0",
        SECRET_KEY="drill-only-secret-key-drill-only-secret-key-0123456789",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        TABLETOP_CODE_GUESS_RATE="100000/min",
        TABLETOP_SEAT_JOIN_RATE="100000/min",
        TABLETOP_TABLE_CREATE_RATE="100000/min",
    )
    env.pop("DB_POOL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    log = open(log_dir / f"daphne-{port}.log", "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("daphne did not start")


def kill9(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

"""Slow fault drills, run by ``make drills``, not by ``make test``: real workers,
a private Redis that is frozen or restarted, real PostgreSQL backends terminated. Each drill
prints its figures (acknowledged, lost, duplicated, lag) with ``-s``; docs/operations.md "Recovery"."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.faults import private_redis  # noqa: F401 - fixture
from tests.guilds.conftest import found_guild, give  # noqa: F401 - fixtures
from tests.servers import OPEN_GATE, database_url, start_web

ROOT = Path(__file__).resolve().parents[2]


def db_url() -> str:
    return database_url()


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


def serve(redis_url: str, log_dir: Path, port: int, workers: int = 1,
          timeout: float = 30.0) -> subprocess.Popen:
    """The server ``bin/run`` starts (``tests.servers``: uvicorn) serving ``config.asgi`` on
    ``port``, the test database and ``redis_url``, as a server is run (no debug pages; the
    psycopg pool, health-checked, its default)."""
    env = dict(
        os.environ,
        **OPEN_GATE,
        DATABASE_URL=db_url(),
        REDIS_URL=redis_url,
        DEBUG="0",
        SECRET_KEY="drill-only-secret-key-drill-only-secret-key-0123456789",
        ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    env.pop("DB_POOL", None)
    log = open(log_dir / f"web-{port}.log", "ab")  # noqa: SIM115 - closed with the process
    return start_web(port, env, log, workers=workers, timeout=timeout)


def kill9(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

"""The web server ``bin/run`` starts, for the tests that need a real one (the browser tests and
the fault drills): uvicorn serving ``config.asgi`` with the command line of
``config/supervisord.conf`` (one worker process, no lifespan, no access log), on the test
database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]

#: Every phone of these tests is 127.0.0.1: the gate's throttles would add up.
OPEN_GATE = {
    "TABLETOP_CODE_GUESS_RATE": "100000/min",
    "TABLETOP_SEAT_JOIN_RATE": "100000/min",
    "TABLETOP_TABLE_CREATE_RATE": "100000/min",
}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The test database as a ``DATABASE_URL`` (SQLite file or PostgreSQL)."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    return (
        f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:"
        f"{s['PORT'] or 5432}/{s['NAME']}"
    )


def web_command(
    host: str, port: int, *, workers: int, forwarded_allow_ips: str = ""
) -> list[str]:
    """The web server's command line as ``config/supervisord.conf`` runs it (``bin/run``, ``make
    run``), with this interpreter: uvicorn serving ``config.asgi`` on ``host:port`` with
    ``workers`` processes (``WEB_CONCURRENCY``), no lifespan, no access log, forwarded headers
    believed only from ``forwarded_allow_ips`` (``""``: nobody, bin/run without
    ``BEHIND_PROXY``), the phones' websocket protocol (``config.websocket``: per-message
    deflate without context takeover), websocket messages of at most 4 KiB. Checked against the config file by
    ``tests/test_run.py``."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--lifespan",
        "off",
        "--no-access-log",
        f"--forwarded-allow-ips={forwarded_allow_ips}",
        "--ws",
        "config.websocket:PhoneWebSocket",
        "--ws-max-size",
        "4096",
        "--timeout-graceful-shutdown",
        "3",
    ]


def start_web(
    port: int, env: dict[str, str], log: IO, *, timeout: float = 30.0, forwarded_allow_ips: str = "",
    workers: int = 1,
):
    """Start uvicorn on ``127.0.0.1:port`` as ``bin/run`` does (``config/supervisord.conf``),
    with ``env`` as its whole environment (``DJANGO_ALLOW_ASYNC_UNSAFE`` removed), output to
    ``log``, in its own process group (``os.killpg`` stops it and its children). Returns the
    process once the port answers; raises ``RuntimeError`` if it exits or ``timeout`` s pass.
    ``workers``: uvicorn's processes (``WEB_CONCURRENCY``: production runs one per CPU)."""
    env = {k: v for k, v in env.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    proc = subprocess.Popen(
        web_command("127.0.0.1", port, workers=workers, forwarded_allow_ips=forwarded_allow_ips),
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"the web server exited ({proc.returncode})") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the web server did not start")


def stop(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """Stop a process started in its own group (SIGTERM, then SIGKILL after ``timeout`` s)."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait(timeout)

"""Browser tests: a live ASGI server (daphne: HTTP + websockets) on the test database, and
Debian's Chromium driven by Playwright (SETUP-NOTES.md). Run in their own pytest process."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(scope="session")
def server_url(django_db_setup, django_db_blocker):
    """``http://127.0.0.1:<port>``: daphne serving ``config.asgi`` on the test database."""
    with django_db_blocker.unblock():
        url = _database_url()
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",  # as served to a network: no debug pages
        "TABLETOP_RNG_SEED": "e2e",
        # Every phone of the browser tests is 127.0.0.1: the gate's throttles would add up.
        "TABLETOP_CODE_GUESS_RATE": "100000/min",
        "TABLETOP_SEAT_JOIN_RATE": "100000/min",
        "TABLETOP_TABLE_CREATE_RATE": "100000/min",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"server-{os.getpid()}.log"
    log = open(log_path, "w")
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
        stderr=log,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError as exc:
            if proc.poll() is not None:
                raise RuntimeError(f"server died: {log_path.read_text()}") from exc
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)
    log.close()


@pytest.fixture
def new_phone(browser, transactional_db, server_url):
    """``new_phone() -> Page``: a 360x740 touch phone in its own browser context (cookies)."""
    contexts = []

    def make():
        context = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=1,
            base_url=server_url,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> Path:
    """Save a full-page screenshot as ``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path

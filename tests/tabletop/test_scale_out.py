"""Scale-out (docs/architecture.md "Running it"): two web servers on different ports and
two Celery workers, sharing only one PostgreSQL and one Redis, behave as one. A phone on
server A sees a command sent through server B (and the other way round), and city timers
whose tasks both workers receive are each settled exactly once (docs/architecture.md "Guilds and
timers")."""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone
from websockets.sync.client import connect

from guilds import models, services
from tests.guilds.conftest import found_guild, give  # noqa: F401 - fixtures
from tests.guilds.test_city import hire, make_point

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
ROOT = Path(__file__).resolve().parents[2]
VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture(autouse=True)
def _redis_only():
    # PostgreSQL: the postgres marker (tests/kit.py); Redis the processes share besides.
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis (REDIS_URL)")


def _env() -> dict:
    db = connection.settings_dict
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}",
        DEBUG="0",
        SECRET_KEY="scale-out-test",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        TABLETOP_TABLE_CREATE_RATE="100000/min",
        TABLETOP_SEAT_JOIN_RATE="100000/min",
        TABLETOP_CODE_GUESS_RATE="100000/min",
    )
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args], cwd=ROOT, env=_env(), start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def _web(port: int) -> subprocess.Popen:
    return _start(["uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
                   str(port), "--lifespan", "off", "--no-access-log", "--log-level", "warning"])


def _worker(name: str, beat_dir: str) -> subprocess.Popen:
    return _start(["celery", "-A", "config", "worker", "-n", f"{name}@%h", "--concurrency=2",
                   "--loglevel=warning", "--without-gossip", "--without-mingle",
                   "--without-heartbeat", f"--schedule={beat_dir}/{name}"])


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def _frame_at_least(ws, version: int, timeout: float = 10) -> int:
    """Read frames until one shows ``version`` or later; returns the version it shows."""
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        m = VERSION.search(frame)
        if m and int(m.group(1)) >= version:
            return int(m.group(1))


def test_two_servers_and_two_workers_behave_as_one(found_guild, give):  # noqa: F811
    from config.celery import app

    app.control.purge()
    ports = [_free_port(), _free_port()]
    procs = []
    with tempfile.TemporaryDirectory() as beat_dir:
        try:
            procs += [_web(p) for p in ports]
            procs += [_worker("scale-a", beat_dir), _worker("scale-b", beat_dir)]
            a, b = (f"http://127.0.0.1:{p}" for p in ports)
            for port, proc in zip(ports, procs, strict=False):
                _wait_port(port, proc)
            _phones_on_either_server_see_each_other(a, b)
            _timers_settle_once_with_both_workers(app, found_guild, give)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _phones_on_either_server_see_each_other(a: str, b: str) -> None:
    with httpx.Client(timeout=10) as http:
        host = http.post(f"{b}/api/tables/", json={"ruleset": "counter", "name": "Ann"}).json()
        code, ann = host["code"], host["seat_token"]
        ben = http.post(f"{a}/api/tables/{code}/join", json={"name": "Ben"}).json()["seat_token"]
        assert http.post(f"{b}/api/tables/{code}/commands", json={"type": "table.start"},
                         headers={"X-Seat-Token": ann}).status_code == 200

        def phone(url, token):
            return connect(f"{url.replace('http', 'ws')}/ws/tables/{code}/", origin=url,
                           additional_headers={"X-Seat-Token": token}, open_timeout=10)

        with phone(a, ben) as ben_on_a, phone(b, ann) as ann_on_b:
            _frame_at_least(ben_on_a, 1)  # the catch-up frames
            _frame_at_least(ann_on_b, 1)
            # Ann's command through server B reaches Ben's phone on server A ...
            r = http.post(f"{b}/api/tables/{code}/commands",
                          json={"type": "counter.add", "data": {"amount": 2}},
                          headers={"X-Seat-Token": ann})
            assert r.status_code == 200, r.text
            assert _frame_at_least(ben_on_a, r.json()["version"]) == r.json()["version"]
            # ... and Ben's through server A reaches Ann's phone on server B.
            r = http.post(f"{a}/api/tables/{code}/commands",
                          json={"type": "counter.add", "data": {"amount": 3}},
                          headers={"X-Seat-Token": ben})
            assert r.status_code == 200, r.text
            assert _frame_at_least(ann_on_b, r.json()["version"]) == r.json()["version"]


def _timers_settle_once_with_both_workers(app, found_guild, give) -> None:  # noqa: F811
    """60 explorations of 4 Guilds falling due within 2 s; each shared task is sent twice, so
    both workers settle the same deadlines at the same moment (SKIP LOCKED, settled_at)."""
    deadline = time.monotonic() + 20
    while len(app.control.ping(timeout=0.5)) < 2:
        assert time.monotonic() < deadline, "both workers answer"
    guilds = [found_guild(f"House {i}") for i in range(4)]
    points = [make_point(f"Point {i}", explore_minutes=1) for i in range(15)]
    party = {g.pk: hire(g, give, 1)[0] for g in guilds}
    now = timezone.now()
    expeditions = models.Expedition.objects.bulk_create(
        models.Expedition(guild=g, point=p, action="explore", party_size=1, chance=100, roll=1,
                          consequence_roll=1, started_at=now, due_at=now, eta_sent_at=now)
        for g in guilds for p in points
    )
    through = models.Expedition.mercenaries.through
    through.objects.bulk_create(
        through(expedition_id=e.pk, mercenary_id=party[e.guild_id].pk) for e in expeditions
    )
    models.Mercenary.objects.update(status="exploring")
    start = timezone.now() + timedelta(seconds=1)
    for i, exp in enumerate(expeditions):
        due = start + timedelta(seconds=2 * i / len(expeditions))
        models.Expedition.objects.filter(pk=exp.pk).update(due_at=due)
        services.city._send_due(due, force=True)
        services.city._send_due(due, force=True)  # a duplicate: the other worker may take it
    open_ = models.Expedition.objects.filter(settled_at__isnull=True)
    deadline = time.monotonic() + 20
    while open_.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not open_.exists()
    per_ref = (
        models.CityNews.objects.filter(headline__startswith="Back from")
        .values("reference").annotate(n=Count("id"))
    )
    assert len(per_ref) == len(expeditions) and {row["n"] for row in per_ref} == {1}

"""Database connections terminated under load: the server bin/run starts (uvicorn;
psycopg pool, health-checked: the default for servers) takes table commands from 8 clients while every
backend of its database is terminated four times. A client retries a failed command with the
same idempotency key, as the phones do. Every acknowledged command is in the log exactly once,
and the only failed answers are those of requests in flight at a kill."""

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from django.db import connection

from tabletop.models import Event
from tests.faults import free_port

from .conftest import kill9, serve

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.drill]


def _terminate_all(dbname: str, spare: int | None = None) -> int:
    """Terminate every backend of ``dbname`` but this call's own and ``spare`` (a pid: the
    test's own connection, so that the count is the server's); return how many were
    terminated (``pg_terminate_backend`` true)."""
    params = connection.get_connection_params()
    keep = ("host", "port", "user", "password")
    with psycopg.connect(dbname="postgres", **{k: params[k] for k in keep if k in params}) as c:
        rows = c.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid() AND pid <> %s",
            [dbname, spare or 0],
        ).fetchall()
    return sum(1 for (killed,) in rows if killed)


def _own_pid() -> int:
    connection.ensure_connection()
    return connection.connection.info.backend_pid


@pytest.fixture
def server(private_redis, tmp_path):
    port = free_port()
    proc = serve(private_redis.url, tmp_path, port)
    yield f"http://127.0.0.1:{port}"
    kill9(proc)


def test_commands_survive_terminated_connections_none_lost_none_twice(server):
    api = httpx.Client(base_url=server, timeout=10)
    host = api.post("/api/tables/", json={"ruleset": "counter", "name": "Ann"}).json()
    code, token = host["code"], host["seat_token"]
    api.post(f"/api/tables/{code}/join", json={"name": "Ben"})
    hdr = {"X-Seat-Token": token}
    assert (
        api.post(
            f"/api/tables/{code}/commands", json={"type": "table.start"}, headers=hdr
        ).status_code
        == 200
    )

    statuses: Counter = Counter()
    acked: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def client(n: int) -> None:
        with httpx.Client(base_url=server, timeout=10) as c:
            for i in range(30):
                key = f"c{n}-{i}"
                for _attempt in range(20):
                    try:
                        r = c.post(
                            f"/api/tables/{code}/commands",
                            json={
                                "type": "counter.add",
                                "data": {
                                    "amount": 1 if i % 2 == 0 else -1
                                },  # never reaches the goal
                                "idempotency_key": key,
                            },
                            headers=hdr,
                        )
                        answer = r.status_code
                        if answer == 400:
                            answer = f"400 {r.json().get('code')}"
                    except httpx.HTTPError:
                        answer = "no answer"
                    with lock:
                        statuses[answer] += 1
                    if answer == 200:
                        with lock:
                            acked.append(key)
                        break
                    time.sleep(0.1)

    dbname = connection.settings_dict["NAME"]
    own = _own_pid()
    kills = []

    def killer() -> None:
        # Kill under load, at fixed points of the run (the commands take about a second in
        # all: a kill on a clock could come after the last one and inject nothing).
        for threshold in (40, 90, 140, 190):
            while len(acked) < threshold:
                if stop.wait(0.005):
                    return
            kills.append(_terminate_all(dbname, spare=own))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    k = threading.Thread(target=killer)
    started = time.monotonic()
    for t in threads + [k]:
        t.start()
    for t in threads:
        t.join(180)
    stop.set()
    k.join(10)
    took = time.monotonic() - started
    health = api.get("/api/health").status_code
    connection.close()  # this test's own connection was terminated too

    keys = Counter(
        Event.objects.filter(table__code=code, idempotency_key__startswith="c").values_list(
            "idempotency_key", flat=True
        )
    )
    lost = [key for key in set(acked) if keys[key] == 0]
    twice = [key for key, n in keys.items() if n > 1]
    failed = sum(n for answer, n in statuses.items() if answer != 200)
    print(
        "\nDRILL",
        {
            "drill": "DB backends terminated x4 under 8 clients",
            "commands": 240,
            "acknowledged": len(set(acked)),
            "lost": len(lost),
            "duplicated": len(twice),
            "backends_killed": kills,
            "answers": dict(statuses),
            "failed_answers": failed,
            "seconds": round(took, 1),
            "health_after": health,
        },
    )
    # The fault happened: four kills, each terminating at least one of the server's backends.
    assert len(kills) == 4 and all(k > 0 for k in kills), kills
    assert len(set(acked)) == 240 and not lost and not twice
    assert health == 200
    # A kill fails only the requests in flight: at most one per client per kill.
    assert failed <= 8 * len(kills)


def test_a_database_restart_costs_no_request_sent_after_it(server):
    """Every backend of the idle server terminated, as a PostgreSQL restart does: the requests
    sent after it answer at once (psycopg_pool's own loop waited 1, 2, 4 s between dead
    connections: 10 s and a 500 ``PoolTimeout``; config/dbpool.py)."""
    api = httpx.Client(base_url=server, timeout=30)
    host = api.post("/api/tables/", json={"ruleset": "counter", "name": "Ann"}).json()
    code, hdr = host["code"], {"X-Seat-Token": host["seat_token"]}
    api.post(f"/api/tables/{code}/join", json={"name": "Ben"})
    assert api.post(f"/api/tables/{code}/commands", json={"type": "table.start"},
                    headers=hdr).status_code == 200
    # Fill the pool: eight requests at once leave as many idle connections.
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: api.get(f"/api/tables/{code}/view", headers=hdr), range(16)))
    dbname = connection.settings_dict["NAME"]
    killed = _terminate_all(dbname, spare=_own_pid())
    assert killed >= 2, killed  # the fault happened: the pool's connections (min_size 2)
    time.sleep(0.5)  # the server's close reaches the idle sockets
    answers = []
    for _n in range(5):
        t0 = time.monotonic()
        r = api.post(f"/api/tables/{code}/commands",
                     json={"type": "counter.add", "data": {"amount": 1}}, headers=hdr)
        answers.append((r.status_code, round(time.monotonic() - t0, 3)))
    print("\nDRILL", {"drill": "every backend of an idle server terminated (a DB restart)",
                      "backends_killed": killed, "answers_status_seconds": answers})
    assert all(status == 200 for status, _ in answers), answers
    assert max(seconds for _, seconds in answers) < 1.0, answers

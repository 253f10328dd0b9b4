"""Database connections terminated under load: the server bin/run starts (uvicorn;
psycopg pool, health-checked: the default for servers) takes table commands from 8 clients while every
backend of its database is terminated four times. A client retries a failed command with the
same idempotency key, as the phones do. Every acknowledged command is in the log exactly once,
and the only failed answers are those of requests in flight at a kill."""

import threading
import time
from collections import Counter

import httpx
import psycopg
import pytest
from django.db import connection

from tabletop.models import Event
from tests.faults import free_port

from .conftest import kill9, serve

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.drill]


def _terminate_all(dbname: str) -> int:
    params = connection.get_connection_params()
    keep = ("host", "port", "user", "password")
    with psycopg.connect(dbname="postgres", **{k: params[k] for k in keep if k in params}) as c:
        rows = c.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [dbname],
        ).fetchall()
    return len(rows)


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
    kills = []

    def killer() -> None:
        for _ in range(4):
            if stop.wait(1.5):
                return
            kills.append(_terminate_all(dbname))

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
    assert len(set(acked)) == 240 and not lost and not twice
    assert health == 200
    # A kill fails only the requests in flight: at most one per client per kill.
    assert failed <= 8 * len(kills)

"""What one table command costs inside the web process, against the bare insert.

Both go through the same Django stack in one process (Django's test ``Client``: the whole
middleware and URL resolution, no socket, so the load client costs nothing): ``POST
/api/tables/<code>/commands`` with ``counter.add`` and ``X-Seat-Token`` on a started 4-seat
counter table, and ``POST /bench/bare`` (one ``Heartbeat`` row). Prints the SQL statements of
one command, then for each of ``--runs`` runs the CPU time (``time.process_time``: this
process's threads, the publisher's included) per request of each and their ratio, then
min/median/max. PostgreSQL and Redis from ``DATABASE_URL``/``REDIS_URL`` (migrated first).

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/request_cost.py --runs 5
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
os.environ.setdefault("DATABASE_URL", "postgres://demloc:demloc@127.0.0.1:5432/demloc_bench")
os.environ.setdefault("DB_POOL", "1")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tabletop.publisher import PUBLISHER  # noqa: E402


def post(client, url, body=None, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="requests of each kind per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    client = Client()
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "S1"}).json()
    code, token = host["code"], host["seat_token"]
    for n in range(2, 5):
        post(Client(), f"/api/tables/{code}/join", {"name": f"S{n}"})
    started = post(client, f"/api/tables/{code}/commands", {"type": "table.start"}, token)
    assert started.status_code == 200, started.content
    amounts = itertools.cycle([1, -1])  # the counter game ends at 50

    def command():
        body = {"type": "counter.add", "data": {"amount": next(amounts)}}
        response = post(client, f"/api/tables/{code}/commands", body, token)
        assert response.status_code == 200, response.content

    def bare():
        assert post(client, "/bench/bare").status_code == 200

    for _ in range(50):  # warm up: connections, templates, the publisher's loop
        command()
        bare()
    with CaptureQueriesContext(connection) as queries:
        command()
    print(f"SQL statements per command: {len(queries.captured_queries)}")
    for query in queries.captured_queries:
        print("   ", query["sql"][:90])
    ratios, costs, bares = [], [], []
    for run in range(args.runs):
        started = time.process_time()
        for _ in range(args.requests):
            command()
        cost = (time.process_time() - started) / args.requests * 1000
        started = time.process_time()
        for _ in range(args.requests):
            bare()
        base = (time.process_time() - started) / args.requests * 1000
        costs.append(cost)
        bares.append(base)
        ratios.append(base / cost)
        print(f"run {run + 1}: command {cost:.2f} ms CPU, bare insert {base:.2f} ms, "
              f"ratio {base / cost:.2f}x")
    PUBLISHER.flush(10)
    for name, values, unit in (("command", costs, " ms"), ("bare", bares, " ms"),
                               ("ratio", ratios, "x")):
        print(f"{name}: min/median/max {min(values):.2f} / {statistics.median(values):.2f} / "
              f"{max(values):.2f}{unit}")


if __name__ == "__main__":
    main()

"""The eventsourcing library's save on its PostgreSQL recorder, for bench/append.py to compare.

Runs in its own virtual environment (``make bench-venv``: ``.venv-es`` with
``eventsourcing[postgres]``), so the project never depends on it. Each of ``--threads`` threads
owns one aggregate and, for ``--duration`` seconds, triggers one event and saves it (one
transaction each, like one table command). Prints one JSON line:
``{"threads", "events", "seconds", "per_second", "cpu_ms_per_event"}`` (CPU of the whole
process).

    .venv-es/bin/python bench/es_save.py --threads 8 --duration 10
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from urllib.parse import urlparse

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Counter(Aggregate):
    def __init__(self):
        self.total = 0

    @event("Added")
    def add(self, amount: int):
        self.total += amount


class EsBench(Application):
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--duration", type=float, default=10.0)
    args = parser.parse_args()
    url = urlparse(os.environ.get("DATABASE_URL", "postgres://demloc:demloc@127.0.0.1:5432/demloc"))
    os.environ.update(
        PERSISTENCE_MODULE="eventsourcing.postgres",
        POSTGRES_DBNAME=url.path.lstrip("/"),
        POSTGRES_HOST=url.hostname or "127.0.0.1",
        POSTGRES_PORT=str(url.port or 5432),
        POSTGRES_USER=url.username or "",
        POSTGRES_PASSWORD=url.password or "",
        POSTGRES_POOL_SIZE=str(max(2, args.threads)),
        CREATE_TABLE="y",
    )
    app = EsBench()
    counts = [0] * args.threads
    start_gate = threading.Barrier(args.threads + 1)
    stop = [0.0]

    def work(i):
        counter = Counter()
        app.save(counter)
        start_gate.wait()
        n = 0
        while time.perf_counter() < stop[0]:
            counter.add(1)
            app.save(counter)
            n += 1
        counts[i] = n

    threads = [threading.Thread(target=work, args=(i,)) for i in range(args.threads)]
    for t in threads:
        t.start()
    stop[0] = time.perf_counter() + args.duration
    start_gate.wait()
    t0, cpu0 = time.perf_counter(), time.process_time()
    for t in threads:
        t.join()
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    print(json.dumps({"threads": args.threads, "events": sum(counts), "seconds": elapsed,
                      "per_second": sum(counts) / elapsed,
                      "cpu_ms_per_event": 1000 * cpu / max(1, sum(counts))}))


if __name__ == "__main__":
    main()

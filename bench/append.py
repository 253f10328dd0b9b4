"""In-process append: ``run_command`` against the eventsourcing library's save.

``--threads`` threads (1 and 8 by default), each with its own counter table (4 seats,
started) and its own database connection, run ``counter.add`` through
``tabletop.services.run_command`` for ``--duration`` seconds: decide, append with the version
check, update the projection, commit, and hand the new version to the publisher (Redis when
``REDIS_URL`` is set). In the same run ``bench/es_save.py`` does the same count of threads with
the eventsourcing library (``.venv-es``, ``make bench-venv``) on the same PostgreSQL server (its own
database if ``ES_DATABASE_URL`` is set): one event saved per transaction, the library's own
``Application.save`` on its PostgreSQL recorder. Prints commands/s, events/s, each side's
CPU per command or event (its whole process) and the ratio; ``--runs`` repeats, the library
first in every other run.

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/append.py --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://demloc:demloc@127.0.0.1:5432/demloc_bench")

import django  # noqa: E402
import psycopg  # noqa: E402

django.setup()

from django.db import connections  # noqa: E402

from tabletop import services  # noqa: E402
from tabletop.publisher import PUBLISHER  # noqa: E402
from tabletop.rules import Command  # noqa: E402


def make_table():
    table, host = services.table_create(ruleset="counter", host_name="S1")
    seats = [host] + [services.seat_join(table=table, name=f"S{n}") for n in range(2, 5)]
    services.run_command(table, host, Command("table.start"))
    return table, seats


def timed(threads: int, duration: float, start, one) -> tuple[float, float]:
    """``one(state, n)`` as often as it goes for ``duration`` s in each of ``threads`` threads,
    all released at once; ``start(i)`` is thread ``i``'s context manager (its set-up and
    tear-down, not timed) giving its ``state``: ``(calls/s, CPU ms of this process per call)``."""
    counts = [0] * threads
    gate = threading.Barrier(threads + 1)
    stop = [0.0]

    def work(i):
        with start(i) as state:
            gate.wait()
            n = 0
            while time.perf_counter() < stop[0]:
                one(state, n)
                n += 1
            counts[i] = n

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    stop[0] = time.perf_counter() + duration
    gate.wait()
    t0, cpu0 = time.perf_counter(), time.process_time()
    for w in workers:
        w.join()
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return sum(counts) / elapsed, 1000 * cpu / max(1, sum(counts))


def ours(threads: int, duration: float) -> tuple[float, float]:
    """``run_command`` in ``threads`` threads for ``duration`` s, each its own table:
    ``(commands/s, CPU ms of this process per command)``."""
    tables = [make_table() for _ in range(threads)]
    connections.close_all()

    @contextmanager
    def start(i):
        table, seats = tables[i]
        services.run_command(table, seats[0], Command("counter.add", {"amount": 1}))  # connect
        yield table, seats
        connections.close_all()

    def one(state, n):
        table, seats = state
        amount = 1 if n % 2 == 0 else -1  # the counter game ends at 50
        services.run_command(table, seats[n % 4], Command("counter.add", {"amount": amount}))

    figures = timed(threads, duration, start, one)
    PUBLISHER.flush(10)
    return figures


FLOOR_READ = ('SELECT "code", "ruleset", "status", "version", "state", "meta", "options", '
              '"setup", "updated_at" FROM "tabletop_table" WHERE "id" = %s')
FLOOR_WRITE = (
    'WITH "moved" AS (UPDATE "tabletop_table" SET "state" = %s::jsonb, "meta" = %s::jsonb, '
    '"version" = %s, "status" = %s, "updated_at" = %s WHERE "id" = %s AND "version" = %s '
    'AND "updated_at" = %s RETURNING "id") INSERT INTO "tabletop_event" ("table_id", "version", '
    '"type", "data", "seat", "command_id", "command_type", "idempotency_key", "final", "tape", '
    '"created_at") SELECT "moved"."id", %s, %s, %s::jsonb, %s::smallint, %s, %s, NULL, false, '
    "'[]'::jsonb, %s FROM \"moved\""
)


def floor(threads: int, duration: float) -> tuple[float, float]:
    """The floor under ``run_command``: the one statement it sends when it decides on its
    process's snapshot (``services.SNAPSHOTS``: the guarded write, nothing read), prepared,
    through bare psycopg in autocommit (no Django, no decision, no publish; the state and meta
    kept in the loop and sent as JSON text as ``run_command`` sends them), ``threads``
    threads each on its own table and connection: ``(commands/s, CPU ms of this process per
    command)``. What no Python code on this stack can beat with a durable commit per
    command."""
    tables = [make_table()[0] for _ in range(threads)]
    connections.close_all()

    @contextmanager
    def start(i):
        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
            row = conn.execute(FLOOR_READ, (tables[i].pk,)).fetchone()
            yield conn, tables[i].pk, {"row": row}

    def one(state, n):
        conn, table_id, kept = state
        _, _, status, version, game, meta, _, _, updated_at = kept["row"]
        now = datetime.now(UTC)
        conn.execute(FLOOR_WRITE, (json.dumps(game), json.dumps(meta), version + 1, status, now,
                                   table_id, version, updated_at, version + 1, "counter.added",
                                   '{"amount": 1}', n % 4, version + 1, "counter.add", now),
                     prepare=True)
        kept["row"] = (None, None, status, version + 1, game, meta, None, None, now)

    return timed(threads, duration, start, one)


def theirs(threads: int, duration: float) -> tuple[float, float] | None:
    """The library's save in ``threads`` threads for ``duration`` s (``bench/es_save.py`` in
    ``.venv-es``): ``(events/s, CPU ms of its process per event)``; None without .venv-es."""
    py = ROOT / ".venv-es" / "bin" / "python"
    if not py.exists():
        return None
    out = subprocess.run(
        [str(py), str(ROOT / "bench" / "es_save.py"), "--threads", str(threads),
         "--duration", str(duration)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "DATABASE_URL": os.environ.get("ES_DATABASE_URL",
                                                          os.environ["DATABASE_URL"])},
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    return figures["per_second"], figures["cpu_ms_per_event"]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--floor", action="store_true",
                        help="also time the floor: the one guarded write through bare psycopg")
    args = parser.parse_args()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   check=True)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; DB {os.environ['DATABASE_URL'].split('@')[-1]}"
          f"; publisher: {'Redis' if os.environ.get('REDIS_URL') else 'in-memory layer'}")
    results: dict[int, list[tuple[float, float | None]]] = {t: [] for t in args.threads}
    floors: dict[int, list] = {t: [] for t in args.threads}
    loads: list[float] = []
    for run in range(args.runs):
        for t in args.threads:
            # ABBA: the library goes first in every other run, so a load that changes during a
            # run does not always favour the same side
            if run % 2:
                b_fig = theirs(t, args.duration)
                a, a_cpu = ours(t, args.duration)
            else:
                a, a_cpu = ours(t, args.duration)
                b_fig = theirs(t, args.duration)
            b, b_cpu = b_fig if b_fig else (None, None)
            f, f_cpu = floor(t, args.duration) if args.floor else (None, None)
            results[t].append((a, b))
            floors[t].append(f)
            loads.append(os.getloadavg()[0])
            ratio = f"{a / b:.2f}x" if b else "n/a (no .venv-es: make bench-venv)"
            b_text = f"{b:.0f} events/s ({b_cpu:.2f} ms CPU each)" if b else "-"
            f_text = (f"; floor (bare psycopg, the one guarded write) {f:.0f}/s "
                      f"({f_cpu:.2f} ms CPU each)" + (f", {f / b:.2f}x the library" if b else "")
                      if f else "")
            print(f"run {run + 1}, {t} thread(s): run_command {a:.0f} commands/s ({a_cpu:.2f} ms "
                  f"CPU each); eventsourcing save {b_text}; ratio {ratio}{f_text}; "
                  f"load {os.getloadavg()[0]:.2f}")
    if args.runs > 1:

        def mmm(values, spec):
            return "/".join(format(v, spec) for v in
                            (min(values), statistics.median(values), max(values)))

        print(f"over {args.runs} runs, min/median/max:")
        for t, rows in results.items():
            theirs_ = [b for _, b in rows if b]
            print(f"  {t} thread(s): run_command {mmm([a for a, _ in rows], '.0f')} commands/s"
                  + (f"; eventsourcing save {mmm(theirs_, '.0f')} events/s; ratio "
                     f"{mmm([a / b for a, b in rows if b], '.2f')}x" if theirs_ else "")
                  + (f"; floor {mmm(floors[t], '.0f')}/s, "
                     f"{mmm([f / b for f, (_, b) in zip(floors[t], rows, strict=True) if b], '.2f')}"
                     "x the library" if args.floor and theirs_ else ""))
        print(f"  load average: {mmm(loads, '.2f')}")


if __name__ == "__main__":
    main()

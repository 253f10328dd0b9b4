"""What one live-region render costs in the web process (issue 19 point 2).

Times ``tabletop.fanout.render_views`` (the fan-out's one read of the table and its renders)
per view with ``time.process_time`` (CPU of this process), for a started 4-seat counter
table (four views: every seat has a secret, plus a spectator) and a started 2-player DemLoc
quick mission (both seats, plus a spectator), after some commands. Also counts the SQL
statements of one fan-out. PostgreSQL from ``DATABASE_URL`` (migrated first).

    .venv/bin/python bench/render_cost.py --renders 300 --runs 3
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DB_POOL", "1")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tabletop import services  # noqa: E402
from tabletop.fanout import render_views  # noqa: E402
from tabletop.rules import Command  # noqa: E402

BASE = "http://testserver"


def make(ruleset: str, players: int):
    table, host = services.table_create(ruleset=ruleset, host_name="P1")
    seats = [host] + [services.seat_join(table=table, name=f"P{n}") for n in range(2, players + 1)]
    services.run_command(table, host, Command("table.start"))
    table.refresh_from_db()
    return table, seats


def play(table, seats, ruleset: str, n: int) -> None:
    for i in range(n):
        if ruleset == "counter":
            services.run_command(table, seats[i % len(seats)], Command("counter.add", {"amount": 1}))
        else:
            seat = seats[i % len(seats)]
            services.run_command(table, seat, Command("demloc.fate.gain", {"amount": 1, "reason": "bench"}))
        table.refresh_from_db()


def measure(table, seats, renders: int) -> tuple[float, int, int]:
    """(CPU ms per view, views per fan-out, SQL statements per fan-out)."""
    views = {(s.pk, s.nonce): (s, BASE) for s in seats}
    views[(None, None)] = (None, BASE)
    with CaptureQueriesContext(connection) as queries:
        render_views(table.pk, views)
    nq = len(queries.captured_queries)
    seat_list = None
    t0 = time.process_time()
    for _ in range(renders):
        _, _, seat_list, _ = render_views(table.pk, views, seat_list)
    cpu = time.process_time() - t0
    return cpu * 1000 / (renders * len(views)), len(views), nq


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=int, default=200, help="fan-outs per run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    for ruleset, players in (("counter", 4), ("demloc", 2)):
        table, seats = make(ruleset, players)
        play(table, seats, ruleset, 40)
        figures = []
        for run in range(args.runs):
            ms, nviews, nq = measure(table, seats, args.renders)
            figures.append(ms)
            print(f"{ruleset}: run {run + 1}: {ms:.3f} ms CPU per view ({nviews} views per fan-out,"
                  f" {nq} SQL statements per fan-out)")
        print(f"{ruleset}: min / median / max {min(figures):.3f} / {statistics.median(figures):.3f}"
              f" / {max(figures):.3f} ms per view (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

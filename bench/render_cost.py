"""What one live-region render costs in the web process.

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
from tabletop.registry import get_ruleset  # noqa: E402
from tabletop.rules import Command  # noqa: E402

BASE = "http://testserver"


def make(ruleset: str, players: int):
    table, host = services.table_create(ruleset=ruleset, host_name="P1")
    seats = [host] + [services.seat_join(table=table, name=f"P{n}") for n in range(2, players + 1)]
    services.run_command(table, host, Command("table.start"))
    table.refresh_from_db()
    return table, seats


def play(table, seats, ruleset: str, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        if ruleset == "counter":
            amount = 1 if i % 2 == 0 else -1  # the counter game ends at 50
            services.run_command(table, seats[i % len(seats)], Command("counter.add", {"amount": amount}))
        else:  # a fate point, then a bleeding token on one of the seat's characters and off
            seat = seats[i % len(seats)]
            step = (i // len(seats)) % 3
            if step == 0:
                command = Command("demloc.fate.gain", {"amount": 1, "reason": "bench"})
            else:
                game = get_ruleset("demloc")
                view = game.view(game.load(table.state), seat.number)
                piece = view["my_pieces"][0]["id"]
                command = Command("demloc.tokens.adjust", {"piece": piece, "token": "bleeding",
                                                           "delta": 1 if step == 1 else -1})
            services.run_command(table, seat, command)
        table.refresh_from_db()


def measure(table, seats, renders: int) -> tuple[float, int, int]:
    """(CPU ms per view, views per fan-out, SQL statements per fan-out): the same state
    rendered ``renders`` times."""
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


def measure_moving(table, seats, ruleset: str, commands: int) -> float:
    """CPU ms per view of the fan-out that follows each of ``commands`` commands (the command
    itself not counted): what a live table costs, where each fan-out is of a new state."""
    views = {(s.pk, s.nonce): (s, BASE) for s in seats}
    views[(None, None)] = (None, BASE)
    _, _, seat_list, _ = render_views(table.pk, views)
    cpu = 0.0
    for n in range(commands):
        play(table, seats, ruleset, 1, start=n)
        t0 = time.process_time()
        render_views(table.pk, views, seat_list)
        cpu += time.process_time() - t0
    return cpu * 1000 / (commands * len(views))


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
        figures, moving = [], []
        for run in range(args.runs):
            ms, nviews, nq = measure(table, seats, args.renders)
            figures.append(ms)
            moving.append(measure_moving(table, seats, ruleset, max(10, args.renders // 10)))
            print(f"{ruleset}: run {run + 1}: {ms:.3f} ms CPU per view of one state rendered again"
                  f" ({nviews} views per fan-out, {nq} SQL statements per fan-out), "
                  f"{moving[-1]:.3f} ms per view after each command")
        print(f"{ruleset}: min / median / max {min(figures):.3f} / {statistics.median(figures):.3f}"
              f" / {max(figures):.3f} ms per view of one state; after each command "
              f"{min(moving):.3f} / {statistics.median(moving):.3f} / {max(moving):.3f} ms "
              f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

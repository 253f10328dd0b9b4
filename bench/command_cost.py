"""What one DemLoc command costs the server, in one process, against the bare insert.

A four-player DemLoc quick mission, every phone listening: each command is one phone's tap in
``bench/live.py``'s evening mix (``demloc_tap``: damage on and off, bleeding, mana, fate gained
and spent, a shot worked out and applied, the phase passed, Next turn), sent as the phone sends
it, then the fan-out of its new state to the four phones (``tabletop.fanout.render_views``:
the four seats' live regions, from the committed row as the hub renders them). Two answers:

- ``--answer html`` (default): the htmx ``POST /t/<code>/command`` the table page sends,
  answered with the acting phone's live region;
- ``--answer json``: the JSON API's hot path (``POST /api/tables/<code>/commands``, what
  ``bench/live.py`` sends), answered with the seat's view.

Both go through the whole Django stack in this process (Django's test ``Client``: middleware,
URL resolution, no socket). The bare insert is ``POST /bench/bare`` (one ``Heartbeat`` row),
measured in the same run. CPU is ``time.process_time`` (this process's threads). Prints the
SQL statements of one command, then per run the CPU per command, per bare insert and their
ratio, then min/median/max. ``--tables N``: N such tables played in turn, a command each (an
evening's 100: what the process's caches must hold, ``missions.jinja.CARD_TABLES_KEPT``). ``--profile``: the top functions of one run (cProfile).

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_b \\
    REDIS_URL=redis://127.0.0.1:6382/0 .venv/bin/python bench/command_cost.py --runs 3
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import json
import logging
import os
import pstats
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
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.live import demloc_tap  # noqa: E402
from tabletop import live as live_reads  # noqa: E402
from tabletop.fanout import render_views  # noqa: E402
from tabletop.models import Seat, Table  # noqa: E402
from tabletop.publisher import PUBLISHER  # noqa: E402
from tabletop.seats import remember_seat  # noqa: E402

BASE = "http://testserver"
#: The hub's fan-out of a new version reuses what this process rendered of it (the answer);
#: an older tree's ``render_views`` has no such argument (a before/after in one sitting).
REUSE = {"reuse": True} if "reuse" in inspect.signature(render_views).parameters else {}


def post(client, url, body=None, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


class Table4:
    """A started four-player DemLoc quick mission, its four phones (a ``Client`` each with
    its seat cookie for the htmx answer, the seat token for the JSON one) and the fan-out's
    memory (the table as last rendered, like ``tabletop.fanout.Room``)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        host = post(Client(), "/api/tables/", {"ruleset": "demloc", "name": "S1"}).json()
        self.code, self.tokens = host["code"], [host["seat_token"]]
        for n in range(2, 5):
            joined = post(Client(), f"/api/tables/{self.code}/join", {"name": f"S{n}"}).json()
            self.tokens.append(joined["seat_token"])
        started = post(Client(), f"/api/tables/{self.code}/commands", {"type": "table.start"},
                       self.tokens[0])
        assert started.status_code == 200, started.content
        self.table = Table.objects.get(code=self.code)
        self.seats = list(self.table.seats.order_by("number"))
        self.clients = []
        for seat in self.seats:
            client = Client()
            if answer == "html":  # the phone's seat cookie (tabletop.seats.remember_seat)
                for key, value in _seat_cookie(seat).items():
                    client.cookies[key] = value
            self.clients.append(client)
        self.views = {(s.pk, s.nonce): (s, BASE) for s in self.seats}
        self.known = [live_reads.seat_view(self.table, s) for s in self.seats]
        self.n = 0
        self.refused = 0
        self.spent = 0.0  # CPU seconds of the bench's own reads (``_learn``), not the server's
        self.kinds: dict[str, list[float]] = {}  # command type -> CPU seconds of each (--by-kind)

    def command(self) -> None:
        """One phone's tap and the fan-out of the new state to the four phones."""
        i = self.n % 4
        body = demloc_tap(self.known[i], self.n // 4)
        self.n += 1
        started, spent = time.process_time(), self.spent
        kind = self._tap(i, body)
        cost = time.process_time() - started - (self.spent - spent)
        self.kinds.setdefault(kind, []).append(cost)

    def _tap(self, i: int, body: dict) -> str:
        """Send ``body`` as phone ``i`` and fan the new state out; returns the command's type
        (``refused <type>`` when the server refused it)."""
        if self.answer == "json":
            response = post(self.clients[i], f"/api/tables/{self.code}/commands", body,
                            self.tokens[i])
            if response.status_code == 200:
                self.known[i] = response.json()["view"] or self.known[i]
        else:
            form = {"type": body["type"], **{f"d.{k}": v for k, v in body["data"].items()}}
            response = self.clients[i].post(f"/t/{self.code}/command/", form,
                                            HTTP_HX_REQUEST="true")
        if response.status_code != 200:
            self.refused += 1
            self._learn(i)
            return f"refused {body['type']}"
        if self.answer == "html":
            self._learn(i)
        render_views(self.table.pk, self.views, self.seats, **REUSE)  # as the hub does
        return body["type"]

    def _learn(self, i: int) -> None:
        """What the phone knows of its seat's view after its answer, for its next tap (the
        page shows it; the bench reads it here): its CPU is the bench's, left out."""
        started = time.process_time()
        self.table.refresh_from_db()
        self.known[i] = live_reads.seat_view(self.table, self.seats[i])
        self.spent += time.process_time() - started


def _seat_cookie(seat: Seat) -> dict:
    response = HttpResponse()
    remember_seat(response, seat)
    return {k: v.value for k, v in response.cookies.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commands", type=int, default=200, help="DemLoc commands per run")
    parser.add_argument("--bare", type=int, default=400, help="bare inserts per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--answer", choices=["html", "json"], default="html")
    parser.add_argument("--tables", type=int, default=1,
                        help="tables played in turn, a command each (100: an evening's, whose "
                             "cards and views the process's caches must hold)")
    parser.add_argument("--profile", action="store_true", help="cProfile of the last run")
    parser.add_argument("--by-kind", action="store_true",
                        help="the CPU of each kind of command (its type), over all the runs: "
                             "how many, median, 90th percentile, max")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    bare_client = Client()

    def bare():
        assert post(bare_client, "/bench/bare").status_code == 200

    tables = [Table4(args.answer) for _ in range(args.tables)]
    for k in range(max(24, 8 * args.tables)):  # warm up: connections, templates, caches
        tables[k % args.tables].command()
        bare()
    with CaptureQueriesContext(connection) as queries:
        tables[0].command()
    print(f"SQL statements per command (the tap, its answer and the fan-out; the bench's own "
          f"read of the seat's view included in html mode): {len(queries.captured_queries)}")
    ratios, costs, bares = [], [], []
    profile = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waits
    for run in range(args.runs):
        tables = [t if t.n < 400 else Table4(args.answer) for t in tables]
        last = profile is not None and run == args.runs - 1
        spent = sum(t.spent for t in tables)
        started = time.process_time()
        if last:
            profile.enable()
        for k in range(args.commands):
            tables[k % len(tables)].command()
        if last:
            profile.disable()
        # the phone's own reads of its view (``_learn``) are the bench's, not the server's
        spent = sum(t.spent for t in tables) - spent
        cost = (time.process_time() - started - spent) / args.commands * 1000
        started = time.process_time()
        for _ in range(args.bare):
            bare()
        base = (time.process_time() - started) / args.bare * 1000
        costs.append(cost)
        bares.append(base)
        ratios.append(cost / base)
        print(f"run {run + 1}: DemLoc command {cost:.2f} ms CPU, bare insert {base:.2f} ms, "
              f"command / bare {cost / base:.1f}x (refused taps "
              f"{sum(t.refused for t in tables)}; "
              f"load {os.getloadavg()[0]:.1f})")
    PUBLISHER.flush(10)
    for name, values, unit in (("command", costs, " ms"), ("bare", bares, " ms"),
                               ("command / bare", ratios, "x")):
        print(f"{name}: min/median/max {min(values):.2f} / {statistics.median(values):.2f} / "
              f"{max(values):.2f}{unit}")
    if args.by_kind:
        kinds: dict[str, list[float]] = {}
        for t in tables:
            for kind, values in t.kinds.items():
                kinds.setdefault(kind, []).extend(values)
        print("CPU per command by kind, ms (the tap, its answer and the fan-out to four phones):")
        for kind, values in sorted(kinds.items(), key=lambda kv: -statistics.median(kv[1])):
            values = sorted(v * 1000 for v in values)
            print(f"  {kind:32} {len(values):5}  median {statistics.median(values):6.2f}  "
                  f"p90 {values[int(0.9 * (len(values) - 1))]:6.2f}  max {values[-1]:6.2f}")
    if profile is not None:
        if os.environ.get("BENCH_PROFILE_OUT"):  # the whole profile, for pstats' callers
            profile.dump_stats(os.environ["BENCH_PROFILE_OUT"])
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()

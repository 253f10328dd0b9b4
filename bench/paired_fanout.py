"""Two ways of the fan-out measured in one process, alternating, so the machine's load hits
both alike (the sitting of 2026-12-06 23:36 in docs/performance.md): ``--change cut``, a public
block cut once per state (``tabletop.blocks.collect_public``) against once per view (plain
``collect``), a four-seat DemLoc state and a watcher rendered again with each phone's delta;
``--change committed``, the committed state taken by the fan-out of this process
(``tabletop.jsontext.dumps_kept``/``loads_kept``) against decoded again from the row, a JSON
tap, its answer and the hub's fan-out of its row. Prints min / median / max of each way and
of the paired differences (after - before).

    .venv/bin/python bench/paired_fanout.py --change cut --pairs 20
    .venv/bin/python bench/paired_fanout.py --change committed --pairs 16
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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from bench import command_cost, render_cost  # noqa: E402  (django.setup() on import)
from tabletop import blocks, jsontext  # noqa: E402
from tabletop.fanout import render_views  # noqa: E402
from tabletop.publisher import PUBLISHER  # noqa: E402


def _cut_ways():
    new = blocks.collect_public

    def old(cache, bid, seated, sink, content):
        return blocks.collect(sink, content, True)

    table, seats = render_cost.make("demloc", 4)
    render_cost.play(table, seats, "demloc", 20)
    views = {(s.pk, s.nonce): (s, render_cost.BASE) for s in seats}
    views[(None, None)] = (None, render_cost.BASE)
    _, _, seat_list, _ = render_views(table.pk, views)

    def run(way) -> float:
        blocks.collect_public = way
        last: dict = {}
        started = time.process_time()
        for _ in range(20):
            version, frames, _, _ = render_views(table.pk, views, seat_list)
            for key, frame in frames.items():
                blocks.delta(last.get(key), version, frame)
                last[key] = blocks.shown(version, frame)
        return (time.process_time() - started) * 1000 / 20

    return {"before": lambda: run(old), "after": lambda: run(new)}, "a fan-out of one state again"


class _Served(command_cost.Table4):
    """``command_cost.Table4`` whose fan-out is the hub's: the row of the command's message."""

    rows: list = []
    base = None

    def command(self) -> None:
        i = self.n % 4
        body = command_cost.demloc_tap(self.known[i], self.n // 4)
        self.n += 1
        self.rows.clear()
        response = command_cost.post(self.clients[i], f"/api/tables/{self.code}/commands", body,
                                     self.tokens[i])
        if response.status_code != 200:
            self.refused += 1
            self._learn(i)
            return
        self.known[i] = response.json()["view"] or self.known[i]
        row = self.rows[-1] if self.rows else None
        self.base = render_views(self.table.pk, self.views, self.seats, base=self.base, row=row,
                                 reuse=True)[3]


def _committed_ways():
    PUBLISHER.publish = lambda table_id, version, lobby=False, seat=None, row=None: \
        _Served.rows.append(row)
    kept, plain = (jsontext.dumps_kept, jsontext.loads_kept), (jsontext.dumps, jsontext.loads)
    table = [_Served("json")]
    for _ in range(20):
        table[0].command()

    def run(way) -> float:
        jsontext.dumps_kept, jsontext.loads_kept = way
        if table[0].n > 300:
            table[0] = _Served("json")
        t = table[0]
        spent, started = t.spent, time.process_time()
        for _ in range(40):
            t.command()
        return (time.process_time() - started - (t.spent - spent)) * 1000 / 40

    return {"before": lambda: run(plain), "after": lambda: run(kept)}, "a served command"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--change", choices=("cut", "committed"), required=True)
    parser.add_argument("--pairs", type=int, default=16)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    command_cost.call_command("migrate", verbosity=0)
    ways, what = _cut_ways() if args.change == "cut" else _committed_ways()
    got: dict[str, list] = {"before": [], "after": []}
    diffs = []
    for n in range(args.pairs):
        pair = {}
        for name in ("before", "after") if n % 2 == 0 else ("after", "before"):
            pair[name] = ways[name]()
            got[name].append(pair[name])
        diffs.append(pair["after"] - pair["before"])
    for name, values in (*got.items(), ("after - before", diffs)):
        print(f"{name}: ms CPU per {what}: min / median / max {min(values):.3f} / "
              f"{statistics.median(values):.3f} / {max(values):.3f}")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

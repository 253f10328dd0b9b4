"""What the per-process caches of the live path hold for DemLoc tables, in one process.

Makes ``--tables`` four-player DemLoc quick missions (``bench/live.py``'s tables), renders
each seat's live region as a phone connecting does, then plays ``--rounds`` commands a table
(``bench/live.py``'s tap mix: damage, tokens, mana, fate, a shot, phases) each followed by
the fan-out's renders of every seat (``tabletop.fanout.render_views`` with ``reuse``, as
after a command). Then, per cache, its entries, the bytes of the objects it holds that no
cache listed before it holds (a deep walk: builtin containers, strings, the blocks' own
objects), and how many of those bytes are strings of 1, 2 and 4 bytes a character
(CPython's string kinds: one character above U+00FF makes the whole string 2 bytes a
character). Also the hit counters of each cache over the commands. PostgreSQL from
``DATABASE_URL`` (migrated first).

    .venv/bin/python bench/live_memory.py --tables 50 --rounds 12
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import inspect
import logging
import os
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

from missions import jinja as mjinja  # noqa: E402
from missions.rules import view as mview  # noqa: E402
from tabletop import blocks, fanout, jsontext, live, services  # noqa: E402
from tabletop.errors import TabletopError  # noqa: E402
from tabletop.models import Table  # noqa: E402
from tabletop.registry import get_ruleset  # noqa: E402
from tabletop.rules import Command  # noqa: E402

BASE = "http://testserver"
_LEAF = (int, float, bool, type(None), bytes, datetime.datetime, datetime.date)


def str_kind(s: str) -> int:
    """CPython's bytes a character of ``s`` (1, 2 or 4)."""
    if s.isascii():
        return 1
    top = max(map(ord, s))
    return 1 if top < 0x100 else 2 if top < 0x10000 else 4


def walk(root, seen: set) -> dict:
    """Bytes of what ``root`` holds that ``seen`` does not (added to it): ``total`` and
    ``str1``/``str2``/``str4`` (strings by kind), ``chars`` (their length in characters)."""
    out = {"total": 0, "str1": 0, "str2": 0, "str4": 0, "chars": 0}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        size = sys.getsizeof(obj)
        out["total"] += size
        if isinstance(obj, str):
            kind = str_kind(obj)
            out[f"str{kind}"] += size
            out["chars"] += len(obj)
            d = getattr(obj, "__dict__", None)
            if d:
                stack.append(d)
        elif isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, _LEAF):
            pass
        elif isinstance(obj, blocks.Shown):
            stack.append(obj.blocks)
        elif isinstance(obj, live.Lazy):
            stack.append(obj._value)
        elif type(obj).__name__ == "TableCards":
            stack.extend((obj.now, obj.before))
        elif isinstance(obj, Table):
            stack.extend((obj.state, obj.meta, obj.options, obj.setup))
        # anything else (a template node, a function): its own size only
    return out


def caches() -> list[tuple[str, object]]:
    """The per-process caches of the live path, in the order their bytes are counted."""
    return [
        ("cards (missions.jinja._CARDS)", mjinja._CARDS),
        ("regions (tabletop.live._REGIONS)", live._REGIONS),
        ("views+log (tabletop.live._VIEWS)", live._VIEWS),
        ("public blocks (tabletop.blocks._PUBLIC)", blocks._PUBLIC),
        ("input blocks (tabletop.blocks._INPUTS)", blocks._INPUTS),
        ("decoded states (tabletop.jsontext._KEPT)", jsontext._KEPT),
        ("piece bases (missions.rules.view._VIEW_MEMO)", mview._VIEW_MEMO),
        ("snapshots (tabletop.services.SNAPSHOTS)", services.SNAPSHOTS._rows),
    ]


def entries(cache) -> int:
    if isinstance(cache, dict) and cache is blocks._INPUTS:
        return sum(len(t) for t in cache.values())
    if cache is mjinja._CARDS and hasattr(mjinja, "TableCards"):
        return sum(len(t.now) for t in cache.values())
    return len(cache)


def counters() -> dict:
    return {
        "card": (mjinja.card_renders, mjinja.card_hits),
        "region": (live.region_renders, live.region_hits),
        "view": (live.view_computes, live.view_hits),
        "public": (blocks.public_renders, blocks.public_hits),
        "input": (blocks.input_renders, blocks.input_hits),
    }


def make(n: int):
    table, host = services.table_create(ruleset="demloc", host_name="S1")
    seats = [host] + [services.seat_join(table=table, name=f"S{k}") for k in range(2, 5)]
    services.run_command(table, host, Command("table.start"))
    table.refresh_from_db()
    return table, seats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=12, help="commands per table")
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    sys.path.insert(0, str(ROOT / "bench"))
    demloc_tap = importlib.import_module("live").demloc_tap  # bench/live.py's tap mix

    tables = [make(n) for n in range(args.tables)]
    game = get_ruleset("demloc")
    views_of = {t.pk: {(s.pk, s.nonce): (s, BASE) for s in seats} for t, seats in tables}
    t0 = time.process_time()
    for t, _seats in tables:  # every phone connects: a whole region each
        fanout.render_views(t.pk, views_of[t.pk])
    connect_cpu = time.process_time() - t0
    # the fan-out keeps the acting seat's region for its answer (an older checkout: every one)
    has_acting = "acting" in inspect.signature(fanout.render_views).parameters
    before = counters()
    refused = commands = 0
    t0 = time.process_time()
    for r in range(args.rounds):
        for t, seats in tables:
            seat = seats[r % 4]
            t.refresh_from_db()
            view = game.view(game.load(t.state), seat.number)
            tap = demloc_tap(view, r // 4)  # this seat's (r // 4)-th tap
            try:
                services.run_command(t, seat, Command(tap["type"], tap["data"]))
                commands += 1
            except TabletopError:
                refused += 1
            fanout.render_views(t.pk, views_of[t.pk], reuse=True, **(
                {"acting": seat.number} if has_acting else {}))
    play_cpu = time.process_time() - t0
    after = counters()
    gc.collect()
    print(f"{args.tables} DemLoc tables x 4 seats; {commands} commands ({refused} refused); "
          f"connect {1000 * connect_cpu / (4 * args.tables):.2f} ms CPU a phone, commands "
          f"{1000 * play_cpu / max(1, commands):.2f} ms CPU each (with their fan-out renders)")
    print("renders / hits over the commands: " + ", ".join(
        f"{k} {after[k][0] - before[k][0]}/{after[k][1] - before[k][1]}" for k in after))
    seen: set = set()
    total = 0
    print(f"{'cache':48s} {'entries':>7s} {'KiB':>8s} {'str1':>7s} {'str2':>7s} {'str4':>7s}"
          f" {'chars K':>8s}")
    for name, cache in caches():
        w = walk(cache, seen)
        total += w["total"]
        print(f"{name:48s} {entries(cache):7d} {w['total'] / 1024:8.0f} {w['str1'] / 1024:7.0f}"
              f" {w['str2'] / 1024:7.0f} {w['str4'] / 1024:7.0f} {w['chars'] / 1024:8.0f}")
    print(f"{'all':48s} {'':7s} {total / 1024:8.0f}  ({total / 1024 / (4 * args.tables):.0f} "
          f"KiB per phone)")


if __name__ == "__main__":
    main()

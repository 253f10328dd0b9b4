"""Benchmark: a long DemLoc mission in process (no database, no server).

Plays one 2-player quick game for ``--commands`` commands through the kit's pure step
(``tabletop.testing.Sim``: the very ``tabletop.log.step`` that ``run_command`` runs, with the
projection JSON-dumped and loaded again after every command as ``run_command`` stores it), a
steady mix of what a table taps during a mission: damage and its removal, tokens on and off,
mana, fate points, a shot worked out then cancelled or applied, phases passed and Next turn (no
turn limit). Nobody dies, so the board stays the same size: what grows is only what the
ruleset keeps per command.

Prints, at each checkpoint, the size of the stored projection (``json.dumps`` of
``Table.state``, bytes) and the mean in-process cost per command over the last 100 commands
(CPU ms, ``time.process_time``: the machine may be shared), the CPU cost of narrating the
live view's latest lines, and the size of the kit's undo bookkeeping (``Table.meta``).

    .venv/bin/python bench/demloc_long.py --commands 2000 --at 100,1000,2000

``--ruleset-module`` names another module holding a ``DemlocRuleset`` (e.g. a copy of an older
version on ``PYTHONPATH``) to compare.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tabletop.log import recent_lines  # noqa: E402
from tabletop.testing import Sim  # noqa: E402

ANN, BOB = 0, 1
KORR, BRAM, VESNA = "s0-korr", "s1-bram", "s0-vesna"


def cycle(sim: Sim):
    """One round of taps (about 16 commands), then the phases and Next turn."""
    s = sim.state
    yield ANN, "demloc.damage.assign", {"piece": KORR, "amount": 1}
    yield ANN, "demloc.damage.remove", {"piece": KORR, "amount": 1, "step": "armor"}
    yield BOB, "demloc.tokens.adjust", {"piece": BRAM, "token": "bleeding", "delta": 1}
    yield BOB, "demloc.tokens.adjust", {"piece": BRAM, "token": "bleeding", "delta": -1}
    yield ANN, "demloc.fate.gain", {"amount": 1, "reason": "bench"}
    yield ANN, "demloc.fate.spend", {"amount": 1, "reason": "bench"}
    yield ANN, "demloc.mana.adjust", {"piece": VESNA, "colour": "common", "delta": 1}
    yield ANN, "demloc.mana.adjust", {"piece": VESNA, "colour": "common", "delta": -1}
    dice = " ".join(["1"] * max(1, s["pieces"][KORR]["ranged"] - s["pieces"][KORR]["broken_hearts"]))
    yield ANN, "demloc.shot.propose", {"shooter": KORR, "target": BRAM, "test_roll": 1, "dice": dice}
    yield BOB, "demloc.calc.cancel", {}
    yield BOB, "demloc.effect.set", {"piece": BRAM, "effect": "vigor", "value": 1}
    yield BOB, "demloc.effect.set", {"piece": BRAM, "effect": "vigor", "value": 0}
    while sim.state["phase"] != "end":
        acting = sim.state["play_order"][sim.state["acting_index"]]
        yield acting, "demloc.phase.next", {}
    yield ANN, "demloc.turn.next", {}


def run(module: str, commands: int, at: list[int]) -> list[dict]:
    ruleset = importlib.import_module(module).DemlocRuleset()
    sim = Sim(ruleset, ["Ann", "Bob"], seed="bench")
    sent, window, out = 0, [], []
    while sent < commands:
        for seat, type_, data in cycle(sim):
            t0 = time.process_time()
            sim.send(seat, type_, data)
            window.append(time.process_time() - t0)
            window = window[-100:]
            sent += 1
            if sent in at:
                t0 = time.process_time()
                undone = set(sim.meta.undone)
                recent_lines(ruleset, sim.state, sim.log[-16:], undone)
                narrate_ms = (time.process_time() - t0) * 1000
                out.append({
                    "commands": sent,
                    "events": len(sim.log),
                    "projection_bytes": len(json.dumps(ruleset.dump(sim.state))),
                    "ms_per_command": 1000 * sum(window) / len(window),
                    "live_log_ms": narrate_ms,
                    "meta_bytes": len(json.dumps(sim.meta.dump())),
                })
            if sent >= commands:
                break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--at", default="100,1000,2000", help="checkpoints, comma separated")
    parser.add_argument("--ruleset-module", default="missions.rules")
    args = parser.parse_args()
    at = sorted({int(x) for x in args.at.split(",") if x})
    print(f"{'commands':>8} {'events':>7} {'projection':>12} {'ms/command':>11} {'live log':>9} {'kit meta':>10}")
    for row in run(args.ruleset_module, max(args.commands, *at), at):
        print(
            f"{row['commands']:>8} {row['events']:>7} {row['projection_bytes']:>10} B"
            f" {row['ms_per_command']:>10.2f} {row['live_log_ms']:>7.2f}ms {row['meta_bytes']:>8} B"
        )


if __name__ == "__main__":
    main()

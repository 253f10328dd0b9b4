"""Short forms for DemLoc rule tests on the kit's pure driver ``tabletop.testing.Sim`` (the very
step ``run_command`` runs): no driver of our own, only the mission's command prefix and the
turn cadence spelled once."""

from __future__ import annotations

from missions.rules import DemlocRuleset
from tabletop.testing import Sim

P = "demloc."


def new_sim(names=("Ann", "Bob"), options=None, seed="mission", content=None) -> Sim:
    """A started DemLoc table for ``names``. ``options``: table options; a ``mission`` or
    ``guilds`` entry is setup content (what ``missions.services`` stores with the table)."""
    options = dict(options or {})
    content = dict(content or {})
    for key in ("mission", "guilds"):
        if key in options:
            content[key] = options.pop(key)
    return Sim(DemlocRuleset(), list(names), options=options, content=content or None, seed=seed)


def run(t: Sim, seat, type_: str, **data):
    """Send ``demloc.<type_>`` with ``data`` as ``seat``; returns the appended events."""
    return t.send(seat, P + type_, data)


def acting(t: Sim) -> int:
    return t.state["play_order"][t.state["acting_index"]]


def pass_phase(t: Sim):
    return run(t, acting(t), "phase.next")


def finish_turn(t: Sim) -> None:
    """Every player passes both phases of the turn (7.2, 7.3)."""
    while t.state["phase"] != "end":
        pass_phase(t)


def next_turn(t: Sim, seat: int) -> None:
    """Every player passes both phases of the turn (7.2, 7.3), then ``seat`` taps Next turn
    (the end of the turn, 8, and the next one starting, 7.1)."""
    finish_turn(t)
    run(t, seat, "turn.next")


def piece(t: Sim, pid: str) -> dict:
    return t.state["pieces"][pid]


def achieve(t: Sim, seat: int) -> None:
    """``seat`` achieves the objective the way the rules allow (7.3.2.3): the turn is played
    to its end, ``seat`` claims it and every other player confirms."""
    finish_turn(t)
    run(t, seat, "objective.achieve")
    left = t.state.get("left", [])  # a Guild that left the mission is not asked
    for p in t.state["players"]:
        if p["seat"] != seat and p["seat"] not in left:
            run(t, p["seat"], "objective.answer", agree=True)

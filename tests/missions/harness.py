"""A pure stand-in for the kit's write path, for rule tests without a database.

It uses the kit's own pure pieces (``tabletop.log`` bookkeeping, ``tabletop.dice`` tapes) the
way ``tabletop.services.run_command`` does, so undo/redo and "undo is never a re-roll" behave
as at a real table.
"""

from __future__ import annotations

import json

from missions.rules import DemlocRuleset
from tabletop.dice import make_dice
from tabletop.log import (
    REDO_EVENT,
    START_EVENT,
    UNDO_EVENT,
    LoggedEvent,
    Meta,
    apply_command,
    rebuild,
    tape_key,
)
from tabletop.rules import Command, SeatInfo


class PureTable:
    def __init__(self, names=("Ann", "Bob"), options=None, seed="mission"):
        self.game = DemlocRuleset()
        self.seed = seed
        self.log: list[LoggedEvent] = []
        self.meta = Meta()
        seats = tuple(SeatInfo(i, n) for i, n in enumerate(names))
        opening = self.game.setup(dict(options or {}), seats, make_dice(f"{seed}:0"))
        self.state = self.game.initial_state()
        self._append(
            None,
            "table.start",
            [(START_EVENT, {}, False)] + [(e.type, e.data, e.final) for e in opening],
            None,
        )

    @property
    def version(self) -> int:
        return self.log[-1].version if self.log else 0

    def _append(self, seat, ctype, events, tape):
        cid = self.version + 1
        group = [
            LoggedEvent(
                cid + i,
                t,
                json.loads(json.dumps(d)),
                seat,
                cid,
                ctype,
                final,
                tape if i == 0 else None,
            )
            for i, (t, d, final) in enumerate(events)
        ]
        self.log.extend(group)
        self.meta = apply_command(self.meta, group)
        if ctype in ("table.undo", "table.redo"):
            self.state, _ = rebuild(self.game, self.log)
        else:
            for e in group:
                if e.type != START_EVENT:
                    self.state = self.game.evolve(self.state, e.record())
        return group

    def run(self, seat, ctype, **data):
        """Send one command as ``seat``; returns the appended events."""
        return self.send(seat, ctype, data)

    def send(self, seat, ctype, data):
        """``run`` with the command data as one dict (it may hold a ``seat`` key)."""
        if ctype == "table.undo":
            return self._append(
                seat, ctype, [(UNDO_EVENT, {"command": self.meta.undo[-1]}, False)], None
            )
        if ctype == "table.redo":
            return self._append(
                seat, ctype, [(REDO_EVENT, {"command": self.meta.redo[-1]}, False)], None
            )
        dice = make_dice(
            f"{self.seed}:{self.version}", self.meta.tapes.get(tape_key(seat, "demloc." + ctype))
        )
        events = self.game.decide(self.state, Command("demloc." + ctype, data), seat, dice)
        return self._append(
            seat, "demloc." + ctype, [(e.type, e.data, e.final) for e in events], dice.tape
        )

    def piece(self, pid):
        return self.state["pieces"][pid]

    def acting(self) -> int:
        return self.state["play_order"][self.state["acting_index"]]

    def pass_phase(self):
        return self.run(self.acting(), "phase.next")

    def finish_turn(self):
        while self.state["phase"] != "end":
            self.pass_phase()

    def rebuilt(self):
        state, _ = rebuild(self.game, self.log)
        return json.loads(json.dumps(state))

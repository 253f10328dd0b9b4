"""Winning: announcing a fulfilled Pact (rulebook "How to Win"; FAQ "Pact Demands")."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from . import cards as C
from .common import bound_demons, name, pact_of, phase_message, seat_of
from .state import RealmState

winning = Topic("winning")


@winning.command("realm.pact.announce", reveals=True)
def announce(d: Decision, data: Data) -> None:
    """``{}``: announce that your Pact is met: you win, your Pact is revealed (rulebook
    "How to Win": "immediately announce"). Codes ``not_now``, ``pact_not_met``."""
    seat = seat_of(d)
    st = d.state
    d.require(st["phase"] in ("act", "ritual"), "not_now", phase_message(st))
    pact = pact_of(st, seat)
    d.require(
        pact is not None and C.pact_met(pact["conditions"], bound_demons(st, seat)),
        "pact_not_met",
        "Your Pact is not met yet.",
    )
    assert pact is not None
    d.emit("realm.pact.fulfilled", {"seat": seat, "pact": pact["id"]}, final=True)


@winning.evolver("realm.pact.fulfilled", label="fulfilled a Pact and won")
def _fulfilled(st: RealmState, event: EventRecord) -> None:
    st.update({"phase": "over", "winner": event.data["seat"]})


@winning.narrator("realm.pact.fulfilled")
def _say_fulfilled(event: EventRecord, st: RealmState) -> str:
    pact = st["content"]["pacts"][event.data["pact"]]["name"]
    return f"{name(st, event.data['seat'])} fulfilled the Pact {pact} and wins!"

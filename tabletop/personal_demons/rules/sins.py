"""The sin gauges (rulebook "Sin", "Bonus Actions"; Courage "More Sins"): gaining sin, capped
at six, and paying a cost from one gauge."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord, require

from .common import SINS, courage_effects
from .state import State

sins = Topic("sins")

#: Option ``more_sins``: how the Courage card More Sins ("Whenever you gain a single sin at one
#: time, gain one more of it") reads. FAQ: "If you summon a demon 'of Hell', you don't gain any
#: additional sin. The Courage card's effect only triggers when you gain a single sin at one
#: time." ``single`` (default, as before): only a gain of exactly one sin point (a card of
#: sin amount I, or the face-down sin); ``type``: any gain of one sin type (a card of amount
#: III gives IV), never the three sins of Hell.
MORE_SINS = ("single", "type")


def gain_sin(d: Decision, seat: int, sin: str, amount: int, why: str) -> None:
    """Raise one gauge by ``amount``, capped at 6 (rulebook "Sin": any additional sin is lost);
    More Sins adds one (see ``MORE_SINS`` for the two readings, a table option)."""
    reading = d.state["options"].get("more_sins", "single")
    if (amount == 1 or reading == "type") and courage_effects(d.state, seat, "more_sins"):
        amount += 1
    value = min(6, d.state["players"][seat]["sins"][sin] + amount)
    d.emit(
        "pd.sin.changed", {"seat": seat, "sin": sin, "delta": amount, "value": value, "why": why}
    )


def gain_each_sin(d: Decision, seat: int, amount: int, why: str) -> None:
    """Raise all three gauges by ``amount`` (a card "of Hell", a colossal ability): More Sins
    never adds to it (FAQ)."""
    for sin in SINS:
        value = min(6, d.state["players"][seat]["sins"][sin] + amount)
        d.emit(
            "pd.sin.changed",
            {"seat": seat, "sin": sin, "delta": amount, "value": value, "why": why},
        )


def pay(d: Decision, seat: int, sin: str | None, amount: int, named: str | None = None) -> None:
    """Spend ``amount`` from one gauge (rulebook "Bonus Actions"; FAQ: a single sin, the named
    one for a colossal card). Raises ``RuleViolation`` ``bad_sin``, ``wrong_sin``,
    ``not_enough_sin``."""
    require(sin in SINS, "bad_sin", "Choose one sin gauge to pay from: glut, hate or want.")
    require(not named or sin == named, "wrong_sin", f"This card must be paid with {named}.")
    assert sin is not None
    have = d.state["players"][seat]["sins"][sin]
    require(have >= amount, "not_enough_sin", f"You need {amount} {sin}; you have {have}.")
    d.emit(
        "pd.sin.changed",
        {"seat": seat, "sin": sin, "delta": -amount, "value": have - amount, "why": "cost"},
    )


@sins.evolver("pd.sin.changed", label="changed sin")
def _sin_changed(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["sins"][e.data["sin"]] = e.data["value"]

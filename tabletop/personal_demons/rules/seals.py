"""Seals (rulebook "Forming Seals", "Playing on top of other cards", "Requirements"; Courage
Abyss/Inferno/Limbo, Pan-Demonium, seal-creating Courage, Pile Up)."""

from __future__ import annotations

from collections import Counter

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord, require

from . import board as B
from .common import courage_effects
from .state import State

seals = Topic("seals")


def seal_pool(state: State, seat: int) -> tuple[Counter, int]:
    """``(colours, wild)``: the seals of ``seat`` for requirements and Fears, in any state,
    plus Abyss/Inferno/Limbo (one seal of their colour) and Pan-Demonium (``wild``, one seal of
    any colour) (rulebook "Requirements", Courage clarification)."""
    p = state["players"][seat]
    colours = B.seal_colours(p["board"])
    wild = 0
    for cid in p["courage"]:
        effect = state["catalog"][cid]["effect"]
        if effect["kind"] == "counts_as_seal":
            colours[effect["colour"]] += 1
        elif effect["kind"] == "pan_demonium":
            wild += 1
    return colours, wild


def can_summon(state: State, seat: int, card_id: str) -> bool:
    """Whether ``seat`` meets the requirements of ``card_id`` now (rulebook "Requirements")."""
    colours, wild = seal_pool(state, seat)
    return B.meets(state["catalog"][card_id].get("requirements", []), colours, wild)


def next_sid(state: State, seat: int) -> int:
    """The id of ``seat``'s next seal."""
    return state["players"][seat]["board"].get("next_sid", 1)


def form_seals(d: Decision, seat: int, wild_colour: str | None) -> None:
    """Place active seals on every complete valid sigil without one (rulebook "Forming
    Seals"); an all-purple sigil takes ``wild_colour``. Seal-creating Courage scores. Raises
    ``RuleViolation("wild_colour_needed")``."""
    for point, colour in B.formable_seals(
        d.state["players"][seat]["board"], d.state["catalog"], d.state["geometry"]
    ):
        if colour == "purple":
            require(
                wild_colour in B.COLOURS,
                "wild_colour_needed",
                "Choose the colour of your all-purple seal.",
            )
            assert wild_colour is not None
            colour = wild_colour
        d.emit(
            "pd.seal.formed",
            {
                "seat": seat,
                "sid": next_sid(d.state, seat),
                "colour": colour,
                "active": True,
                "point": list(point),
            },
        )
        for effect in courage_effects(d.state, seat, "seal_score"):
            if effect.get("colour") in (None, colour):
                d.emit(
                    "pd.score.gained",
                    {"seat": seat, "points": effect["points"], "reason": "seal created"},
                )


def clear_under(d: Decision, seat: int, pid: str) -> None:
    """A card was just placed (revealed, left face down or summoned): remove the seals it
    touches and score Pile Up once if it covers other cards (rulebook "Playing on top of other
    cards"; Courage clarification "Pile Up")."""
    board = d.state["players"][seat]["board"]
    placement = B.placement_by_pid(board, pid)
    sids = B.seals_removed_by(board, placement)
    if sids:
        d.emit("pd.seal.removed", {"seat": seat, "sids": sids})
    if B.covered_by(board, placement):
        for effect in courage_effects(d.state, seat, "pile_up"):
            d.emit(
                "pd.score.gained", {"seat": seat, "points": effect["points"], "reason": "Pile Up"}
            )


def settle(d: Decision, seat: int, pid: str, wild_colour: str | None) -> None:
    """A card came face up as a bonus action: clear under it, then form new seals."""
    clear_under(d, seat, pid)
    form_seals(d, seat, wild_colour)


@seals.evolver("pd.seal.removed", label="lost seals under a new card")
def _seal_removed(s: State, e: EventRecord) -> None:
    b = s["players"][e.data["seat"]]["board"]
    b["seals"] = [x for x in b["seals"] if x["sid"] not in e.data["sids"]]


@seals.evolver("pd.seal.formed", label="formed a seal")
def _seal_formed(s: State, e: EventRecord) -> None:
    d = e.data
    b = s["players"][d["seat"]]["board"]
    b["seals"].append(
        {
            "sid": d["sid"],
            "colour": d["colour"],
            "active": d["active"],
            "point": d.get("point"),
            "on": d.get("on"),
        }
    )
    b["next_sid"] = max(b.get("next_sid", 1), d["sid"] + 1)

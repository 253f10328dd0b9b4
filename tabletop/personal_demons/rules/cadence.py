"""The cadence of the ritual (rulebook "Summoning Phase" 6 Pass, "Solo Meditation", "End
Phase", "End of Game"): what happens when every player is ready. ``advance`` runs after every
app-table command (``PersonalDemonsRuleset.decide``)."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from .common import DIFFICULTIES, courage_effects
from .courage import discard_extras
from .decks import draw, draw_courage
from .scoring import score_round
from .state import State
from .summoning import resolve_reveal

cadence = Topic("cadence")


def pending(state: State) -> bool:
    """Someone must still act before the step ends: more than three Courage cards, a drawn card
    to place, a Keeper choice, or a colossal ability to use or decline."""
    return any(
        len(p["courage"]) > 3 or p["drawn"] or p["keeper"] is not None or p.get("offers")
        for p in state["players"]
    )


def start_turn(d: Decision, turn_no: int) -> None:
    """Turn ``turn_no`` begins at the Place step; solo: draw 3/2/1 cards by difficulty."""
    s = d.state
    d.emit("pd.step.changed", {"phase": "summoning", "step": "place", "turn": turn_no})
    if s["solo"]:
        count = DIFFICULTIES[s["options"]["difficulty"]]
        d.emit(
            "pd.cards.dealt",
            {"seat": 0, "to": "hand", "cards": draw(d, f"round{s['round']}", count)},
            final=True,
        )


def advance(d: Decision) -> None:
    """Move the ritual on while every player is ready for the next step."""
    for _ in range(50):
        if not _advance_once(d):
            return


def _advance_once(d: Decision) -> bool:
    s = d.state
    players = s["players"]
    n = len(players)
    if s["phase"] == "setup":
        if all(p["setup_done"] for p in players):
            start_turn(d, 1)
            return True
        return False
    if s["phase"] == "summoning":
        if s["step"] == "place" and all(p["placed"] for p in players):
            d.emit("pd.step.changed", {"step": "reveal"})
            return True
        if s["step"] == "reveal" and all(p["reveal"] for p in players):
            for seat in range(n):
                resolve_reveal(d, seat)
            d.emit(
                "pd.step.changed",
                {"step": "bonus", "bonus_order": [(s["leader"] + i) % n for i in range(n)]},
            )
            return True
        if s["step"] == "bonus" and all(p["bonus"] for p in players) and not pending(s):
            if s["solo"]:
                if players[0]["hand"]:
                    d.emit("pd.hand.discarded", {"seat": 0, "cards": players[0]["hand"]})
            else:
                d.emit("pd.hands.passed", {})
            if s["turn"] < 6:
                start_turn(d, s["turn"] + 1)
            else:
                _end_of_round(d)
            return True
        return False
    if s["phase"] == "end" and not pending(s):
        next_round = s["round"] + 1
        d.emit("pd.step.changed", {"phase": "summoning", "round": next_round, "turn": 0})
        if not s["solo"]:
            for seat in range(n):
                d.emit(
                    "pd.cards.dealt",
                    {"seat": seat, "to": "hand", "cards": draw(d, f"round{next_round}", 6)},
                    final=True,
                )
        start_turn(d, 1)
        return True
    return False


def _end_of_round(d: Decision) -> None:
    """Scoring phase, then (rounds I and II) the end phase: Knights and Fragments are discarded
    (Keeper: the player chooses), and everyone takes a Courage card (rulebook "End Phase")."""
    if score_round(d):
        return
    d.emit("pd.step.changed", {"phase": "end", "step": "end"})
    catalog = d.state["catalog"]
    for seat, p in enumerate(d.state["players"]):
        extras = [
            x["pid"]
            for x in p["board"]["placements"]
            if {"Knight", "Fragment"} & set(catalog[x["card"]]["types"])
        ]
        if extras and courage_effects(d.state, seat, "keeper"):
            d.emit("pd.keeper.pending", {"seat": seat, "pids": extras})
        elif extras:
            discard_extras(d, seat, extras)
    for seat in range(len(d.state["players"])):
        draw_courage(d, seat)


@cadence.evolver("pd.step.changed", label="moved the ritual on")
def _step_changed(s: State, e: EventRecord) -> None:
    d = e.data
    for key in ("phase", "step", "round", "turn", "leader", "bonus_order"):
        if key in d:
            s[key] = d[key]  # type: ignore[literal-required]
    if d.get("step") == "bonus":
        for p in s["players"]:
            p["bonus"] = None
    if d.get("step") in ("place", "draw"):
        for p in s["players"]:
            p["placed"] = None
            p["reveal"] = None


@cadence.evolver("pd.hands.passed", label="passed hands clockwise")
def _hands_passed(s: State, e: EventRecord) -> None:
    hands = [p["hand"] for p in s["players"]]
    n = len(hands)
    for i, p in enumerate(s["players"]):
        p["hand"] = hands[(i - 1) % n]  # clockwise: each hand goes to the next seat
    s["leader"] = (s["leader"] + 1) % n


@cadence.evolver("pd.hand.discarded", label="discarded the rest of the hand")
def _hand_discarded(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    s["out"].extend(p["hand"])
    p["hand"] = []

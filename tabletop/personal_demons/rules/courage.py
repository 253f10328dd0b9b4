"""Courage and the end phase (rulebook "Courage", "Three Courage maximum", "End Phase";
Courage "Keeper"): keeping three Courage cards, and discarding Knights and Fragments."""

from __future__ import annotations

from tabletop.decider import Data, Decision
from tabletop.rules import EventRecord, require

from . import board as B
from .common import AppTopic, seat_of
from .state import State

courage = AppTopic("courage")


@courage.command("pd.courage.discard")
def discard(d: Decision, data: Data) -> None:
    """Discard Courage cards while holding more than three: ``{"cards": [id, ...]}``; at least
    three stay (rulebook "Three Courage maximum"). A player who took two cards before
    discarding may discard them in one go or one by one. Raises ``no_discard``,
    ``bad_cards``, ``keep_three``."""
    p = d.state["players"][d.seat]
    require(
        len(p["courage"]) > 3, "no_discard", "You hold three Courage cards or fewer: keep them."
    )
    cards = data.list("cards", max_items=10, default=[], code="bad_cards")
    require(
        bool(cards) and all(c in p["courage"] for c in cards),
        "bad_cards",
        "Choose Courage cards you hold.",
    )
    require(len(p["courage"]) - len(set(cards)) >= 3, "keep_three", "Keep three Courage cards.")
    d.emit("pd.courage.discarded", {"seat": d.seat, "cards": sorted(set(cards))})


@courage.evolver("pd.courage.discarded", label="discarded Courage")
def _courage_discarded(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    p["courage"] = [c for c in p["courage"] if c not in e.data["cards"]]
    s["discards"]["courage"].extend(e.data["cards"])


@courage.command("pd.keeper.keep")
def keep(d: Decision, data: Data) -> None:
    """Keeper: ``{"keep": [pid, ...]}``: the Knights and Fragments not listed are discarded
    (Courage clarification "Keeper"). Raises ``no_choice``, ``bad_cards``."""
    p = d.state["players"][d.seat]
    require(p["keeper"] is not None, "no_choice", "Nothing to keep now.")
    kept = [
        k for k in data.list("keep", max_items=32, default=[], code="bad_cards") if k
    ]  # "" = keep nothing
    require(
        all(k in p["keeper"] for k in kept), "bad_cards", "Choose among your Knights and Fragments."
    )
    discard_extras(d, seat_of(d), [pid for pid in p["keeper"] if pid not in kept])


def discard_extras(d: Decision, seat: int, pids: list[str]) -> None:
    """End phase: discard these Knights and Fragments, the cards under the Knights, and the
    seals the Fragments helped to form (rulebook "End Phase")."""
    board = d.state["players"][seat]["board"]
    catalog = d.state["catalog"]
    gone: list[str] = []
    sids: list[int] = []
    for seal in board["seals"]:
        if seal["point"] is not None:
            _, touching = B.sigil_at(board, catalog, d.state["geometry"], seal["point"])
            if any(pid in pids for pid in touching if pid):
                sids.append(seal["sid"])
    for index, x in enumerate(board["placements"]):
        if x["pid"] in pids:
            gone.append(x["pid"])
            if "Knight" in catalog[x["card"]]["types"] and x["size"] == "regular":
                for below in board["placements"][:index]:  # the cards underneath the Knight go too
                    if (
                        below["spaces"] == x["spaces"]
                        and not below["fear"]
                        and below["pid"] not in gone
                    ):
                        gone.append(below["pid"])
                        sids += [s["sid"] for s in board["seals"] if s["on"] == below["pid"]]
    d.emit("pd.cards.discarded", {"seat": seat, "pids": gone, "sids": sorted(set(sids))})


@courage.evolver("pd.cards.discarded", label="discarded cards")
def _cards_discarded(s: State, e: EventRecord) -> None:
    """Fragment- and Royal-deck cards go to their discard pile, the others to the box."""
    p = s["players"][e.data["seat"]]
    b = p["board"]
    gone = set(e.data["pids"])
    for x in b["placements"]:
        if x["pid"] in gone:
            deck = s["catalog"][x["card"]]["deck"]
            (s["discards"][deck] if deck in s["discards"] else s["out"]).append(x["card"])
    b["placements"] = [x for x in b["placements"] if x["pid"] not in gone]
    b["seals"] = [x for x in b["seals"] if x["sid"] not in e.data.get("sids", [])]
    p["keeper"] = None
    if p["placed"] in gone:
        # This turn's card went with the others (End Phase: the Summoning is over, and the
        # next turn clears "placed" anyway): nothing of it is left to show or reveal. Found by
        # the property test (4 players, seed 1158): the view read a card no longer there.
        p["placed"] = None


@courage.evolver("pd.keeper.pending", label="may keep Knights and Fragments")
def _keeper_pending(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["keeper"] = list(e.data["pids"])

"""The decks (rulebook "Setup", "Discarding"): drawing at random, reshuffling a discard pile,
cards dealt, and taking Courage."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from .state import State

decks = Topic("decks")


def draw(d: Decision, deck: str, count: int = 1) -> list[str]:
    """Draw ``count`` cards from ``deck`` at random, reshuffling its discard pile in when the
    draw pile is empty (rulebook "Discarding"); fewer if both are empty. The caller emits the
    event that moves them."""
    drawn: list[str] = []
    for _ in range(count):
        pile = [c for c in d.state["decks"][deck] if c not in drawn]
        if not pile:
            if not d.state["discards"].get(deck):
                break
            d.emit("pd.deck.reshuffled", {"deck": deck})
            pile = [c for c in d.state["decks"][deck] if c not in drawn]
            if not pile:
                break
        drawn.append(d.rng.choice(sorted(pile)))
    return drawn


def draw_courage(d: Decision, seat: int) -> None:
    """``seat`` takes the top Courage card, if any (final: it shows the card)."""
    for cid in draw(d, "courage"):
        d.emit("pd.courage.taken", {"seat": seat, "card": cid}, final=True)


@decks.evolver("pd.deck.reshuffled", label="reshuffled a discard pile")
def _reshuffled(s: State, e: EventRecord) -> None:
    deck = e.data["deck"]
    s["decks"][deck] = sorted(s["decks"][deck] + s["discards"][deck])
    s["discards"][deck] = []


@decks.evolver("pd.cards.dealt", label="was dealt cards")
def _dealt(s: State, e: EventRecord) -> None:
    d = e.data
    p = s["players"][d["seat"]]
    for cid in d["cards"]:
        s["decks"][s["catalog"][cid]["deck"]].remove(cid)
    if d["to"] == "fear":
        p["fear_card"] = d["cards"][0] if d["cards"] else None
    else:
        p[d["to"]] = p[d["to"]] + d["cards"]  # type: ignore[literal-required]


@decks.evolver("pd.courage.taken", label="took Courage")
def _courage_taken(s: State, e: EventRecord) -> None:
    s["decks"]["courage"].remove(e.data["card"])
    s["players"][e.data["seat"]]["courage"].append(e.data["card"])

"""Claiming a card of the market with an architect token. Pure, no Django.

Rulebook: ``personimo-rules.txt``, "The Market" (claims in token order), "Turn Order" step 2
(claim after placing), "Solitaire" (The Waning).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from .cards import card
from .end import advance
from .market import my_turn, next_placer, who
from .state import PersonimoState

CLAIMED = "personimo.card.claimed"

claims = Topic("claims")


def waning_allowed(state: PersonimoState) -> set[int]:
    """Positions of the row the player may claim. Solitaire, The Waning: in each set of three
    rounds (1-3, 4-6, 7-9, 10-12) each position may be picked once. Everyone else: all."""
    positions = set(range(len(state["row"])))
    if len(state["names"]) != 1:
        return positions
    picks = state["picks"]
    group_start = len(picks) - len(picks) % 3
    return positions - set(picks[group_start:])


@claims.command("personimo.claim", reveals=True)
def claim(d: Decision, data: Data) -> None:
    """``{"index": int}``: put the token on that card of the row. The last claim of a row deals
    the next row (cards come to light: final). Raises ``RuleViolation``: ``not_your_turn``,
    ``wrong_step`` (place first), ``bad_index``, ``already_claimed``, ``position_used``."""
    actor = my_turn(d)
    d.require(actor["action"] == "claim", "wrong_step", "Place your card first.")
    row = d.state["row"]
    index = data.int("index", lo=0, hi=len(row) - 1, code="bad_index",
                     message="Choose a card of the market.")  # fmt: skip
    d.require(row[index]["seat"] is None, "already_claimed", "That card is taken.")
    d.require(
        index in waning_allowed(d.state),
        "position_used",
        "The Waning: you already took that position in this set of three rounds.",
    )
    d.emit(CLAIMED, {"index": index, "card": row[index]["card"]})
    advance(d)


@claims.evolver(CLAIMED, label="claimed a card")
def _claimed(s: PersonimoState, event: EventRecord) -> None:
    s["row"][event.data["index"]]["seat"] = event.seat
    if len(s["names"]) == 1:
        s["picks"].append(event.data["index"])
    if s["phase"] == "claim":
        s["claim_queue"].pop(0)
        s["actor"] = (
            {"seat": s["claim_queue"][0], "action": "claim", "slot": None}
            if s["claim_queue"]
            else None
        )
    else:
        actor = s["actor"]
        assert actor is not None and actor["slot"] is not None
        s["old_row"][actor["slot"]]["done"] = True
        s["actor"] = next_placer(s)


@claims.narrator(CLAIMED)
def _say_claimed(event: EventRecord, state: PersonimoState) -> str:
    return f"{who(state, event.seat)} claimed {card(event.data['card']).name}."

"""Turns (How to Play 2, 7-8): whose turn it is, changing one's hand, and the end of a turn
with the draw-back reminder."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord, require

from .cards import name
from .end import end_game, game_over_reason
from .state import State

turns = Topic("turns")


def require_active(state: State, seat: int | None) -> None:
    """Only the player whose turn it is. Raises RuleViolation ``not_your_turn``."""
    require(
        seat == state["active"],
        "not_your_turn",
        f"It is {state['players'][state['active']]['name']}'s turn.",
    )


def end_turn(d: Decision) -> None:
    """How to Play 7-8: the turn ends, everyone who used combat cards draws back as many (the
    reminder), then the game ends (How to Play 9) or the next player still in the game plays."""
    s = d.state
    d.emit(
        "espionage.turn.ended",
        {
            "seat": s["active"],
            "draw_back": [[seat, n] for seat, n in enumerate(s["used"]) if n],
            "hand_changed": s.get("hand_changed"),
        },
    )
    reason = game_over_reason(s)
    if reason:
        end_game(d, reason)
        return
    players = s["players"]
    count = len(players)
    following = next(
        (s["active"] + step) % count
        for step in range(1, count + 1)
        if not players[(s["active"] + step) % count]["eliminated"]
    )
    d.emit("espionage.turn.started", {"seat": following})


@turns.command("espionage.hand.change")
def change_hand(d: Decision, data: Data) -> None:
    """``{}``, the active player: change all 5 cards at the cost of forfeiting the turn (How to
    Play 2.1: only when no card in the hand has damage points; the players check that at the
    table). Raises RuleViolation ``not_your_turn``, ``duel_in_progress``."""
    require_active(d.state, d.seat)
    require(d.state["duel"] is None, "duel_in_progress", "Finish the duel first.")
    d.emit("espionage.hand.changed", {"seat": d.seat})
    end_turn(d)


@turns.evolver("espionage.hand.changed", label="changed their whole hand")
def _hand_changed(s: State, e: EventRecord) -> None:
    s["hand_changed"] = True


@turns.narrator("espionage.hand.changed")
def _say_hand_changed(e: EventRecord, s: State) -> str:
    return f"{name(s, e.data['seat'])} changed their whole hand and forfeits the turn."


@turns.evolver("espionage.turn.started", label="→ next turn")
def _turn_started(s: State, e: EventRecord) -> None:
    s["active"] = e.data["seat"]
    s["turn"] += 1
    s["used"] = [0] * len(s["players"])
    s["hand_changed"] = False


@turns.narrator("espionage.turn.started")
def _say_turn_started(e: EventRecord, s: State) -> str:
    return f"{name(s, e.data['seat'])}'s turn."


@turns.evolver("espionage.turn.ended", label="→ the turn ended")
def _turn_ended(s: State, e: EventRecord) -> None:
    s["draw_back"] = [list(pair) for pair in e.data["draw_back"]]
    s["duel"] = None


@turns.narrator("espionage.turn.ended")
def _say_turn_ended(e: EventRecord, s: State) -> str | None:
    parts = [f"{name(s, seat)} draws {n}" for seat, n in e.data["draw_back"]]
    if e.data.get("hand_changed"):
        parts.append(f"{name(s, e.data['seat'])} draws a new hand of 5")
    return ("Draw back: " + ", ".join(parts) + ".") if parts else None

"""What each phone sees (docs/architecture.md: hidden information exists only in its owner's view): a
player's faction to its owner until revealed, soul values to their owner, face-down duel cards
to the one who played them until the reveal, everything at the end of the game."""

from __future__ import annotations

from typing import Any

from tabletop.decider import copy_json

from .cards import (
    ACTION_CARDS,
    FACTION_LABELS,
    INITIATOR,
    OPPONENT,
    START_HEALTH,
    SYMBOL_LABELS,
    SYMBOLS,
    describe_actions,
    describe_card,
)
from .duel import waiting_for
from .state import State


def abilities(state: State, seat: int | None) -> dict[str, Any]:
    """What this seat can do now, for the page's buttons: ``{challenge [{seat, name}],
    change_hand, card, actions, confirm, record}`` (bools but ``challenge``)."""
    can: dict[str, Any] = {
        "challenge": [],
        "change_hand": False,
        "card": False,
        "actions": False,
        "confirm": False,
        "record": False,
    }
    if state["phase"] != "playing" or seat is None or not 0 <= seat < len(state["players"]):
        return can
    current = state["duel"]
    active = seat == state["active"]
    can["record"] = active
    if current is None:
        if active:
            can["challenge"] = [
                {"seat": n, "name": p["name"]}
                for n, p in enumerate(state["players"])
                if n != seat and not p["eliminated"]
            ]
            can["change_hand"] = True
        return can
    waiting = waiting_for(current)
    stage = current["stage"]
    can["card"] = stage == "cards" and seat == waiting
    can["actions"] = stage == "actions" and seat == waiting
    can["confirm"] = stage == "confirm" and seat in (current["initiator"], current["opponent"])
    return can


def duel_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """The duel in progress: who duels, the stage and who must act; face-down cards only to
    the one who played them (their count is public, as on the table); all after the reveal."""
    current = state["duel"]
    if current is None:
        return None
    players = state["players"]
    pair = (current["initiator"], current["opponent"])
    sides = []
    for side, who in enumerate(pair):
        card, actions = current["cards"][side], current["actions"][side]
        shown = current["revealed"] or who == seat
        sides.append(
            {
                "seat": who,
                "name": players[who]["name"],
                "role": (INITIATOR, OPPONENT)[side],
                "card_down": card is not None,
                "actions_down": actions is not None,
                "action_count": len(actions) if actions is not None else None,
                "card": describe_card(card) if shown and card else None,
                "actions": describe_actions(actions) if shown and actions is not None else None,
                "claim": current["claims"][side],
            }
        )
    waiting = waiting_for(current)
    return {
        "initiator": pair[0],
        "opponent": pair[1],
        "stage": current["stage"],
        "sides": sides,
        "waiting": waiting,
        "waiting_names": [
            players[w]["name"]
            for w in (waiting if isinstance(waiting, list) else [waiting])
            if w is not None
        ],
        "revealed": current["revealed"],
        "rps": current.get("rps", False) if current["revealed"] else None,
        "by_cards": current.get("by_cards") if current["revealed"] else None,
        "mine": seat in pair,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All that ``seat`` may see (None: a spectator). Shapes::

        phase, me (None or {seat, name, faction, faction_label, revealed, souls [values],
        soul_total, health, eliminated}), players [{seat, name, health, hearts, eliminated,
        faction (None unless revealed), faction_label, revealed, soul_count, souls (at the
        end), active, me}], active, active_name, turn, soul_deck_left, reveal_cards,
        reveals_required, reveals_done, duel (None or see ``duel_view``), can (``abilities``),
        draw_back [{seat, name, cards}], result (None or the scoring), options,
        action_cards [[key, label]], symbols [[key, label]].

    The log is not in the view: the page shows the kit's narrated ``log_lines``."""
    if state.get("phase") not in ("playing", "ended"):
        return {"phase": "new", "players": []}
    ended = state["phase"] == "ended"
    players = state["players"]
    me = None
    if seat is not None and 0 <= seat < len(players):
        p = players[seat]
        me = {
            "seat": seat,
            "name": p["name"],
            "faction": p["faction"],
            "faction_label": FACTION_LABELS[p["faction"]],
            "revealed": p["revealed"],
            "souls": list(p["souls"]),
            "soul_total": sum(p["souls"]),
            "health": p["health"],
            "eliminated": p["eliminated"],
        }
    rows = []
    for number, p in enumerate(players):
        shown = ended or p["revealed"] or number == seat
        rows.append(
            {
                "seat": number,
                "name": p["name"],
                "health": p["health"],
                "hearts": [n < p["health"] for n in range(START_HEALTH)],
                "eliminated": p["eliminated"],
                "faction": p["faction"] if shown else None,
                "faction_label": FACTION_LABELS[p["faction"]] if shown else None,
                "revealed": p["revealed"],
                "soul_count": len(p["souls"]),
                "souls": list(p["souls"]) if ended else None,
                "active": number == state["active"] and not ended,
                "me": number == seat,
            }
        )
    return {
        "phase": state["phase"],
        "me": me,
        "players": rows,
        "active": state["active"],
        "active_name": players[state["active"]]["name"],
        "turn": state["turn"],
        "soul_deck_left": len(state["soul_deck"]),
        "reveal_cards": state["reveal_cards"],
        "reveals_required": state["reveals_required"],
        "reveals_done": state["reveals_done"],
        "duel": duel_view(state, seat),
        "can": abilities(state, seat),
        "draw_back": [
            {"seat": s, "name": players[s]["name"], "cards": n} for s, n in state["draw_back"]
        ],
        "result": copy_json(state["result"]) if ended else None,
        "options": dict(state["options"]),
        "action_cards": [
            [key, label]
            for key, (label, _) in ACTION_CARDS.items()
            if key != "reveal" or state["reveal_cards"] > 0
        ],
        "symbols": [[key, SYMBOL_LABELS[key]] for key in SYMBOLS],
    }

"""Enhanced action cards played face up during one's turn (Combat Cards Explained): the app
does not know their printed effects, so the active player records the card and the health
change the table applied. A duellist eliminated this way calls the duel off, and the end of
the duel ends the initiator's turn (How to Play 7)."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord, require

from .cards import ACTION_CARDS, START_HEALTH, name
from .duel import call_off
from .end import game_over_reason
from .health import change_health
from .state import State
from .turns import end_turn, require_active

actions = Topic("actions")


@actions.command("espionage.action.record", reveals=True)
def record(d: Decision, data: Data) -> None:
    """``{"card": key, "target": seat?, "health": -1|0|1}``, the active player: an enhanced
    action card played face up and the health change the table applied, if any (Combat Cards
    Explained). Health goes through ``health.change_health`` (reveal at 2, elimination and
    extra soul at 0). If a duellist is eliminated the duel is called off and, as the end of a
    duel ends the initiator's turn (How to Play 7), the turn ends; it also ends when the game
    is over or the active player eliminated themself. Raises RuleViolation ``not_your_turn``,
    ``bad_action``, ``bad_target``, ``health_full``."""
    s = d.state
    require_active(s, d.seat)
    card = data.choice(
        "card", ACTION_CARDS, code="bad_action", message="Choose which action card you played."
    )
    require(card != "reveal" or s["reveal_cards"] > 0, "bad_action", "No Reveal card here.")
    change = data.int(
        "health", lo=-1, hi=1, default=0, code="bad_action", message="Health changes by 1 at most."
    )
    target = data.seat(
        "target",
        players=len(s["players"]),
        default=None,
        code="bad_target",
        message="Choose a player still in the game.",
    )
    require(
        target is None or not s["players"][target]["eliminated"],
        "bad_target",
        "Choose a player still in the game.",
    )
    require(change == 0 or target is not None, "bad_target", "Whose health changes?")
    if change == 1:
        require(
            s["players"][target]["health"] < START_HEALTH,
            "health_full",
            "Health cannot go above 5.",
        )
    d.emit(
        "espionage.action.recorded",
        {"seat": d.seat, "card": card, "target": target, "health": change},
    )
    if change:
        change_health(d, target, change, by=d.seat)
    current = s["duel"]
    if game_over_reason(s):
        if current is not None:
            call_off(d, "game over")
        end_turn(d)
    elif current is not None and any(
        s["players"][p]["eliminated"] for p in (current["initiator"], current["opponent"])
    ):
        call_off(d, "a duellist was eliminated")
        end_turn(d)
    elif s["players"][d.seat]["eliminated"]:
        end_turn(d)


@actions.evolver("espionage.action.recorded", label="played an action card face up")
def _recorded(s: State, e: EventRecord) -> None:
    s["used"][e.data["seat"]] += 1


@actions.narrator("espionage.action.recorded")
def _say_recorded(e: EventRecord, s: State) -> str:
    target = f" on {name(s, e.data['target'])}" if e.data["target"] is not None else ""
    return f"{name(s, e.data['seat'])} played {ACTION_CARDS[e.data['card']][0]}{target}."

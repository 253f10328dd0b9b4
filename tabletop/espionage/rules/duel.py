"""The duel (How to Play 2-8): the challenge, the face-down combat and limited action cards,
the REVEAL!, the duellists' confirmation when action cards need the table, and the settling."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, require

from .cards import (
    INITIATOR,
    OPPONENT,
    OUTCOMES,
    RPS_ONLY,
    TIE,
    check_copies,
    describe_actions,
    describe_card,
    duel_outcome,
    name,
    parse_actions,
    parse_card,
)
from .health import change_health, draw_soul
from .state import Duel, State
from .turns import end_turn, require_active

duel = Topic("duel")

_STAGE_ERRORS = {
    "cards": "The combat cards are already down.",
    "actions": "Both combat cards must be played first.",
    "confirm": "The duel is not waiting for a confirmation.",
}


def require_duel(state: State, stage: str) -> Duel:
    """The duel under way at ``stage``. Raises RuleViolation ``no_duel``, ``wrong_stage``."""
    current = state["duel"]
    require(current is not None, "no_duel", "No duel is under way.")
    assert current is not None
    require(current["stage"] == stage, "wrong_stage", _STAGE_ERRORS[stage])
    return current


def _require_duellist(current: Duel, seat: int | None, who: int, stage: str) -> None:
    if seat == who:
        return
    if seat in (current["initiator"], current["opponent"]):
        order = (
            "The initiator plays a combat card first."
            if stage == "cards"
            else "The opponent plays limited action cards first."
        )
        raise RuleViolation("not_your_turn", order)
    raise RuleViolation("not_your_turn", "Only the duellists play cards in this duel.")


def _side(current: Duel, seat: int) -> int:
    return 0 if seat == current["initiator"] else 1


def waiting_for(current: Duel) -> int | list[int] | None:
    """Who must act in the duel: the seat (cards, actions) or the seats yet to confirm."""
    pair = (current["initiator"], current["opponent"])
    if current["stage"] == "cards":
        return pair[0 if current["cards"][0] is None else 1]
    if current["stage"] == "actions":
        return pair[1 if current["actions"][1] is None else 0]  # the opponent first (How to Play 4)
    if current["stage"] == "confirm":
        return [who for side, who in enumerate(pair) if current["claims"][side] is None]
    return None


# ---- the challenge ---------------------------------------------------------------------------


@duel.command("espionage.duel.challenge")
def challenge(d: Decision, data: Data) -> None:
    """``{"opponent": seat}``, the active player: initiate a duel with any other player still in
    the game (How to Play 2.1). Raises RuleViolation ``not_your_turn``, ``duel_in_progress``,
    ``bad_opponent``."""
    s = d.state
    require_active(s, d.seat)
    require(s["duel"] is None, "duel_in_progress", "A duel is already under way.")
    opponent = data.seat(
        "opponent",
        players=len(s["players"]),
        code="bad_opponent",
        message="Choose another player to duel.",
    )
    require(opponent != d.seat, "bad_opponent", "Choose another player to duel.")
    require(
        not s["players"][opponent]["eliminated"], "bad_opponent", "That player has been eliminated."
    )
    d.emit("espionage.duel.challenged", {"initiator": d.seat, "opponent": opponent})


@duel.evolver("espionage.duel.challenged", label="challenged a player to a duel")
def _challenged(s: State, e: EventRecord) -> None:
    s["duel"] = {
        "initiator": e.data["initiator"],
        "opponent": e.data["opponent"],
        "stage": "cards",
        "cards": [None, None],
        "actions": [None, None],
        "revealed": False,
        "claims": [None, None],
    }


@duel.narrator("espionage.duel.challenged")
def _say_challenged(e: EventRecord, s: State) -> str:
    return f"{name(s, e.data['initiator'])} challenged {name(s, e.data['opponent'])} to a duel."


# ---- face-down cards -------------------------------------------------------------------------


@duel.command("espionage.duel.card")
def play_card(d: Decision, data: Data) -> None:
    """A combat card (``cards.parse_card``) played face down, the initiator then the opponent
    (How to Play 3). Raises RuleViolation ``no_duel``, ``wrong_stage``, ``not_your_turn``,
    ``bad_card``, ``too_many_copies``."""
    current = require_duel(d.state, "cards")
    who = waiting_for(current)
    assert isinstance(who, int)
    _require_duellist(current, d.seat, who, "cards")
    card = parse_card(data, d.state["reveal_cards"])
    check_copies(card, [], d.state["reveal_cards"])
    d.emit("espionage.duel.card_committed", {"seat": d.seat, "card": card})


@duel.evolver("espionage.duel.card_committed", label="played a combat card face down")
def _card_committed(s: State, e: EventRecord) -> None:
    current = s["duel"]
    assert current is not None
    current["cards"][_side(current, e.data["seat"])] = e.data["card"]
    s["used"][e.data["seat"]] += 1
    if None not in current["cards"]:
        current["stage"] = "actions"


@duel.narrator("espionage.duel.card_committed")
def _say_card_committed(e: EventRecord, s: State) -> str:
    return f"{name(s, e.data['seat'])} played a combat card face down."


@duel.command("espionage.duel.actions", reveals=True)
def play_actions(d: Decision, data: Data) -> None:
    """Limited action cards (``cards.parse_actions``) played face down, the opponent then the
    initiator (How to Play 4); the initiator's end in the REVEAL!, and the app settles the duel
    unless an action card other than R.P.S was played. Raises RuleViolation ``no_duel``,
    ``wrong_stage``, ``not_your_turn``, ``bad_action``, ``too_many_copies``."""
    current = require_duel(d.state, "actions")
    who = waiting_for(current)
    assert isinstance(who, int)
    _require_duellist(current, d.seat, who, "actions")
    side = _side(current, who)
    actions = parse_actions(data)
    check_copies(current["cards"][side], actions, d.state["reveal_cards"])
    d.emit("espionage.duel.actions_committed", {"seat": d.seat, "cards": actions})
    if side == 0:
        _reveal(d)


@duel.evolver(
    "espionage.duel.actions_committed", label="played their limited action cards (if any)"
)
def _actions_committed(s: State, e: EventRecord) -> None:
    current = s["duel"]
    assert current is not None
    current["actions"][_side(current, e.data["seat"])] = list(e.data["cards"])
    s["used"][e.data["seat"]] += len(e.data["cards"])


@duel.narrator("espionage.duel.actions_committed")
def _say_actions_committed(e: EventRecord, s: State) -> str:
    count = len(e.data["cards"])
    return (
        f"{name(s, e.data['seat'])} played {count} limited action card{'s' if count != 1 else ''}."
    )


# ---- REVEAL! -----------------------------------------------------------------------------------


def _reveal(d: Decision) -> None:
    """REVEAL! (How to Play 4-5): the cards turn face up; settle now unless an action card other
    than R.P.S needs the players to apply its effect and confirm the outcome."""
    current = d.state["duel"]
    played = current["actions"][0] + current["actions"][1]
    rps = "rps" in played
    outcome = duel_outcome(current["cards"][0], current["cards"][1], rps)
    confirm = any(card not in RPS_ONLY for card in played)
    d.emit(
        "espionage.duel.revealed",
        {
            "cards": current["cards"],
            "actions": current["actions"],
            "rps": rps,
            "by_cards": outcome,
            "needs_confirmation": confirm,
            "initiator": current["initiator"],
            "opponent": current["opponent"],
        },
        final=True,
    )
    if not confirm:
        _settle(d, outcome)


@duel.evolver("espionage.duel.revealed", label="→ the duel cards were revealed")
def _revealed(s: State, e: EventRecord) -> None:
    current = s["duel"]
    assert current is not None
    current.update(
        {
            "revealed": True,
            "rps": e.data["rps"],
            "by_cards": e.data["by_cards"],
            "stage": "confirm" if e.data["needs_confirmation"] else "settling",
        }
    )


@duel.narrator("espionage.duel.revealed")
def _say_revealed(e: EventRecord, s: State) -> str:
    data = e.data
    first = name(s, data["initiator"]) if "initiator" in data else "Initiator"
    second = name(s, data["opponent"]) if "opponent" in data else "opponent"
    text = (
        f"Reveal! {first}: {describe_card(data['cards'][0])} "
        f"(actions: {describe_actions(data['actions'][0])}) vs {second}: "
        f"{describe_card(data['cards'][1])} (actions: {describe_actions(data['actions'][1])})."
    )
    if data["needs_confirmation"]:
        text += " Apply the action cards and both confirm the outcome."
    return text


# ---- confirmation and settling -----------------------------------------------------------------


@duel.command("espionage.duel.confirm", reveals=True)
def confirm(d: Decision, data: Data) -> None:
    """``{"outcome": "initiator"|"opponent"|"tie"}``, each duellist, after a reveal with action
    cards the players resolve (How to Play 5): the duel settles when both agree. Raises
    RuleViolation ``no_duel``, ``wrong_stage``, ``not_your_turn``, ``bad_outcome``."""
    current = require_duel(d.state, "confirm")
    require(
        d.seat in (current["initiator"], current["opponent"]),
        "not_your_turn",
        "Only the duellists confirm the outcome.",
    )
    outcome = data.choice(
        "outcome", OUTCOMES, code="bad_outcome", message="Choose who won the duel, or a tie."
    )
    d.emit("espionage.duel.outcome_claimed", {"seat": d.seat, "outcome": outcome})
    claims = current["claims"]
    if claims[0] is not None and claims[0] == claims[1]:
        _settle(d, outcome)


@duel.evolver("espionage.duel.outcome_claimed", label="confirmed the duel outcome")
def _claimed(s: State, e: EventRecord) -> None:
    current = s["duel"]
    assert current is not None
    current["claims"][_side(current, e.data["seat"])] = e.data["outcome"]


@duel.narrator("espionage.duel.outcome_claimed")
def _say_claimed(e: EventRecord, s: State) -> str:
    said = {INITIATOR: "the initiator won", TIE: "a tie", OPPONENT: "the opponent won"}
    return f"{name(s, e.data['seat'])} says: {said[e.data['outcome']]}."


def _settle(d: Decision, outcome: str) -> None:
    """How to Play 5-8: the winner draws a soul card, the loser loses 1 health; a tie ends the
    duel with no damage and no soul (Important notes); the end of the duel ends the initiator's
    turn (How to Play 7)."""
    current = d.state["duel"]
    pair = (current["initiator"], current["opponent"])
    winner = {INITIATOR: pair[0], OPPONENT: pair[1]}.get(outcome)
    loser = {INITIATOR: pair[1], OPPONENT: pair[0]}.get(outcome)
    d.emit("espionage.duel.settled", {"outcome": outcome, "winner": winner, "loser": loser})
    if winner is not None and loser is not None:
        draw_soul(d, winner, "duel")
        change_health(d, loser, -1, by=winner)
    end_turn(d)


@duel.evolver("espionage.duel.settled", label="→ the duel was settled")
def _settled(s: State, e: EventRecord) -> None:
    s["duel"] = None


@duel.narrator("espionage.duel.settled")
def _say_settled(e: EventRecord, s: State) -> str:
    if e.data["winner"] is None:
        return "The duel is a tie: no damage, no soul."
    return f"{name(s, e.data['winner'])} won the duel against {name(s, e.data['loser'])}."


def call_off(d: Decision, reason: str) -> None:
    """The duel under way is called off (``reason`` for the log: a duellist eliminated, or the
    game over) before its reveal."""
    d.emit("espionage.duel.cancelled", {"reason": reason})


@duel.evolver("espionage.duel.cancelled", label="→ the duel was called off")
def _cancelled(s: State, e: EventRecord) -> None:
    s["duel"] = None


@duel.narrator("espionage.duel.cancelled")
def _say_cancelled(e: EventRecord, s: State) -> str:
    return f"The duel is off ({e.data['reason']})."

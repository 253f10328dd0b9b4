"""The summoning phase, steps 1-4 (rulebook "Summoning Phase": Place, Reveal, Sin, Seal), played
in unison: each player places a card face down, then reveals it or leaves it face down."""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision
from tabletop.rules import EventRecord, require

from . import board as B
from .common import SINS, AppTopic, need, read_space
from .seals import can_summon, clear_under, form_seals, next_sid
from .setup import put
from .sins import gain_each_sin, gain_sin
from .state import State

summoning = AppTopic("summoning")


@summoning.command("pd.card.place")
def place(d: Decision, data: Data) -> None:
    """Place step: ``{"card": id, "space": [r, c]}``, face down (rulebook "1. Place"). Raises
    ``RuleViolation`` ``wrong_step``, ``already_placed``, ``not_in_hand``, ``bad_space`` and the
    placement codes of ``board.check_placement``."""
    need(d.state, "summoning", "place")
    p = d.state["players"][d.seat]
    require(p["placed"] is None, "already_placed", "You have already placed a card this turn.")
    card_id = data.id("card", code="not_in_hand", message="That card is not in your hand.")
    require(card_id in p["hand"], "not_in_hand", "That card is not in your hand.")
    space = read_space(data)
    B.check_placement(
        p["board"], d.state["catalog"], d.state["catalog"][card_id], space, face_up=False
    )
    d.emit("pd.card.placed", {"seat": d.seat, "card": card_id, "space": space})


@summoning.evolver("pd.card.placed", label="placed a card face down")
def _placed(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    p["hand"].remove(e.data["card"])
    p["placed"] = put(p["board"], e.data["card"], "regular", [e.data["space"]], None, False)


@summoning.command("pd.card.reveal", reveals=True)
def reveal(d: Decision, data: Data) -> None:
    """Reveal step: ``{"face_up": true, "wild_colour"?}`` or ``{"face_up": false,
    "seal_colour": colour, "sin": sin}`` (rulebook "2. Reveal"). Revealing needs the card's
    requirements, counting the seals it would remove. Raises ``RuleViolation`` ``wrong_step``,
    ``already_chosen``, ``requirements_unmet``, ``bad_colour``, ``bad_sin``,
    ``wild_colour_needed``."""
    need(d.state, "summoning", "reveal")
    seat = d.seat
    assert seat is not None
    p = d.state["players"][seat]
    require(p["reveal"] is None, "already_chosen", "You have already chosen.")
    face_up = data.bool("face_up")
    choice: dict = {"seat": seat, "face_up": face_up}
    if face_up:
        card_id = B.placement_by_pid(p["board"], p["placed"])["card"]
        require(
            can_summon(d.state, seat, card_id),
            "requirements_unmet",
            "You lack the seals this demon requires: leave it face down.",
        )
        wild = data.choice("wild_colour", B.COLOURS, default=None, code="bad_colour")
        if wild:
            choice["wild_colour"] = wild
    else:
        choice["seal_colour"] = data.choice(
            "seal_colour",
            B.COLOURS,
            code="bad_colour",
            message="Choose the colour of the cracked seal: blue, red or yellow.",
        )
        choice["sin"] = data.choice(
            "sin",
            SINS,
            code="bad_sin",
            message="Choose the sin to raise by one: glut, hate or want.",
        )
    d.emit("pd.reveal.chosen", choice)
    # Check now that the reveal resolves (an all-purple sigil needs its colour): on a scratch copy.
    resolve_reveal(Decision(d.ruleset, d.ruleset.copy(d.state), seat, d.rng), seat)


@summoning.evolver("pd.reveal.chosen", label="is ready to reveal")
def _reveal_chosen(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["reveal"] = {k: v for k, v in e.data.items() if k != "seat"}


def resolve_reveal(d: Decision, seat: int) -> None:
    """Reveal, Sin and Seal steps for one seat (rulebook "Summoning Phase" 2-4): face up, the
    seals it touches go, its sin is gained ("of Hell": one of each) and new seals form; face
    down, a cracked seal of the chosen colour goes on its back and one sin of the chosen type."""
    p = d.state["players"][seat]
    choice = p["reveal"]
    assert choice is not None
    pid = p["placed"]
    card = d.state["catalog"][B.placement_by_pid(p["board"], pid)["card"]]
    if choice["face_up"]:
        d.emit("pd.card.revealed", {"seat": seat, "pid": pid, "card": card["id"]}, final=True)
        clear_under(d, seat, pid)
        if card["sin"] == "hell":
            gain_each_sin(d, seat, 1, "of Hell")
        elif card.get("sin"):
            gain_sin(d, seat, card["sin"], card["sin_amount"], "revealed")
        form_seals(d, seat, choice.get("wild_colour"))
    else:
        d.emit("pd.card.kept_face_down", {"seat": seat, "pid": pid})
        clear_under(d, seat, pid)
        d.emit(
            "pd.seal.formed",
            {
                "seat": seat,
                "sid": next_sid(d.state, seat),
                "colour": choice["seal_colour"],
                "active": False,
                "point": None,
                "on": pid,
            },
        )
        gain_sin(d, seat, choice["sin"], 1, "face down")


@summoning.evolver("pd.card.revealed", label="revealed a demon")
def _revealed(s: State, e: EventRecord) -> None:
    B.placement_by_pid(s["players"][e.data["seat"]]["board"], e.data["pid"])["face_up"] = True


@summoning.evolver("pd.card.kept_face_down", label="left a card face down")
def _kept_face_down(s: State, e: EventRecord) -> None:
    """A fact for the log; the back seal and the sin follow as their own events."""


def reveal_needs_wild(state: State, seat: int) -> bool:
    """Whether revealing the card ``seat`` placed this turn would form an all-purple sigil (the
    player then chooses its colour). Pure: works on a copy of the board."""
    p = state["players"][seat]
    if not p["placed"]:
        return False
    board: dict[str, Any] = {**p["board"], "placements": [dict(x) for x in p["board"]["placements"]]}
    placement = B.placement_by_pid(board, p["placed"])
    placement["face_up"] = True
    gone = set(B.seals_removed_by(board, placement))
    board["seals"] = [x for x in board["seals"] if x["sid"] not in gone]
    return any(
        colour == "purple"
        for _, colour in B.formable_seals(board, state["catalog"], state["geometry"])
    )

"""The bonus step (rulebook "Summoning Phase" 5 and "Bonus Actions"): ONE optional bonus action
each, from the Leader clockwise: Face Fear, Summon Fragment, Summon Royal (and Summon Personal
Demon, in ``personal``); placing or discarding the card drawn."""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, require

from . import board as B
from .common import BONUS_COST, SINS, AppTopic, need, read_space, seat_of
from .decks import draw
from .seals import can_summon, form_seals, seal_pool, settle
from .setup import put
from .sins import pay
from .state import State

bonus = AppTopic("bonus")

_PROBE = {"id": "?", "size": "small", "sigils": [None] * 4}


def bonus_turn_ok(state: State, seat: int) -> None:
    """Raise unless ``seat`` may take its bonus action now (rulebook "5. Bonus": in order from
    the Leader; a decline is final once a later player has acted). Codes ``wrong_step``,
    ``bonus_taken``, ``not_your_bonus``, ``too_late``, ``wait_placement``."""
    need(state, "summoning", "bonus")
    order = state["bonus_order"]
    status = {s: state["players"][s]["bonus"] for s in order}
    require(status[seat] != "acted", "bonus_taken", "Only ONE bonus action per turn.")
    index = order.index(seat)
    require(
        not any(status[s] is None for s in order[:index]),
        "not_your_bonus",
        "Wait: bonus actions go from the Leader clockwise.",
    )
    require(
        not any(status[s] == "acted" for s in order[index + 1 :]),
        "too_late",
        "You declined and a later player has acted.",
    )
    require(
        not any(state["players"][s]["drawn"] or state["players"][s].get("offers") for s in order),
        "wait_placement",
        "Wait until the drawn card is placed and every choice is made.",
    )


@bonus.command("pd.bonus.decline")
def decline(d: Decision, data: Data) -> None:
    """Decline the bonus action. Raises the codes of ``bonus_turn_ok``, ``already_declined``."""
    bonus_turn_ok(d.state, seat_of(d))
    require(
        d.state["players"][d.seat]["bonus"] != "declined",
        "already_declined",
        "You have already declined.",
    )
    d.emit("pd.bonus.declined", {"seat": d.seat})


@bonus.evolver("pd.bonus.declined", label="declined a bonus action")
def _declined(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["bonus"] = "declined"


@bonus.evolver("pd.bonus.taken", label="took a bonus action")
def _taken(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["bonus"] = "acted"


# ---- Face Fear ---------------------------------------------------------------------------------


def fear_points(state: State, seat: int) -> int:
    """Points facing the Fear would score now: the highest tier met by all the seals of
    ``seat`` in any state (rulebook "Face Fear"); 0 without a Fear or below the lowest tier."""
    fears = [x for x in state["players"][seat]["board"]["placements"] if x["fear"]]
    if not fears:
        return 0
    colours, wild = seal_pool(state, seat)
    met = [
        t["points"]
        for t in state["catalog"][fears[0]["card"]]["tiers"]
        if B.meets(t["requirements"], colours, wild)
    ]
    return max(met, default=0)


@bonus.command("pd.bonus.face_fear")
def face_fear(d: Decision, data: Data) -> None:
    """Face Fear ``{"wild_colour"?}``: discard it and score the highest tier met by all seals
    (rulebook "Face Fear"); its seals go and sigils are checked again. Raises ``no_fear``."""
    seat = d.seat
    assert seat is not None
    bonus_turn_ok(d.state, seat)
    board = d.state["players"][seat]["board"]
    fears = [x for x in board["placements"] if x["fear"]]
    require(bool(fears), "no_fear", "You have no Fear left to face.")
    fear = fears[0]
    colours, wild = seal_pool(d.state, seat)
    points, tier = 0, None
    for i, entry in enumerate(d.state["catalog"][fear["card"]]["tiers"]):
        if B.meets(entry["requirements"], colours, wild) and entry["points"] >= points:
            points, tier = entry["points"], i + 1
    wild_colour = data.choice("wild_colour", B.COLOURS, default=None, code="bad_colour")
    d.emit("pd.bonus.taken", {"seat": seat, "action": "face_fear"})
    sids = [
        s["sid"]
        for s in board["seals"]
        if s["point"] is not None and tuple(s["point"]) in B.placement_points(fear)
    ]
    if sids:
        d.emit("pd.seal.removed", {"seat": seat, "sids": sids})
    d.emit(
        "pd.fear.faced",
        {"seat": seat, "pid": fear["pid"], "card": fear["card"], "tier": tier, "points": points},
    )
    form_seals(d, seat, wild_colour)


@bonus.evolver("pd.fear.faced", label="faced their Fear")
def _fear_faced(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    b = p["board"]
    b["placements"] = [x for x in b["placements"] if x["pid"] != e.data["pid"]]
    p["score"] += e.data["points"]
    s["out"].append(e.data["card"])


# ---- Summon Fragment / Royal -------------------------------------------------------------------


def _bonus_draw(d: Decision, data: Data, deck: str) -> None:
    seat = d.seat
    assert seat is not None
    require(
        bool(d.state["decks"][deck] or d.state["discards"][deck]),
        "deck_empty",
        "Both piles of that deck are empty.",
    )
    pay(d, seat, data.choice("sin", SINS, default=None, code="bad_sin"), BONUS_COST[deck])
    d.emit("pd.bonus.taken", {"seat": seat, "action": deck})
    card = draw(d, deck)[0]
    d.emit("pd.card.drawn", {"seat": seat, "deck": deck, "card": card}, final=True)


@bonus.command("pd.bonus.fragment", reveals=True)
def fragment(d: Decision, data: Data) -> None:
    """Summon Fragment ``{"sin"}``: 2 of one sin, needs an empty space or half-space (rulebook;
    FAQ). Raises ``no_room``, ``deck_empty``, the codes of ``sins.pay``."""
    bonus_turn_ok(d.state, seat_of(d))
    require(
        bool(
            B.legal_anchors(
                d.state["players"][d.seat]["board"], d.state["catalog"], _PROBE, face_up=True
            )
        ),
        "no_room",
        "You need an empty space or half-space to summon a Fragment.",
    )
    _bonus_draw(d, data, "fragment")


@bonus.command("pd.bonus.royal", reveals=True)
def royal(d: Decision, data: Data) -> None:
    """Summon Royal ``{"sin"}``: 4 of one sin (rulebook). Raises ``deck_empty`` and the codes
    of ``sins.pay``."""
    bonus_turn_ok(d.state, seat_of(d))
    _bonus_draw(d, data, "royal")


@bonus.evolver("pd.card.drawn", label="drew a card")
def _drawn(s: State, e: EventRecord) -> None:
    s["decks"][e.data["deck"]].remove(e.data["card"])
    s["players"][e.data["seat"]]["drawn"] = e.data["card"]


def drawn_options(state: State, seat: int) -> list:
    """The legal places ``[(space, half), ...]`` of the card ``seat`` drew (none when its
    requirements are unmet)."""
    p = state["players"][seat]
    if not p["drawn"]:
        return []
    card = state["catalog"][p["drawn"]]
    if not can_summon(state, seat, card["id"]):
        return []
    return B.legal_anchors(p["board"], state["catalog"], card, face_up=True)


@bonus.command("pd.drawn.place")
def drawn_place(d: Decision, data: Data) -> None:
    """Place the drawn Fragment-deck or Royal-deck card face up: ``{"space": [r, c],
    "half"?: "top"|"bottom", "wild_colour"?}`` or ``{"spot": "r,c[,half]"}`` from a form.
    Raises ``nothing_drawn``, ``requirements_unmet``, ``bad_space`` and the placement codes."""
    seat = d.seat
    assert seat is not None
    p = d.state["players"][seat]
    require(bool(p["drawn"]), "nothing_drawn", "You have no summoned card to place.")
    card = d.state["catalog"][p["drawn"]]
    require(
        can_summon(d.state, seat, card["id"]),
        "requirements_unmet",
        "You lack the seals this card requires.",
    )
    if data.has("spot"):  # "r,c" or "r,c,half" from a form
        parts = str(data.str("spot", max_length=20, code="bad_space")).split(",")
        data = Data(
            {**data.raw, "space": ",".join(parts[:2]), "half": parts[2] if len(parts) > 2 else None}
        )
    space = read_space(data)
    half = (
        data.choice("half", ("top", "bottom"), default=None, code="bad_space")
        if card["size"] == "small"
        else None
    )
    spaces = B.check_placement(p["board"], d.state["catalog"], card, space, face_up=True, half=half)
    wild_colour = data.choice("wild_colour", B.COLOURS, default=None, code="bad_colour")
    d.emit("pd.drawn.placed", {"seat": seat, "card": card["id"], "spaces": spaces, "half": half})
    settle(d, seat, d.state["players"][seat]["board"]["placements"][-1]["pid"], wild_colour)


@bonus.evolver("pd.drawn.placed", label="placed a summoned card")
def _drawn_placed(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    card = s["catalog"][e.data["card"]]
    put(p["board"], e.data["card"], card["size"], e.data["spaces"], e.data.get("half"), True)
    p["drawn"] = None


@bonus.command("pd.drawn.discard")
def drawn_discard(d: Decision, data: Data) -> None:
    """Discard a drawn card that has no legal place (requirements unmet or no room). Raises
    ``nothing_drawn``, ``can_place``."""
    p = d.state["players"][d.seat]
    require(bool(p["drawn"]), "nothing_drawn", "You have no summoned card to place.")
    require(
        not drawn_options(d.state, seat_of(d)), "can_place", "This card has a legal place: place it."
    )
    d.emit("pd.drawn.discarded", {"seat": d.seat, "card": p["drawn"]})


@bonus.evolver("pd.drawn.discarded", label="discarded a card with no place")
def _drawn_discarded(s: State, e: EventRecord) -> None:
    s["discards"][s["catalog"][e.data["card"]]["deck"]].append(e.data["card"])
    s["players"][e.data["seat"]]["drawn"] = None


def bonus_options(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` may do in the bonus step now: ``{"my_turn", "status", "fear",
    "fear_points", "fragment", "royal", "sins_for": {"2"|"4"|"6": [sin...]}, "personal": [id...]}``."""
    try:
        bonus_turn_ok(state, seat)
        my_turn = True
    except RuleViolation:
        my_turn = False
    p = state["players"][seat]
    catalog = state["catalog"]
    sins_for = {cost: [s for s in SINS if p["sins"][s] >= cost] for cost in (2, 4, 6)}
    room = bool(B.legal_anchors(p["board"], catalog, _PROBE, face_up=True))
    personal = []
    for cid in p["personal"]:
        card = catalog[cid]
        named = card["cost"]["sin"] if card["deck"] == "colossal" else None
        payable = p["sins"][named] >= 6 if named else bool(sins_for[6])
        if (
            payable
            and can_summon(state, seat, cid)
            and B.legal_anchors(p["board"], catalog, card, face_up=True)
        ):
            personal.append(cid)
    return {
        "my_turn": my_turn,
        "status": p["bonus"],
        "fear": any(x["fear"] for x in p["board"]["placements"]),
        "fear_points": fear_points(state, seat),
        "fragment": bool(sins_for[2])
        and room
        and bool(state["decks"]["fragment"] or state["discards"]["fragment"]),
        "royal": bool(sins_for[4]) and bool(state["decks"]["royal"] or state["discards"]["royal"]),
        "sins_for": {str(k): v for k, v in sins_for.items()},
        "personal": personal,
    }

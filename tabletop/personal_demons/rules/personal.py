"""Summon Personal Demon (rulebook "Bonus Actions": hefty and colossal cards) and its ability.

A colossal card's ability "gives a benefit to all players except yourself" (rulebook). FAQ:
"Some of these abilities are optional (and will use the word 'may' to denote this). All
players except the one who played the colossal card have the choice of using the ability.
However, colossal card abilities that force the player who summoned it to discard some or all
of their demons are not optional, you must discard them." The content says which is which:

- ``ability.may`` true: each other player chooses on their phone (``pd.ability.use`` /
  ``pd.ability.decline``); the bonus step waits for every choice. Otherwise the benefit is
  applied at once (as for every card stored before ``may`` existed).
- ``ability.discard``: ``"all"`` or a list of demon types: the summoner must discard those of
  their demons (every card of the circle but Fears, the colossal itself and the cards under
  it), with the seals they helped to form; then sigils are checked again. Kind
  ``self_discard`` is an ability that is only that.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision
from tabletop.rules import EventRecord, require

from . import board as B
from .bonus import bonus_turn_ok
from .common import AppTopic, read_space, seat_of
from .decks import draw_courage
from .seals import can_summon, form_seals, settle
from .setup import put
from .sins import gain_each_sin, pay
from .state import State

personal = AppTopic("personal")


@personal.command("pd.bonus.personal", reveals=True)
def summon(d: Decision, data: Data) -> None:
    """Summon Personal Demon: ``{"card": id, "space": [r, c] (top-left), "sin"?,
    "wild_colour"?}``; 6 of one sin (colossal: its named sin), requirements, placement over
    exactly 2 (hefty) or 4 (colossal) face-up regular demons; then the ability (see the module
    docstring). Raises ``not_yours``, ``requirements_unmet``, ``bad_space``, the placement
    codes and the codes of ``sins.pay``."""
    seat = d.seat
    assert seat is not None
    bonus_turn_ok(d.state, seat)
    p = d.state["players"][seat]
    catalog = d.state["catalog"]
    card_id = data.id("card", code="not_yours", message="That is not one of your Personal Demons.")
    require(card_id in p["personal"], "not_yours", "That is not one of your Personal Demons.")
    card = catalog[card_id]
    require(
        can_summon(d.state, seat, card_id),
        "requirements_unmet",
        "You lack the seals this Personal Demon requires.",
    )
    spaces = B.check_placement(p["board"], catalog, card, read_space(data), face_up=True)
    named = card["cost"]["sin"] if card["deck"] == "colossal" else None
    wild_colour = data.choice("wild_colour", B.COLOURS, default=None, code="bad_colour")
    pay(
        d,
        seat,
        data.choice("sin", ("glut", "hate", "want"), default=None, code="bad_sin") or named,
        6,
        named,
    )
    d.emit("pd.bonus.taken", {"seat": seat, "action": "personal"})
    d.emit("pd.personal.summoned", {"seat": seat, "card": card_id, "spaces": spaces}, final=True)
    pid = d.state["players"][seat]["board"]["placements"][-1]["pid"]
    settle(d, seat, pid, wild_colour)
    ability = card.get("ability") or {}
    if ability.get("discard"):
        _forced_discard(d, seat, pid, ability["discard"], wild_colour)
    kind, may = ability.get("kind"), bool(ability.get("may"))
    others = [s for s in range(len(d.state["players"])) if s != seat]
    if kind == "all_courage" and not may:
        for each in range(len(d.state["players"])):  # in seat order, the summoner too
            draw_courage(d, each)
        return
    if kind == "all_courage":
        draw_courage(d, seat)
    if kind in (None, "self_discard") or not others:
        return
    if may:
        d.emit("pd.ability.offered", {"seat": seat, "card": card_id, "seats": others})
    else:
        for other in others:
            apply_benefit(d, other, card)


def apply_benefit(d: Decision, seat: int, card: dict[str, Any]) -> None:
    """The benefit of ``card``'s ability for one other player ``seat``: a Courage card
    (``all_courage``, ``others_courage``), ``points`` (``others_score``) or ``amount`` of each
    sin (``others_sin``)."""
    ability = card.get("ability") or {}
    kind = ability.get("kind")
    if kind in ("all_courage", "others_courage"):
        draw_courage(d, seat)
    elif kind == "others_score":
        d.emit(
            "pd.score.gained", {"seat": seat, "points": ability["points"], "reason": card["name"]}
        )
    elif kind == "others_sin":
        gain_each_sin(d, seat, ability.get("amount", 1), card["name"])


def _forced_discard(d: Decision, seat: int, pid: str, which: Any, wild_colour: str | None) -> None:
    """The summoner discards the demons ``which`` names (``"all"`` or demon types): every
    placement but Fears, the new colossal (``pid``) and what lies under it; seals on their backs
    or touching them go too; then sigils are checked again (rulebook "Forming Seals")."""
    board = d.state["players"][seat]["board"]
    catalog = d.state["catalog"]
    colossal = B.placement_by_pid(board, pid)
    under = {tuple(s) for s in colossal["spaces"]}
    gone = [
        x["pid"]
        for x in board["placements"]
        if not x["fear"]
        and x["pid"] != pid
        and not under & {tuple(s) for s in x["spaces"]}
        and (which == "all" or set(which) & set(catalog[x["card"]].get("types", [])))
    ]
    if not gone:
        return
    sids = [s["sid"] for s in board["seals"] if s["on"] in gone]
    for seal in board["seals"]:
        if seal["point"] is not None:
            _, touching = B.sigil_at(board, catalog, d.state["geometry"], seal["point"])
            if any(t in gone for t in touching if t):
                sids.append(seal["sid"])
    d.emit(
        "pd.cards.discarded",
        {"seat": seat, "pids": gone, "sids": sorted(set(sids)), "why": "forced"},
    )
    form_seals(d, seat, wild_colour)


@personal.evolver("pd.personal.summoned", label="summoned a Personal Demon")
def _summoned(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    card = s["catalog"][e.data["card"]]
    p["personal"].remove(e.data["card"])
    put(p["board"], e.data["card"], card["size"], e.data["spaces"], None, True)


@personal.evolver("pd.ability.offered", label="offered the others a colossal ability")
def _offered(s: State, e: EventRecord) -> None:
    for other in e.data["seats"]:
        s["players"][other].setdefault("offers", []).append(
            {"card": e.data["card"], "by": e.data["seat"]}
        )


def _answer(d: Decision, data: Data) -> str:
    offers = d.state["players"][d.seat].get("offers") or []
    require(bool(offers), "no_offer", "No colossal ability waits for your choice.")
    card_id = data.id("card", default=offers[0]["card"], code="no_offer")
    require(
        any(o["card"] == card_id for o in offers),
        "no_offer",
        "No colossal ability waits for your choice.",
    )
    return card_id


@personal.command("pd.ability.use", reveals=True)
def use(d: Decision, data: Data) -> None:
    """``{"card": id?}``: use the "may" ability of a colossal card another player summoned
    (FAQ; default: the oldest offer). Raises ``no_offer``."""
    card_id = _answer(d, data)
    d.emit("pd.ability.used", {"seat": d.seat, "card": card_id})
    apply_benefit(d, seat_of(d), d.state["catalog"][card_id])


@personal.command("pd.ability.decline")
def decline(d: Decision, data: Data) -> None:
    """``{"card": id?}``: do not use that "may" ability (FAQ). Raises ``no_offer``."""
    d.emit("pd.ability.declined", {"seat": d.seat, "card": _answer(d, data)})


def _drop_offer(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    offers = p.get("offers") or []
    index = next(i for i, o in enumerate(offers) if o["card"] == e.data["card"])
    p["offers"] = offers[:index] + offers[index + 1 :]


personal.evolver("pd.ability.used", label="used a colossal ability")(_drop_offer)
personal.evolver("pd.ability.declined", label="declined a colossal ability")(_drop_offer)

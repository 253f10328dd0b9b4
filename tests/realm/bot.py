"""A greedy Realm player for tests: binds whenever it can (Vessels declared to fit), summons
Vessels, lets rituals pass, feeds Eaters, announces its Pact as soon as it is met."""

from __future__ import annotations

import itertools

from tabletop.realm import cards as C
from tabletop.rules import Command

from .helpers import R


def _declarations(corners, vessels):
    suits = sorted({c for c in corners if c in C.SUITS}) or ["D"]
    ranks = sorted({c for c in corners if c not in C.SUITS}) or ["2"]
    options = [{"suit": s, "rank": r} for s in suits for r in ranks]
    for combo in itertools.product(options, repeat=len(vessels)):
        yield dict(zip(vessels, combo, strict=True))


def find_binding(state, seat):
    """A bind command that meets a demon's corners from ``seat``'s hand, or None."""
    hand = state["players"][seat]["hand"]
    effects = R._effects(state, seat)
    demons = state["content"]["demons"]
    for target, demon in (
        ("personal", state["players"][seat]["personal"]),
        ("active", state["active"]),
    ):
        slot = "active" if target == "active" else f"p{seat}"
        if demon is None or state["eaters"].get(slot):
            continue
        corners = demons[demon]["corners"]
        for size in (1, 2, 3, 4):
            for combo in itertools.combinations(hand, size):
                vessels = [c for c in combo if C.is_vessel(c)]
                for declare in _declarations(corners, vessels):
                    if C.solve_binding(corners, combo, declare, effects):
                        return Command(
                            "realm.demon.bind",
                            {"target": target, "cards": list(combo), "declare": declare},
                        )
    return None


def next_move(state):
    """``(seat, Command)`` for whoever must act now, or None when the game is over."""
    phase = state["phase"]
    if phase == "over":
        return None
    if phase == "prelude":
        for k, p in enumerate(state["players"]):
            if state["acolyte"] is None and p["pact"] is None:
                return k, Command("realm.pact.choose", {"slot": 0})
        aff = state["afflictions"]
        to = next(
            k
            for k, p in enumerate(state["players"])
            if p["affliction"] is None and k != aff["drawer"]
        )
        return aff["drawer"], Command("realm.affliction.give", {"card": aff["offer"][0], "to": to})
    for k in range(state["n"]):
        pact = R.pact_of(state, k)
        if pact and C.pact_met(pact["conditions"], R.bound_demons(state, k)) and phase == "act":
            return k, Command("realm.pact.announce")
    if phase == "ritual":
        r = state["ritual"]
        if r["step"] == "feed":
            suit = C.printed(r["eater"])[0]
            food = [c for c in state["players"][r["binder"]]["hand"] if C.printed(c)[0] == suit]
            return r["binder"], Command("realm.ritual.feed", {"card": food[0]})
        return r["responder"], Command("realm.ritual.pass")
    seat = state["turn"]
    if state["take"]:
        return seat, Command("realm.card.take", {"card": state["take"]["choices"][0]})
    hand = state["players"][seat]["hand"]
    if not state["must_end"]:
        bind = find_binding(state, seat)
        if bind:
            return seat, bind
        plain = [c for c in hand if C.printed(c)[0]]
        for key in (0, 1):
            groups = {}
            for c in plain:
                groups.setdefault(C.printed(c)[key], []).append(c)
            for cards in groups.values():
                if len(cards) >= 3 and state["vessels"]:
                    return seat, Command("realm.vessel.summon", {"cards": cards[:3]})
    size = C.hand_size(R._effects(state, seat))
    extra = max(0, len(hand) - size)
    keep_last = sorted(hand, key=lambda c: (C.is_vessel(c), C.printed(c)[1] == "A"))
    return seat, Command("realm.turn.end", {"discard": keep_last[:extra]})

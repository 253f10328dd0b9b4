"""What each seat sees (rulebook FAQ "Public Information") and the moves its page offers.

Public: demon fronts (corners only) and Eaters, bound demons in full, counts of hands and of
Vessels in hand, decks and the Vessel Stack, the discard pile, the ritual being revealed,
Afflictions, the Acolyte Pact. Private to a seat: its hand, its secret Pact, the hand it is
looking at, its Affliction offer and its prompts. Never: another seat's hand or secret Pact,
any demon's back before it is bound, the deck order.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from tabletop.rules import Command

from . import cards as C
from .binding import eaters_in_hand, exorcisers
from .common import bound_demons, effects, feedable, pact_of, playable, slot_of
from .state import Glimpse, RealmState


def _corner(c: str) -> dict[str, Any]:
    return {"value": c, "label": C.corner_label(c), "symbol": C.SUIT_SYMBOLS.get(c, c), "is_suit": c in C.SUITS}


def _demon_public(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": d["id"],
        "name": d["name"],
        "title": d.get("title", ""),
        "lore": d.get("lore", ""),
        "curse": d["curse"],
        "lasting": d.get("lasting", False),
        "affliction_only": d.get("affliction_only", False),
        "corners": [_corner(c) for c in d["corners"]],
    }


def _pact_public(p: dict[str, Any] | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"id": p["id"], "name": p["name"], "text": p["text"], "side": p.get("side", "")}


def _glimpse(g: Glimpse | None) -> dict[str, Any] | None:
    if not g:
        return None
    return {"target": g["target"], "kind": g["kind"], "ask": g["ask"], "cards": [C.card_info(c) for c in g["cards"]]}


def view(st: RealmState, seat: int | None) -> dict[str, Any]:
    """All that ``seat`` may see (None: a spectator), JSON-shaped (see the module docstring)."""
    if st.get("phase") in (None, "new"):
        return {"phase": "new"}
    n = st["n"]
    demons = st["content"]["demons"]
    me = seat if seat is not None and 0 <= seat < n else None

    def front(demon_id: str | None, slot: str) -> dict[str, Any] | None:
        if demon_id is None:
            return None
        return {
            "slot": slot,
            "corners": [_corner(c) for c in demons[demon_id]["corners"]],
            "eaters": [C.card_info(e) for e in st["eaters"].get(slot, [])],
        }

    players = []
    for k in range(n):
        p = st["players"][k]
        pact = None
        if st["winner"] == k or (k == me and p["pact"]):
            pact = _pact_public(pact_of(st, k))
        players.append(
            {
                "seat": k,
                "name": st["names"][k],
                "hand_count": len(p["hand"]),
                "vessels_in_hand": sum(1 for c in p["hand"] if C.is_vessel(c)),
                "personal": front(p["personal"], slot_of(k)),
                "bound": [dict(_demon_public(demons[b["demon"]]), personal=b["personal"]) for b in p["bound"]],
                "affliction": st["content"]["afflictions"].get(p["affliction"] or ""),
                "has_pact": p["pact"] is not None or st["acolyte"] is not None,
                "pact": pact,
                "is_turn": st["turn"] == k and st["phase"] in ("act", "ritual"),
                "is_me": k == me,
            }
        )
    ritual = None
    if st["ritual"]:
        r = st["ritual"]
        ritual = {
            "binder": r["binder"],
            "binder_name": st["names"][r["binder"]],
            "slot": r["slot"],
            "target_label": "the Active Demon" if r["slot"] == "active" else "their Personal Demon",
            "corners": [_corner(c) for c in demons[r["demon"]]["corners"]],
            "cards": [C.card_info(c) for c in r["cards"]],
            "declared": r["declared"],
            "assignment": [
                dict(
                    a,
                    wild=C.is_vessel(a["card"]) or C.printed(a["card"])[1] == "A",
                    suit_label=C.SUIT_NAMES.get(a["suit"], ""),
                    card_label=C.card_label(a["card"]),
                    corner_label=C.corner_label(a["corner"]),
                )
                for a in r["assignment"]
            ],
            "step": r["step"],
            "responder": r["responder"],
            "responder_name": st["names"][r["responder"]] if r["responder"] is not None else None,
            "eater": C.card_info(r["eater"]) if r["eater"] else None,
            # the next pass completes the binding (and reveals the curse): confirm it
            "pass_binds": r["step"] == "eater" and r["responder"] is not None and (r["responder"] + 1) % n == r["binder"],
        }
    acolyte = st["content"]["pacts"].get(st["acolyte"]) if st["acolyte"] else None
    return {
        "phase": st["phase"],
        "n": n,
        "turn": st["turn"],
        "turn_name": st["names"][st["turn"]] if st["turn"] is not None else None,
        "turn_no": st["turn_no"],
        "active": front(st["active"], "active"),
        "demon_deck_count": len(st["demon_deck"]),
        "deck_count": len(st["deck"]),
        "discard_count": len(st["discard"]),
        "discard_top": [C.card_info(c) for c in st["discard"][-5:]][::-1],
        "vessel_stack": len(st["vessels"]),
        "players": players,
        "ritual": ritual,
        "acolyte": _pact_public(acolyte) if acolyte else None,
        "pact_slots": len(st["pact_slots"]) if st["acolyte"] is None else 0,
        "pact_slot_list": list(range(len(st["pact_slots"]))) if st["acolyte"] is None else [],
        "last_curse": dict(st["last_curse"], who=st["names"][st["last_curse"]["seat"]]) if st["last_curse"] else None,
        "winner": st["winner"],
        "winner_name": st["names"][st["winner"]] if st["winner"] is not None else None,
        "affliction_drawer": st["afflictions"]["drawer"],
        "seat": me,
        "me": _private(st, me) if me is not None else None,
        "suit_choices": [[s, C.SUIT_NAMES[s], C.SUIT_SYMBOLS[s]] for s in C.SUITS],
        "rank_choices": list(C.NUMERIC_RANKS),
    }


def _own_card(st: RealmState, me: int, card: str) -> dict[str, Any]:
    """A card of one's own hand: its face, and whether one's curses ban playing it."""
    return dict(C.card_info(card), banned=not playable(st, me, card))


def _private(st: RealmState, me: int) -> dict[str, Any]:
    p = st["players"][me]
    pact = pact_of(st, me)
    curses = effects(st, me)
    size = C.hand_size(curses)
    prompts: dict[str, Any] = {}
    r = st["ritual"]
    if r and r["responder"] == me and r["step"] == "exorcise":
        pairs = exorcisers(st, me)
        prompts["exorcise"] = [
            {"vessel": v, "rank": d["rank"], "suit": d["suit"], "cards": [C.card_info(c) for vv, c in pairs if vv == v]}
            for v, d in r["declared"].items()
            if C.is_vessel(v)
        ]
    if r and r["responder"] == me and r["step"] == "eater":
        prompts["eater"] = [C.card_info(c) for c in eaters_in_hand(st, me)]
    if r and r["binder"] == me and r["step"] == "feed" and r["eater"]:
        prompts["feed"] = [C.card_info(c) for c in feedable(st, me, r["eater"])]
    take = st["take"] if st["take"] and st["take"]["seat"] == me else None
    slots = ([{"slot": "active", "label": "the Active Demon"}] if st["active"] else []) + [
        {"slot": slot_of(k), "label": f"{st['names'][k]}'s Personal Demon"}
        for k in range(st["n"])
        if st["players"][k]["personal"]
    ]
    aff = st["afflictions"]
    my_turn = st["turn"] == me and st["phase"] == "act" and st["take"] is None
    bound = bound_demons(st, me)
    return {
        "hand": [_own_card(st, me, c) for c in p["hand"]],
        "vessels": [c for c in p["hand"] if C.is_vessel(c)],
        "powers": [
            C.card_info(c)
            for c in p["hand"]
            if (C.is_mimic(c) or C.printed(c)[1] in C.WARDEN_RANKS) and playable(st, me, c)
        ],
        "opponents": [{"seat": k, "name": st["names"][k]} for k in range(st["n"]) if k != me],
        "eater_slots": slots,
        "bound": [{"id": b["demon"], "name": st["content"]["demons"][b["demon"]]["name"]} for b in p["bound"]],
        "pact": _pact_public(pact) if pact else None,
        "pact_progress": C.pact_progress(pact["conditions"], bound) if pact is not None else [],
        "pact_met": pact is not None and C.pact_met(pact["conditions"], bound),
        "must_choose_pact": st["phase"] == "prelude" and st["acolyte"] is None and p["pact"] is None,
        "affliction_offer": [st["content"]["afflictions"][a] for a in aff["offer"]] if aff["drawer"] == me else [],
        "glimpse": _glimpse(st["glimpse"][me]),
        "take": [C.card_info(c) for c in take["choices"]] if take else [],
        "prompts": prompts,
        "my_turn": my_turn,
        "can_act": my_turn and not st["must_end"],
        "can_purge": my_turn and not st["must_end"] and not st["acted"],
        "hand_size": size,
        "discard_needed": max(0, len(p["hand"]) - size),
        "curses": list(curses),
    }


# --- the moves a page offers (for random playouts) ------------------------------------------


def _declarations(corners: list[str], vessels: list[str]):
    suits = sorted({c for c in corners if c in C.SUITS}) or ["D"]
    ranks = sorted({c for c in corners if c not in C.SUITS}) or ["2"]
    options = [{"suit": s, "rank": r} for s in suits for r in ranks]
    for combo in itertools.product(options, repeat=len(vessels)):
        yield dict(zip(vessels, combo, strict=True))


def find_bindings(v: dict[str, Any], limit: int = 1) -> list[Command]:
    """Up to ``limit`` binding rituals per demon (Active, then one's own) that meet its corners
    from this seat's hand as its view shows them (corners, hand, curses): what a player would
    tick on the page, Vessels declared in the page's selects. Empty when none."""
    me = v["me"]
    hand = tuple(c["id"] for c in me["hand"])
    curses = tuple(tuple(sorted(e.items())) for e in me["curses"])
    own = next((p for p in v["players"] if p["is_me"]), None)
    out: list[Command] = []
    for target, front in (("active", v["active"]), ("personal", own["personal"] if own else None)):
        if front is None or front["eaters"]:
            continue
        corners = tuple(c["value"] for c in front["corners"])
        for cards, declare in _rituals(corners, hand, curses, limit):
            out.append(Command("realm.demon.bind", {"target": target, "cards": list(cards), "declare": dict(declare)}))
    return out


@functools.lru_cache(maxsize=4096)
def _rituals(corners: tuple, hand: tuple, curses: tuple, limit: int) -> tuple:
    """Up to ``limit`` ``(cards, declare)`` that meet ``corners`` (smallest first)."""
    effects = [dict(e) for e in curses]
    found: list[tuple] = []
    for size in (1, 2, 3, 4):
        for combo in itertools.combinations(hand, size):
            vessels = [c for c in combo if C.is_vessel(c)]
            for declare in _declarations(list(corners), vessels):
                if C.solve_binding(corners, combo, declare, effects):
                    found.append((combo, tuple(declare.items())))
                    break
            if len(found) >= limit:
                return tuple(found)
    return tuple(found)


def moves(v: dict[str, Any], seat: int) -> list[Command]:
    """The commands this seat's page (``realm/live.html``) offers, with the data its forms
    send: every button, and for the forms that send ticked cards a few tickings a player would
    try (a valid ritual if the hand holds one, a three-alike, the first cards of the hand)."""
    me = v.get("me")
    if not me or v["phase"] in ("new", "over"):
        return []
    out: list[Command] = []
    hand = [c["id"] for c in me["hand"]]
    if me["must_choose_pact"]:
        out += [Command("realm.pact.choose", {"slot": i}) for i in v["pact_slot_list"]]
    for a in me["affliction_offer"]:
        out += [
            Command("realm.affliction.give", {"card": a["id"], "to": p["seat"]})
            for p in v["players"]
            if not p["is_me"] and not p["affliction"]
        ]
    r = v["ritual"]
    if r:
        for x in me["prompts"].get("exorcise", []):
            out += [Command("realm.ritual.exorcise", {"vessel": x["vessel"], "card": c["id"]}) for c in x["cards"]]
        if r["responder"] == seat and r["step"] == "eater":
            out += [Command("realm.ritual.eater", {"card": c["id"]}) for c in me["prompts"].get("eater", [])]
        if r["responder"] == seat and r["step"] != "feed":
            out.append(Command("realm.ritual.pass"))
        if r["binder"] == seat and r["step"] == "feed":
            out += [Command("realm.ritual.feed", {"card": c["id"]}) for c in me["prompts"].get("feed", [])]
            out.append(Command("realm.ritual.yield"))
    out += [Command("realm.card.take", {"card": c["id"]}) for c in me["take"]]
    if me["my_turn"]:
        if me["can_act"]:
            out += find_bindings(v)
            targets = (["active"] if v["active"] else []) + [
                "personal" for p in v["players"] if p["is_me"] and p["personal"]
            ]
            # the page's Vessel selects start on their first choices (Daggers, 2)
            naive = {c: {"suit": "D", "rank": "2"} for c in hand[:2] if C.is_vessel(c)}
            out += [Command("realm.demon.bind", {"target": t, "cards": hand[:2], "declare": naive}) for t in targets[:1]]
            alike = _three_alike(me["hand"])
            if alike:
                out.append(Command("realm.vessel.summon", {"cards": alike}))
            out.append(Command("realm.vessel.summon", {"cards": hand[:3]}))
        discard = me["discard_needed"]
        unbanned_last = sorted(hand, key=lambda c: C.is_vessel(c))
        out.append(Command("realm.turn.end", {"discard": unbanned_last[:discard]}))
        if me["can_purge"]:
            out.append(Command("realm.turn.purge"))
        if me["can_act"]:
            out += _powers(v, me)
    if me["pact_met"]:
        out.append(Command("realm.pact.announce"))
    return out


def _three_alike(cards: list[dict[str, Any]]) -> list[str] | None:
    plain = [c for c in cards if c["suit"] and not c["banned"]]
    for key in ("suit", "rank"):
        groups: dict[str, list[str]] = {}
        for c in plain:
            groups.setdefault(c[key], []).append(c["id"])
        for ids in groups.values():
            if len(ids) >= 3:
                return ids[:3]
    return None


def _powers(v: dict[str, Any], me: dict[str, Any]) -> list[Command]:
    """The "Card powers & Eaters" forms: each power card with the first choice of each select
    (and a second opponent/suit when there is one), feeding each attached Eater with the
    first ticked card of the same suit, releasing each bound Demon."""
    out: list[Command] = []
    opponents = [o["seat"] for o in me["opponents"]]
    for c in me["powers"]:
        for opponent in opponents[:2]:
            if c["kind"] == "mimic":
                out.append(Command("realm.mimic.play", {"card": c["id"], "opponent": opponent}))
            elif c["rank"] == "S":
                out += [Command("realm.warden.seeker", {"card": c["id"], "opponent": opponent, "suit": s}) for s in ("D", "V")]
            elif c["rank"] == "K":
                out += [Command("realm.warden.keeper", {"card": c["id"], "opponent": opponent, "parity": p}) for p in ("odd", "even")]
        if c["rank"] == "E":
            out += [Command("realm.eater.attach", {"card": c["id"], "slot": s["slot"]}) for s in me["eater_slots"]]
    fronts = [v["active"]] + [p["personal"] for p in v["players"]]
    for front in fronts:
        if not front:
            continue
        for e in front["eaters"]:
            food = [c["id"] for c in me["hand"] if c["suit"] == e["suit"]]
            if food:
                out.append(Command("realm.eater.feed", {"slot": front["slot"], "eater": e["id"], "card": food[0]}))
    out += [Command("realm.demon.release", {"demon": b["id"]}) for b in me["bound"]]
    return out

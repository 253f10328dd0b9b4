"""What one seat may see at an app-dealt table (docs/architecture.md: hidden information only in its
owner's view; ``physical.view`` at a physical table).

Hidden from every other seat: hands, the card placed face down this turn and every face-down
card, the reveal choice until all have chosen, the four hefty/colossal candidates and the two
kept Personal Demons (their count is public: they lie face down beside the circle), and the
colossal abilities offered to other players.
"""

from __future__ import annotations

from typing import Any

from . import board as B
from .bonus import bonus_options, drawn_options
from .common import PROMPTS, score_display
from .seals import can_summon
from .summoning import reveal_needs_wild

SIN_ORDER = ("glut", "hate", "want")
#: What the Leader says at each step (rulebook "Summoning Phase", the LEADER lines).
LEADER_LINES = {
    "place": "Tell all players to pick and place a card.",
    "reveal": "Check if all players have placed their card, then say 'reveal'.",
    "bonus": "Check if any players wish to take ONE bonus action.",
}


def face(card: dict) -> dict:
    """The printed face of a card for a page."""
    out = {
        "id": card["id"],
        "name": card["name"],
        "deck": card["deck"],
        "size": card["size"],
        "types": card.get("types", []),
        "value": card["value"],
        "sigils": card["sigils"],
        "sin": card.get("sin"),
        "sin_amount": card.get("sin_amount", 0),
        "requirements": card.get("requirements", []),
    }
    for key in ("tiers", "text", "cost", "ability", "effect", "advanced", "shape"):
        if key in card:
            out[key] = card[key]
    return out


def _board_view(state: Any, seat: int, owner: bool) -> dict:
    cards = state["catalog"]
    board = state["players"][seat]["board"]
    top = B.tops(board)
    depth: dict = {}
    for x in board["placements"]:
        for s in x["spaces"]:
            depth[tuple(s)] = depth.get(tuple(s), 0) + 1
    items = []
    seen = set()
    for layer in top.values():
        for x in layer:
            if x["pid"] in seen:
                continue
            seen.add(x["pid"])
            r0, c0, r1, c1 = B.footprint(x["spaces"])
            item = {
                "pid": x["pid"],
                "row": r0,
                "col": c0,
                "rows": r1 - r0 + 1,
                "cols": c1 - c0 + 1,
                "size": x["size"],
                "half": x["half"],
                "face_up": x["face_up"],
                "fear": x["fear"],
                "under": max(depth.get((r0, c0), 1) - 1, 0),
                "back_seals": [s for s in board["seals"] if s["on"] == x["pid"]],
            }
            if x["face_up"] or owner:
                item["card"] = face(cards[x["card"]])
            items.append(item)
    items.sort(key=lambda i: (i["row"], i["col"], i["half"] or ""))
    seals = [s for s in board["seals"] if s["point"] is not None]
    seals.sort(key=lambda s: tuple(s["point"]))
    return {"items": items, "seals": seals, "prints": _prints(state, top)}


def _prints(state: Any, top: dict) -> list[dict]:
    """Board-printed wild corners still visible (not covered by a card)."""
    out = []
    for entry in state["geometry"]["points"]:
        for slot in entry["slots"]:
            if slot.get("print") and slot.get("space") is not None:
                layer = top.get(tuple(slot["space"]), [])
                if not layer or (
                    layer[0]["size"] == "small"
                    and not any(
                        p["half"] == ("top" if slot["corner"] in ("tl", "tr") else "bottom")
                        for p in layer
                    )
                ):
                    out.append({"point": entry["point"], "colour": slot["print"]})
    return out


def _waiting(state: Any) -> list[int]:
    players = state["players"]
    phase, step = state["phase"], state["step"]
    if phase == "setup":
        return [i for i, p in enumerate(players) if not p["setup_done"]]
    if phase == "end":
        return [
            i for i, p in enumerate(players) if len(p["courage"]) > 3 or p["keeper"] is not None
        ]
    if phase != "summoning":
        return []
    if step == "place":
        return [i for i, p in enumerate(players) if not p["placed"]]
    if step == "reveal":
        return [i for i, p in enumerate(players) if not p["reveal"]]
    if step == "bonus":
        waiting = [
            i
            for i, p in enumerate(players)
            if p["drawn"] or len(p["courage"]) > 3 or p.get("offers")
        ]
        for i in state["bonus_order"]:
            if players[i]["bonus"] is None:
                waiting.append(i)
                break
        return sorted(set(waiting))
    return []


def build_view(state: Any, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (0..3, or None for a spectator). Shape: ``phase``, ``step``,
    ``round``, ``turn``, ``prompt``, ``leader``, ``waiting`` (seat numbers), ``players`` (public
    part of every seat), ``me`` (only this seat's secrets and choices), ``decks`` (counts)."""
    if state.get("phase") in (None, "new"):
        return {"phase": "new", "players": [], "me": None}
    cards = state["catalog"]
    players = state["players"]
    view: dict[str, Any] = {
        "phase": state["phase"],
        "step": state["step"],
        "round": state["round"],
        "turn": state["turn"],
        "prompt": PROMPTS.get(
            state["phase"] if state["phase"] != "summoning" else state["step"], ""
        ),
        "leader": state["leader"],
        "leader_name": players[state["leader"]]["name"],
        "leader_line": LEADER_LINES.get(state["step"], ""),
        "solo": state["solo"],
        "difficulty": state["options"]["difficulty"] if state["solo"] else None,
        # Solo: candles still standing; one is knocked down at the Discard step of each turn.
        "candles": 7 - state["turn"] if state["solo"] and state["phase"] == "summoning" else None,
        "waiting": _waiting(state),
        "winners": state.get("winners", []),
        "rating": state.get("rating"),
        "decks": {
            k: len(v) for k, v in state["decks"].items() if k in ("royal", "fragment", "courage")
        },
        "seat": seat,
        "players": [],
        "me": None,
    }
    view["waiting_names"] = [players[i]["name"] for i in view["waiting"]]
    for i, p in enumerate(players):
        fears = [x for x in p["board"]["placements"] if x["fear"]]
        view["players"].append(
            {
                "seat": i,
                "name": p["name"],
                "me": i == seat,
                "leader": i == state["leader"],
                "score": p["score"],
                "score_display": score_display(p["score"]),
                "sins": [{"sin": s, "value": p["sins"][s]} for s in SIN_ORDER],
                "courage": [face(cards[c]) for c in p["courage"]],
                "fear": face(cards[fears[0]["card"]]) if fears else None,
                "personal_left": len(p["personal"]) if p["setup_done"] else None,
                "hand_count": len(p["hand"]),
                "placed": bool(p["placed"]),
                "chosen": bool(p["reveal"]),
                "bonus": p["bonus"],
                "drawn": face(cards[p["drawn"]]) if p["drawn"] else None,
                "choosing": bool(p.get("offers")),
                "setup_done": p["setup_done"],
                "scoring": p["scoring"],
                "board": _board_view(state, i, owner=(i == seat)),
                "seals_count": len(p["board"]["seals"]),
            }
        )
    view["self"] = None
    view["others"] = [x for x in view["players"] if x["seat"] != seat]
    if seat is not None and 0 <= seat < len(players):
        view["me"] = _mine(state, seat)
        view["self"] = view["players"][seat]
    view["winner_names"] = [players[i]["name"] for i in view["winners"]]
    # The last scoring phase stays in view through the first turn of the next round.
    view["show_scoring"] = state["phase"] == "over" or (
        state["round"] > 1 and state["turn"] <= 1 and state["phase"] in ("summoning", "end")
    )
    for entry in view["players"]:
        entry["last_round"] = sum(x["points"] for x in entry["scoring"])
    view["final"] = sorted(
        ({"name": p["name"], "score": p["score"]} for p in players), key=lambda x: -x["score"]
    )
    return view


def _mine(state: Any, seat: int) -> dict:
    cards = state["catalog"]
    p = state["players"][seat]
    regular = {"id": "?", "size": "regular", "deck": "round1", "sigils": [None] * 4}
    mine: dict = {
        "hand": [dict(face(cards[c]), can_reveal=can_summon(state, seat, c)) for c in p["hand"]],
        "candidates": [face(cards[c]) for c in p["candidates"]],
        "personal": [],
        "fear_card": face(cards[p["fear_card"]]) if p.get("fear_card") else None,
        "placed": None,
        "reveal": p["reveal"],
        "legal_spaces": [a for a, _ in B.legal_anchors(p["board"], cards, regular, face_up=False)],
        "courage_over": len(p["courage"]) > 3,
        "keeper": p["keeper"],
        "bonus": None,
        "drawn_options": [],
        # Colossal "may" abilities another player summoned: use or decline (FAQ).
        "offers": [
            {
                "card": face(cards[o["card"]]),
                "by": o["by"],
                "by_name": state["players"][o["by"]]["name"],
            }
            for o in p.get("offers") or []
        ],
    }
    legal = {tuple(a) for a in mine["legal_spaces"]}
    mine["cells"] = [
        {"r": r, "c": c, "value": f"{r},{c}", "legal": (r, c) in legal}
        for r in range(4)
        for c in range(4)
    ]
    mine["empty_cells"] = [
        {"r": r, "c": c, "value": f"{r},{c}"}
        for r in range(4)
        for c in range(4)
        if not B.tops(p["board"]).get((r, c))
    ]
    for cid in p["personal"]:
        card = cards[cid]
        anchors = [
            {"value": f"{a[0]},{a[1]}", "label": f"row {a[0] + 1}, col {a[1] + 1}"}
            for a, _ in B.legal_anchors(p["board"], cards, card, face_up=True)
        ]
        mine["personal"].append(
            dict(face(card), can_summon=can_summon(state, seat, cid), anchors=anchors)
        )
    if p["placed"]:
        x = B.placement_by_pid(p["board"], p["placed"])
        mine["placed"] = {
            "pid": x["pid"],
            "space": x["spaces"][0],
            "card": face(cards[x["card"]]),
            "can_reveal": can_summon(state, seat, x["card"]),
            "needs_wild": reveal_needs_wild(state, seat),
        }
    if p["keeper"] is not None:
        mine["keeper_items"] = [
            {
                "pid": pid,
                "name": cards[B.placement_by_pid(p["board"], pid)["card"]]["name"],
                "space": B.placement_by_pid(p["board"], pid)["spaces"][0],
            }
            for pid in p["keeper"]
        ]
    if p["drawn"]:
        options = drawn_options(state, seat)
        spots = {(a[0], a[1]) for a, _ in options}
        mine["drawn_small"] = cards[p["drawn"]]["size"] == "small"
        mine["drawn_cells"] = [
            {"r": r, "c": c, "value": f"{r},{c}", "legal": (r, c) in spots}
            for r in range(4)
            for c in range(4)
        ]
        mine["drawn_options"] = [
            {"space": a, "half": h, "value": f"{a[0]},{a[1]}" + (f",{h}" if h else "")}
            for a, h in drawn_options(state, seat)
        ]
    if state["phase"] == "summoning" and state["step"] == "bonus":
        mine["bonus"] = bonus_options(state, seat)
    return mine

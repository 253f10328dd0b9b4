"""What each phone sees (the view) and the commands its page offers (``moves``, for the random
playouts). Pure, no Django. The live template is ``personimo/live.html``.
"""

from __future__ import annotations

import json

from tabletop.rules import Command

from . import scoring
from .cards import card
from .claims import waning_allowed
from .grid import SHIFT_DIRECTIONS, can_shift, district_grid, legal_placements, placeable_anywhere
from .market import district_of, team_name
from .options import scoring_options
from .state import PersonimoState

PLAIN = scoring.ScoringOptions()


def card_info(instance: str, opts: scoring.ScoringOptions = PLAIN) -> dict:
    """A card as a page shows it: id, name, rank, suits, personality, attraction, weight
    (under the table's ``opts``, ``options.scoring_options``)."""
    c = card(instance)
    return {
        "id": instance,
        "name": c.name,
        "rank": c.rank,
        "suits": list(c.suits),
        "personality": c.personality,
        "attraction": scoring.is_attraction(instance, opts),
        "weight": scoring.weight(instance, opts),
    }


_PUBLIC: dict[str, dict] = {}


def _public(state: PersonimoState) -> dict:
    """The part of every seat's view that does not depend on the seat, remembered for the
    last few states: a push renders every seat's view of one state, and scoring every
    district is the costly part (a pure cache keyed by the state itself; read only)."""
    key = json.dumps(state, sort_keys=True)
    cached = _PUBLIC.get(key)  # one lookup: another thread may clear the cache meanwhile
    if cached is not None:
        return cached
    if len(_PUBLIC) > 32:
        _PUBLIC.clear()
    opts = state["options"]
    size = state["size"]
    actor = state["actor"]
    score_opts = scoring_options(opts)
    if state["results"]:  # one per seat: a district's is its (first) seat's
        seat_of = {district_of(state, s): s for s in reversed(range(len(state["names"])))}
        scores = [state["results"][seat_of[i]] for i in range(len(state["districts"]))]
    else:
        scores = scoring.score_table(state["districts"], score_opts)
    districts = []
    for number, district in enumerate(state["districts"]):
        grid = district_grid(district, size)
        districts.append(
            {
                "seat": number,  # the district's number: its seat's, or its team's
                "name": team_name(state, number),
                "grid": grid,
                "cols": len(grid[0]),
                "hq": card_info(district["hq"]["card"], score_opts),
                "discards": [card_info(c, score_opts) for c in district["discards"]],
                "score": scores[number],
            }
        )
    public = {
        "phase": state["phase"],
        "season": state["season"],
        "seasons": state["seasons"],
        "size": size,
        "names": state["names"],
        "options": opts,
        "actor": dict(actor, name=state["names"][actor["seat"]]) if actor else None,
        "row": [
            dict(
                card_info(x["card"], score_opts),
                seat=x["seat"],
                owner=None if x["seat"] is None else state["names"][x["seat"]],
            )
            for x in state["row"]
        ],  # fmt: skip
        "old_row": [
            dict(
                card_info(x["card"], score_opts),
                seat=x["seat"],
                done=x["done"],
                owner=state["names"][x["seat"]],
            )
            for x in state["old_row"]
        ],  # fmt: skip
        "preview": [card_info(c, score_opts) for c in state.get("preview", [])],
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "set_aside": [card_info(c, score_opts) for c in state["set_aside"]]
        if opts["reveal"] == "yes"
        else None,
        "districts": districts,
        "results": state["results"],
        "rating": rating(state),
        **_winners(state),
    }
    _PUBLIC[key] = public
    return public


def _winners(state: PersonimoState) -> dict:
    """``winners`` (names of the first place, teams once), ``tie``, ``best`` (their score)."""
    results = state["results"] or []
    first = list(dict.fromkeys(r.get("team", r["name"]) for r in results if r["place"] == 1))
    best = max((r["total"] for r in results), default=0)
    return {"winners": " and ".join(first), "tie": len(first) > 1, "best": best}


def rating(state: PersonimoState) -> str | None:
    """Solitaire's verdict on the final score ("Solitaire"): on 5x5 "A score of 50 or more gets
    you declared Architect of the Year, while a score of less than 35 may result in an
    unfortunate tar-and-feathering incident"; on 7x7 (7x7x3) "A winning scores is 120 or
    more". The rulebook states the first under Thorny Crown; The Waning says "Score as
    usual", so the app rates both. None before the end, with several players, or on other
    districts (the rulebook rates no others)."""
    results = state.get("results")
    if not results or len(results) != 1:
        return None
    total = results[0]["total"]
    district = state["options"]["district"]
    if district == "5":
        if total >= 50:
            return "Architect of the Year (50 or more)"
        if total < 35:
            return "Under 35: an unfortunate tar-and-feathering incident may result"
        return "A respectable district (35 to 49)"
    if district == "7":
        return "A winning score (120 or more)" if total >= 120 else "Not a win: 7x7x3 needs 120"
    return None


def view(state: PersonimoState, seat: int | None) -> dict:
    """What seat ``seat`` sees: everything on the table (markets, every district, scores,
    whose turn) but not the order of the deck nor, unless The Reveal is on, the set-aside
    cards. For the seat whose turn it is to place: its card's legal placements on the grid
    as it lies, which shifts are possible, and whether it must discard. The seat's own
    district comes first (``mine``)."""
    if state.get("phase") in (None, "new"):
        return {"phase": "new"}
    public = _public(state)
    size = state["size"]
    actor = state["actor"]
    score_opts = scoring_options(state["options"])
    mine = district_of(state, seat) if seat is not None else None
    districts = [dict(d, mine=d["seat"] == mine) for d in public["districts"]]
    result: dict = {
        **public,
        "you": seat,
        "your_turn": bool(actor and actor["seat"] == seat),
        "districts": sorted(districts, key=lambda d: not d["mine"]),
        "placing": None,
        "claimable": [],
        "claim_deals": False,
    }
    if actor and actor["seat"] == seat:
        if actor["action"] == "place" and actor["slot"] is not None:
            card_id = state["old_row"][actor["slot"]]["card"]
            district = state["districts"][district_of(state, seat)]
            legal = legal_placements(district, card_id, size)
            anywhere = bool(legal) or placeable_anywhere(district, card_id, size)
            result["placing"] = {
                "card": card_info(card_id, score_opts),
                "legal": legal,
                "must_discard": not anywhere,
                "needs_shift": anywhere and not legal,
                "shifts": {
                    name: can_shift(district, dr, dc, size)
                    for name, (dr, dc) in SHIFT_DIRECTIONS.items()
                },
            }
        else:
            allowed = waning_allowed(state)
            result["claimable"] = [
                i for i, x in enumerate(state["row"]) if x["seat"] is None and i in allowed
            ]
            # The last claim of a row deals the next one: the page asks before sending it.
            result["claim_deals"] = (
                len(state["claim_queue"]) == 1
                if state["phase"] == "claim"
                else sum(not x["done"] for x in state["old_row"]) == 1
            ) and bool(state["deck"])
    return result


def moves(view: dict, seat: int) -> list[Command]:
    """The commands ``seat``'s page offers, from its view only (``live.html``): a claim button
    per claimable card (``d.index``); while placing, every legal placement (the tap-two-blocks
    script posts one of ``placing.legal`` as the command data), the discard button when the
    card fits nowhere, and the enabled shift arrows (not in Urban Sprawl)."""
    if not view.get("your_turn"):
        return []
    commands = [Command("personimo.claim", {"index": i}) for i in view["claimable"]]
    placing = view["placing"]
    if placing:
        commands += [Command("personimo.place", dict(p)) for p in placing["legal"]]
        if placing["must_discard"]:
            commands.append(Command("personimo.discard"))
        if view["options"]["district"] != "sprawl":
            for name, ok in placing["shifts"].items():
                if ok:
                    dr, dc = SHIFT_DIRECTIONS[name]
                    commands.append(Command("personimo.shift", {"dr": dr, "dc": dc}))
    return commands

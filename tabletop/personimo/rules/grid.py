"""The geometry of a district: legal placements, suit orientations, shifting the layout, and
the grid a page draws. Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Card Placement", "Assigning Suits", "District Size
Variants" (6x6, Urban Sprawl), "Jacynimo".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import scoring
from .cards import SUITS, card
from .state import District, Headquarters

Cell = tuple[int, int]

SHIFT_DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def start_headquarters(card_id: str, size: int) -> Headquarters:
    """The headquarters as first placed: one square in the centre; on a 6x6 district two
    squares side by side at the centre, suits chosen at scoring ("District Size Variants")."""
    if size == 6:
        return {"card": card_id, "cell": [2, 2], "cell2": [2, 3]}
    return {"card": card_id, "cell": [(size - 1) // 2] * 2}


def orientations(card_id: str) -> list[tuple[str, str]]:
    """Ways to assign the card's suits to its two blocks ("Assigning Suits"): each suit of a
    two-suited card on one block (both orders), a single-suited card's suit on both.
    Courting Danger: a Pawn or Court drawn from the deck puts two distinct suits of its three
    on its two blocks, one each. Excuses Wild: the Excuse is a wild card that counts for one
    neighborhood, so both its blocks take one suit of the player's choice; the app asks for it
    when the Excuse is placed (the rulebook says "when scoring"), like every other card."""
    suits = card(card_id).suits
    if not suits:
        return [(s, s) for s in SUITS]
    if len(suits) == 1:
        return [(suits[0], suits[0])]
    return [(a, b) for a in suits for b in suits if a != b]


def placement_error(
    district: Mapping[str, Any],
    cells: list[Cell],
    suits: tuple[str, ...] | list[str],
    size: int,
    built: dict | None = None,
    bounded: bool = True,
) -> str | None:
    """Why placing a card with ``suits`` on ``cells`` is illegal ("Card Placement"), or None.

    ``cells``: two ``(row, col)`` in ``0..size-1``. Codes: ``not_adjacent_cells`` (the two
    blocks must be orthogonally adjacent), ``outside`` (off the grid), ``occupied`` (over a built
    block), ``not_touching`` (must touch an earlier card), ``no_suit_match`` (touching no
    headquarters and no touching pair of blocks matches in suit). One matching pair is enough.
    ``built``: ``scoring.blocks(district)`` when the caller has it; ``bounded=False``: instead
    of the grid, the whole layout with the card must fit in ``size`` x ``size`` somewhere
    (the layout "may be shifted").
    """
    if len(cells) == 2:
        (r1, c1), (r2, c2) = cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return "not_adjacent_cells"
        cell_suits = [{suit} for suit in suits]
    elif len(cells) == 1:  # Jacynimo: one square with all the card's suits
        cell_suits = [set(suits)]
    else:
        return "not_adjacent_cells"
    if built is None:
        built = scoring.blocks(district)
    if bounded:
        if not all(0 <= r < size and 0 <= c < size for r, c in cells):
            return "outside"
    else:
        rows = [r for r, _ in built] + [r for r, _ in cells]
        cols = [c for _, c in built] + [c for _, c in cells]
        if max(rows) - min(rows) >= size or max(cols) - min(cols) >= size:
            return "outside"
    if any(tuple(c) in built for c in cells):
        return "occupied"
    hq_cells = {cell for cell, _ in scoring.hq_blocks(district["hq"])}
    touching = False
    if district.get("sprawl"):
        # Urban Sprawl: "all adjacent blocks must match in suit" (the headquarters too: a
        # block beside it needs one of its suits).
        for (r, c), mine in zip(cells, cell_suits, strict=True):
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in built:
                    touching = True
                    if not mine & set(built[nb]):
                        return "no_suit_match"
        return None if touching else "not_touching"
    for (r, c), mine in zip(cells, cell_suits, strict=True):
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in built:
                touching = True
                if nb in hq_cells or mine & set(built[nb]):
                    return None
    return "no_suit_match" if touching else "not_touching"


PLACEMENT_MESSAGES = {
    "not_adjacent_cells": "A card covers two blocks side by side.",
    "outside": "That is outside your district.",
    "occupied": "That block is already built.",
    "not_touching": "A new card must touch an earlier card.",
    "no_suit_match": "A touching pair of blocks must match in suit (except next to the "
    "headquarters).",
}


def legal_placements(district: Mapping[str, Any], card_id: str, size: int) -> list[dict]:
    """Every legal placement of ``card_id`` in the district as it lies on the grid now:
    ``[{"cells": [[r, c], [r, c]], "suits": [s, s]}]``, cells in reading order."""
    built = scoring.blocks(district)
    result = []
    # A legal card touches the built blocks: only the region two blocks around them is tried.
    rows = range(max(0, min(r for r, _ in built) - 2), min(size, max(r for r, _ in built) + 3))
    cols = range(max(0, min(c for _, c in built) - 2), min(size, max(c for _, c in built) + 3))
    if district.get("squares") == 1:  # Jacynimo
        squares = list(card(card_id).suits)
        for r in rows:
            for c in cols:
                if placement_error(district, [(r, c)], squares, size, built) is None:
                    result.append({"cells": [[r, c]], "suits": squares})
        return result
    for r in rows:
        for c in cols:
            for other in ((r, c + 1), (r + 1, c)):
                cells = [(r, c), other]
                for suits in orientations(card_id):
                    if placement_error(district, cells, suits, size, built) is None:
                        result.append({"cells": [list(x) for x in cells], "suits": list(suits)})
    return result


def shift(district: District, dr: int, dc: int) -> None:
    """Move ``district`` by ``dr`` rows and ``dc`` columns, in place (no bounds check: see
    ``can_shift``)."""
    for key in ("cell", "cell2"):
        if key in district["hq"]:
            district["hq"][key] = [district["hq"][key][0] + dr, district["hq"][key][1] + dc]
    for placed in district["cards"]:
        placed["cells"] = [[r + dr, c + dc] for r, c in placed["cells"]]


def can_shift(district: Mapping[str, Any], dr: int, dc: int, size: int) -> bool:
    """Whether the whole layout still fits on the grid after moving it by ``(dr, dc)``."""
    return all(0 <= r + dr < size and 0 <= c + dc < size for r, c in scoring.blocks(district))


def placeable_anywhere(district: Mapping[str, Any], card_id: str, size: int) -> bool:
    """Whether ``card_id`` has a legal placement in some shift of the layout ("If a player
    cannot place their chosen card legally within their district, they must discard it"):
    every pair of blocks next to the layout is tried with the bounds of the whole layout."""
    built = scoring.blocks(district)
    if district.get("squares") == 1:  # Jacynimo
        squares = list(card(card_id).suits)
        return any(
            placement_error(district, [nb], squares, size, built, bounded=False) is None
            for r, c in built
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
        )
    seen = set()
    for r, c in built:
        for first in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if first in built:
                continue
            fr, fc = first
            for second in ((fr + 1, fc), (fr - 1, fc), (fr, fc + 1), (fr, fc - 1)):
                pair = (min(first, second), max(first, second))
                if pair in seen:
                    continue
                seen.add(pair)
                for suits in orientations(card_id):
                    if (
                        placement_error(district, list(pair), suits, size, built, bounded=False)
                        is None
                    ):
                        return True
    return False


def district_grid(district: Mapping[str, Any], size: int) -> list[list[dict]]:
    """The district as rows of cells for a page, each ``{"r", "c"}`` (empty) or with ``"suits",
    "card", "name", "hq", "scoring"`` (``scoring``: the block holds the card's scoring suit).
    The whole grid; for Urban Sprawl the built blocks and two rings around them (where a new
    card can reach)."""
    built = scoring.blocks(district)
    rows = cols = range(size)
    if district.get("sprawl"):
        rows = range(max(0, min(r for r, _ in built) - 2), min(size, max(r for r, _ in built) + 3))
        cols = range(max(0, min(c for _, c in built) - 2), min(size, max(c for _, c in built) + 3))
    cells: dict[Cell, dict] = {}
    hq = district["hq"]
    for cell, suits in scoring.hq_blocks(hq):
        cells[cell] = {"suits": list(suits), "card": hq["card"], "name": card(hq["card"]).name,
                       "hq": True, "scoring": card(hq["card"]).personality}  # fmt: skip
    for placed in district["cards"]:
        c_ = card(placed["card"])
        scores = scoring.weight(placed["card"]) > 0
        for cell, suits in scoring.placed_blocks(placed):
            cells[cell] = {"suits": list(suits), "card": placed["card"], "name": c_.name,
                           "hq": False, "scoring": scores and c_.bottom_suit in suits}  # fmt: skip
    return [[dict(cells.get((r, c), {}), r=r, c=c) for c in cols] for r in rows]

"""Personimo scoring: neighborhoods, scoring cards, bonus points and tiebreakers.

Pure Python, no Django import. A *district* is the JSON-able dict the rules keep per player::

    {"hq": {"card": "island/1", "cell": [r, c]},
     "cards": [{"card": "pact/1", "cells": [[r, c], [r, c]], "suits": ["Moons", "Suns"]}, ...],
     "discards": ["castle/2", ...]}

Cells are ``[row, column]`` in ``0..size-1``; ``suits[i]`` is the suit assigned to ``cells[i]``
(Personimo rules, "Assigning Suits"). The headquarters block keeps all three suits of its card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from .cards import SUITS, card

Cell = tuple[int, int]


@dataclass(frozen=True)
class ScoringOptions:
    """The table options that change scoring.

    ``attraction_min``: lowest rank that is an attraction, 2..10 (10 = Crown; 8 by the rules,
    other values are the Detraction variant); ``lucky_nines``: Lucky Nines (9s count twice, the
    Merchant three times); ``bonus``: bonus point options in force, a subset of ``BONUSES``;
    ``size``: the district's side (5 by the rules); ``paralysis``: Personality Paralysis (a
    multi-suited scoring card scores for the suit its player chooses).
    """

    attraction_min: int = 8
    lucky_nines: bool = False
    bonus: frozenset[str] = frozenset()
    size: int = 5
    paralysis: bool = False


#: Bonus point options (Personimo rules, "Bonus Points"), in the rulebook's order.
BONUSES: dict[str, str] = {
    "complete": "complete district",
    "centre": "headquarters in the centre",
    "corner": "headquarters in a corner",
    "row": "suit in a row",
    "box": "2x2 box of one suit",
    "run": "suit run across the district",
    "largest": "largest neighborhood in a suit",
}
#: Age of Badgers: "Include the first two bonus scoring options below."
AGE_OF_BADGERS = frozenset({"complete", "centre"})


def hq_blocks(hq: Mapping) -> list[tuple[Cell, tuple[str, ...]]]:
    """The headquarters' blocks as ``(cell, suits)``: one block with the card's three suits;
    on a 6x6 district ("District Size Variants") two blocks, ``cell`` and ``cell2``, with
    ``suits`` = ``[[a, c], [b, c]]`` once chosen (each has all three while undetermined)."""
    cells = [tuple(hq["cell"])] + ([tuple(hq["cell2"])] if hq.get("cell2") else [])
    suits = hq.get("suits") or [card(hq["card"]).suits] * len(cells)
    return [(cell, tuple(s)) for cell, s in zip(cells, suits, strict=True)]


def hq_arrangements(card_id: str) -> list[list[list[str]]]:
    """The ways to spread a headquarters over two squares on a 6x6 district: "one suit
    (eventually) assigned to each square and the third suit assigned to both squares" (6)."""
    suits = card(card_id).suits
    result = []
    for shared in suits:
        a, b = [s for s in suits if s != shared]
        result += [[[a, shared], [b, shared]], [[b, shared], [a, shared]]]
    return result


def blocks(district: Mapping) -> dict[Cell, tuple[str, ...]]:
    """Every built block of ``district``: cell -> its suits (three for the headquarters)."""
    result: dict[Cell, tuple[str, ...]] = {}
    hq = district.get("hq")
    if hq:
        result.update(hq_blocks(hq))
    for placed in district.get("cards", []):
        for cell, suits in placed_blocks(placed):
            result[cell] = suits
    return result


def placed_blocks(placed: Mapping) -> list[tuple[Cell, tuple[str, ...]]]:
    """The blocks of one placed card as ``(cell, suits)``: two blocks of one suit each, or in
    Jacynimo one square with all the card's suits ("each card is a single grid square counting
    towards all of its suits simultaneously")."""
    if len(placed["cells"]) == 1:
        return [(tuple(placed["cells"][0]), tuple(card(placed["card"]).suits))]
    return [(tuple(c), (s,)) for c, s in zip(placed["cells"], placed["suits"], strict=True)]


def neighborhoods(built: Mapping[Cell, tuple[str, ...]]) -> list[tuple[str, frozenset[Cell]]]:
    """Regions of orthogonally connected blocks of one suit, as ``(suit, cells)``, in suit order
    then by first cell. A block with several suits (the headquarters) belongs to one
    neighborhood of each of its suits and counts once in each (Personimo rules, "Scoring")."""
    result = []
    for suit in SUITS:
        todo = sorted(c for c, suits in built.items() if suit in suits)
        seen: set[Cell] = set()
        for start in todo:
            if start in seen:
                continue
            region = {start}
            stack = [start]
            while stack:
                r, c = stack.pop()
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb not in region and suit in built.get(nb, ()):
                        region.add(nb)
                        stack.append(nb)
            seen |= region
            result.append((suit, frozenset(region)))
    return result


@cache
def is_attraction(card_id: str, options: ScoringOptions = ScoringOptions()) -> bool:
    """Rank 8, 9 or Crown by the rules (``options.attraction_min``: Detraction). Pawns, Courts
    and the Excuse have no rank number and are never attractions."""
    number = card(card_id).rank_number()
    return number is not None and number >= options.attraction_min


@cache
def weight(card_id: str, options: ScoringOptions = ScoringOptions()) -> int:
    """How many scoring cards ``card_id`` counts as: 1 for a personality or an attraction, 2 for
    both (the Diplomat, the Merchant, the Bard, the Huntress), 0 otherwise. Lucky Nines: a 9
    counts 2 and the Merchant 3."""
    c = card(card_id)
    if options.lucky_nines and c.rank == "9":
        return 3 if c.personality else 2
    return int(c.personality) + int(is_attraction(card_id, options))


def score_district(district: Mapping, options: ScoringOptions = ScoringOptions()) -> dict:
    """Score one district (Personimo rules, "Scoring").

    Returns ``{"neighborhoods": [{"suit", "blocks", "cells", "cards": [card ids, repeated by
    weight], "scoring": n, "points", "text"}], "base", "bonuses": [{"name", "label", "points"}],
    "total", "largest", "personalities", "attractions", "crowns"}``. ``points`` = blocks x
    scoring cards; a neighborhood with no scoring card scores 0. Scoring cards count only in the
    neighborhood of their bottom suit. Bonuses that compare players ("largest") are added by
    ``score_table``. A two-square headquarters (6x6) whose suits are not yet chosen is
    scored in the arrangement that scores most (``"hq_suits"`` in the result says which).
    """
    hq = district.get("hq")
    if hq and hq.get("cell2") and not hq.get("suits"):
        tries = [
            score_district(dict(district, hq=dict(hq, suits=arrangement)), options)
            for arrangement in hq_arrangements(hq["card"])
        ]
        return max(tries, key=tiebreak_key)
    built = blocks(district)
    hoods = neighborhoods(built)
    index = {}
    for i, (suit, cells) in enumerate(hoods):
        for cell in cells:
            index[(suit, cell)] = i
    cards_in: list[list[str]] = [[] for _ in hoods]

    # Each scoring card: the (suit, block) pairs it may score for. By the rules only its bottom
    # suit; with Personality Paralysis any of its suits, and the app takes the larger
    # neighborhood for the player (a card's points are its weight times the blocks of the one
    # neighborhood it joins, whatever the other cards do, so this choice is always the best).
    options_of: list[tuple[str, list[tuple[str, Cell]]]] = []
    if hq:
        options_of.append((hq["card"], [(s, c) for c, suits in hq_blocks(hq) for s in suits]))
    for placed in district.get("cards", []):
        pairs = [(s, c) for c, suits in placed_blocks(placed) for s in suits]
        options_of.append((placed["card"], pairs))
    for card_id, pairs in options_of:
        w = weight(card_id, options)
        if not w:
            continue
        bottom = card(card_id).bottom_suit
        if options.paralysis:
            chosen = max(pairs, key=lambda p: (len(hoods[index[p]][1]), p[0] == bottom))
        else:
            found = next((p for p in pairs if p[0] == bottom), None)
            if found is None:
                continue  # its bottom suit is on no block (cannot happen on a legal district)
            chosen = found
        cards_in[index[chosen]].extend([card_id] * w)

    result_hoods: list[dict] = []
    for (suit, cells), scoring in zip(hoods, cards_in, strict=True):
        points = len(cells) * len(scoring)
        result_hoods.append(
            {
                "suit": suit,
                "blocks": len(cells),
                "cells": sorted([list(c) for c in cells]),
                "cards": scoring,
                "scoring": len(scoring),
                "points": points,
                "text": f"{len(cells)} x {len(scoring)} = {points}",
            }
        )
    base = sum(h["points"] for h in result_hoods)
    bonuses: list[dict] = [
        {"name": name, "label": BONUSES[name], "points": points}
        for name, points in district_bonuses(built, district, options).items()
        if points
    ]
    all_ids = ([hq["card"]] if hq else []) + [p["card"] for p in district.get("cards", [])]
    return {
        "neighborhoods": result_hoods,
        "base": base,
        "bonuses": bonuses,
        "total": base + sum(b["points"] for b in bonuses),
        "largest": max((h["blocks"] for h in result_hoods), default=0),
        "personalities": sum(card(i).personality for i in all_ids),
        "attractions": sum(is_attraction(i, options) for i in all_ids),
        "crowns": sum(card(i).rank == "Crown" for i in all_ids),
        "hq_suits": hq.get("suits") if hq else None,
    }


def _frame(built: Iterable[Cell], size: int) -> tuple[int, int] | None:
    """The district's top-left corner when its position is unambiguous (the built blocks span
    the full ``size`` both ways), else None."""
    cells = list(built)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    if max(rows) - min(rows) + 1 == size and max(cols) - min(cols) + 1 == size:
        return min(rows), min(cols)
    return None


def district_bonuses(
    built: Mapping[Cell, tuple[str, ...]], district: Mapping, options: ScoringOptions
) -> dict[str, int]:
    """Bonus points of one district (Personimo rules, "Bonus Points"), by ``BONUSES`` name.

    Choices where the rulebook is silent: each bonus is scored at most once per district (the
    text says "for having"); "row" scores the longest straight line (orthogonal or diagonal) of
    one suit: 5 for 3, 10 for 4, 15 for 5 or more; "centre"/"corner" need the position to be
    unambiguous, i.e. the built blocks span the whole district in both directions; "run" is a
    neighborhood reaching from one edge of the district to the opposite one.
    """
    size = options.size
    wanted = options.bonus
    result: dict[str, int] = {}
    if not built:
        return result
    if "complete" in wanted:
        result["complete"] = 5 if len(built) == size * size else 0
    frame = _frame(built, size)
    hq = district.get("hq")
    if hq and frame:
        spots = [(r - frame[0], c - frame[1]) for (r, c), _ in hq_blocks(hq)]
        if "centre" in wanted and size % 2:
            result["centre"] = 5 if (size // 2, size // 2) in spots else 0
        if "corner" in wanted:
            corners = {(0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)}
            result["corner"] = 10 if corners & set(spots) else 0
    if "row" in wanted:
        best = 0
        for suit in SUITS:
            for (r, c), suits in built.items():
                if suit not in suits:
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if suit in built.get((r - dr, c - dc), ()):
                        continue  # not the start of this line
                    n = 1
                    while suit in built.get((r + n * dr, c + n * dc), ()):
                        n += 1
                    best = max(best, n)
        result["row"] = {3: 5, 4: 10}.get(best, 15 if best >= 5 else 0)
    if "box" in wanted:
        result["box"] = 0
        for suit in SUITS:
            for r, c in built:
                square = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)]
                if all(suit in built.get(x, ()) for x in square):
                    result["box"] = 5
    if "run" in wanted:
        result["run"] = 0
        for _suit, cells in neighborhoods(built):
            rows = {r for r, _ in cells}
            cols = {c for _, c in cells}
            if max(rows) - min(rows) + 1 >= size or max(cols) - min(cols) + 1 >= size:
                result["run"] = 10
    return result


def largest_by_suit(district: Mapping) -> dict[str, int]:
    """Size of the largest neighborhood of each suit present in ``district``."""
    best: dict[str, int] = {}
    for suit, cells in neighborhoods(blocks(district)):
        best[suit] = max(best.get(suit, 0), len(cells))
    return best


def score_table(
    districts: Sequence[Mapping], options: ScoringOptions = ScoringOptions()
) -> list[dict]:
    """Score every player's district and rank them (Personimo rules, "Scoring").

    Returns one ``score_district`` dict per player (same order) with ``"place"`` (1 = winner;
    equal places only when every tiebreaker is equal) added. With the "largest" bonus: 5 points
    to the players with the largest neighborhood of each suit and, with more than three
    players, 2 to the next size (ties share the place: the rulebook is silent); a 6x6
    headquarters counts each of its squares with the suits ``score_district`` assigned to it.
    Tiebreakers:
    largest neighborhood, most personalities, most attractions, most Crowns.
    """
    results = [score_district(d, options) for d in districts]
    if "largest" in options.bonus and len(districts) > 1:
        # A 6x6 headquarters counts with the suits its arrangement assigns to each square.
        per_player = [
            largest_by_suit(dict(d, hq=dict(d["hq"], suits=r["hq_suits"])) if r["hq_suits"] else d)
            for d, r in zip(districts, results, strict=True)
        ]
        awards = [0] * len(districts)
        for suit in SUITS:
            sizes = sorted({p.get(suit, 0) for p in per_player if p.get(suit, 0)}, reverse=True)
            prizes = [5, 2] if len(districts) > 3 else [5]
            for size, prize in zip(sizes, prizes, strict=False):
                for i, p in enumerate(per_player):
                    if p.get(suit, 0) == size:
                        awards[i] += prize
        for result, award in zip(results, awards, strict=True):
            if award:
                result["bonuses"].append(
                    {"name": "largest", "label": BONUSES["largest"], "points": award}
                )
                result["total"] += award
    keys = [tiebreak_key(r) for r in results]
    for result, key in zip(results, keys, strict=True):
        result["place"] = 1 + sum(other > key for other in keys)
    return results


def tiebreak_key(result: Mapping) -> tuple[int, int, int, int, int]:
    """(total, largest neighborhood, personalities, attractions, Crowns): higher is better."""
    return (
        result["total"],
        result["largest"],
        result["personalities"],
        result["attractions"],
        result["crowns"],
    )

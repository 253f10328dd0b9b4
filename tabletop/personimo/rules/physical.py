"""Score a Personimo district played with real cards (issue: "Score a physical game").

Pure Python, no Django import. A player enters their headquarters and each card with the block
it starts on, the direction of its second block and, if they like, which suit lies on the first
block. Blocks left unassigned get the assignment that scores most (Personimo rules,
"Scoring": "each player should choose the suit of any blocks ... not already determined").
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.errors import RuleViolation

from . import scoring
from .cards import all_cards, card

COLUMNS = "abcdefg"
DIRECTIONS = {"right": (0, 1), "down": (1, 0)}
#: Exhaustive search up to this many undetermined cards (2**n districts); a local search above.
EXHAUSTIVE = 9


@dataclass(frozen=True)
class Entry:
    """One card as entered: ``key`` (``"pact"``), ``cell`` (``"c3"``: column letter, row
    number from the top), ``direction`` ("right" or "down"), ``first_suit`` (the suit on
    ``cell``, or "" to let the app choose)."""

    key: str
    cell: str
    direction: str = "right"
    first_suit: str = ""


def parse_cell(text: str, size: int) -> tuple[int, int]:
    """``"c3"`` -> ``(2, 2)``. Raises ``RuleViolation("bad_cell")`` outside the grid."""
    text = (text or "").strip().lower()
    try:
        col = COLUMNS.index(text[0])
        row = int(text[1:]) - 1
    except (IndexError, ValueError):
        raise RuleViolation("bad_cell", f"{text or 'A block'} is not a block like c3.") from None
    if not (0 <= row < size and 0 <= col < size):
        raise RuleViolation("bad_cell", f"{text} is outside the {size}x{size} district.")
    return row, col


def cell_name(cell: tuple[int, int]) -> str:
    """``(2, 2)`` -> ``"c3"``."""
    return f"{COLUMNS[cell[1]]}{cell[0] + 1}"


def build_district(hq_key: str, hq_cell: str, entries: list[Entry], size: int = 5) -> tuple[
    dict, list[int]
]:  # fmt: skip
    """The district of the entered cards, and the indexes of ``entries`` whose suits are still
    to be chosen (two-suited cards without ``first_suit``; they start bottom suit first).

    Raises ``RuleViolation``: ``bad_card`` (unknown card, or not a Pawn or Court as
    headquarters), ``bad_cell``, ``bad_direction``, ``overlap`` (two cards on one block),
    ``bad_suits`` (``first_suit`` not on the card), ``too_many_copies`` (more than two of a card).
    """
    cards = all_cards()
    hq = cards.get(hq_key)
    if hq is None or hq.rank not in ("Pawn", "Court"):
        raise RuleViolation("bad_card", "Choose a Pawn or Court as headquarters.")
    used = {parse_cell(hq_cell, size): "headquarters"}
    district: dict = {"hq": {"card": f"{hq_key}/1", "cell": list(parse_cell(hq_cell, size))},
                "cards": [], "discards": []}  # fmt: skip
    copies: dict[str, int] = {}
    open_entries = []
    for i, entry in enumerate(entries):
        c = cards.get(entry.key)
        if c is None or c.deck != "base":
            raise RuleViolation("bad_card", f"Card {i + 1}: choose a card of the base deck.")
        copies[entry.key] = copies.get(entry.key, 0) + 1
        if copies[entry.key] > 2:
            raise RuleViolation("too_many_copies", f"{c.name}: a double Decktet has two.")
        if entry.direction not in DIRECTIONS:
            raise RuleViolation("bad_direction", f"{c.name}: its second block is right or down.")
        first = parse_cell(entry.cell, size)
        dr, dc = DIRECTIONS[entry.direction]
        second = (first[0] + dr, first[1] + dc)
        if not (second[0] < size and second[1] < size):
            raise RuleViolation("bad_cell", f"{c.name}: its second block is off the district.")
        for cell in (first, second):
            if cell in used:
                raise RuleViolation(
                    "overlap", f"{c.name} and {used[cell]} share {cell_name(cell)}."
                )
            used[cell] = c.name
        suits = list(c.suits) if len(c.suits) == 2 else [c.suits[0]] * 2
        if entry.first_suit:
            if entry.first_suit not in c.suits:
                raise RuleViolation("bad_suits", f"{c.name} has no {entry.first_suit}.")
            if suits[0] != entry.first_suit:
                suits.reverse()
        elif len(c.suits) == 2:
            open_entries.append(i)
            suits = [c.suits[1], c.suits[0]]  # bottom suit first until chosen
        district["cards"].append({"card": f"{entry.key}/{copies[entry.key]}",
                                  "cells": [list(first), list(second)], "suits": suits})  # fmt: skip
    return district, open_entries


def best_assignment(district: dict, open_entries: list[int],
                    options: scoring.ScoringOptions) -> dict:  # fmt: skip
    """``district`` with the undetermined cards oriented to score most: every combination for
    up to ``EXHAUSTIVE`` cards, above that flips one card at a time while the total rises,
    from three starts. Ties keep the earlier combination."""

    def total(flips: tuple[bool, ...]) -> tuple[int, tuple[int, ...]]:
        result = scoring.score_district(_flipped(district, open_entries, flips), options)
        return result["total"], scoring.tiebreak_key(result)

    n = len(open_entries)
    if n <= EXHAUSTIVE:
        best: Sequence[bool] = max(
            itertools.product([False, True], repeat=n), key=lambda f: total(tuple(f))
        )
    else:
        best, best_score = [False] * n, None
        for start in ([False] * n, [True] * n, [i % 2 == 1 for i in range(n)]):
            current, current_score = list(start), total(tuple(start))
            improved = True
            while improved:
                improved = False
                for i in range(n):
                    trial = current.copy()
                    trial[i] = not trial[i]
                    trial_score = total(tuple(trial))
                    if trial_score > current_score:
                        current, current_score, improved = trial, trial_score, True
            if best_score is None or current_score > best_score:
                best, best_score = current, current_score
    return _flipped(district, open_entries, tuple(best))


def _flipped(district: dict, open_entries: list[int], flips: tuple[bool, ...]) -> dict:
    result = {"hq": district["hq"], "discards": [], "cards": list(district["cards"])}
    for index, flip in zip(open_entries, flips, strict=True):
        if flip:
            placed = result["cards"][index]
            result["cards"][index] = dict(placed, suits=placed["suits"][::-1])
    return result


def score_physical(hq_key: str, hq_cell: str, entries: list[Entry], size: int = 5,
                   options: scoring.ScoringOptions | None = None) -> dict:  # fmt: skip
    """Score an entered district: ``{"district", "score" (``scoring.score_district``),
    "chosen": [{"index", "card", "first_suit"}] (suits the app chose)}``. Raises the errors of
    ``build_district``."""
    options = options or scoring.ScoringOptions(size=size)
    district, open_entries = build_district(hq_key, hq_cell, entries, size)
    district = best_assignment(district, open_entries, options)
    chosen = [
        {"index": i, "card": card(district["cards"][i]["card"]).name,
         "first_suit": district["cards"][i]["suits"][0]}
        for i in open_entries
    ]  # fmt: skip
    return {"district": district, "score": scoring.score_district(district, options),
            "chosen": chosen}  # fmt: skip

"""Personimo pages outside a live table: scoring a district played with real cards."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from tabletop.errors import RuleViolation

from .rules import scoring
from .rules.cards import SUITS, all_cards
from .rules.grid import district_grid
from .rules.physical import COLUMNS, DIRECTIONS, Entry, score_physical

ROWS = {5: 12, 7: 24}


@require_GET
def score(request):
    """Score a physical game: the form, and with ``?hq=...`` the breakdown (writes nothing, so
    the address of a result can be shared). Query: ``hq``, ``hq_cell``, ``size`` (5 or 7),
    ``bonus`` (none/badgers/all), ``lucky_nines``, ``paralysis`` (``yes``), ``attraction_min``,
    and per card ``card<i>``, ``cell<i>``, ``dir<i>``, ``suit<i>``."""
    q = request.GET
    size = 7 if q.get("size") == "7" else 5
    rows = []
    for i in range(ROWS[size]):
        rows.append({"i": i, "card": q.get(f"card{i}", ""), "cell": q.get(f"cell{i}", ""),
                     "dir": q.get(f"dir{i}", "right"), "suit": q.get(f"suit{i}", "")})  # fmt: skip
    result, error = None, None
    if q.get("hq"):
        bonus = {"badgers": scoring.AGE_OF_BADGERS,
                 "all": frozenset(scoring.BONUSES) - {"largest"}}.get(q.get("bonus"), frozenset())  # fmt: skip
        try:
            lowest = int(q.get("attraction_min") or 8)
        except ValueError:
            lowest = 8
        options = scoring.ScoringOptions(
            attraction_min=min(max(lowest, 2), 10), lucky_nines=q.get("lucky_nines") == "yes",
            paralysis=q.get("paralysis") == "yes", bonus=bonus, size=size,
        )  # fmt: skip
        entries = [Entry(r["card"], r["cell"], r["dir"], r["suit"]) for r in rows if r["card"]]
        try:
            result = score_physical(q["hq"], q.get("hq_cell") or "c3", entries, size, options)
        except RuleViolation as exc:
            error = exc
        else:
            result["grid"] = district_grid(result["district"], size)
            result["cols"] = size
    cards = all_cards().values()
    context = {
        "q": q,
        "size": size,
        "rows": rows,
        "result": result,
        "error": error,
        "view": {"size": size},
        "start_cards": [c for c in cards if c.rank in ("Pawn", "Court")],
        "base_cards": [c for c in cards if c.deck == "base"],
        "cells": [f"{COLUMNS[c]}{r + 1}" for r in range(size) for c in range(size)],
        "directions": list(DIRECTIONS),
        "suits": SUITS,
    }
    return render(request, "personimo/score.html", context, status=400 if error else 200)

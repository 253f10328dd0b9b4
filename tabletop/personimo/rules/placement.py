"""Placing the claimed card in one's district, discarding it when it fits nowhere, and shifting
the layout. Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Card Placement", "Assigning Suits" (the suits of a card
are chosen when it is placed), "Jacynimo" (one square a card).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, parse_int
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord

from .cards import card
from .end import advance
from .grid import (
    PLACEMENT_MESSAGES,
    Cell,
    can_shift,
    orientations,
    placeable_anywhere,
    placement_error,
    shift,
)
from .market import district_of, may_claim, my_turn, next_placer, who
from .state import District, PersonimoState

PLACED = "personimo.card.placed"
DISCARDED = "personimo.card.discarded"
SHIFTED = "personimo.district.shifted"

placement = Topic("placement")


def _placing(d: Decision) -> tuple[str, District]:
    """The card the acting seat places and its district. Raises ``not_your_turn``,
    ``wrong_step``."""
    actor = my_turn(d)
    d.require(actor["action"] == "place", "wrong_step", "Claim a card of the new row.")
    assert actor["slot"] is not None
    return d.state["old_row"][actor["slot"]]["card"], d.state["districts"][
        district_of(d.state, actor["seat"])
    ]


def _cells(data: Data, count: int) -> list[Cell]:
    """``data["cells"]``: ``count`` pairs ``[row, col]`` of whole numbers. Raises ``bad_cells``."""
    message = "Tap two blocks of your district." if count == 2 else "Tap a square."
    raw = data.list("cells", max_items=count, code="bad_cells", message=message)
    cells: list[Cell] = []
    for item in raw:
        pair = [parse_int(x) for x in item] if isinstance(item, list) else []
        r, c = (pair + [None, None])[:2] if len(pair) == 2 else (None, None)
        if r is None or c is None:
            raise RuleViolation("bad_cells", message)
        cells.append((r, c))
    if len(cells) != count:
        raise RuleViolation("bad_cells", message)
    return cells


@placement.command("personimo.place")
def place(d: Decision, data: Data) -> None:
    """``{"cells": [[r, c], [r, c]] (Jacynimo: one), "suits": [s, s]}`` (``suits`` optional
    for a single-suited card). Raises ``RuleViolation``: ``not_your_turn``, ``wrong_step``,
    ``bad_cells``, ``bad_suits``, ``must_discard`` (it fits nowhere), or a placement code of
    ``grid.placement_error``."""
    card_id, district = _placing(d)
    squares = district.get("squares", 2)
    cells = _cells(data, squares)
    options = orientations(card_id) if squares == 2 else [tuple(card(card_id).suits)]
    suits = data.get("suits")
    if suits is None and len(options) == 1:
        suits = list(options[0])
    d.require(
        isinstance(suits, list) and tuple(suits) in options,
        "bad_suits",
        f"Assign each suit of {card(card_id).name} to one of its blocks.",
    )
    size = d.state["size"]
    error = placement_error(district, cells, suits, size)
    if error:
        d.require(placeable_anywhere(district, card_id, size), "must_discard",
                  f"{card(card_id).name} cannot be placed: discard it.")  # fmt: skip
        raise RuleViolation(error, PLACEMENT_MESSAGES[error])
    d.emit(PLACED, {"card": card_id, "cells": [list(c) for c in cells], "suits": list(suits)})
    advance(d)


@placement.command("personimo.discard")
def discard(d: Decision, data: Data) -> None:
    """Discard the card to place: allowed only when it has no legal placement in any shift of
    the layout ("If a player cannot place their chosen card legally ... they must discard
    it"). Raises ``not_your_turn``, ``wrong_step``, ``placement_possible``."""
    card_id, district = _placing(d)
    d.require(
        not placeable_anywhere(district, card_id, d.state["size"]),
        "placement_possible",
        f"{card(card_id).name} can be placed, so it may not be discarded.",
    )
    d.emit(DISCARDED, {"card": card_id})
    advance(d)


@placement.command("personimo.shift")
def shift_layout(d: Decision, data: Data) -> None:
    """``{"dr": -1..1, "dc": -1..1}``, one step: move the whole layout on the grid ("the entire
    layout of cards may be shifted in any direction that has room"). Raises ``bad_shift``."""
    _card, district = _placing(d)
    message = "Shift one step up, down, left or right."
    dr = data.int("dr", lo=-1, hi=1, default=0, code="bad_shift", message=message)
    dc = data.int("dc", lo=-1, hi=1, default=0, code="bad_shift", message=message)
    d.require(abs(dr) + abs(dc) == 1, "bad_shift", message)
    d.require(
        can_shift(district, dr, dc, d.state["size"]),
        "bad_shift",
        "There is no room to shift that way.",
    )
    d.emit(SHIFTED, {"dr": dr, "dc": dc})


def _after_placing(s: PersonimoState) -> None:
    """The placer claims next if the new row has a card for them (``market.may_claim``), else
    their slot is done."""
    actor = s["actor"]
    assert actor is not None and actor["slot"] is not None
    if may_claim(s):
        actor["action"] = "claim"
    else:
        s["old_row"][actor["slot"]]["done"] = True
        s["actor"] = next_placer(s)


@placement.evolver(PLACED, label="placed a card")
def _placed(s: PersonimoState, event: EventRecord) -> None:
    actor = s["actor"]
    assert actor is not None
    data = event.data
    s["districts"][district_of(s, actor["seat"])]["cards"].append(
        {"card": data["card"], "cells": data["cells"], "suits": data["suits"]}
    )
    _after_placing(s)


@placement.evolver(DISCARDED, label="discarded a card")
def _discarded(s: PersonimoState, event: EventRecord) -> None:
    actor = s["actor"]
    assert actor is not None
    s["districts"][district_of(s, actor["seat"])]["discards"].append(event.data["card"])
    s["discard"].append(event.data["card"])
    _after_placing(s)


@placement.evolver(SHIFTED, label="shifted their district")
def _shifted(s: PersonimoState, event: EventRecord) -> None:
    actor = s["actor"]
    assert actor is not None
    shift(s["districts"][district_of(s, actor["seat"])], event.data["dr"], event.data["dc"])


@placement.narrator(PLACED)
def _say_placed(event: EventRecord, state: PersonimoState) -> str:
    suits = event.data["suits"]
    shown = suits[0] if len(set(suits)) == 1 else " and ".join(suits)
    return f"{who(state, event.seat)} placed {card(event.data['card']).name} ({shown})."


@placement.narrator(DISCARDED)
def _say_discarded(event: EventRecord, state: PersonimoState) -> str:
    return f"{who(state, event.seat)} discarded {card(event.data['card']).name}: it fits nowhere."


@placement.narrator(SHIFTED)
def _say_shifted(event: EventRecord, state: PersonimoState) -> str:
    way = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
    return f"{who(state, event.seat)} shifted their district {way.get((event.data['dr'], event.data['dc']), '')}."

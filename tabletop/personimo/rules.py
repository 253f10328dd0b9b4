"""Personimo, the Decktet district-building game by M. C. DeMarco, as a Ruleset.

Pure Python, no Django import. Specification: ``shared/rules/personimo-rules.txt`` (cited below
by its section titles). State is a JSON-able dict (see ``PersonimoRuleset.initial_state``).

Flow of a game (events in brackets):

1. Setup [``personimo.game.set_up``]: start cards (headquarters), the shuffled deck, the token
   order; then [``personimo.market.dealt``] the first sorted market row.
2. Claims in token order [``personimo.card.claimed``]; cards left unclaimed are discarded.
3. Each season: [``personimo.market.dealt``] a new row (empty in the last season, when the deck
   is exhausted); in the order of the tokens on the old row, each token's owner places the old
   card [``personimo.card.placed``, or ``personimo.card.discarded`` when no legal placement
   exists] and claims a card of the new row. The player may shift their layout on their turn
   [``personimo.district.shifted``].
4. After the last placement [``personimo.game.ended``] with the final scores.

Choices where the rulebook is unclear (documented on the functions that implement them):

- Start cards: Setup step 1 names the Borderland, the Harvest, the Island, the Rite and the
  Window as "the Pawn and Court locations", but the Harvest and the Rite are events and The
  Kickoff variant is what "allows events (the Harvest, the Rite) to be start cards". Default:
  the three locations; option ``start_cards=kickoff`` adds the two events; ``head_start`` uses
  the three personalities. With a double Decktet there are two copies of each start card.
- Suits are assigned when a card is placed ("suits should be selected before the next card
  placement"); the app always asks then, so no block is left unassigned at the end.
- The layout lives on the ``size`` x ``size`` grid; "the entire layout may be shifted" is the
  ``shift`` command (one step, only while everything stays on the grid). A card is discarded
  only when no placement exists in any shifted position.
- A deck that does not divide into rows (Courting Danger, Excuses Wild, 6x6, Jacynimo) ends
  with a short row: the tokens after its last card (in old-row order) take nothing.
- Variants (``OPTIONS_SCHEMA``): sorting (Incognito, Recognition, Inception), start cards
  (The Kickoff, The Head Start), The Race, scoring (Detraction, Lucky Nines, Personality
  Paralysis, bonus points and Age of Badgers, see ``scoring``), The Reveal, the market (There
  are Four Lights, Five's a Crowd, It's Drafty in Here, The Soothsayer), the deck (Three's
  Company, Courting Danger, Excuses Wild), the district (6x6, 7x7, Jacynimo) and solitaire
  (The Waning, also 7x7), 9x9 (80 cards: the 72 base cards and 8 random extended ones),
  Urban Sprawl. Refused with a reason (``normalize_options``): Thorny Crown and Thorny Crowns
  (their restriction text is missing from the rulebook: "restricted thus:" and "a 4-card
  market ..., thus:" are followed by nothing) and variants outside their player counts.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from tabletop.errors import RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo, require

from . import scoring
from .cards import SUITS, all_cards, base_keys, card

Cell = tuple[int, int]

SET_UP = "personimo.game.set_up"
DEALT = "personimo.market.dealt"
CLAIMED = "personimo.card.claimed"
PLACED = "personimo.card.placed"
DISCARDED = "personimo.card.discarded"
SHIFTED = "personimo.district.shifted"
ENDED = "personimo.game.ended"

START_CARDS = {
    "locations": ["borderland", "island", "window"],
    "kickoff": ["harvest", "rite", "island", "borderland", "window"],
    "head_start": ["consul", "light-keeper", "watchman"],
}
#: The Race: first-round order from the start cards, first to last.
RACE_ORDER = ["harvest", "rite", "island", "borderland", "window", "consul", "light-keeper",
              "watchman"]  # fmt: skip

YES_NO = [["no", "No"], ["yes", "Yes"]]
OPTIONS_SCHEMA: dict[str, dict] = {
    "start_cards": {
        "label": "Start cards",
        "choices": [
            ["locations", "Locations (Borderland, Island, Window)"],
            ["kickoff", "The Kickoff: also the Harvest and the Rite"],
            ["head_start", "The Head Start: personalities (score for Knots)"],
        ],
        "default": "locations",
        "help": "Setup names the Harvest and the Rite too, but they are events: The Kickoff "
        "is the variant that allows them.",
    },
    "first_order": {
        "label": "First-round order",
        "choices": [["random", "Random"], ["race", "The Race: by start card"]],
        "default": "random",
    },
    "market_sort": {
        "label": "Market sorting",
        "choices": [
            ["standard", "Standard: personalities last"],
            ["incognito", "Incognito: personalities stay in rank order"],
            ["recognition", "Recognition: personalities last, by scoring suit"],
            ["inception", "Inception: scoring cards last, both parts by suit"],
        ],
        "default": "standard",
    },
    "deck": {
        "label": "Deck",
        "choices": [
            ["standard", "Standard for the player count"],
            ["threes_company", "Three's Company: one whole base deck (3 players)"],
        ],
        "default": "standard",
    },
    "bonus": {
        "label": "Bonus points",
        "choices": [
            ["none", "None"],
            ["badgers", "Age of Badgers (complete district, centre headquarters)"],
            ["all", "All bonus points"],
            ["goblins", "Age of Goblins (three bonus options drawn at random)"],
        ],
        "default": "none",
    },
    "attraction_min": {
        "label": "Lowest attraction rank (Detraction)",
        "choices": [["6", "6"], ["7", "7"], ["8", "8 (rules)"], ["9", "9"], ["10", "Crowns"]],
        "default": "8",
    },
    "lucky_nines": {"label": "Lucky Nines", "choices": YES_NO, "default": "no"},
    "paralysis": {"label": "Personality Paralysis", "choices": YES_NO, "default": "no"},
    "reveal": {"label": "The Reveal (show set-aside cards)", "choices": YES_NO, "default": "no"},
    "market": {
        "label": "Market",
        "choices": [
            ["standard", "Standard"],
            ["four_lights", "There are Four Lights: one card more, carried forward"],
            ["fives_crowd", "Five's a Crowd: one card more, discarded (4-5 players)"],
            ["drafty", "It's Drafty in Here: two tokens each (3-4 players)"],
        ],
        "default": "standard",
    },
    "soothsayer": {
        "label": "The Soothsayer (see the next market)",
        "choices": YES_NO,
        "default": "no",
    },  # fmt: skip
    "district": {
        "label": "District",
        "choices": [
            ["5", "5x5"],
            ["7", "7x7 (1-3 players, double Decktet)"],
            ["6", "6x6 (2 players, 34 cards)"],
            ["9", "9x9 (2 players, 80 cards with extended ones)"],
            ["sprawl", "Urban Sprawl: no grid, every touching block matches"],
            ["jacynimo", "Jacynimo: 4x4 tableau, one square a card (1-4 players)"],
        ],
        "default": "5",
    },
    "extra_cards": {
        "label": "Extra cards",
        "choices": [
            ["none", "None"],
            ["courting_danger", "Courting Danger: Pawns and Courts in the deck"],
            ["excuses_wild", "Excuses Wild: the Excuse in the deck"],
            ["both", "Courting Danger and Excuses Wild"],
        ],
        "default": "none",
    },
    "solitaire": {
        "label": "Solitaire variant (1 player)",
        "choices": [
            ["waning", "The Waning"],
            ["thorny_crown", "Thorny Crown (rules text missing: refused at start)"],
            ["thorny_crowns", "Thorny Crowns (rules text missing: refused at start)"],
        ],
        "default": "waning",
    },
}


# The New table page lists the options in this order: the big choices first.
OPTIONS_SCHEMA = {
    name: OPTIONS_SCHEMA[name]
    for name in ("district", "market", "deck", "extra_cards", "start_cards", "first_order",
                 "market_sort", "soothsayer", "bonus", "attraction_min", "lucky_nines",
                 "paralysis", "reveal", "solitaire")
}  # fmt: skip


def normalize_options(options: dict | None, players: int) -> dict:
    """Fill defaults and check ``options`` against ``OPTIONS_SCHEMA`` for ``players`` (1..6).

    Raises ``RuleViolation``: ``bad_player_count``; ``bad_option`` for an unknown value;
    ``variant_unsupported`` for a variant outside the player counts the rulebook gives it
    (Three's Company: 3; Five's a Crowd: 4-5; It's Drafty in Here: 3-4; 6x6: 2; 7x7: 1-3;
    Jacynimo: 1-4), one that needs full rows (There are Four Lights, The Waning with extra
    cards), one whose rules text is incomplete (Thorny Crown, Thorny Crowns: "additionally
    restricted thus:" is followed by nothing).
    """
    result = {}
    for name, spec in OPTIONS_SCHEMA.items():
        value = str((options or {}).get(name, spec["default"]))
        require(
            value in {c[0] for c in spec["choices"]},
            "bad_option",
            f"{spec['label']}: {value!r} is not an option.",
        )
        result[name] = value
    require(1 <= players <= 6, "bad_player_count", "Personimo is for 1 to 6 players.")
    if result["deck"] == "threes_company":
        require(players == 3, "variant_unsupported", "Three's Company is for three players.")
    if players == 1:
        require(
            result["solitaire"] == "waning",
            "variant_unsupported",
            "Thorny Crown and Thorny Crowns cannot be played: the rulebook's text of their "
            "restrictions is missing. Choose The Waning.",
        )
    market = result["market"]
    if result["district"] == "jacynimo":
        require(
            players <= 4 and result["extra_cards"] == "none",
            "variant_unsupported",
            "Jacynimo is for one to four players (15 base cards each).",
        )
    if result["district"] == "6":
        require(
            players == 2 and market == "standard" and result["extra_cards"] == "none",
            "variant_unsupported",
            "6x6 is for two players with 34 base cards and the standard market.",
        )
    if result["district"] == "9":
        require(
            players == 2 and market == "standard" and result["extra_cards"] == "none",
            "variant_unsupported",
            "9x9 is for two players with its own 80-card pool and the standard market.",
        )
    if players == 1:
        require(result["extra_cards"] == "none", "variant_unsupported",
                "Solitaire uses the 36 base cards only: The Waning needs full rows of three.")  # fmt: skip
    if result["district"] == "7":
        require(players <= 3 and result["deck"] == "standard" and market == "standard",
                "variant_unsupported",
                "7x7 is for one to three players with the standard deck and market.")  # fmt: skip
    if market == "fives_crowd":
        require(players in (4, 5), "variant_unsupported", "Five's a Crowd is for 4 or 5 players.")
    if market == "drafty":
        require(players in (3, 4) and result["deck"] == "standard", "variant_unsupported",
                "It's Drafty in Here is for 3 or 4 players.")  # fmt: skip
    if market == "four_lights":
        plain = dict(result, market="standard")
        require(
            players > 1 and market_size(players, plain) == len(token_order(list(range(players)),
                                                                           plain)),
            "variant_unsupported",
            "There are Four Lights needs a market with one card per token (not solitaire, "
            "not three players with a double deck).",
        )  # fmt: skip
    return result


def token_order(order: list[int], options: dict) -> list[int]:
    """Architect tokens in claiming order: one per player from the random ``order``; two each
    for two players or It's Drafty in Here, the order then inverted (ABBA, ABCCBA)."""
    if len(order) == 2 or options["market"] == "drafty":
        return order + order[::-1]
    return list(order)


#: Decks: (copies of the base deck, how many of them lose the 2s and the events but the Market).
DECKS = {24: (1, 1), 36: (1, 0), 48: (2, 2), 60: (2, 1), 72: (2, 0)}


#: Urban Sprawl's grid: with the headquarters in its middle, a line of 12 cards (24 blocks) in
#: any direction still fits, so the grid never restricts the district.
SPRAWL_SIZE = 49


def district_size(options: dict) -> int:
    """Side of the district grid: 5, 6 or 7; Jacynimo's tableau is 4x4; Urban Sprawl has no
    limit (``SPRAWL_SIZE``)."""
    return {"jacynimo": 4, "sprawl": SPRAWL_SIZE}.get(options["district"]) or int(
        options["district"]
    )


def deck_size(players: int, options: dict) -> int:
    """Cards in play (Setup step 3): 24 for two players, 48 for three or four, 60 for five, 72
    for six; solitaire and Three's Company 36. Variants: 7x7 ("District Size Variants") 48 for
    two players and 72 for one or three; Five's a Crowd deals as for one player more (60 for
    four, 72 for five); It's Drafty in Here 36 for three and 48 for four (six rows of two cards
    per player, as for two players: the rulebook gives no count, this keeps 12 cards each)."""
    if options["district"] == "7":
        return {1: 72, 2: 48, 3: 72}[players]
    if options["district"] == "9":
        return 72  # and 8 extended cards (``setup``)
    if options["district"] == "6":
        return 36  # 34 of them are played: ``setup`` sets two aside unseen
    if options["district"] == "jacynimo":
        return 36 if players <= 2 else 72  # 15 a player are played (``setup``)
    if options["market"] == "fives_crowd":
        return {4: 60, 5: 72}[players]
    if options["market"] == "drafty":
        return {3: 36, 4: 48}[players]
    if players == 1 or options["deck"] == "threes_company":
        return 36
    return {2: 24, 3: 48, 4: 48, 5: 60, 6: 72}[players]


def double_deck(players: int, options: dict) -> bool:
    """Whether a double Decktet is in play (then start cards come in two copies too)."""
    return DECKS[deck_size(players, options)][0] == 2


def build_deck(players: int, options: dict) -> tuple[list[str], list[str]]:
    """The card instances in play and those set aside (Setup step 3), unshuffled: from each
    trimmed copy all 2s and all events but the Market (the 6 of Leaves and Knots) are set aside
    (12 cards); with 60 cards only one of the two copies is trimmed."""
    keys = base_keys()

    def set_aside(key: str) -> bool:
        c = all_cards()[key]
        return c.rank == "2" or (c.event and key != "market")

    copies, trimmed = DECKS[deck_size(players, options)]
    deck, aside = [], []
    for copy_no in range(1, copies + 1):
        for k in keys:
            (aside if copy_no <= trimmed and set_aside(k) else deck).append(f"{k}/{copy_no}")
    return deck, aside


def extra_cards(options: dict, copies: list[int], starts: list[str]) -> list[str]:
    """Extended cards shuffled into the deck ("The Deck"). Courting Danger: the Pawns and
    Courts not dealt as start cards; Excuses Wild: the Excuse (one per deck). The deck then
    no longer divides into full rows: the last row is short and the tokens after its last
    card take nothing."""
    extra = []
    choice = options["extra_cards"]
    for n in copies:
        if choice in ("courting_danger", "both"):
            extra += [f"{c.key}/{n}" for c in all_cards().values()
                      if c.rank in ("Pawn", "Court") and f"{c.key}/{n}" not in starts]  # fmt: skip
        if choice in ("excuses_wild", "both"):
            extra.append(f"excuse/{n}")
    return extra


def market_size(players: int, options: dict) -> int:
    """Cards per market row ("The Market"): 3 solitaire, 4 for two to four players (3 with
    Three's Company), 5 for five, 6 for six. Five's a Crowd: one per player plus one; It's
    Drafty in Here: two per player; There are Four Lights: one more in the first row only
    (``first_row_size``)."""
    if options["market"] == "fives_crowd":
        return players + 1
    if options["market"] == "drafty":
        return 2 * players
    if players == 1 or options["deck"] == "threes_company":
        return 3
    return {2: 4, 3: 4, 4: 4, 5: 5, 6: 6}[players]


def first_row_size(players: int, options: dict) -> int:
    """Cards in the first row: ``market_size``, one more with There are Four Lights (whose
    unpicked card is then carried forward, so later rows deal ``market_size`` new cards)."""
    return market_size(players, options) + (options["market"] == "four_lights")


def sort_market(cards: list[str], method: str = "standard", attraction_min: int = 8) -> list[str]:
    """Sort a market row ("The Market") and its variants.

    standard: ascending rank (Ace low, Crown high), ties by the suits in natural order (the
    Castle before the Cave), then personalities moved to the end keeping their order.
    incognito: personalities stay in rank order. recognition: personalities at the end sorted
    by scoring (bottom) suit, ties by the other suit(s). inception: scoring cards
    (personalities and attractions) at the end, sorted by bottom suit then top suit, and the
    rest sorted the same way. Remaining ties (two copies of a card) keep instance order.
    """

    def suit_key(instance: str) -> tuple[int, ...]:
        return tuple(SUITS.index(s) for s in card(instance).suits)

    def rank_key(instance: str) -> tuple:
        return (card(instance).order, suit_key(instance), instance)

    def by_suit(instance: str) -> tuple:
        c = card(instance)
        bottom = SUITS.index(c.bottom_suit) if c.suits else 99
        others = tuple(SUITS.index(s) for s in c.suits[:-1])
        return (bottom, others, c.order, instance)

    ranked = sorted(cards, key=rank_key)
    if method == "incognito":
        return ranked
    opts = scoring.ScoringOptions(attraction_min=attraction_min)
    if method == "inception":
        scoring_part = [i for i in ranked if scoring.weight(i, opts)]
        rest = [i for i in ranked if not scoring.weight(i, opts)]
        return sorted(rest, key=by_suit) + sorted(scoring_part, key=by_suit)
    people = [i for i in ranked if card(i).personality]
    rest = [i for i in ranked if not card(i).personality]
    if method == "recognition":
        people.sort(key=by_suit)
    return rest + people


# --- placement -------------------------------------------------------------------------------


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
    district: dict,
    cells: list[Cell],
    suits: tuple[str, str] | list[str],
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


def legal_placements(district: dict, card_id: str, size: int) -> list[dict]:
    """Every legal placement of ``card_id`` in the district as it lies on the grid now:
    ``[{"cells": [[r, c], [r, c]], "suits": [s, s]}]``, cells in reading order."""
    built = scoring.blocks(district)
    result = []
    # A legal card touches the built blocks: only the region two blocks around them is tried.
    rows = range(max(0, min(r for r, _ in built) - 2), min(size, max(r for r, _ in built) + 3))
    cols = range(max(0, min(c for _, c in built) - 2), min(size, max(c for _, c in built) + 3))
    if district.get("squares") == 1:  # Jacynimo
        suits = list(card(card_id).suits)
        for r in rows:
            for c in cols:
                if placement_error(district, [(r, c)], suits, size, built) is None:
                    result.append({"cells": [[r, c]], "suits": suits})
        return result
    for r in rows:
        for c in cols:
            for other in ((r, c + 1), (r + 1, c)):
                cells = [(r, c), other]
                for suits in orientations(card_id):
                    if placement_error(district, cells, suits, size, built) is None:
                        result.append({"cells": [list(x) for x in cells], "suits": list(suits)})
    return result


def shifted(district: dict, dr: int, dc: int) -> dict:
    """A copy of ``district`` moved by ``dr`` rows and ``dc`` columns (no bounds check)."""
    result = copy.deepcopy(district)
    for key in ("cell", "cell2"):
        if key in result["hq"]:
            result["hq"][key] = [result["hq"][key][0] + dr, result["hq"][key][1] + dc]
    for placed in result["cards"]:
        placed["cells"] = [[r + dr, c + dc] for r, c in placed["cells"]]
    return result


def can_shift(district: dict, dr: int, dc: int, size: int) -> bool:
    """Whether the whole layout still fits on the grid after moving it by ``(dr, dc)``."""
    return all(0 <= r + dr < size and 0 <= c + dc < size for r, c in scoring.blocks(district))


def placeable_anywhere(district: dict, card_id: str, size: int) -> bool:
    """Whether ``card_id`` has a legal placement in some shift of the layout ("If a player
    cannot place their chosen card legally within their district, they must discard it"):
    every pair of blocks next to the layout is tried with the bounds of the whole layout."""
    built = scoring.blocks(district)
    if district.get("squares") == 1:  # Jacynimo
        suits = list(card(card_id).suits)
        return any(
            placement_error(district, [nb], suits, size, built, bounded=False) is None
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


# --- the ruleset -----------------------------------------------------------------------------


def _scoring_options(options: dict) -> scoring.ScoringOptions:
    bonus = {"none": frozenset(), "badgers": scoring.AGE_OF_BADGERS,
             "all": frozenset(scoring.BONUSES),
             "goblins": frozenset(options.get("bonus_set", ()))}[options["bonus"]]  # fmt: skip
    return scoring.ScoringOptions(
        attraction_min=int(options["attraction_min"]),
        lucky_nines=options["lucky_nines"] == "yes",
        bonus=bonus,
        paralysis=options["paralysis"] == "yes",
        size=district_size(options),
    )


def _card_info(instance: str, options: dict | None = None) -> dict:
    c = card(instance)
    opts = _scoring_options(options) if options else scoring.ScoringOptions()
    return {
        "id": instance,
        "name": c.name,
        "rank": c.rank,
        "suits": list(c.suits),
        "personality": c.personality,
        "attraction": scoring.is_attraction(instance, opts),
        "weight": scoring.weight(instance, opts),
    }


class PersonimoRuleset(BaseRuleset):
    """Personimo for 1-6 players (solitaire: The Waning). See the module docstring."""

    name = "personimo"
    title = "Personimo"
    min_seats = 1
    max_seats = 6
    template = "personimo/live.html"
    links = (("Score a Personimo game played with real cards", "personimo:score"),)
    stylesheet = "personimo/personimo.css"
    options_schema: ClassVar[dict] = OPTIONS_SCHEMA
    #: The last claim of a row deals the next row (cards come to light): undo stops there.
    final_commands: ClassVar[frozenset[str]] = frozenset({"personimo.claim"})
    event_labels: ClassVar[dict] = {
        SET_UP: "set up the game",
        DEALT: "dealt the market",
        CLAIMED: "claimed a card",
        PLACED: "placed a card",
        DISCARDED: "discarded a card",
        SHIFTED: "shifted their district",
        ENDED: "ended the game",
    }

    def initial_state(self) -> dict:
        """``{"phase": "new"}``; after setup the keys are: phase ("claim" while the first row
        is claimed, "turn", "over"), names, options, size, deck (hidden order), set_aside,
        discard, tokens (initial token order, seat numbers), season (rows dealt), seasons
        (rows in the game), row (``[{"card", "seat"}]``: the new row), old_row (``[{"card",
        "seat", "done"}]``), claim_queue, actor (``{"seat", "action": "claim"|"place",
        "slot"}`` or None), districts, picks (solitaire: position claimed per row), results."""
        return {"phase": "new"}

    def is_finished(self, state: dict) -> bool:
        """True once ``personimo.game.ended`` was folded in (the kit then closes the table)."""
        return state.get("phase") == "over"

    # setup ------------------------------------------------------------------------------------

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng: Any) -> list[NewEvent]:
        """Setup: start cards, deck, token order, and the first market row (final: it shows
        cards). Raises ``RuleViolation`` for a bad option or player count."""
        players = len(seats)
        opts = normalize_options(options, players)
        if opts["bonus"] == "goblins":
            # Age of Goblins: "Select several bonus scoring options to use at random": three.
            opts["bonus_set"] = sorted(rng.sample(sorted(scoring.BONUSES), 3))
        deck, aside = build_deck(players, opts)
        pool = START_CARDS[opts["start_cards"]]
        copies = [1, 2] if double_deck(players, opts) else [1]
        pool = [f"{k}/{n}" for n in copies for k in pool]
        require(
            len(pool) >= players,
            "variant_unsupported",
            f"There are only {len(pool)} start cards for {players} players.",
        )
        starts = rng.sample(pool, players)
        deck += extra_cards(opts, copies, starts)
        if opts["district"] == "9":
            # "a pool of 80 cards from the double Decktet (including the remaining extended
            # deck cards)": the 72 base cards and 8 of the 16 remaining extended cards (Pawns,
            # Courts, Excuses) drawn at random, since all 16 would make 88. They play as in
            # Courting Danger and Excuses Wild.
            remaining = extra_cards(dict(opts, extra_cards="both"), copies, starts)
            deck += rng.sample(remaining, 8)
        deck = rng.shuffled(deck)
        if opts["district"] == "6":  # "a pool of 34 cards drawn from the base deck"
            deck, aside = deck[:34], aside + deck[34:]
        if opts["district"] == "jacynimo":  # "The deck consists of 15 cards per player"
            deck, aside = deck[: 15 * players], aside + deck[15 * players :]
        if opts["first_order"] == "race":
            order = sorted(range(players), key=lambda s: (RACE_ORDER.index(card(starts[s]).key),
                                                          starts[s]))  # fmt: skip
        else:
            order = rng.shuffled(list(range(players)))
        tokens = token_order(order, opts)
        size = market_size(players, opts)
        first_size = first_row_size(players, opts)
        first = sort_market(deck[:first_size], opts["market_sort"], int(opts["attraction_min"]))
        dealt = {"cards": first, "season": 1, "dealt": first_size}
        if opts["soothsayer"] == "yes":
            dealt["preview"] = sort_market(deck[first_size : first_size + size],
                                           opts["market_sort"], int(opts["attraction_min"]))  # fmt: skip
            dealt["dealt"] += len(dealt["preview"])
        return [
            NewEvent(
                SET_UP,
                {
                    "names": [s.name for s in seats],
                    "options": opts,
                    "size": district_size(opts),
                    "start_cards": starts,
                    "deck": deck,
                    "set_aside": aside,
                    "tokens": tokens,
                    "market_size": size,
                    "first_row": first_size,
                },
            ),
            NewEvent(DEALT, dealt, final=True),
        ]

    # decide -----------------------------------------------------------------------------------

    def decide(self, state: dict, command: Command, seat: int | None, rng: Any) -> list[NewEvent]:
        """Commands: ``personimo.claim`` {index}, ``personimo.place`` {cells: [[r, c], [r, c]],
        suits: [s, s] (optional for a single-suited card)}, ``personimo.discard`` {},
        ``personimo.shift`` {dr, dc} (one step). Raises ``RuleViolation`` (codes:
        ``not_seated``, ``game_over``, ``not_your_turn``, ``wrong_step``, ``bad_index``,
        ``already_claimed``, ``position_used``, ``bad_cells``, ``bad_suits``, the placement
        codes of ``placement_error``, ``must_discard``, ``placement_possible``,
        ``bad_shift``, ``unknown_command``)."""
        require(state.get("phase") in ("claim", "turn"), "game_over", "The game is over.")
        require(seat is not None, "not_seated", "Only a player can do that.")
        actor = state["actor"]
        require(
            actor is not None and actor["seat"] == seat,
            "not_your_turn",
            f"It is {state['names'][actor['seat']]}'s turn." if actor else "Wait a moment.",
        )
        handler = {
            "personimo.claim": self._claim,
            "personimo.place": self._place,
            "personimo.discard": self._discard,
            "personimo.shift": self._shift,
        }.get(command.type)
        require(handler is not None, "unknown_command", f"Unknown command {command.type}.")
        events = handler(state, command.data, actor)
        return self._follow_up(state, events, seat)

    def _follow_up(self, state: dict, events: list[NewEvent], seat: int) -> list[NewEvent]:
        after = state
        for event in events:
            after = self.evolve(after, EventRecord(event.type, event.data, seat))
        if after["actor"] is not None or after["phase"] == "over":
            return events
        if (
            after["phase"] == "turn"
            and not after["row"]
            and all(slot["done"] for slot in after["old_row"])
        ):
            results = score_results(after)
            return [*events, NewEvent(ENDED, {"results": results})]
        return [*events, next_market(after)]

    def _claim(self, state: dict, data: dict, actor: dict) -> list[NewEvent]:
        require(actor["action"] == "claim", "wrong_step", "Place your card first.")
        index = data.get("index")
        require(
            isinstance(index, int) and 0 <= index < len(state["row"]),
            "bad_index",
            "Choose a card of the market.",
        )
        require(state["row"][index]["seat"] is None, "already_claimed", "That card is taken.")
        require(
            index in waning_allowed(state),
            "position_used",
            "The Waning: you already took that position in this set of three rounds.",
        )
        return [NewEvent(CLAIMED, {"index": index, "card": state["row"][index]["card"]})]

    def _placing(self, state: dict, actor: dict) -> tuple[str, dict]:
        require(actor["action"] == "place", "wrong_step", "Claim a card of the new row.")
        return state["old_row"][actor["slot"]]["card"], state["districts"][actor["seat"]]

    def _place(self, state: dict, data: dict, actor: dict) -> list[NewEvent]:
        card_id, district = self._placing(state, actor)
        squares = district.get("squares", 2)
        cells = _parse_cells(data.get("cells"), squares)
        options = orientations(card_id) if squares == 2 else [tuple(card(card_id).suits)]
        suits = data.get("suits")
        if suits is None and len(options) == 1:
            suits = list(options[0])
        require(
            isinstance(suits, list) and tuple(suits) in options,
            "bad_suits",
            f"Assign each suit of {card(card_id).name} to one of its blocks.",
        )
        size = state["size"]
        error = placement_error(district, cells, suits, size)
        if error:
            if not placeable_anywhere(district, card_id, size):
                raise RuleViolation(
                    "must_discard", f"{card(card_id).name} cannot be placed: discard it."
                )
            raise RuleViolation(error, PLACEMENT_MESSAGES[error])
        return [NewEvent(PLACED, {"card": card_id, "cells": [list(c) for c in cells],
                                  "suits": list(suits)})]  # fmt: skip

    def _discard(self, state: dict, data: dict, actor: dict) -> list[NewEvent]:
        card_id, district = self._placing(state, actor)
        require(
            not placeable_anywhere(district, card_id, state["size"]),
            "placement_possible",
            f"{card(card_id).name} can be placed, so it may not be discarded.",
        )
        return [NewEvent(DISCARDED, {"card": card_id})]

    def _shift(self, state: dict, data: dict, actor: dict) -> list[NewEvent]:
        self._placing(state, actor)
        dr, dc = data.get("dr", 0), data.get("dc", 0)
        require(
            isinstance(dr, int) and isinstance(dc, int) and abs(dr) + abs(dc) == 1,
            "bad_shift",
            "Shift one step up, down, left or right.",
        )
        require(
            can_shift(state["districts"][actor["seat"]], dr, dc, state["size"]),
            "bad_shift",
            "There is no room to shift that way.",
        )
        return [NewEvent(SHIFTED, {"dr": dr, "dc": dc})]

    # evolve -----------------------------------------------------------------------------------

    def evolve(self, state: dict, event: EventRecord) -> dict:
        """Fold one event into a new state (the input is not changed)."""
        s = _copy_state(state)
        data = event.data
        if event.type == SET_UP:
            players = len(data["names"])
            s.update(
                phase="claim",
                names=list(data["names"]),
                options=dict(data["options"]),
                size=data["size"],
                deck=list(data["deck"]),
                set_aside=list(data["set_aside"]),
                discard=[],
                tokens=list(data["tokens"]),
                market_size=data["market_size"],
                season=0,
                seasons=1 + -(-(len(data["deck"]) - data["first_row"]) // data["market_size"]),
                preview=[],
                row=[],
                old_row=[],
                claim_queue=[],
                actor=None,
                picks=[],
                results=None,
                districts=[
                    {
                        "hq": start_headquarters(data["start_cards"][p], data["size"]),
                        **({"squares": 1} if data["options"]["district"] == "jacynimo" else {}),
                        **({"sprawl": True} if data["options"]["district"] == "sprawl" else {}),
                        "cards": [],
                        "discards": [],
                    }
                    for p in range(players)
                ],
            )
        elif event.type == DEALT:
            cards = list(data["cards"])
            s["deck"] = s["deck"][data["dealt"] :]
            s["season"] = data["season"]
            s["preview"] = list(data.get("preview", []))
            if s["phase"] == "claim" and not s["row"]:
                s["row"] = [{"card": c, "seat": None} for c in cards]
                s["claim_queue"] = list(s["tokens"])[: len(cards)]
                s["actor"] = {"seat": s["tokens"][0], "action": "claim", "slot": None}
            else:
                s["phase"] = "turn"
                s["discard"] += [
                    x["card"] for x in s["row"] if x["seat"] is None and x["card"] not in cards
                ]
                s["old_row"] = [
                    {"card": x["card"], "seat": x["seat"], "done": False}
                    for x in s["row"]
                    if x["seat"] is not None
                ]
                s["row"] = [{"card": c, "seat": None} for c in cards]
                s["actor"] = {"seat": s["old_row"][0]["seat"], "action": "place", "slot": 0}
        elif event.type == CLAIMED:
            s["row"][data["index"]]["seat"] = event.seat
            if len(s["names"]) == 1:
                s["picks"].append(data["index"])
            if s["phase"] == "claim":
                s["claim_queue"].pop(0)
                s["actor"] = (
                    {"seat": s["claim_queue"][0], "action": "claim", "slot": None}
                    if s["claim_queue"]
                    else None
                )
            else:
                s["old_row"][s["actor"]["slot"]]["done"] = True
                s["actor"] = _next_placer(s)
        elif event.type in (PLACED, DISCARDED):
            district = copy.deepcopy(s["districts"][s["actor"]["seat"]])
            s["districts"][s["actor"]["seat"]] = district
            if event.type == PLACED:
                district["cards"].append(
                    {"card": data["card"], "cells": data["cells"], "suits": data["suits"]}
                )
            else:
                district["discards"].append(data["card"])
                s["discard"].append(data["card"])
            if any(x["seat"] is None for x in s["row"]):
                s["actor"] = dict(s["actor"], action="claim")
            else:
                s["old_row"][s["actor"]["slot"]]["done"] = True
                s["actor"] = _next_placer(s)
        elif event.type == SHIFTED:
            seat = s["actor"]["seat"]
            s["districts"][seat] = shifted(s["districts"][seat], data["dr"], data["dc"])
        elif event.type == ENDED:
            s["phase"] = "over"
            s["actor"] = None
            s["results"] = data["results"]
        return s

    # view -------------------------------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """What seat ``seat`` sees: everything on the table (markets, every district, scores,
        whose turn) but not the order of the deck nor, unless The Reveal is on, the set-aside
        cards. For the seat whose turn it is to place: its card's legal placements on the grid
        as it lies, which shifts are possible, and whether it must discard."""
        if state.get("phase") in (None, "new"):
            return {"phase": "new"}
        opts = state["options"]
        size = state["size"]
        actor = state["actor"]
        districts = []
        score_opts = _scoring_options(opts)
        live_scores = (
            state["results"]
            if state["results"]
            else scoring.score_table(state["districts"], score_opts)
        )
        for number, district in enumerate(state["districts"]):
            districts.append(
                {
                    "seat": number,
                    "name": state["names"][number],
                    "mine": number == seat,
                    "grid": (grid := district_grid(district, size)),
                    "cols": len(grid[0]),
                    "hq": _card_info(district["hq"]["card"], opts),
                    "discards": [_card_info(c, opts) for c in district["discards"]],
                    "score": live_scores[number],
                }
            )
        result: dict = {
            "phase": state["phase"],
            "season": state["season"],
            "seasons": state["seasons"],
            "size": size,
            "names": state["names"],
            "you": seat,
            "options": opts,
            "actor": dict(actor, name=state["names"][actor["seat"]]) if actor else None,
            "your_turn": bool(actor and actor["seat"] == seat),
            "row": [
                dict(
                    _card_info(x["card"], opts),
                    seat=x["seat"],
                    owner=None if x["seat"] is None else state["names"][x["seat"]],
                )
                for x in state["row"]
            ],  # fmt: skip
            "old_row": [
                dict(
                    _card_info(x["card"], opts),
                    seat=x["seat"],
                    done=x["done"],
                    owner=state["names"][x["seat"]],
                )
                for x in state["old_row"]
            ],  # fmt: skip
            "preview": [_card_info(c, opts) for c in state.get("preview", [])],
            "deck_count": len(state["deck"]),
            "discard_count": len(state["discard"]),
            "set_aside": [_card_info(c, opts) for c in state["set_aside"]]
            if opts["reveal"] == "yes"
            else None,
            "districts": sorted(districts, key=lambda d: not d["mine"]),
            "results": state["results"],
            "placing": None,
            "claimable": [],
            "claim_deals": False,
        }
        if actor and actor["seat"] == seat:
            if actor["action"] == "place":
                card_id = state["old_row"][actor["slot"]]["card"]
                district = state["districts"][seat]
                legal = legal_placements(district, card_id, size)
                anywhere = bool(legal) or placeable_anywhere(district, card_id, size)
                result["placing"] = {
                    "card": _card_info(card_id, opts),
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


def start_headquarters(card_id: str, size: int) -> dict:
    """The headquarters as first placed: one square in the centre; on a 6x6 district two
    squares side by side at the centre, suits chosen at scoring ("District Size Variants")."""
    if size == 6:
        return {"card": card_id, "cell": [2, 2], "cell2": [2, 3]}
    return {"card": card_id, "cell": [(size - 1) // 2] * 2}


def _copy_state(state: dict) -> dict:
    """A copy of ``state`` deep enough for ``evolve``: every list and row entry it changes is
    new; districts are copied by ``evolve`` when one changes."""
    s = dict(state)
    for key in ("deck", "discard", "tokens", "claim_queue", "picks", "districts", "set_aside"):
        if key in s:
            s[key] = list(s[key])
    for key in ("row", "old_row"):
        if key in s:
            s[key] = [dict(x) for x in s[key]]
    if s.get("actor"):
        s["actor"] = dict(s["actor"])
    return s


SHIFT_DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def waning_allowed(state: dict) -> set[int]:
    """Positions of the row the player may claim. Solitaire, The Waning: in each set of three
    rounds (1-3, 4-6, 7-9, 10-12) each position may be picked once. Everyone else: all."""
    positions = set(range(len(state["row"])))
    if len(state["names"]) != 1:
        return positions
    picks = state["picks"]
    group_start = len(picks) - len(picks) % 3
    return positions - set(picks[group_start:])


def next_market(state: dict) -> NewEvent:
    """The ``personimo.market.dealt`` event that starts the next season ("Turn Order" step 1):
    the next cards of the deck, sorted; empty when the deck is exhausted (the last season, when
    the old row is only placed). There are Four Lights: the unpicked card is carried into the
    new row. The Soothsayer: the row already shown becomes the market and the next one is
    dealt face up beside it. Final when it shows cards."""
    opts = state["options"]
    method, lowest = opts["market_sort"], int(opts["attraction_min"])
    carried = (
        [x["card"] for x in state["row"] if x["seat"] is None]
        if opts["market"] == "four_lights"
        else []
    )
    size = state["market_size"]
    data: dict = {}
    if opts["soothsayer"] == "yes":
        fresh = state["preview"]
        data["preview"] = sort_market(state["deck"][:size], method, lowest)
        data["dealt"] = len(data["preview"])
    else:
        fresh = state["deck"][:size]
        data["dealt"] = len(fresh)
    data["cards"] = sort_market(carried + fresh, method, lowest) if fresh else []
    data["season"] = state["season"] + (1 if fresh else 0)
    return NewEvent(DEALT, data, final=data["dealt"] > 0)


def _next_placer(state: dict) -> dict | None:
    for slot, entry in enumerate(state["old_row"]):
        if not entry["done"]:
            return {"seat": entry["seat"], "action": "place", "slot": slot}
    return None


def _parse_cells(raw: Any, count: int = 2) -> list[Cell]:
    message = "Tap two blocks of your district." if count == 2 else "Tap a square."
    try:
        cells = [(int(r), int(c)) for r, c in raw]
    except (TypeError, ValueError) as exc:
        raise RuleViolation("bad_cells", message) from exc
    require(len(cells) == count, "bad_cells", message)
    return cells


def district_grid(district: dict, size: int) -> list[list[dict]]:
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


def score_results(state: dict) -> list[dict]:
    """Final scores of every player (``scoring.score_table``) with their names."""
    results = scoring.score_table(state["districts"], _scoring_options(state["options"]))
    for number, result in enumerate(results):
        result["seat"] = number
        result["name"] = state["names"][number]
    return results

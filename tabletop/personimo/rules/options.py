"""Personimo's table options: the variants the New table page offers, the checks of each against
the player count, and the sizes they set (deck, market, district). Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Setup", "The Market", "Variants", "The Deck", "District
Size Variants", "Jacynimo", "Solitaire".
"""

from __future__ import annotations

from tabletop.rules import require

from . import scoring
from .cards import all_cards, base_keys

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
    deck: list[str] = []
    aside: list[str] = []
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


def scoring_options(options: dict) -> scoring.ScoringOptions:
    """The ``scoring.ScoringOptions`` of normalized table ``options``."""
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

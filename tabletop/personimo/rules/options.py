"""Personimo's table options: the variants the New table page offers, the checks of each against
the player count, and the sizes they set (deck, market, district). Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Setup", "The Market", "Variants", "The Deck", "District
Size Variants", "Jacynimo", "Solitaire".
"""

from __future__ import annotations

from typing import Any

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
        "choices": [
            ["random", "Random"],
            ["race", "The Race: by start card"],
            ["tournament", "The Tournament: rotating, by the game of the series"],
        ],
        "default": "random",
        "help": "The Tournament: \u201cPlay a series of games, with rotating player order on "
        "the first turn instead of random player order.\u201d Game 1 starts with seat 1, game 2 "
        "with seat 2, and so on, each in seat order.",
    },
    "tournament_game": {
        "label": "Game of the series (The Tournament)",
        "choices": [[str(n), f"Game {n}"] for n in range(1, 7)],
        "default": "1",
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
    "trim": {
        "label": "Cards set aside from the deck",
        "choices": [
            ["uneventful", "Uneventful: the 2s and the events but the Market (rules)"],
            ["unknotted", "Unknotted: non-scoring Knots, Wyrms, Leaves... instead"],
            ["knot_eventful", "Knot Eventful: one deck each way (double Decktet of 48)"],
            ["unbalancing", "The Unbalancing: base cards at random (the Huntress kept)"],
        ],
        "default": "uneventful",
        "help": "Only where Setup sets cards aside (2 to 5 players). Unknotted sets aside the "
        "non-scoring cards of Knots, then Wyrms, then Leaves... (lowest rank first within a "
        "suit) until as many as the rules' 12 a deck are out; The Unbalancing keeps the "
        "Huntress unless Personality Paralysis is on (\u201cYou may remove it when playing "
        "the Personality Paralysis variant\u201d).",
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
        "choices": [
            ["1", "Aces (every ranked card)"],
            *[[str(n), str(n)] for n in range(2, 8)],
            ["8", "8 (rules)"],
            ["9", "9"],
            ["10", "Crowns"],
        ],  # fmt: skip
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
            ["fives_crowd", "Five's a Crowd: one card more, discarded (3-5 players)"],
            ["drafty", "It's Drafty in Here: two tokens each (3-4 players)"],
        ],
        "default": "standard",
        "help": "Five's a Crowd (\u201cThis can be done with other player counts as well\u201d) "
        "is offered for 3 to 5 players (three: the rules' own four-card market); not for "
        "solitaire, which already discards two cards of three, nor for two players (30 cards "
        "for six rows of five, while Setup sets aside 12 of 36) or six (84 cards, more than a "
        "double Decktet's 72).",
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
            ["jacynimo", "Jacynimo: 4x4 tableau, one square a card (2-4 players)"],
            ["teamwork", "Teamwork: a 7x7 district per team of two (4 or 6 players)"],
            ["between_two", "Between Two Districts (not offered: see below)"],
        ],
        "default": "5",
        "help": "Teamwork (\u201cTeams of two players can also collaborate on one 7x7 district "
        "per team\u201d): seats 1 and 2 are a team, 3 and 4, 5 and 6; a team's district is "
        "dealt as 7x7 for that many players (48 cards for two teams, 72 for three: 24 cards a "
        "district), each teammate claims and places with their own token. Not offered: Between "
        "Two Districts (\u201cEach architect is assigned two districts, one to their right and "
        "one to their left, both shared with neighboring architects\u201d): this app gives "
        "each seat one district to build, and the rulebook gives no deck or number of turns "
        "for it.",
    },
    "extra_cards": {
        "label": "Extra cards",
        "choices": [
            ["none", "None"],
            ["courting_danger", "Courting Danger: Pawns and Courts in the deck"],
            ["excuses_wild", "Excuses Wild: the Excuse in the deck"],
            ["both", "Courting Danger and Excuses Wild"],
            ["don_giovanni", "Don Giovanni (not offered: see below)"],
        ],
        "default": "none",
        "help": "Not offered: Don Giovanni (\u201cdrawn Pawns and Courts are played across two "
        "squares with the suits of the colored ends counting in one square each and the suit "
        "of the colored middle counting for both squares\u201d) needs Giovanni Anelli's "
        "suit-colored printing: the rulebook does not say which suit is each card's colored "
        "middle.",
    },
    "solitaire": {
        "label": "Solitaire variant (1 player)",
        "choices": [
            ["waning", "The Waning"],
            ["thorny_crown", "Thorny Crown (rules text missing: refused at start)"],
            ["thorny_crowns", "Thorny Crowns (rules text missing: refused at start)"],
            ["6x6x3", "6x6x3 (not offered: see below)"],
        ],
        "default": "waning",
        "help": "Solitaire is rated at the end: 50 or more is Architect of the Year, under 35 "
        "\u201cmay result in an unfortunate tar-and-feathering incident\u201d; on 7x7 (7x7x3) "
        "\u201cA winning scores is 120 or more\u201d. Thorny Crown and Thorny Crowns: their "
        "restriction (\u201cadditionally restricted thus:\u201d, \u201cthus:\u201d) is "
        "missing from the rulebook. 6x6x3 (\u201cplace two starting Pawns or Crowns to cover "
        "four squares total\u201d) is not offered: the rulebook does not say how the two "
        "cards' suits lie on the four squares (it points to Don Giovanni's colored printing), "
        "and its 48 cards make 16 rounds, which The Waning's sets of three do not divide.",
    },
}


# The New table page lists the options in this order: the big choices first.
OPTIONS_SCHEMA = {
    name: OPTIONS_SCHEMA[name]
    for name in ("district", "market", "deck", "trim", "extra_cards", "start_cards",
                 "first_order", "tournament_game", "market_sort", "soothsayer", "bonus",
                 "attraction_min", "lucky_nines", "paralysis", "reveal", "solitaire")
}  # fmt: skip


#: Variants of the rulebook the app does not offer, with the reason (shown when a table with
#: one of them is started; the options' help texts quote the rulebook).
REFUSED = {
    ("district", "between_two"): "Between Two Districts is not offered: this app gives each "
    "seat one district of its own; the variant shares each district between two neighbours.",
    ("extra_cards", "don_giovanni"): "Don Giovanni is not offered: it needs Giovanni Anelli's "
    "suit-colored cards, and the rulebook does not say which suit is each card's colored middle.",
    ("solitaire", "6x6x3"): "6x6x3 is not offered: the rulebook does not say how the two "
    "headquarters cards' suits lie on the four squares, and 16 rounds do not divide into The "
    "Waning's sets of three.",
}


def normalize_options(options: dict | None, players: int) -> dict:
    """Fill defaults and check ``options`` against ``OPTIONS_SCHEMA`` for ``players`` (1..6).

    Raises ``RuleViolation``: ``bad_player_count``; ``bad_option`` for an unknown value;
    ``variant_unsupported`` for a variant outside the player counts the rulebook gives it
    (Three's Company: 3; Five's a Crowd: 3-5; It's Drafty in Here: 3-4; 6x6: 2; 7x7: 1-3;
    Jacynimo: 2-4), one that needs full rows (There are Four Lights, The Waning with extra
    cards), one whose rules text is incomplete (Thorny Crown, Thorny Crowns: "additionally
    restricted thus:" is followed by nothing), one the app does not offer (Teamwork, Between
    Two Districts, Don Giovanni, 6x6x3: the reasons are in ``OPTIONS_SCHEMA``'s help texts),
    and a way of setting cards aside where Setup sets none aside.
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
    for (name, value), reason in REFUSED.items():
        if name != "solitaire" or players == 1:
            require(result[name] != value, "variant_unsupported", reason)
    if result["deck"] == "threes_company":
        require(players == 3, "variant_unsupported", "Three's Company is for three players.")
    if players == 1:
        require(
            result["solitaire"] in ("waning", "6x6x3"),
            "variant_unsupported",
            "Thorny Crown and Thorny Crowns cannot be played: the rulebook's text of their "
            "restrictions is missing. Choose The Waning.",
        )
    market = result["market"]
    if result["district"] == "jacynimo":
        require(
            2 <= players <= 4 and result["extra_cards"] == "none",
            "variant_unsupported",
            "Jacynimo is for two to four players: \u201cThe deck consists of 15 cards per "
            "player\u201d fills a 4x4 tableau only when every card dealt is kept (solitaire "
            "keeps one card of three).",
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
    if result["district"] == "teamwork":
        require(players in (4, 6) and result["deck"] == "standard" and market == "standard"
                and result["extra_cards"] == "none", "variant_unsupported",
                "Teamwork is for two or three teams of two (4 or 6 players), with the 7x7 deck "
                "(48 or 72 base cards) and the standard market.")  # fmt: skip
    if result["district"] == "7":
        require(players <= 3 and result["deck"] == "standard" and market == "standard",
                "variant_unsupported",
                "7x7 is for one to three players with the standard deck and market.")  # fmt: skip
    if market == "fives_crowd":
        require(players in (3, 4, 5) and result["deck"] == "standard", "variant_unsupported",
                "Five's a Crowd (\u201cThis can be done with other player counts as well\u201d) "
                "is for 3 to 5 players here: solitaire already discards two cards of three; two "
                "players would need 30 cards (six rows of five) and Setup sets aside 12 of 36, "
                "not 6; six players would need 84 cards, more than a double Decktet's 72.")  # fmt: skip
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
    trimmed = (
        DECKS[deck_size(players, result)][1]
        if result["district"] in ("5", "7", "sprawl", "teamwork")
        else 0
    )
    if result["trim"] != "uneventful":
        require(trimmed > 0, "variant_unsupported",
                "No cards are set aside with this player count and district, so there is "
                "nothing to set aside another way.")  # fmt: skip
    if result["trim"] == "knot_eventful":
        require(trimmed == 2, "variant_unsupported",
                "Knot Eventful: \u201cWith a double deck, configure one deck as in Uneventful "
                "and the other as in Unknotted\u201d: both decks are trimmed only for 3 or 4 "
                "players (48 cards) or 7x7 with two players.")  # fmt: skip
    result["short_row"] = "shared"  # see ``market.may_claim``
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
    return {"jacynimo": 4, "sprawl": SPRAWL_SIZE, "teamwork": 7}.get(options["district"]) or int(
        options["district"]
    )


def deck_size(players: int, options: dict) -> int:
    """Cards in play (Setup step 3): 24 for two players, 48 for three or four, 60 for five, 72
    for six; solitaire and Three's Company 36. Variants: 7x7 ("District Size Variants") 48 for
    two players and 72 for one or three (24 cards each: see ``market_size``); Five's a Crowd
    deals as for one player more (48 for three, as the rules; 60 for four, 72 for five); It's Drafty in Here 36 for three and 48 for four (six rows of two cards
    per player, as for two players: the rulebook gives no count, this keeps 12 cards each)."""
    if options["district"] == "7":
        return {1: 72, 2: 48, 3: 72}[players]
    if options["district"] == "teamwork":
        return {4: 48, 6: 72}[players]  # as 7x7 for two or three districts
    if options["district"] == "9":
        return 72  # and 8 extended cards (``setup``)
    if options["district"] == "6":
        return 36  # 34 of them are played: ``setup`` sets two aside unseen
    if options["district"] == "jacynimo":
        return 36 if players <= 2 else 72  # 15 a player are played (``setup``)
    if options["market"] == "fives_crowd":
        return {3: 48, 4: 60, 5: 72}[players]
    if options["market"] == "drafty":
        return {3: 36, 4: 48}[players]
    if players == 1 or options["deck"] == "threes_company":
        return 36
    return {2: 24, 3: 48, 4: 48, 5: 60, 6: 72}[players]


def double_deck(players: int, options: dict) -> bool:
    """Whether a double Decktet is in play (then start cards come in two copies too)."""
    return DECKS[deck_size(players, options)][0] == 2


#: Cards set aside from each trimmed copy of the base deck (Setup step 3).
TRIMMED = 12


def unknotted(options: dict) -> list[str]:
    """Unknotted ("The Deck"): instead of the events, "remove non-scoring Knots, Wyrms,
    Leaves, etc., in reverse suit order": the base cards that score nothing (under the table's
    Detraction and Lucky Nines) with a Knots suit, then those with Wyrms, then Leaves..., lowest
    rank first within a suit (the rulebook gives no order there), until ``TRIMMED`` are out."""
    opts = scoring_options(options)
    chosen: list[str] = []
    for suit in ("Knots", "Wyrms", "Leaves", "Waves", "Suns", "Moons"):
        group = [k for k in base_keys() if suit in all_cards()[k].suits
                 and not scoring.weight(k, opts) and k not in chosen]  # fmt: skip
        group.sort(key=lambda k: all_cards()[k].order)
        chosen += group[: TRIMMED - len(chosen)]
    return chosen


def uneventful() -> list[str]:
    """Uneventful, the standard deck: "all 2s, and all events but the Market"."""
    return [k for k in base_keys() if all_cards()[k].rank == "2"
            or (all_cards()[k].event and k != "market")]  # fmt: skip


def build_deck(players: int, options: dict, rng: Any = None) -> tuple[list[str], list[str]]:
    """The card instances in play and those set aside (Setup step 3), unshuffled: from each
    trimmed copy 12 cards are set aside (with 60 cards only one of the two copies is trimmed):
    by option ``trim`` the 2s and the events but the Market (Uneventful, the rules),
    ``unknotted``, Knot Eventful (the first copy Uneventful, the second Unknotted) or The
    Unbalancing (12 base cards at random from ``rng``, a ``tabletop.dice.Dice``; the Huntress,
    "the only scoring card for Moons", is kept unless Personality Paralysis is on)."""
    keys = base_keys()
    copies, trimmed = DECKS[deck_size(players, options)]
    trim = options.get("trim", "uneventful")
    deck: list[str] = []
    aside: list[str] = []
    for copy_no in range(1, copies + 1):
        if copy_no > trimmed:
            out: list[str] = []
        elif trim == "unknotted" or (trim == "knot_eventful" and copy_no == 2):
            out = unknotted(options)
        elif trim == "unbalancing":
            spare = options["paralysis"] == "yes"
            out = rng.sample([k for k in keys if spare or k != "huntress"], TRIMMED)
        else:
            out = uneventful()
        for k in keys:
            (aside if k in out else deck).append(f"{k}/{copy_no}")
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
    Three's Company, 7x7 and Jacynimo), 5 for five, 6 for six. Five's a Crowd: one per player plus one; It's
    Drafty in Here: two per player; There are Four Lights: one more in the first row only
    (``first_row_size``)."""
    if options["market"] == "fives_crowd":
        return players + 1
    if options["market"] == "drafty":
        return 2 * players
    if players == 1 or options["deck"] == "threes_company":
        return 3
    if players == 3 and options["district"] in ("7", "jacynimo"):
        # 7x7: "a pool of ... 72 base cards" is 24 cards each, what 48 blocks hold; Jacynimo:
        # "15 cards per player". Both only when no card is discarded: a three-card market,
        # as in Three's Company ("There is no fourth choice to discard").
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

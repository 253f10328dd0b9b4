"""The cards of Demon Espionage and the referee of a duel (Card Pieces, Preparation, Combat
Cards Explained, How to Play 3-5). Pure functions: no state, no events."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tabletop.decider import Data
from tabletop.rules import counted, require

from .state import Card

REBEL = "rebel"
SHADOW = "shadow"
FACTIONS = (REBEL, SHADOW)
FACTION_LABELS = {REBEL: "Rebel", SHADOW: "Shadow"}

START_HEALTH = 5  # Preparation, Health Card: "Each player has 5 starting health."
REVEAL_AT_HEALTH = 2  # Important notes: "the first player to be left with 2 health points"

#: Preparation, Faction Card: Shadow and Rebel cards shuffled, by number of players.
FACTION_CARDS = {3: 2, 4: 2, 5: 3, 6: 3}
#: Preparation, Combat Card: Reveal cards kept in the combat pile, by number of players.
REVEAL_CARDS = {3: 1, 4: 1, 5: 1, 6: 2}
#: Preparation, Soul Card: how many 1-, 2- and 3-soul cards, by number of players.
SOUL_CARDS = {3: (8, 5, 1), 4: (10, 6, 2), 5: (13, 7, 2), 6: (15, 8, 3)}
#: Important notes: players to reveal their faction at 2 health (3-4 players: 1, 5-6: 2).
REVEALS_REQUIRED = {3: 1, 4: 1, 5: 2, 6: 2}

#: Card Pieces, Action Cards (37): key -> (label, copies in the box).
ACTION_CARDS = {
    "disarray": ("Disarray", 2),
    "encore": ("Encore", 2),
    "heal": ("Heal", 2),
    "reveal": ("Reveal", 2),
    "damage_plus_3": ("Damage +3", 4),
    "damage_plus_2": ("Damage +2", 6),
    "reverse": ("Reverse", 5),
    "negate": ("Negate", 2),
    "divert": ("Divert", 6),
    "rps": ("R.P.S", 6),
}
#: Card Pieces, Troop Cards (42): damage points -> copies; 0 is the Dummy Corpse (3 copies).
TROOP_CARDS = {1: 9, 2: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 3, 0: 3}
SYMBOLS = ("rock", "paper", "scissors")
SYMBOL_LABELS = {"rock": "Rock", "paper": "Paper", "scissors": "Scissors"}
#: R.P.S: each symbol beats the one it maps to.
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
#: Action cards whose effect the app applies itself; any other played in a duel needs the
#: duellists' confirmation of the outcome.
RPS_ONLY = frozenset({"rps"})

INITIATOR = "initiator"
OPPONENT = "opponent"
TIE = "tie"
OUTCOMES = (INITIATOR, OPPONENT, TIE)


def soul_deck_for(players: int) -> list[int]:
    """The unshuffled soul deck for 3..6 players (Preparation, Soul Card): 14, 18, 22 or 26
    cards of value 1, 2 and 3. Raises RuleViolation ``bad_player_count`` otherwise."""
    require(players in SOUL_CARDS, "bad_player_count", "Demon Espionage is for 3 to 6 players.")
    ones, twos, threes = SOUL_CARDS[players]
    return [1] * ones + [2] * twos + [3] * threes


def faction_cards_for(players: int) -> list[str]:
    """The faction cards to shuffle (Preparation, Faction Card): 2 Shadow and 2 Rebel for 3-4
    players, all 3 of each for 5-6. Raises RuleViolation ``bad_player_count`` otherwise."""
    require(players in FACTION_CARDS, "bad_player_count", "Demon Espionage is for 3 to 6 players.")
    return [SHADOW] * FACTION_CARDS[players] + [REBEL] * FACTION_CARDS[players]


def parse_card(data: Data | dict[str, Any], reveal_cards: int = 2) -> Card:
    """A combat card played face down in a duel (How to Play 3), from command data.

    ``data``: ``{"kind": "troop", "damage": 1..9, "symbol": "rock"|"paper"|"scissors"}``,
    ``{"kind": "dummy"}`` (the Dummy Corpse: 0 damage points, no symbol), or
    ``{"kind": "action", "name": <ACTION_CARDS key>, "damage": 1..9, "symbol": optional}``
    (an action card with damage points used as a troop, How to Play, Important notes; the rulebook
    does not say which action cards carry damage points, so the player enters the printed value;
    Damage +2 and Damage +3 default to 2 and 3). Returns ``{kind, damage, symbol, name}``.
    Raises RuleViolation ``bad_card``.
    """
    data = data if isinstance(data, Data) else Data(data)
    kind = data.choice(
        "kind",
        ("troop", "dummy", "action"),
        code="bad_card",
        message="Choose a troop card, the Dummy Corpse or an action card.",
    )
    if kind == "dummy":
        return {"kind": "dummy", "damage": 0, "symbol": None, "name": None}
    symbol = data.choice(
        "symbol", SYMBOLS, default=None, code="bad_card", message="Choose Rock, Paper or Scissors."
    )
    if kind == "troop":
        damage = data.int(
            "damage", lo=1, hi=9, code="bad_card", message="A troop card has 1 to 9 damage points."
        )
        require(
            symbol is not None,
            "bad_card",
            "Every troop card but the Dummy Corpse has an "
            "R.P.S symbol: choose Rock, Paper or Scissors.",
        )
        return {"kind": "troop", "damage": damage, "symbol": symbol, "name": None}
    name = data.choice(
        "name", ACTION_CARDS, code="bad_card", message="Choose which action card you played."
    )
    require(name != "reveal" or reveal_cards > 0, "bad_card", "No Reveal card in this game.")
    default = {"damage_plus_2": 2, "damage_plus_3": 3}.get(name)
    message = "Enter the damage points printed on the action card (1 to 9)."
    damage = data.int("damage", lo=1, hi=9, default=default, code="bad_card", message=message)
    require(damage is not None, "bad_card", message)
    return {"kind": "action", "damage": damage, "symbol": symbol, "name": name}


def parse_actions(data: Data | dict[str, Any]) -> list[str]:
    """The limited action cards a duellist plays face down (How to Play 4), from command data.

    Accepts ``{"cards": ["rps", "reverse"]}`` (a list, one value, or a comma-separated string,
    as the page's checkboxes send them) or one key per card with a count (``{"rps": 1,
    "reverse": 2}``). Returns the sorted list of card keys (possibly empty: playing none is
    allowed). Raises RuleViolation ``bad_action`` for an unknown card or a count below 0."""
    data = data if isinstance(data, Data) else Data(data)
    names: list[str] = []
    for item in data.list(
        "cards", default=[], code="bad_action", message="Send the action cards as a list."
    ):
        require(isinstance(item, str), "bad_action", f"There is no action card {item!r}.")
        names += [part.strip() for part in item.split(",") if part.strip()]
    for key in ACTION_CARDS:
        count = data.int(
            key, lo=0, hi=99, default=0, code="bad_action", message="A card count is 0 or more."
        )
        names += [key] * count
    for name in names:
        require(name in ACTION_CARDS, "bad_action", f"There is no action card {name!r}.")
    return sorted(names)


def check_copies(card: Card | None, actions: list[str], reveal_cards: int) -> None:
    """One duellist cannot play more copies of a card than the box holds (Card Pieces; Reveal:
    only the ``reveal_cards`` kept, Preparation). Raises RuleViolation ``too_many_copies``."""
    counts = Counter(actions)
    if card is not None and card["kind"] == "action" and card["name"]:
        counts[card["name"]] += 1
    for name, count in counts.items():
        limit = reveal_cards if name == "reveal" else ACTION_CARDS[name][1]
        require(
            count <= limit,
            "too_many_copies",
            f"The game has only {counted(limit, ACTION_CARDS[name][0] + ' card')}.",
        )


def duel_outcome(initiator_card: Card, opponent_card: Card, rps: bool) -> str:
    """Who wins a duel by the cards alone: ``"initiator"``, ``"opponent"`` or ``"tie"``.

    How to Play 5 and Troop Cards: by default the higher damage points win; when the R.P.S card is
    played (``rps``) the R.P.S symbols decide (Rock beats Scissors, Scissors beats Paper, Paper
    beats Rock). Important notes: the same damage points or the same symbol is a tie. Rulebook
    silent, our choice: a card with a symbol beats one without (the Dummy Corpse), and two cards
    without a symbol tie.
    """
    if rps:
        mine, theirs = initiator_card.get("symbol"), opponent_card.get("symbol")
        if mine == theirs:
            return TIE
        if theirs is None or (mine is not None and BEATS[mine] == theirs):
            return INITIATOR
        return OPPONENT
    if initiator_card["damage"] == opponent_card["damage"]:
        return TIE
    return INITIATOR if initiator_card["damage"] > opponent_card["damage"] else OPPONENT


def describe_card(card: Card) -> str:
    """A combat card for people: ``"7 Rock"``, ``"Dummy Corpse"``, ``"Damage +3 as 3"``."""
    symbol = f" {SYMBOL_LABELS[card['symbol']]}" if card["symbol"] else ""
    if card["kind"] == "dummy":
        return "Dummy Corpse"
    if card["kind"] == "action" and card["name"]:
        return f"{ACTION_CARDS[card['name']][0]} as {card['damage']}{symbol}"
    return f"{card['damage']}{symbol}"


def describe_actions(actions: list[str]) -> str:
    """Limited action cards for people: ``"R.P.S, Reverse"`` or ``"none"``."""
    return ", ".join(ACTION_CARDS[name][0] for name in actions) or "none"


def name(state: Any, seat: int | None) -> str:
    """A seat's display name (``"The table"`` for None), for narrators."""
    players = state.get("players") or [] if isinstance(state, dict) else []
    if seat is None or not 0 <= seat < len(players):
        return "The table"
    return players[seat]["name"]

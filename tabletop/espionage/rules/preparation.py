"""Preparation (rulebook: Preparation): the table options, the deal of factions and the soul
deck, and the fold of ``espionage.game.prepared``."""

from __future__ import annotations

from typing import Any

from tabletop.decider import Topic
from tabletop.rules import EventRecord, NewEvent, SeatInfo, counted, require

from .cards import REVEAL_CARDS, REVEALS_REQUIRED, START_HEALTH, faction_cards_for, soul_deck_for
from .state import Prepared, State

preparation = Topic("preparation")

OPTIONS_SCHEMA = {
    "tie_break": {
        "label": "When both factions have as many souls",
        "choices": [
            ["shared", "Both factions share the victory"],
            ["survivors", "More players still in the game wins"],
            ["health", "More health left in total wins"],
        ],
        "default": "shared",
        "help": "The rulebook does not say how a tie in souls is settled.",
    },
    "minority": {
        "label": "Faction with fewer players (2 extra souls at the end)",
        "choices": [
            ["dealt", "Fewer players dealt (3 and 5 players)"],
            ["surviving", "Fewer players still in the game"],
        ],
        "default": "dealt",
        "help": "The rulebook does not say whether eliminated players count.",
    },
    "reveal_on_elimination": {
        "label": "Show an eliminated player's faction",
        "choices": [["no", "No, keep it hidden"], ["yes", "Yes, turn it face up"]],
        "default": "no",
        "help": "The rulebook only requires the reveal at 2 health.",
    },
}


def prepare(options: dict[str, Any], seats: tuple[SeatInfo, ...], rng: Any) -> list[NewEvent]:
    """Preparation for 3..6 seats: faction cards shuffled and one dealt to each seat (2+2 for
    3-4 players, 3+3 for 5-6), 5 health each, the Reveal cards kept in the combat pile (1 or
    2), the soul deck built by player count and shuffled, and a random first player (the
    rulebook does not say who starts). Raises RuleViolation ``bad_player_count`` or
    ``bad_option``. Returns one final event ``espionage.game.prepared``."""
    count = len(seats)
    factions = rng.shuffled(faction_cards_for(count))[:count]
    deck = rng.shuffled(soul_deck_for(count))
    first = rng.randbelow(count)
    filled = {}
    for key, spec in OPTIONS_SCHEMA.items():
        value = (options or {}).get(key, spec["default"])
        require(
            value in [choice[0] for choice in spec["choices"]],
            "bad_option",
            f"Unknown choice {value!r} for {spec['label']}.",
        )
        filled[key] = value
    data: Prepared = {
        "names": [seat.name for seat in sorted(seats, key=lambda s: s.number)],
        "factions": factions,
        "soul_deck": deck,
        "first": first,
        "reveal_cards": REVEAL_CARDS[count],
        "reveals_required": REVEALS_REQUIRED[count],
        "options": filled,
    }
    return [NewEvent("espionage.game.prepared", dict(data), final=True)]


@preparation.evolver(
    "espionage.game.prepared", label="dealt the factions and shuffled the soul deck"
)
def _prepared(s: State, e: EventRecord) -> None:
    data = e.data
    s.update(
        {
            "phase": "playing",
            "options": dict(data["options"]),
            "players": [
                {
                    "name": who,
                    "faction": faction,
                    "health": START_HEALTH,
                    "souls": [],
                    "revealed": False,
                    "eliminated": False,
                }
                for who, faction in zip(data["names"], data["factions"], strict=True)
            ],
            "soul_deck": list(data["soul_deck"]),
            "reveal_cards": data["reveal_cards"],
            "reveals_required": data["reveals_required"],
            "reveals_done": 0,
            "active": data["first"],
            "turn": 1,
            "used": [0] * len(data["names"]),
            "hand_changed": False,
            "duel": None,
            "draw_back": [],
            "result": None,
        }
    )


@preparation.narrator("espionage.game.prepared")
def _say_prepared(e: EventRecord, s: State) -> str:
    data = e.data
    return (
        f"Factions dealt, {counted(len(data['soul_deck']), 'soul')} shuffled; keep "
        f"{counted(data['reveal_cards'], 'Reveal card')} in the combat pile and deal 5 combat "
        f"cards each. "
        f"{data['names'][data['first']]} plays first."
    )

"""Helpers for Demon Espionage tests: play commands through the pure rules, no database."""

from __future__ import annotations

import json

from tabletop.dice import make_dice
from tabletop.espionage.rules import (
    OPTIONS_SCHEMA,
    REVEAL_CARDS,
    REVEALS_REQUIRED,
    EspionageRuleset,
)
from tabletop.rules import Command, EventRecord

R = EspionageRuleset()
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
DEFAULTS = {key: spec["default"] for key, spec in OPTIONS_SCHEMA.items()}


def prepared(factions, deck, first=0, **options):
    """A state straight after ``espionage.game.prepared`` with a known deal and soul deck."""
    count = len(factions)
    data = {
        "names": NAMES[:count],
        "factions": list(factions),
        "soul_deck": list(deck),
        "first": first,
        "reveal_cards": REVEAL_CARDS[count],
        "reveals_required": REVEALS_REQUIRED[count],
        "options": {**DEFAULTS, **options},
    }
    return R.fold([EventRecord("espionage.game.prepared", data, None, 1)])


def act(state, seat, type_, **data):
    """Decide one command and fold its events. Returns ``(state, events)``."""
    events = R.decide(state, Command(f"espionage.{type_}", data), seat, make_dice(0))
    for event in events:
        state = R.evolve(state, EventRecord(event.type, event.data, seat, 0))
    return state, events


def troop(damage, symbol="rock"):
    return {"kind": "troop", "damage": damage, "symbol": symbol}


DUMMY = {"kind": "dummy"}


def duel(state, initiator, opponent, card_i, card_o, actions_i=(), actions_o=()):
    """A whole duel: challenge, both cards, the opponent's then the initiator's actions.
    Returns ``(state, events of the last command)``."""
    state, _ = act(state, initiator, "duel.challenge", opponent=opponent)
    state, _ = act(state, initiator, "duel.card", **card_i)
    state, _ = act(state, opponent, "duel.card", **card_o)
    state, _ = act(state, opponent, "duel.actions", cards=list(actions_o))
    return act(state, initiator, "duel.actions", cards=list(actions_i))


def types(events):
    return [event.type for event in events]


def roundtrip(state):
    """The state as the kit stores it (JSON in ``Table.state``) and reads it back."""
    return R.load(json.loads(json.dumps(R.dump(state))))

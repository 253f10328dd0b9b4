"""The demo roster: two small guilds of invented characters, used when a mission is started
without characters from the guilds (a quick game, the tests). Factors are in the ranges of the
Rise of Guilds cards (5.1); names and values are ours, not printed cards.
"""

from __future__ import annotations

import copy

_SWORD = {"name": "Long sword", "type": "swords", "damage": 3}
_DAGGER = {"name": "Dagger", "type": "knife", "damage": 1, "features": ["BLOODING 1"]}
_CROSSBOW = {
    "name": "Crossbow",
    "type": "bows",
    "damage": 4,
    "brawl_damage": 1,
    "range": 6,
    "features": ["PERFORATING"],
}
_PISTOL = {
    "name": "Wheel-lock pistol",
    "type": "gunpowder",
    "damage": 3,
    "brawl_damage": 1,
    "range": 4,
}
_AXE = {"name": "War axe", "type": "axes", "damage": 4, "two_handed": True, "features": ["HEAVY 1"]}
_BUCKLER = {
    "name": "Buckler",
    "type": "shields",
    "damage": 1,
    "features": ["SHIELD 1", "DEFENSIVE 1"],
}

_ASH_CODE = {
    "name": "Codex of Ash",
    "kabbalah": "ash",
    "powers": [
        {"name": "Cinder touch", "cost": {"common": 1}, "effects": ["HIT 2"]},
        {
            "name": "Black flame",
            "cost": {"common": 1, "dark": 1},
            "effects": ["ARCANE HIT 2", "STUNNING"],
        },
    ],
    "summon_cost": {"common": 1, "dark": 1},
    "pentacle": {"name": "Ash circle", "effects": ["SHIELD 1"]},
}
_BRINE_CODE = {
    "name": "Codex of Salted Ash",
    "kabbalah": "ash",
    "powers": [
        {"name": "Salt balm", "cost": {"common": 1}, "effects": ["CARE 1"]},
        {"name": "Drowned breath", "cost": {"dark": 1}, "effects": ["POISON 1", "WEAKNESS 1"]},
    ],
    "summon_cost": {"common": 1, "dark": 1},
    "pentacle": {"name": "Tide circle", "effects": ["DEFENSIVE 1"]},
}

_UNCLEAN = {
    "id": "unclean",
    "name": "Unclean daemon",
    "kind": "daemon",
    "level": 1,
    "kabbalah": "ash",
    "armor": 4,
    "impact": 1,
    "hit": 3,
    "movement": 4,
    "h2h": 3,
    "ranged": 0,
    "arcane": 0,
    "weapons": [{"name": "Claws", "type": "naked_hands", "damage": 2, "features": ["POISONOUS 1"]}],
    "features": ["MONSTROUS 1"],
}
_EMBER = {
    "id": "ember",
    "name": "Ember imp",
    "kind": "daemon",
    "level": 2,
    "kabbalah": "ash",
    "armor": 5,
    "impact": 1,
    "hit": 4,
    "movement": 5,
    "h2h": 3,
    "ranged": 2,
    "arcane": 1,
    "weapons": [{"name": "Fire spit", "type": "bows", "damage": 3, "brawl_damage": 2, "range": 4}],
    "features": ["FLY 3"],
}
_DROWNED = {
    "id": "drowned",
    "name": "Drowned hag",
    "kind": "daemon",
    "level": 2,
    "kabbalah": "ash",
    "armor": 3,
    "impact": 0,
    "hit": 4,
    "movement": 3,
    "h2h": 2,
    "ranged": 0,
    "arcane": 2,
    "weapons": [{"name": "Hook", "type": "knife", "damage": 2, "features": ["BLOODING 1"]}],
}

DEMO_GUILDS = [
    {
        "name": "The Ashen Lanterns",
        "fate_points": 3,
        "characters": [
            {
                "id": "vesna",
                "name": "Vesna the Gray",
                "kind": "mercenary",
                "level": 2,
                "armor": 5,
                "impact": 1,
                "hit": 4,
                "movement": 4,
                "h2h": 3,
                "ranged": 1,
                "arcane": 2,
                "favourite": "swords",
                "weapons": [_SWORD, _BUCKLER],
                "code": _ASH_CODE,
                "features": ["FURY"],
            },
            {
                "id": "korr",
                "name": "Korr Halfhand",
                "kind": "mercenary",
                "level": 1,
                "armor": 4,
                "impact": 1,
                "hit": 3,
                "movement": 5,
                "h2h": 2,
                "ranged": 3,
                "arcane": 0,
                "favourite": "bows",
                "weapons": [_CROSSBOW, _DAGGER],
            },
            {
                "id": "watch",
                "name": "Lantern watchman",
                "kind": "follower",
                "level": 1,
                "armor": 3,
                "impact": 0,
                "hit": 3,
                "movement": 4,
                "h2h": 2,
                "h2h_bonus": 1,
                "ranged": 1,
                "arcane": 0,
                "weapons": [{"name": "Halberd", "type": "spears", "damage": 2}],
            },
        ],
        "pantheon": [_UNCLEAN, _EMBER],
    },
    {
        "name": "The Salt Hounds",
        "fate_points": 3,
        "characters": [
            {
                "id": "maud",
                "name": "Maud Brinewitch",
                "kind": "mercenary",
                "level": 2,
                "armor": 4,
                "impact": 0,
                "hit": 4,
                "movement": 4,
                "h2h": 2,
                "ranged": 1,
                "arcane": 3,
                "favourite": "knife",
                "weapons": [_DAGGER],
                "code": _BRINE_CODE,
            },
            {
                "id": "bram",
                "name": "Bram Oakjaw",
                "kind": "mercenary",
                "level": 2,
                "armor": 6,
                "impact": 2,
                "hit": 5,
                "movement": 3,
                "h2h": 4,
                "ranged": 1,
                "arcane": 0,
                "favourite": "axes",
                "weapons": [_AXE],
            },
            {
                "id": "gunner",
                "name": "Dock gunner",
                "kind": "follower",
                "level": 1,
                "armor": 3,
                "impact": 0,
                "hit": 3,
                "movement": 4,
                "h2h": 1,
                "ranged": 2,
                "ranged_bonus": 1,
                "arcane": 0,
                "weapons": [_PISTOL],
            },
        ],
        "pantheon": [_UNCLEAN, _DROWNED],
    },
]


def demo_guild(index: int) -> dict:
    """A deep copy of demo guild ``index`` (0, 1, then again 0, 1 for seats 3 and 4, their
    mercenaries renamed "... II" since two mercenaries of one name cannot play, 5.1.1)."""
    guild = copy.deepcopy(DEMO_GUILDS[index % len(DEMO_GUILDS)])
    if index >= len(DEMO_GUILDS):
        guild["name"] += " II"
        for card in guild["characters"]:
            card["name"] += " II"
    return guild

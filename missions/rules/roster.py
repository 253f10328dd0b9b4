"""The roster at the table: the opening of a mission (``demloc.mission.opened``: every player,
card and pantheon as data) and its fold, the quick game's opening from the guilds handed over as
setup content, and the demo roster: two small guilds of invented characters, used when a quick
game has no characters from the guilds (and by the tests). Factors are in the ranges of the Rise
of Guilds cards (5.1); names and values are ours, not printed cards. DemLoc rulebook 5.1.1
(unique mercenaries), 6.4.1 (start of the game).
"""

from __future__ import annotations

from tabletop.decider import Decision, Topic, copy_json, say
from tabletop.rules import EventRecord, NewEvent, SeatInfo

from .cards import card_from_data
from .common import known
from .damage import new_piece
from .state import DemlocState
from .turns import draw_first_player, first_player_weights

roster = Topic("roster")
KILL_KINDS = ("mercenary", "follower", "daemon")

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
                # 5.1.1: a personal ability with activation and its fate-point cost (8.4).
                "abilities": [
                    {"name": "FURY", "feature": "FURY", "activation": "activated", "fate_cost": 1}
                ],
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
                # 5.1.5: two Arcane Codes from the Guild's library (arcane 3 holds up to 3).
                "codes": [_BRINE_CODE, _ASH_CODE],
                "abilities": [
                    {
                        "name": "Tide sense",
                        "activation": "activated",
                        "fate_cost": 2,
                        "text": "Once per turn, reroll one arcane die.",
                    },
                    {"name": "Salt skin", "text": "Poison tokens above 1 are not added."},
                ],
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
    guild = copy_json(DEMO_GUILDS[index % len(DEMO_GUILDS)])
    if index >= len(DEMO_GUILDS):
        guild["name"] += " II"
        for card in guild["characters"]:
            card["name"] += " II"
    return guild


def quick_opening(options: dict, seats: tuple[SeatInfo, ...], rng, guilds: list) -> list[NewEvent]:
    """The opening events of a quick game: ``demloc.mission.opened`` then the first
    ``demloc.turn.started``. ``guilds``: one per seat in table order (or None), ``{"name",
    "fate_points", "characters": [card], "pantheon": [daemon card]}``; a seat without one plays
    a demo guild. Raises ``RuleViolation("duplicate_mercenary")`` (5.1.1)."""
    players: list[dict] = []
    pieces: list[dict] = []
    for i, seat in enumerate(seats):
        guild = guilds[i] if i < len(guilds) and guilds[i] else demo_guild(i)
        players.append(
            {
                "seat": seat.number,
                "name": seat.name,
                "guild": guild.get("name", f"Guild of {seat.name}"),
                # A guild passed in brings its fate points; a demo guild takes the table
                # option ``fate_points`` (no rulebook number: 3 by default).
                "fate": int(
                    guild.get("fate_points", 3)
                    if i < len(guilds) and guilds[i]
                    else options.get("fate_points", 3)
                ),
                "pantheon": [
                    card_from_data({**d, "kind": "daemon"}) for d in guild.get("pantheon", [])
                ],
            }
        )
        names = set()
        for card in guild.get("characters", []):
            c = card_from_data(card)
            if c["kind"] == "mercenary":
                Decision.require(
                    c["name"] not in names,
                    "duplicate_mercenary",
                    f"{c['name']} is already in this mission (5.1.1).",
                )
                names.add(c["name"])
            c["id"] = f"s{seat.number}-{c['id']}"
            pieces.append({"card": c, "owner": seat.number})
    mercs = [p["card"]["name"] for p in pieces if p["card"]["kind"] == "mercenary"]
    Decision.require(
        len(mercs) == len(set(mercs)),
        "duplicate_mercenary",
        "Two guilds bring the same mercenary: the app's rule is that he sides with one (5.1.1).",
    )
    numbers = [s.number for s in seats]
    return [
        NewEvent("demloc.mission.opened", {"options": options, "players": players, "pieces": pieces}),
        turn_one(rng, numbers),
    ]


def turn_one(rng, seats: list[int]) -> NewEvent:
    """The first ``demloc.turn.started``: a first player drawn with equal odds (7)."""
    return NewEvent(
        "demloc.turn.started",
        {
            "turn": 1,
            "first": draw_first_player(rng, seats, None),
            "weights": first_player_weights(seats, None),
            "ooc": {},
        },
    )


@roster.evolver("demloc.mission.opened", label="opened the mission")
def mission_opened(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    s["options"] = dict(d["options"])
    s["turn_limit"] = int(d["options"].get("turn_limit", 0) or 0)
    # 7: "the information relating to the number of turns available will not always be shown".
    s["turn_limit_hidden"] = str(d["options"].get("turn_limit_hidden", "0")) == "1"
    s["objective"]["target"] = int(d["options"].get("objective_turns", 0) or 0)
    for p in d["players"]:
        s["players"].append({**copy_json(p), "kills": {k: {} for k in KILL_KINDS}, "relics": 0})
    for item in d["pieces"]:
        piece = new_piece(item["card"], item["owner"])
        if item.get("mana"):
            piece["mana"] = dict(item["mana"])
        piece["token"] = item.get("token")
        piece["enters"] = item.get("enters", 1)
        piece["area"] = item.get("area", "")
        s["pieces"][piece["id"]] = piece
        s["order"].append(piece["id"])
    if s.get("setup"):
        known(s["setup"])["stage"] = "play"
    say(say_mission_opened(e, s))


def player_and_guild(player: dict) -> str:
    """A player with their Guild, for the log: "Ann (The Ravens)"; the name once when the
    seat is named after its Guild (a Guild Master's seat is: "Ann's Ravens", not
    "Ann's Ravens (Ann's Ravens)"), or when there is no Guild name."""
    name, guild = str(player.get("name") or ""), str(player.get("guild") or "")
    if not guild or guild.strip().casefold() == name.strip().casefold():
        return name or guild
    return f"{name} ({guild})"


@roster.narrator("demloc.mission.opened")
def say_mission_opened(e: EventRecord, s: DemlocState) -> str:
    return "The mission begins: " + ", ".join(map(player_and_guild, e.data["players"])) + "."

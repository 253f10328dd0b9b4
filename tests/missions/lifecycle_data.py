"""Plain data for the pure lifecycle tests: a mission definition as
``MissionDefinition.snapshot()`` gives it and Guild payloads as ``mission_guild_bind`` sends."""

from missions.rules.roster import DEMO_GUILDS


def definition(kind="objective", **over):
    d = {
        "id": 1,
        "name": "The Drowned Bell",
        "kind": kind,
        "objective": "Ring the bell in the flooded chapel.",
        "special_rules": "",
        "turn_limit": 6 if kind == "turns" else 0,
        "control_turns": 2 if kind == "control" else 0,
        "relic_tokens": 3 if kind == "relic" else 0,
        "waves": [{"turn": 3, "text": "The second wave enters from the docks."}]
        if kind == "waves"
        else [],
        "tiles": [{"tile": 1, "side": "A", "where": "north-west"}],
        "scenery": [{"name": "Barrel", "quantity": 2, "where": "by the well", "optional": True}],
        "deployment": [
            {"name": "North gate", "where": "top row"},
            {"name": "South quay", "where": "bottom row"},
        ],
        "slots": 3,
        "followers": [
            {
                "key": "7",
                "card_id": 7,
                "name": "Hired blade",
                "feods": 10,
                "copies": 1,
                "card": {
                    "id": "f7",
                    "name": "Hired blade",
                    "kind": "follower",
                    "hit": 3,
                    "armor": 3,
                    "h2h": 2,
                    "weapons": [{"name": "Club", "type": "hammers", "damage": 2}],
                },
            }
        ],
        "rewards": {
            "win": {"fame": 10, "feods": 20, "blood_stones": 1},
            "loss": {"fame": 2, "feods": 0},
            "objective": {"fame": 5, "feods": 5},
            "relic": {"fame": 1, "feods": 3},
            "kill": {
                "mercenary": {"fame": 2, "feods": 4},
                "follower": {"fame": 1, "feods": 1},
                "daemon": {"fame": 3, "feods": 0},
            },
            "possessed_escape": {"fame": 3, "feods": 0},
            "heal_feods_per_heart": 5,
        },
    }
    d.update(over)
    return d


def mission_option(kind="objective", mode="standard", **over):
    return {"id": 42, "mode": mode, "definition": definition(kind, **over)}


def guild_payload(index, guild_id, *, fame=10, feods=50, colour="red", rename=False):
    """Seat ``index``'s Guild: demo guild ``index % 2`` with its mercenaries (ids m<n>), its
    follower as a guesthouse follower."""
    demo = DEMO_GUILDS[index % 2]
    roster = []
    for n, card in enumerate(demo["characters"], start=1):
        name = card["name"] + (" II" if rename else "")
        source = "mercenary" if card["kind"] == "mercenary" else "guest"
        cid = f"{source[0]}{guild_id}{n}"
        roster.append(
            {
                "id": cid,
                "source": source,
                "ref": guild_id * 10 + n,
                "name": name,
                "ready": True,
                "card": {**card, "id": cid, "name": name},
            }
        )
    return {
        "seat": index,
        "guild": {
            "id": guild_id,
            "name": f"Guild {guild_id}",
            "colour": colour,
            "fame": fame,
            "feods": feods,
        },
        "roster": roster,
        "pantheon": demo["pantheon"],
        "database_followers": [7],
        "fate_points": 3,
    }

"""Demo missions, one of every type (6.4.1 objective revealing phase): invented by us, not
printed missions. ``load_demo_missions()`` is idempotent (by name) and is called by
``manage.py load_demo_content``."""

from __future__ import annotations

from django.db import transaction

from guilds import services as guild_services

from .models import MissionDefinition, MissionFollower

_AREAS = [
    {"name": "North gate", "where": "the two rows along tile 1's top edge"},
    {"name": "South quay", "where": "the two rows along the bottom tile's lower edge"},
]

DEMO_MISSIONS = [
    {
        "name": "The Drowned Bell",
        "kind": "objective",
        "objective": "Reach the bell tower in the middle of the flooded square and ring the bell: "
        "the first Guild with a character in contact with the bell at the end of its activation "
        "taps Objective achieved.",
        "special_rules": "Water squares cost 1 extra movement point.",
        "tiles": [
            {"tile": 1, "side": "A", "where": "top left"},
            {"tile": 2, "side": "B", "where": "top right"},
            {"tile": 5, "side": "A", "where": "bottom left"},
            {"tile": 6, "side": "A", "where": "bottom right"},
        ],
        "scenery": [
            {
                "name": "Bell tower",
                "quantity": 1,
                "where": "the centre where the four tiles meet",
                "optional": False,
            },
            {"name": "Barrel", "quantity": 3, "where": "", "optional": True},
        ],
        "deployment": _AREAS,
    },
    {
        "name": "Six Bells to Dawn",
        "kind": "turns",
        "turn_limit": 6,
        "objective": "Do as much harm as you can before dawn: after turn 6 the Guild with the most "
        "fame from kills wins.",
        "tiles": [
            {"tile": 3, "side": "A", "where": "left"},
            {"tile": 4, "side": "B", "where": "right"},
        ],
        "scenery": [{"name": "Palisade", "quantity": 2, "where": "", "optional": True}],
        "deployment": _AREAS,
    },
    {
        "name": "Hold the Salt Market",
        "kind": "control",
        "control_turns": 3,
        "objective": "Hold the market square for 3 turns: start the Objective control counter when "
        "only your characters stand in it, suspend it when an enemy enters.",
        "tiles": [
            {"tile": 7, "side": "A", "where": "top"},
            {"tile": 8, "side": "A", "where": "bottom"},
        ],
        "scenery": [
            {"name": "Market stall", "quantity": 2, "where": "the market square", "optional": False}
        ],
        "deployment": _AREAS,
    },
    {
        "name": "The Ash Procession",
        "kind": "waves",
        "turn_limit": 8,
        "waves": [{"turn": 3, "text": "Characters held back enter from your deployment area."}],
        "objective": "Break the procession: the last Guild with characters in play wins. Hold some "
        "characters back; they enter at the start of turn 3.",
        "tiles": [
            {"tile": 9, "side": "B", "where": "left"},
            {"tile": 10, "side": "B", "where": "middle"},
            {"tile": 11, "side": "A", "where": "right"},
        ],
        "deployment": _AREAS,
    },
    {
        "name": "The Reliquary of Loch",
        "kind": "relic",
        "relic_tokens": 3,
        "relic_fame": 2,
        "relic_feods": 5,
        "objective": "Three relic tokens lie in the crypt: a character in contact picks one up "
        "(count it with +1 relic token); the Guild that carries the reliquary out taps "
        "Objective achieved.",
        "tiles": [
            {"tile": 12, "side": "A", "where": "top"},
            {"tile": 13, "side": "A", "where": "middle"},
            {"tile": 14, "side": "B", "where": "bottom"},
        ],
        "scenery": [
            {
                "name": "Relic token",
                "quantity": 3,
                "where": "the crypt of tile 13",
                "optional": False,
            }
        ],
        "deployment": _AREAS,
    },
]


@transaction.atomic
def load_demo_missions() -> list[MissionDefinition]:
    """Create the demo missions if missing (by name); each offers the first two demo follower
    cards that only join for one mission, two copies each, for the whole table (5.1.2)."""
    followers = guild_services.demo_mission_followers(count=2)
    out = []
    for order, spec in enumerate(DEMO_MISSIONS):
        definition = MissionDefinition.objects.filter(name=spec["name"]).first()
        if definition is None:
            definition = MissionDefinition(**spec, order=order, is_demo=True)
            definition.full_clean()
            definition.save()
            for card in followers:
                MissionFollower.objects.create(definition=definition, card=card, copies=2)
        out.append(definition)
    return out

"""Demo missions, one of every type (6.4.1 objective revealing phase): invented by us, not
printed missions. ``load_demo_missions()`` is idempotent (by name) and is called by
``manage.py load_demo_content``."""

from __future__ import annotations

from django.db import transaction

from guilds import services as guild_services

from .models import MissionDefinition, MissionFollower
from .rules.setup_map import area_where

_AREAS = [
    {"name": "North gate", "where": "the two rows along tile 1's top edge"},
    {"name": "South quay", "where": "the two rows along the bottom tile's lower edge"},
]

DEMO_MISSIONS = [
    {
        "name": "The Drowned Bell",
        "kind": "objective",
        "objective": "Reach the bell tower in the middle of the flooded square and ring the bell: "
        "the first Guild with a character in contact with the bell at the end of the turn taps "
        "Objective achieved (7.3.2.3), and the other players confirm it.",
        "special_rules": "Water squares cost 1 extra movement point.",
        "tiles": [
            {"tile": 1, "side": "A", "where": "top left"},
            {"tile": 2, "side": "B", "where": "top right"},
            {"tile": 5, "side": "A", "where": "bottom left"},
            {"tile": 6, "side": "A", "where": "bottom right"},
        ],
        "layout": {
            "columns": 2,
            "rows": 2,
            "tiles": [
                {"tile": 1, "side": "A", "col": 1, "row": 1},
                {"tile": 2, "side": "B", "col": 2, "row": 1, "rotation": 90},
                {"tile": 5, "side": "A", "col": 1, "row": 2},
                {"tile": 6, "side": "A", "col": 2, "row": 2, "rotation": 180},
            ],
            "scenery": [{"name": "Bell tower", "x": 1, "y": 1}],
            "areas": [
                {"name": "North gate", "x": 0, "y": 0, "w": 2, "h": 0.3},
                {"name": "South quay", "x": 0, "y": 1.7, "w": 2, "h": 0.3},
            ],
        },
        "events": [
            {
                "turn": 3,
                "kind": "area_closed",
                "area": "South quay",
                "text": "The tide rises over the quay: lay a water marker on its two rows.",
            },
            {
                "turn": 4,
                "kind": "rule",
                "text": "The square floods: water squares now cost 2 extra movement points.",
            },
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
        "kills wins (or the most fame from kills, where the table chose so).",
        "tiles": [
            {"tile": 3, "side": "A", "where": "left"},
            {"tile": 4, "side": "B", "where": "right"},
        ],
        "scenery": [{"name": "Palisade", "quantity": 2, "where": "", "optional": True}],
        "layout": {
            "columns": 2,
            "rows": 1,
            "tiles": [
                {"tile": 3, "side": "A", "col": 1, "row": 1},
                {"tile": 4, "side": "B", "col": 2, "row": 1},
            ],
            "areas": [
                {"name": "North gate", "x": 0, "y": 0, "w": 2, "h": 0.25},
                {"name": "South quay", "x": 0, "y": 0.75, "w": 2, "h": 0.25},
            ],
        },
        "events": [
            {
                "turn": 4,
                "kind": "reinforcements",
                "text": "The night watch arrives: each Guild places one barrel in its "
                "deployment area.",
            }
        ],
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
        "layout": {
            "columns": 1,
            "rows": 2,
            "tiles": [
                {"tile": 7, "side": "A", "col": 1, "row": 1},
                {"tile": 8, "side": "A", "col": 1, "row": 2},
            ],
            "scenery": [
                {"name": "Market stall", "x": 0.3, "y": 1},
                {"name": "Market stall", "x": 0.7, "y": 1},
            ],
            "areas": [
                {"name": "North gate", "x": 0, "y": 0, "w": 1, "h": 0.25},
                {"name": "South quay", "x": 0, "y": 1.75, "w": 1, "h": 0.25},
            ],
        },
        "deployment": _AREAS,
    },
    {
        "name": "The Ash Procession",
        "kind": "waves",
        "turn_limit": 8,
        # 7: "the number of turns available will not always be shown": the players never see it.
        "turn_limit_hidden": True,
        "waves": [
            {"turn": 3, "text": "The first characters held back enter from your deployment area."},
            {"turn": 5, "text": "The last ones enter from any open deployment area."},
        ],
        "objective": "Break the procession: the last Guild with characters in play wins. Hold some "
        "characters back for the waves of turns 3 and 5. Nobody knows when dawn breaks: the app "
        "says when the turns are over.",
        "tiles": [
            {"tile": 9, "side": "B", "where": "left"},
            {"tile": 10, "side": "B", "where": "middle"},
            {"tile": 11, "side": "A", "where": "right"},
        ],
        "layout": {
            "columns": 3,
            "rows": 1,
            "tiles": [
                {"tile": 9, "side": "B", "col": 1, "row": 1},
                {"tile": 10, "side": "B", "col": 2, "row": 1, "rotation": 270},
                {"tile": 11, "side": "A", "col": 3, "row": 1},
            ],
            "areas": [
                {"name": "North gate", "x": 0, "y": 0, "w": 3, "h": 0.25},
                {"name": "South quay", "x": 0, "y": 0.75, "w": 3, "h": 0.25},
            ],
        },
        "events": [
            {
                "turn": 4,
                "kind": "turn_limit",
                "turn_limit": 7,
                "text": "The bells toll early: dawn is nearer than you thought.",
            },
            {
                "turn": 5,
                "kind": "area_closed",
                "area": "North gate",
                "text": "The procession blocks the north gate: the last wave enters from the quay.",
            },
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
        "layout": {
            "columns": 1,
            "rows": 3,
            "tiles": [
                {"tile": 12, "side": "A", "col": 1, "row": 1},
                {"tile": 13, "side": "A", "col": 1, "row": 2},
                {"tile": 14, "side": "B", "col": 1, "row": 3},
            ],
            "scenery": [
                {"name": "Relic token", "x": 0.25, "y": 1.5},
                {"name": "Relic token", "x": 0.5, "y": 1.3},
                {"name": "Relic token", "x": 0.75, "y": 1.5},
            ],
            "areas": [
                {"name": "North gate", "x": 0, "y": 0, "w": 1, "h": 0.25},
                {"name": "South quay", "x": 0, "y": 2.75, "w": 1, "h": 0.25},
            ],
        },
        "events": [
            {
                "turn": 3,
                "kind": "objective",
                "objective": "The crypt is collapsing: carry the reliquary out through the "
                "North gate, then tap Objective achieved at the end of the turn.",
                "text": "Dust falls from the vault: the way south is blocked by rubble.",
            }
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


# Each mission's deployment areas say where they lie on its own map (3A and 4B side by side have
# no "bottom tile"): worded from the layout, not one text for every map.
for _spec in DEMO_MISSIONS:
    if _spec.get("layout"):
        _drawn = {a["name"]: a for a in _spec["layout"].get("areas") or []}
        _spec["deployment"] = [
            {**a, "where": area_where(_spec["layout"], _drawn[a["name"]])}
            if a["name"] in _drawn
            else a
            for a in _spec["deployment"]
        ]


@transaction.atomic
def load_demo_missions() -> list[MissionDefinition]:
    """Create the demo missions if missing (by name; the demo ones already there are brought
    up to date with ``DEMO_MISSIONS``); each offers the first two demo follower
    cards that only join for one mission, two copies each, for the whole table (5.1.2)."""
    followers = guild_services.demo_mission_followers(count=2)
    out = []
    for order, spec in enumerate(DEMO_MISSIONS):
        definition = MissionDefinition.objects.filter(name=spec["name"]).first()
        if definition is not None and definition.is_demo:
            # Demo content follows the code (new fields: waves, events, map); a mission
            # already played keeps the snapshot it was opened with.
            for key, value in spec.items():
                setattr(definition, key, value)
            definition.full_clean()
            definition.save()
        if definition is None:
            definition = MissionDefinition(**spec, order=order, is_demo=True)
            definition.full_clean()
            definition.save()
            for card in followers:
                MissionFollower.objects.create(definition=definition, card=card, copies=2)
        out.append(definition)
    return out

"""Demo missions, one of every type (DemLoc rulebook 6.4.1, the objective revealing phase):
invented by us, not printed missions. The missions are data beside this module,
``missions.toml``: one ``[[mission]]`` a mission, its keys the fields of
``missions.models.MissionDefinition``; its top-level ``deployment`` is the deployment areas of
every mission that names none of its own. ``load_demo_missions()`` is idempotent (by name) and
is called by ``manage.py load_demo_content``."""

from __future__ import annotations

import tomllib
from pathlib import Path

from django.db import transaction

from guilds import services as guild_services

from ..models import MissionDefinition, MissionFollower
from ..rules.setup_map import area_where


def _read_missions() -> list[dict]:
    """The missions of ``missions.toml``, each with its deployment areas."""
    with (Path(__file__).parent / "missions.toml").open("rb") as f:
        data = tomllib.load(f)
    return [{**mission, "deployment": mission.get("deployment", data["deployment"])}
            for mission in data["mission"]]


#: The demo missions (``missions.toml``), in the order they are offered.
DEMO_MISSIONS = _read_missions()

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

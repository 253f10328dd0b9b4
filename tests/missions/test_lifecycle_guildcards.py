"""A Guild's real snapshot becomes mission cards (6.4.1 characters choice, 5.1.1-5.1.5): an
arcane mercenary with its code summons a daemon of the Guild's pantheon; a guesthouse follower
plays for free; an unready mercenary is shown but cannot be chosen."""

import pytest

from guilds import models as gm
from guilds import services as gs
from tabletop.errors import RuleViolation
from tests.guilds.factories import FollowerCardFactory

from .lifecycle_flow import cinder_summoner, cmd, open_table, prepare, roster_id, state, to_stage

pytestmark = pytest.mark.django_db


def test_arcane_mercenary_summons_from_the_guild_pantheon(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Seer", "Idle"), arcane=2)
    b = make_guild("House Birch", "blue", ("Ash",))
    page = FollowerCardFactory(name="Lamp boy", permanent_feods=0, hit_factor=2)
    cinder_summoner(a, "Seer", page)
    gs.follower_enlist(guild=a, card_id=page.pk)
    idle = gm.Mercenary.objects.get(guild=a, card__name="Idle")
    gs.mercenary_status_set(mercenary_id=idle.pk, status="exploring")

    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    to_stage(table, [sa, sb], "characters")
    with pytest.raises(RuleViolation) as err:
        cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Idle"))
    assert err.value.code == "mercenary_absent"
    state_ = state(table)
    roster = state_["setup"]["guilds"]["0"]["roster"]
    seer_card = next(c for c in roster if c["name"] == "Seer")["card"]
    assert seer_card["arcane"] == 2 and seer_card["code"]["summon_cost"] == {"common": 1, "dark": 1}
    assert state_["setup"]["guilds"]["0"]["pantheon"][0]["weapons"][0]["features"] == [
        "POISONOUS 1"
    ]

    prepare(
        table, [sa, sb], {0: ["Seer", "Lamp boy"], 1: ["Ash"]}, mana={0: {"Seer": (1, 1, 0)}}
    )
    seer_id = roster_id(table, sa, "Seer")
    cmd(table, sa, "daemon.summon", piece=f"s0-{seer_id}", level=1, hearts=2)
    daemons = [p for p in state(table)["pieces"].values() if p["kind"] == "daemon"]
    assert [d["name"] for d in daemons] == ["Cinder imp"]

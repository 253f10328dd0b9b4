"""A Guild's real snapshot becomes mission cards (6.4.1 characters choice, 5.1.1-5.1.5): an
arcane mercenary with its code summons a daemon of the Guild's pantheon; a guesthouse follower
plays for free; an unready mercenary is shown but cannot be chosen."""

import pytest

from guilds import models as gm
from guilds import services as gs
from guilds.demo import new_code
from missions.rules.setup_stages import deployment_areas
from tabletop.errors import RuleViolation
from tests.guilds.factories import (
    ArcaneCodeCardFactory,
    CardSetFactory,
    DaemonCardFactory,
    FollowerCardFactory,
    KabbalahFactory,
)

from .lifecycle_flow import all_next, cmd, open_table, roster_id, state, to_stage

pytestmark = pytest.mark.django_db


def give(guild, *cards):
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    for card in cards:
        gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)


def test_arcane_mercenary_summons_from_the_guild_pantheon(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Seer", "Idle"), arcane=2)
    b = make_guild("House Birch", "blue", ("Ash",))
    ash = KabbalahFactory(name="Ash")
    codex = ArcaneCodeCardFactory(
        name="Codex of Cinders", kabbalah=ash, summoning_white=1, summoning_black=1, price_feods=0
    )
    imp = DaemonCardFactory(
        name="Cinder imp",
        kabbalah=ash,
        level=1,
        hit_factor=3,
        primary_weapon="Claws",
        primary_weapon_type="naked_hands",
        primary_damage=2,
        primary_features="POISONOUS 1",
    )
    page = FollowerCardFactory(name="Lamp boy", permanent_feods=0, hit_factor=2)
    give(a, codex, imp, page)
    seer = gm.Mercenary.objects.get(guild=a, card__name="Seer")
    code = gs.arcane_code_add(guild=a, card_id=codex.pk)
    gs.arcane_code_assign(guild=a, code_id=code.pk, mercenary_id=seer.pk)
    gs.daemon_add(guild=a, card_id=imp.pk)
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

    for name in ("Seer", "Lamp boy"):
        cmd(table, sa, "setup.pick", character=roster_id(table, sa, name))
    cmd(table, sb, "setup.pick", character=roster_id(table, sb, "Ash"))
    all_next(table, [sa, sb])
    seer_id = roster_id(table, sa, "Seer")
    cmd(table, sa, "setup.mana", character=seer_id, common=1, dark=1, seals=0)
    all_next(table, [sa, sb])
    all_next(table, [sa, sb])
    while (s := state(table)["setup"])["stage"] == "deployment":
        acting = s["deploy"]["acting"]
        todo = [
            p["id"]
            for p in s["picks"][str(acting)]
            if f"s{acting}-{p['id']}" not in s["deploy"]["placed"]
        ]
        area = deployment_areas(s, acting)[0]  # what the page offers this Guild (6.4.1)
        cmd(table, [sa, sb][acting], "setup.deploy", character=todo[0], area=area)
    all_next(table, [sa, sb])
    cmd(table, sa, "daemon.summon", piece=f"s0-{seer_id}", level=1, hearts=2)
    daemons = [p for p in state(table)["pieces"].values() if p["kind"] == "daemon"]
    assert [d["name"] for d in daemons] == ["Cinder imp"]

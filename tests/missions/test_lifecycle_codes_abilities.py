"""A Guild's real snapshot brings everything it owns to the table (DemLoc
rulebook 5.1.1, 5.1.2, 5.1.5, 6.4.1, 6.4.2): every Arcane Code assigned to a mercenary, each
ability with its fate-point cost (paid from the player's fate at the table), and a mission
follower's full card (fixed weapons with both damages and range, abilities, reference code)."""

import pytest

from guilds import models as gm
from guilds import services as gs
from missions.models import MissionFollower
from tabletop.errors import RuleViolation
from tests.guilds.factories import ArcaneCodeCardFactory, FollowerCardFactory, KabbalahFactory

from .lifecycle_flow import cmd, give, open_table, prepare, roster_id, state

pytestmark = pytest.mark.django_db


def test_every_code_and_ability_of_a_mercenary_reaches_the_roster_5_1_1_5_1_5(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Seer",), arcane=2)
    b = make_guild("House Birch", "blue", ("Ash",))
    ash = KabbalahFactory(name="Ash")
    codes = [
        ArcaneCodeCardFactory(name=n, kabbalah=ash, summoning_white=1, price_feods=0)
        for n in ("Codex of Cinders", "Codex of Smoke")
    ]
    give(a, *codes)
    seer = gm.Mercenary.objects.get(guild=a, card__name="Seer")
    for card in codes:
        code = gs.arcane_code_add(guild=a, card_id=card.pk)
        gs.arcane_code_assign(guild=a, code_id=code.pk, mercenary_id=seer.pk)
    gm.CharacterAbility.objects.create(
        card=seer.card,
        activation="activated",
        fate_cost=2,
        standard="unique",
        name="Ash sight",
        text="Look through one wall.",
    )
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    roster = state(table)["setup"]["guilds"]["0"]["roster"]
    card = next(c for c in roster if c["name"] == "Seer")["card"]
    assert [c["name"] for c in card["codes"]] == ["Codex of Cinders", "Codex of Smoke"]
    assert card["abilities"] == [
        {
            "name": "Ash sight",
            "feature": None,
            "activation": "activated",
            "fate_cost": 2,
            "text": "Look through one wall.",
        }
    ]
    prepare(table, [sa, sb], {0: ["Seer"], 1: ["Ash"]}, mana={0: {"Seer": (1, 1, 0)}})
    seer_piece = f"s0-{roster_id(table, sa, 'Seer')}"
    piece = state(table)["pieces"][seer_piece]
    assert [c["name"] for c in piece["codes"]] == ["Codex of Cinders", "Codex of Smoke"]
    # 6.4.2: the ability is paid from the player's fate points, and refused when too few.
    fate = next(p["fate"] for p in state(table)["players"] if p["seat"] == 0)
    cmd(table, sa, "ability.use", piece=seer_piece, ability=0)
    assert next(p["fate"] for p in state(table)["players"] if p["seat"] == 0) == fate - 2
    table.refresh_from_db()
    version = table.version
    with pytest.raises(RuleViolation) as exc:
        cmd(table, sa, "ability.use", piece=seer_piece, ability=0)
    # Used once this phase already (an activated ability's effect lasts its phase, 5.1.1):
    # that refusal comes before the fate it would cost (docs/playing.md).
    assert exc.value.code == "ability_used"
    table.refresh_from_db()
    assert table.version == version  # the refusal appended nothing


def test_a_mission_follower_brings_its_whole_card_5_1_2_5_1_4(db):
    from missions.demo import load_demo_missions

    definition = load_demo_missions()[0]
    ash = KabbalahFactory(name="Ash")
    code = ArcaneCodeCardFactory(name="Codex of Cinders", kabbalah=ash, summoning_white=1)
    card = FollowerCardFactory(
        name="Hedge witch",
        arcane_ability=1,
        arcane_code=code,
        primary_weapon="Crossbow",
        primary_weapon_type="bows",
        primary_damage=3,
        primary_melee_damage=1,
        primary_range=8,
        secondary_weapon="Knife",
        secondary_weapon_type="knife",
        secondary_damage=1,
    )
    gm.CharacterAbility.objects.create(
        card=card, activation="activated", fate_cost=1, standard="fly", x=2
    )
    offer = MissionFollower.objects.create(definition=definition, card=card, copies=1)
    snap = offer.snapshot()["card"]
    bow, knife = snap["weapons"]
    assert (bow["damage"], bow["brawl_damage"], bow["range"]) == (3, 1, 8)
    assert (knife["damage"], knife["brawl_damage"], knife["range"]) == (1, 1, None)
    assert snap["code"]["name"] == "Codex of Cinders" and snap["code"]["summon_cost"] is None
    assert snap["abilities"][0] | {} == {
        "name": "FLY 2",
        "feature": "FLY 2",
        "activation": "activated",
        "fate_cost": 1,
        "text": "",
    }

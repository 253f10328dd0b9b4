"""Admin: every Guild model's list, search and change pages load; content is validated."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from guilds import models
from guilds.demo import load_demo_content

pytestmark = pytest.mark.django_db

MODELS = [
    models.CardSet,
    models.SetCode,
    models.AccountCode,
    models.CityArea,
    models.Kabbalah,
    models.Card,
    models.MercenaryCard,
    models.FollowerCard,
    models.DaemonCard,
    models.WeaponCard,
    models.ArcanePower,
    models.ArcaneCodeCard,
    models.Guild,
    models.LedgerEntry,
    models.Mercenary,
    models.ArmoryWeapon,
    models.LibraryCode,
    models.GuestFollower,
    models.PantheonDaemon,
    models.Building,
    models.LimitBonus,
    models.MissionHold,
]


def test_every_admin_page_loads(admin_client, found_guild):
    load_demo_content()
    found_guild()
    for model in MODELS:
        name = f"admin:guilds_{model._meta.model_name}_changelist"
        assert admin_client.get(reverse(name)).status_code == 200, model
        assert admin_client.get(reverse(name), {"q": "a"}).status_code == 200, model
        obj = model.objects.first()
        if obj is not None:
            change = reverse(f"admin:guilds_{model._meta.model_name}_change", args=[obj.pk])
            assert admin_client.get(change).status_code == 200, model


def test_demo_content_is_flagged_in_the_card_lists(admin_client):
    load_demo_content()
    response = admin_client.get(
        reverse("admin:guilds_weaponcard_changelist"), {"is_demo__exact": "0"}
    )
    assert b"0 weapon cards" in response.content


def test_ranged_weapons_need_a_range_and_two_damages():
    # 5.1.4: "Ranged weapons have a range of action and they have two damage values".
    with pytest.raises(ValidationError):
        models.WeaponCard(name="Bow", type="bows", damage=2).clean()
    with pytest.raises(ValidationError):
        models.WeaponCard(name="Sword", type="swords", damage=2, range=3).clean()
    models.WeaponCard(name="Bow", type="bows", damage=2, melee_damage=1, range=6).clean()


def test_standard_features_need_their_x_and_unique_ones_their_text():
    weapon = models.WeaponCard(name="Sword", type="swords", damage=2)
    with pytest.raises(ValidationError):
        models.WeaponFeature(weapon=weapon, standard="defensive").clean()  # DEFENSIVE x
    with pytest.raises(ValidationError):
        models.WeaponFeature(weapon=weapon, standard="perforating", x=2).clean()
    with pytest.raises(ValidationError):
        models.WeaponFeature(weapon=weapon, standard="unique", text=" ").clean()
    models.WeaponFeature(weapon=weapon, standard="blooding", x=1).clean()
    assert str(models.WeaponFeature(weapon=weapon, standard="blooding", x=1)) == "BLOODING 1"


def test_codes_typed_in_the_admin_are_stored_normalized():
    card_set = models.CardSet.objects.create(name="S", slug="s", kind="followers")
    assert models.SetCode.objects.create(card_set=card_set, code="abcd efgh").code == "ABCD-EFGH"


def test_a_printed_ranged_weapon_needs_a_range_and_a_brawl_damage_5_1_2_5_1_4():
    # A follower's fixed bow has both damages and its real range.
    from tests.guilds.factories import FollowerCardFactory

    card = FollowerCardFactory.build(
        name="Archer", primary_weapon="Bow", primary_weapon_type="bows", primary_damage=2
    )
    with pytest.raises(ValidationError):
        card.clean()
    card.primary_melee_damage, card.primary_range = 1, 8
    card.clean()
    card.primary_weapon_type = "swords"
    with pytest.raises(ValidationError):
        card.clean()

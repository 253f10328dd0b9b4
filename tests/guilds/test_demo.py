"""Demo content: the Rise of Guilds box of DemLoc rulebook section 4."""

import pytest
from django.core.management import call_command

from guilds import models, services
from guilds.demo import load_demo_content

pytestmark = pytest.mark.django_db


def quantities(set_name: str) -> dict[str, int]:
    card_set = models.CardSet.objects.get(name=set_name)
    return {e.card.name: e.quantity for e in card_set.contents.select_related("card")}


def test_the_box_holds_the_sets_of_section_4():
    load_demo_content()
    for n in (1, 2):
        types = models.MercenaryCard.objects.filter(
            set_entries__card_set__name=f"Basic Guild Set: Rise of Guilds {n}"
        ).values_list("type", flat=True)
        assert sorted(types) == ["belligerent", "hunter", "miserable", "sorcerer"]
    assert set(quantities("Mercenaries Set: Sons of Loch")) == {"Wechi", "Altai", "Jadis", "Alith"}
    followers = {
        name: quantity
        for name, quantity in quantities("Followers Set: Rise of the Guilds").items()
        if models.FollowerCard.objects.filter(name=name).exists()
    }
    assert followers == {
        "Purification Daemon": 4,
        "Elemental Daemon": 4,
        "City Guard": 4,
        "Hunting Mastiff": 4,
        "Pathfinder": 4,
        "Surgeon": 2,
        "Cultist": 2,
        "Dignitary": 1,
    }
    assert sum(followers.values()) == 25


def test_weapons_cover_the_nine_types_and_three_characteristics():
    load_demo_content()
    weapons = models.WeaponCard.objects.all()
    assert {w.type for w in weapons} == set(models.WeaponType.values)
    assert {w.characteristic for w in weapons} == set(models.WeaponCharacteristic.values)
    assert all(w.range and w.melee_damage for w in weapons if w.is_ranged)


def test_daemons_of_two_kabbalahs_at_levels_1_to_3_and_codes_with_two_powers():
    load_demo_content()
    full = [
        k
        for k in models.Kabbalah.objects.all()
        if set(k.daemons.values_list("level", flat=True)) >= {1, 2, 3}
    ]
    assert len(full) >= 2
    for code in models.ArcaneCodeCard.objects.all():
        assert [p.position for p in code.powers.all()] == [1, 2]
        assert all(p.effects.exists() for p in code.powers.all())


def test_everything_is_marked_demo_and_loading_twice_changes_nothing():
    load_demo_content()
    counts = (models.Card.objects.count(), models.SetCode.objects.count())
    load_demo_content()
    assert (models.Card.objects.count(), models.SetCode.objects.count()) == counts
    assert not models.Card.objects.filter(is_demo=False).exists()
    assert not models.CardSet.objects.filter(is_demo=False).exists()


def test_the_command_prints_codes_that_work(capsys, found_guild):
    call_command("load_demo_content")
    out = capsys.readouterr().out
    guild = found_guild()
    for card_set in models.CardSet.objects.filter(is_demo=True):
        code = card_set.codes.filter(redeemed_by__isnull=True).first().code
        assert code in out
        services.set_code_redeem(guild=guild, code=code)
    account = (
        models.AccountCode.objects.filter(guild__isnull=True, card_set__is_demo=True).first().code
    )
    assert account in out
    assert guild.redeemed_codes.count() == 5

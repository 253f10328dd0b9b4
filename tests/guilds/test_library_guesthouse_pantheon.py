"""Arcane Library (5.1.5), Guesthouse (5.1.2) and daemonic pantheon (5.1.3, 7.2.3.2)."""

import pytest

from guilds import rules, services
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .factories import (
    ArcaneCodeCardFactory,
    DaemonCardFactory,
    FollowerCardFactory,
    KabbalahFactory,
    MercenaryCardFactory,
)

pytestmark = pytest.mark.django_db


def rv(fn, **kwargs) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(**kwargs)
    return exc.value.code


def test_arcane_codes_join_the_library_for_their_price(guild, give):
    code_card = ArcaneCodeCardFactory(price_feods=15)
    give(guild, code_card)
    code = services.arcane_code_add(guild=guild, card_id=code_card.pk)
    guild.refresh_from_db()
    assert code.guild == guild and guild.feods == 135
    assert guild.ledger.first().reason == "code_bought"
    assert rv(services.arcane_code_add, guild=guild, card_id=code_card.pk) == "no_copy_left"


def test_the_library_has_a_capacity(guild, give):
    card = ArcaneCodeCardFactory(price_feods=0)
    capacity = rules.LIBRARY_CAPACITY[1]
    give(guild, (card, capacity + 1))
    for _ in range(capacity):
        services.arcane_code_add(guild=guild, card_id=card.pk)
    assert rv(services.arcane_code_add, guild=guild, card_id=card.pk) == "library_full"


def test_codes_go_to_characters_with_arcane_ability_up_to_that_ability(guild, give):
    sorcerer = MercenaryCardFactory(type="sorcerer", arcane_ability=2)
    brute = MercenaryCardFactory(type="belligerent", arcane_ability=0)
    card = ArcaneCodeCardFactory(price_feods=0)
    give(guild, sorcerer, brute, (card, 3))
    s = services.mercenary_enlist(guild=guild, card_id=sorcerer.pk)
    b = services.mercenary_enlist(guild=guild, card_id=brute.pk)
    codes = [services.arcane_code_add(guild=guild, card_id=card.pk) for _ in range(3)]
    assert (
        rv(services.arcane_code_assign, guild=guild, code_id=codes[0].pk, mercenary_id=b.pk)
        == "no_arcane_ability"
    )
    services.arcane_code_assign(guild=guild, code_id=codes[0].pk, mercenary_id=s.pk)
    services.arcane_code_assign(guild=guild, code_id=codes[1].pk, mercenary_id=s.pk)
    assert (
        rv(services.arcane_code_assign, guild=guild, code_id=codes[2].pk, mercenary_id=s.pk)
        == "codes_full"
    )
    assert (
        rv(services.arcane_code_assign, guild=guild, code_id=codes[0].pk, mercenary_id=s.pk)
        == "code_already_held"
    )
    services.arcane_code_unassign(guild=guild, code_id=codes[0].pk)
    assert rv(services.arcane_code_unassign, guild=guild, code_id=codes[0].pk) == "code_not_held"


def test_a_code_held_by_one_is_not_available_to_another(guild, give):
    a = MercenaryCardFactory(type="sorcerer", arcane_ability=1)
    b = MercenaryCardFactory(type="hunter", arcane_ability=1)
    card = ArcaneCodeCardFactory(price_feods=0)
    give(guild, a, b, card)
    ma = services.mercenary_enlist(guild=guild, card_id=a.pk)
    mb = services.mercenary_enlist(guild=guild, card_id=b.pk)
    code = services.arcane_code_add(guild=guild, card_id=card.pk)
    services.arcane_code_assign(guild=guild, code_id=code.pk, mercenary_id=ma.pk)
    assert (
        rv(services.arcane_code_assign, guild=guild, code_id=code.pk, mercenary_id=mb.pk)
        == "code_held_elsewhere"
    )


def test_another_guilds_code_is_not_found(guild, found_guild, give):
    card = ArcaneCodeCardFactory(price_feods=0)
    give(guild, card)
    code = services.arcane_code_add(guild=guild, card_id=card.pk)
    with pytest.raises(NotFound):
        services.arcane_code_unassign(guild=found_guild(name="Rivals"), code_id=code.pk)


def test_followers_enlisted_permanently_lodge_in_the_guesthouse(guild, give):
    # 5.1.2: "Some followers can be permanently enlisted ... shown in the Guild's Guesthouse".
    guard = FollowerCardFactory(name="City Guard", permanent_feods=30)
    cultist = FollowerCardFactory(name="Cultist", can_enlist_permanently=False)
    give(guild, (guard, 4), cultist)
    guest = services.follower_enlist(guild=guild, card_id=guard.pk)
    guild.refresh_from_db()
    assert guild.feods == 120 and guest.price_paid == 30
    assert rv(services.follower_enlist, guild=guild, card_id=cultist.pk) == "not_permanent"
    services.follower_dismiss(guild=guild, guest_id=guest.pk)
    assert not guild.guests.exists()


def test_the_guesthouse_has_a_capacity(guild, give):
    guard = FollowerCardFactory(permanent_feods=0)
    capacity = rules.GUESTHOUSE_CAPACITY[1]
    give(guild, (guard, capacity + 1))
    for _ in range(capacity):
        services.follower_enlist(guild=guild, card_id=guard.pk)
    assert rv(services.follower_enlist, guild=guild, card_id=guard.pk) == "guesthouse_full"


def test_pantheon_groups_daemons_by_kabbalah_and_level(guild, give):
    mirror, ember = KabbalahFactory(name="Black Mirror"), KabbalahFactory(name="Ember Crown")
    daemons = [
        DaemonCardFactory(name="Glass Imp", kabbalah=mirror, level=1),
        DaemonCardFactory(name="Mirror Stalker", kabbalah=mirror, level=2),
        DaemonCardFactory(name="Ember Hound", kabbalah=ember, level=2),
    ]
    give(guild, *daemons)
    for d in daemons:
        services.daemon_add(guild=guild, card_id=d.pk)
    grouped = services.pantheon_by_kabbalah(guild)
    assert {k: {lv: [c.name for c in cs] for lv, cs in v.items()} for k, v in grouped.items()} == {
        "Black Mirror": {1: ["Glass Imp"], 2: ["Mirror Stalker"]},
        "Ember Crown": {2: ["Ember Hound"]},
    }


def test_a_daemon_name_once_in_the_pantheon_and_only_from_the_database(guild, give):
    # 5.1.3: "players will not be able to use multiple daemons with the same name".
    daemon, absent = DaemonCardFactory(), DaemonCardFactory()
    give(guild, (daemon, 2))
    entry = services.daemon_add(guild=guild, card_id=daemon.pk)
    assert rv(services.daemon_add, guild=guild, card_id=daemon.pk) == "daemon_in_pantheon"
    assert rv(services.daemon_add, guild=guild, card_id=absent.pk) == "not_in_database"
    services.daemon_remove(guild=guild, entry_id=entry.pk)
    with pytest.raises(NotFound):
        services.daemon_remove(guild=guild, entry_id=entry.pk)


def test_the_pantheon_grows_with_the_library(guild, give):
    capacity = rules.PANTHEON_CAPACITY[1]
    daemons = [DaemonCardFactory() for _ in range(capacity + 1)]
    give(guild, *daemons)
    for d in daemons[:capacity]:
        services.daemon_add(guild=guild, card_id=d.pk)
    assert rv(services.daemon_add, guild=guild, card_id=daemons[-1].pk) == "pantheon_full"
    money(guild, feods=1000)
    services.building_upgrade(guild=guild, kind="library")
    services.daemon_add(guild=guild, card_id=daemons[-1].pk)


def test_the_snapshot_carries_a_followers_code_its_ranged_weapon_and_fury_5_1_2_8_4(db):
    # Point 3 (guild side): what reaches the table from a guesthouse follower.
    from guilds import models as gm
    from guilds.services.queries import _character, _fixed_weapons
    from tests.guilds.factories import FollowerCardFactory

    code = gm.ArcaneCodeCard.objects.create(
        name="Codex of Ash", kabbalah=gm.Kabbalah.objects.create(name="Ash Cult")
    )
    card = FollowerCardFactory(
        name="Hedge witch",
        arcane_ability=1,
        arcane_code=code,
        primary_weapon="Crossbow",
        primary_weapon_type="bows",
        primary_damage=3,
        primary_melee_damage=1,
        primary_range=8,
    )
    gm.CharacterAbility.objects.create(
        card=card, activation="activated", fate_cost=2, standard="fury"
    )
    fixed = _fixed_weapons(card)
    assert fixed["primary_weapon"] == ["Crossbow", "bows", 3, "", 1, 8]
    assert [c["name"] for c in fixed["codes"]] == ["Codex of Ash"]
    ability = _character(card)["abilities"][0]
    assert (ability["standard"], ability["fate_cost"], ability["activation"]) == (
        "fury",
        2,
        "activated",
    )


def test_assigning_a_code_whose_summoning_the_sorcerer_can_never_pay_warns_5_1_1_5_1_5(
    client, guild, give
):
    """5.1.1 Arcane ability: "the number of maximum arcane dice available to that character";
    a code whose summoning costs more (5.1.5 daemon summoning cost) is still worth its powers,
    so it is assigned, with a warning that it will never summon."""
    from django.urls import reverse

    sorcerer = MercenaryCardFactory(name="Malve", type="sorcerer", arcane_ability=2)
    dear = ArcaneCodeCardFactory(price_feods=0, summoning_white=1, summoning_black=2)
    cheap = ArcaneCodeCardFactory(price_feods=0, summoning_white=1, summoning_black=1)
    give(guild, sorcerer, dear, cheap)
    s = services.mercenary_enlist(guild=guild, card_id=sorcerer.pk)
    a = services.arcane_code_add(guild=guild, card_id=dear.pk)
    b = services.arcane_code_add(guild=guild, card_id=cheap.pk)
    client.force_login(guild.master)
    page = client.post(
        reverse("guilds:code_assign", args=[a.pk]), {"mercenary": s.pk}, follow=True
    ).content.decode()
    assert "Its summoning needs 3 mana; Malve holds at most 2" in page
    page = client.post(
        reverse("guilds:code_assign", args=[b.pk]), {"mercenary": s.pk}, follow=True
    ).content.decode()
    assert f"{cheap.name} assigned to Malve." in page and "Its summoning needs" not in page

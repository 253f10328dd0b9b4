"""The Dormitory (DemLoc rulebook 5.1.1, 6.2 item 2, 6.3, 6.4.1 resolution phase)."""

import pytest

from guilds import models, rules, services
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .factories import MercenaryCardFactory, WeaponCardFactory

pytestmark = pytest.mark.django_db


def rv(fn, **kwargs) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(**kwargs)
    return exc.value.code


def test_enlist_a_mercenary_from_the_database(guild, give):
    card = MercenaryCardFactory(name="Brann the Trapper")
    give(guild, card)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    assert mercenary.status == "active" and mercenary.guild == guild


def test_only_cards_in_the_database_and_only_as_many_copies_as_redeemed(guild, give):
    card = MercenaryCardFactory()
    assert rv(services.mercenary_enlist, guild=guild, card_id=card.pk) == "not_in_database"
    give(guild, card)
    services.mercenary_enlist(guild=guild, card_id=card.pk)
    assert rv(services.mercenary_enlist, guild=guild, card_id=card.pk) == "no_copy_left"
    with pytest.raises(NotFound):
        services.mercenary_enlist(guild=guild, card_id=987654)


def test_slots_are_full_at_four_with_a_level_1_dormitory(guild, give):
    # 5.1.1 slots; rules.DORMITORY_SLOTS[1] == 4.
    cards = [MercenaryCardFactory(type=t) for t in rules.MERCENARY_TYPES] + [
        MercenaryCardFactory(type="hunter")
    ]
    give(guild, *cards)
    for card in cards[:4]:
        services.mercenary_enlist(guild=guild, card_id=card.pk)
    assert rv(services.mercenary_enlist, guild=guild, card_id=cards[4].pk) == "slots_full"
    assert guild.mercenaries.count() == 4


def test_type_limit_then_upgrading_the_dormitory_raises_it(guild, give):
    hunters = [MercenaryCardFactory(type="hunter") for _ in range(3)]
    give(guild, *hunters)
    services.mercenary_enlist(guild=guild, card_id=hunters[0].pk)
    services.mercenary_enlist(guild=guild, card_id=hunters[1].pk)
    assert rv(services.mercenary_enlist, guild=guild, card_id=hunters[2].pk) == (
        "type_limit_reached"
    )
    services.building_upgrade(guild=guild, kind="dormitory")
    services.mercenary_enlist(guild=guild, card_id=hunters[2].pk)


def test_level_limit_and_fame(guild, give):
    level_3 = [MercenaryCardFactory(level=3, type=t) for t in ("hunter", "sorcerer")]
    give(guild, *level_3)
    assert rv(services.mercenary_enlist, guild=guild, card_id=level_3[0].pk) == "fame_too_low"
    money(guild, feods=150, fame=rules.FAME_FOR_LEVEL[3])
    services.mercenary_enlist(guild=guild, card_id=level_3[0].pk)
    # rules.DORMITORY_PER_LEVEL[1][3] == 1
    assert rv(services.mercenary_enlist, guild=guild, card_id=level_3[1].pk) == (
        "level_limit_reached"
    )


def test_city_control_bonus_raises_the_slots(guild, give):
    cards = [MercenaryCardFactory(type=t) for t in rules.MERCENARY_TYPES * 2]
    give(guild, *cards)
    for card in cards[:4]:
        services.mercenary_enlist(guild=guild, card_id=card.pk)
    assert rv(services.mercenary_enlist, guild=guild, card_id=cards[4].pk) == "slots_full"
    models.LimitBonus.objects.create(guild=guild, kind="slots", amount=1, source="Old Forge")
    services.mercenary_enlist(guild=guild, card_id=cards[4].pk)
    assert guild.mercenaries.count() == 5


def test_dismiss_frees_the_slot_and_returns_weapons_and_the_card(guild, give):
    card, sword = MercenaryCardFactory(), WeaponCardFactory()
    give(guild, card, sword)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    weapon = services.weapon_buy(guild=guild, card_id=sword.pk)
    services.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=mercenary.pk)
    services.mercenary_dismiss(guild=guild, mercenary_id=mercenary.pk)
    weapon.refresh_from_db()
    assert weapon.mercenary is None and weapon.slot == ""
    assert not guild.mercenaries.exists()
    services.mercenary_enlist(guild=guild, card_id=card.pk)


def test_the_dead_stay_listed_free_their_slot_and_can_never_be_used_again(guild, give):
    # 6.4.1 resolution: "characters who died are shown in the Guild Dormitory but cannot be
    # used either in the individual game nor in new missions".
    card, other, sword = MercenaryCardFactory(), MercenaryCardFactory(), WeaponCardFactory()
    give(guild, card, other, sword)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    weapon = services.weapon_buy(guild=guild, card_id=sword.pk)
    services.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=mercenary.pk)
    services.mercenary_status_set(
        mercenary_id=mercenary.pk, status="dead", note="Fell at the docks"
    )
    weapon.refresh_from_db()
    assert weapon.mercenary is None
    assert rv(services.mercenary_dismiss, guild=guild, mercenary_id=mercenary.pk) == (
        "mercenary_dead"
    )
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=weapon.pk, mercenary_id=mercenary.pk)
        == "mercenary_dead"
    )
    assert rv(services.mercenary_status_set, mercenary_id=mercenary.pk, status="active") == (
        "mercenary_dead"
    )
    mercenary.refresh_from_db()
    assert services.mercenary_can_go_on_mission(mercenary).code == "mercenary_dead"
    # Its card copy stays used; the slot is free for someone else.
    assert rv(services.mercenary_enlist, guild=guild, card_id=card.pk) == "no_copy_left"
    services.mercenary_enlist(guild=guild, card_id=other.pk)
    assert guild.mercenaries.filter(status="dead").count() == 1


def test_an_injured_mercenary_is_healed_by_paying_what_it_needs(guild, give):
    card = MercenaryCardFactory()
    give(guild, card)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    assert rv(services.mercenary_heal, guild=guild, mercenary_id=mercenary.pk) == "not_injured"
    services.mercenary_status_set(
        mercenary_id=mercenary.pk, status="injured", heal_feods=25, note="Broken arm"
    )
    mercenary.refresh_from_db()
    assert services.mercenary_can_go_on_mission(mercenary).code == "mercenary_injured"
    services.mercenary_heal(guild=guild, mercenary_id=mercenary.pk)
    guild.refresh_from_db()
    mercenary.refresh_from_db()
    assert mercenary.status == "active" and guild.feods == 125
    assert guild.ledger.first().reason == "mercenary_healed"


def test_healing_without_enough_feods_changes_nothing(guild, give):
    card = MercenaryCardFactory()
    give(guild, card)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    services.mercenary_status_set(mercenary_id=mercenary.pk, status="injured", heal_feods=500)
    assert rv(services.mercenary_heal, guild=guild, mercenary_id=mercenary.pk) == (
        "not_enough_feods"
    )
    mercenary.refresh_from_db()
    assert mercenary.status == "injured"


def test_absent_mercenaries_cannot_be_dismissed_or_equipped(guild, give):
    card, sword = MercenaryCardFactory(), WeaponCardFactory()
    give(guild, card, sword)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    weapon = services.weapon_buy(guild=guild, card_id=sword.pk)
    services.mercenary_status_set(mercenary_id=mercenary.pk, status="exploring")
    assert rv(services.mercenary_dismiss, guild=guild, mercenary_id=mercenary.pk) == (
        "mercenary_absent"
    )
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=weapon.pk, mercenary_id=mercenary.pk)
        == "mercenary_absent"
    )
    mercenary.refresh_from_db()
    assert services.mercenary_can_go_on_mission(mercenary).code == "mercenary_absent"


def test_a_mercenary_goes_on_a_mission_only_with_a_weapon(guild, give):
    # 5.1.4: "mercenaries must have at least one weapon equipped in order to be part of a
    # mission".
    card, sword = MercenaryCardFactory(), WeaponCardFactory()
    give(guild, card, sword)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    readiness = services.mercenary_can_go_on_mission(mercenary)
    assert not readiness and readiness.code == "no_weapon"
    with pytest.raises(RuleViolation):
        readiness.require()
    weapon = services.weapon_buy(guild=guild, card_id=sword.pk)
    services.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=mercenary.pk)
    assert services.mercenary_can_go_on_mission(mercenary)


def test_another_guilds_mercenary_is_not_found(guild, found_guild, give):
    card = MercenaryCardFactory()
    give(guild, card)
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    other = found_guild(name="Rivals")
    for fn in (services.mercenary_dismiss, services.mercenary_heal):
        with pytest.raises(NotFound):
            fn(guild=other, mercenary_id=mercenary.pk)
    assert guild.mercenaries.count() == 1


def test_a_full_dormitory_page_offers_no_enlist_and_says_what_frees_a_slot(client, guild, give):
    """5.1.1 slots: 4 living mercenaries in a level-1 Dormitory. The page shows no Enlist
    button, a line that the Dormitory is full and what frees a slot; the form the page used to
    show, posted anyway (an old page), is refused with ``slots_full`` at the card."""
    from django.urls import reverse

    cards = [MercenaryCardFactory(type=t) for t in rules.MERCENARY_TYPES] + [
        MercenaryCardFactory(type="hunter", name="Brann the Trapper")
    ]
    give(guild, *cards)
    client.force_login(guild.master)
    url = reverse("guilds:dormitory")
    for card in cards[:3]:
        services.mercenary_enlist(guild=guild, card_id=card.pk)
    html = client.get(url).content.decode()
    assert "Enlist Brann the Trapper</button>" in html and "data-dormitory-full" not in html
    services.mercenary_enlist(guild=guild, card_id=cards[3].pk)
    html = " ".join(client.get(url).content.decode().split())
    assert "Enlist Brann the Trapper" not in html and "Brann the Trapper" in html
    assert 'name="card"' not in html
    full = html[html.index("data-dormitory-full"):]
    full = full[: full.index("</p>")]
    assert "The Dormitory is full (4/4 slots)" in full
    assert "Dismiss a mercenary" in full and reverse("guilds:buildings") in full
    response = client.post(
        reverse("guilds:enlist"),
        {"card": cards[4].pk, "at": f"enlist-{cards[4].pk}"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400 and 'data-code="slots_full"' in response.content.decode()
    assert guild.mercenaries.count() == 4

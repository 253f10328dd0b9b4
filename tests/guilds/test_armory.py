"""The Armory (DemLoc rulebook 5.1.4, 6.2 items 2-3)."""

import pytest

from guilds import rules, services
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .factories import MercenaryCardFactory, WeaponCardFactory

pytestmark = pytest.mark.django_db


def rv(fn, **kwargs) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(**kwargs)
    return exc.value.code


@pytest.fixture
def kit(guild, give):
    """A Guild with one enlisted mercenary and, in its database, 3 one-handed and 2 two-handed
    weapons."""
    card = MercenaryCardFactory()
    one = WeaponCardFactory(name="Short Sword", grip="one", price_feods=12)
    two = WeaponCardFactory(name="War Hammer", type="hammers", grip="two", price_feods=18)
    give(guild, card, (one, 3), (two, 2))
    mercenary = services.mercenary_enlist(guild=guild, card_id=card.pk)
    return guild, mercenary, one, two


def test_buying_a_weapon_costs_its_feods_with_a_ledger_row(kit):
    guild, _, one, _ = kit
    weapon = services.weapon_buy(guild=guild, card_id=one.pk)
    guild.refresh_from_db()
    assert guild.feods == 150 - 12 and weapon.price_paid == 12
    row = guild.ledger.first()
    assert (row.currency, row.amount, row.reason, row.note) == (
        "feods",
        -12,
        "weapon_bought",
        "Short Sword",
    )


def test_not_enough_feods_buys_nothing(kit):
    guild, _, one, _ = kit
    money(guild, feods=11)
    assert rv(services.weapon_buy, guild=guild, card_id=one.pk) == "not_enough_feods"
    guild.refresh_from_db()
    assert guild.feods == 11 and not guild.weapons.exists()


def test_no_more_copies_than_in_the_database(kit):
    guild, _, _, two = kit
    services.weapon_buy(guild=guild, card_id=two.pk)
    services.weapon_buy(guild=guild, card_id=two.pk)
    assert rv(services.weapon_buy, guild=guild, card_id=two.pk) == "no_copy_left"


def test_the_armory_holds_as_many_weapons_as_its_level_allows(guild, give):
    card = WeaponCardFactory(price_feods=1)
    capacity = rules.ARMORY_CAPACITY[1]
    give(guild, (card, capacity + 1))
    for _ in range(capacity):
        services.weapon_buy(guild=guild, card_id=card.pk)
    assert rv(services.weapon_buy, guild=guild, card_id=card.pk) == "armory_full"


def test_two_one_handed_weapons_primary_on_top(kit):
    guild, mercenary, one, _ = kit
    first = services.weapon_buy(guild=guild, card_id=one.pk)
    second = services.weapon_buy(guild=guild, card_id=one.pk)
    assert (
        services.weapon_equip(guild=guild, weapon_id=first.pk, mercenary_id=mercenary.pk).slot
        == "primary"
    )
    assert (
        services.weapon_equip(guild=guild, weapon_id=second.pk, mercenary_id=mercenary.pk).slot
        == "secondary"
    )


def test_two_handed_only_on_top_with_nothing_below(kit):
    guild, mercenary, one, two = kit
    hammer = services.weapon_buy(guild=guild, card_id=two.pk)
    sword = services.weapon_buy(guild=guild, card_id=one.pk)
    assert (
        rv(
            services.weapon_equip,
            guild=guild,
            weapon_id=hammer.pk,
            mercenary_id=mercenary.pk,
            slot="secondary",
        )
        == "two_handed_needs_top"
    )
    services.weapon_equip(guild=guild, weapon_id=sword.pk, mercenary_id=mercenary.pk)
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=hammer.pk, mercenary_id=mercenary.pk)
        == "two_handed_needs_free_hands"
    )
    services.weapon_unequip(guild=guild, weapon_id=sword.pk)
    services.weapon_equip(guild=guild, weapon_id=hammer.pk, mercenary_id=mercenary.pk)
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=sword.pk, mercenary_id=mercenary.pk)
        == "hands_full"
    )


def test_a_weapon_held_by_one_mercenary_is_not_available_to_another(kit, give):
    guild, mercenary, one, _ = kit
    other_card = MercenaryCardFactory(type="sorcerer")
    give(guild, other_card)
    other = services.mercenary_enlist(guild=guild, card_id=other_card.pk)
    sword = services.weapon_buy(guild=guild, card_id=one.pk)
    services.weapon_equip(guild=guild, weapon_id=sword.pk, mercenary_id=mercenary.pk)
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=sword.pk, mercenary_id=other.pk)
        == "weapon_equipped_elsewhere"
    )
    assert (
        rv(services.weapon_equip, guild=guild, weapon_id=sword.pk, mercenary_id=mercenary.pk)
        == "weapon_already_equipped"
    )
    sword.refresh_from_db()
    assert sword.mercenary == mercenary


def test_unequipping_the_top_weapon_moves_the_lower_one_up(kit):
    guild, mercenary, one, _ = kit
    first = services.weapon_buy(guild=guild, card_id=one.pk)
    second = services.weapon_buy(guild=guild, card_id=one.pk)
    services.weapon_equip(guild=guild, weapon_id=first.pk, mercenary_id=mercenary.pk)
    services.weapon_equip(guild=guild, weapon_id=second.pk, mercenary_id=mercenary.pk)
    services.weapon_unequip(guild=guild, weapon_id=first.pk)
    second.refresh_from_db()
    assert second.slot == "primary"
    assert rv(services.weapon_unequip, guild=guild, weapon_id=first.pk) == "weapon_not_equipped"


def test_another_guilds_weapon_or_mercenary_is_not_found(kit, found_guild, give):
    guild, mercenary, one, _ = kit
    sword = services.weapon_buy(guild=guild, card_id=one.pk)
    other = found_guild(name="Rivals")
    give(other, one)
    theirs = services.weapon_buy(guild=other, card_id=one.pk)
    with pytest.raises(NotFound) as exc:
        services.weapon_equip(guild=other, weapon_id=sword.pk, mercenary_id=mercenary.pk)
    assert exc.value.code == "weapon_not_found"
    with pytest.raises(NotFound) as exc:
        services.weapon_equip(guild=other, weapon_id=theirs.pk, mercenary_id=mercenary.pk)
    assert exc.value.code == "mercenary_not_found"
    with pytest.raises(NotFound):
        services.weapon_unequip(guild=other, weapon_id=sword.pk)
    with pytest.raises(NotFound):
        services.weapon_equip(guild=guild, weapon_id="abc", mercenary_id=mercenary.pk)


def test_weapons_of_an_absent_mercenary_stay_with_him(kit):
    guild, mercenary, one, _ = kit
    sword = services.weapon_buy(guild=guild, card_id=one.pk)
    services.weapon_equip(guild=guild, weapon_id=sword.pk, mercenary_id=mercenary.pk)
    services.mercenary_status_set(mercenary_id=mercenary.pk, status="on_mission")
    assert rv(services.weapon_unequip, guild=guild, weapon_id=sword.pk) == "on_mission"  # 6.4


def test_buy_refusal_is_what_weapon_buy_answers_5_1_4(kit):
    """The Armory disables Buy with ``buy_refusal``'s reason; ``weapon_buy`` refuses with the
    same code and words."""
    guild, _, one, two = kit
    money(guild, feods=15)
    guild.refresh_from_db()
    assert services.buy_refusal(guild, one) is None
    why = services.buy_refusal(guild, two)
    assert why is not None and why.code == "not_enough_feods"
    assert why.message == "This costs 18 feods; your Guild has 15."
    with pytest.raises(RuleViolation) as exc:
        services.weapon_buy(guild=guild, card_id=two.pk)
    assert (exc.value.code, exc.value.message) == (why.code, why.message)


def test_equip_refusals_say_who_can_take_a_weapon_into_the_first_free_space_5_1_4():
    """Pure: the picker's refusals, the grip rule's (``choose_slot`` with no space asked)."""
    held = {
        1: [rules.Held(rules.PRIMARY, True)],  # a two-handed bow
        2: [rules.Held(rules.PRIMARY, False)],  # one sword
        3: [rules.Held(rules.PRIMARY, False), rules.Held(rules.SECONDARY, False)],
    }
    assert rules.equip_refusals(held, [1, 2, 3, 4], two_handed=True) == {
        1: rules.EQUIP_SHORT["two_handed_needs_free_hands"],
        2: rules.EQUIP_SHORT["two_handed_needs_free_hands"],
        3: rules.EQUIP_SHORT["two_handed_needs_free_hands"],
        4: "",
    }
    assert rules.equip_refusals(held, [1, 2, 3, 4], two_handed=False) == {
        1: "hands full", 2: "", 3: "hands full", 4: "",
    }


def test_the_armory_picker_picks_who_can_take_the_weapon_and_marks_who_cannot_5_1_4(
    client, guild, give
):
    """A new user's picker had the first name, who held a two-handed bow, picked for a pike:
    Equip answered with the grip rule. Now that mercenary's option is disabled with why, the
    first who can take it is picked, and a weapon nobody can take says so instead of Equip."""
    client.force_login(guild.master)
    brann = MercenaryCardFactory(name="Brann the Trapper")
    okka = MercenaryCardFactory(name="Okka Ironjaw")
    bow = WeaponCardFactory(name="Hunting Bow", type="bows", grip="two", price_feods=0)
    pike = WeaponCardFactory(name="Pike", type="spears", grip="two", price_feods=0)
    give(guild, brann, okka, bow, (pike, 2))
    b = services.mercenary_enlist(guild=guild, card_id=brann.pk)
    o = services.mercenary_enlist(guild=guild, card_id=okka.pk)
    held_bow = services.weapon_buy(guild=guild, card_id=bow.pk)
    services.weapon_equip(guild=guild, weapon_id=held_bow.pk, mercenary_id=b.pk)
    new_pike = services.weapon_buy(guild=guild, card_id=pike.pk)
    html = client.get("/guild/armory/").content.decode()
    row = html[html.index(f'id="weapon-{new_pike.pk}"'):]
    picker = row[row.index("<select"):row.index("</select>")]
    assert (f'<option value="{b.pk}" disabled>Brann the Trapper '
            f'({rules.EQUIP_SHORT["two_handed_needs_free_hands"]})</option>') in picker
    assert f'<option value="{o.pk}">Okka Ironjaw</option>' in picker
    # Equip as the browser sends it (the first enabled option) gives Okka the pike.
    client.post(f"/guild/armory/{new_pike.pk}/equip/", {"mercenary": o.pk, "slot": ""})
    new_pike.refresh_from_db()
    assert new_pike.mercenary_id == o.pk
    # A second pike, which neither can take now (both hold a two-handed weapon).
    second = services.weapon_buy(guild=guild, card_id=pike.pk)
    html = client.get("/guild/armory/").content.decode()
    row = html[html.index(f'id="weapon-{second.pk}"'):html.index("</li>", html.index(
        f'id="weapon-{second.pk}"'))]
    assert "data-equip-nobody" in row and "<select" not in row
    assert "Nobody can take it now: Brann the Trapper (" in row


def test_no_copy_left_reads_in_the_right_number(guild, give):
    """One copy: "Your only copy of Pike is already in use." (not "All your 1 copies")."""
    pike = WeaponCardFactory(name="Pike", grip="two", price_feods=0)
    give(guild, pike)
    services.weapon_buy(guild=guild, card_id=pike.pk)
    with pytest.raises(RuleViolation) as exc:
        services.weapon_buy(guild=guild, card_id=pike.pk)
    assert exc.value.message == "Your only copy of Pike is already in use."

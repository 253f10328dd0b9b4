"""The City Gate: set codes add cards to the Guild's database (DemLoc rulebook 6.2 item 1)."""

import pytest

from guilds import models, services
from guilds.demo import new_code
from guilds.services.queries import guild_database
from tabletop.errors import RuleViolation

from .factories import CardSetFactory, MercenaryCardFactory, WeaponCardFactory

pytestmark = pytest.mark.django_db


def a_set_with(*items):
    card_set = CardSetFactory()
    for card, quantity in items:
        models.SetCard.objects.create(card_set=card_set, card=card, quantity=quantity)
    return card_set, models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))


def test_redeeming_a_code_adds_the_sets_cards_to_the_database(guild):
    hunter, sword = MercenaryCardFactory(), WeaponCardFactory()
    _, code = a_set_with((hunter, 1), (sword, 3))
    assert guild_database(guild, "weapon") == []
    services.set_code_redeem(guild=guild, code=code.code.lower())
    [weapon_entry] = guild_database(guild, "weapon")
    assert (weapon_entry.card, weapon_entry.copies, weapon_entry.left) == (sword.weaponcard, 3, 3)
    assert [e.card for e in guild_database(guild, "mercenary")] == [hunter]
    code.refresh_from_db()
    assert code.redeemed_by == guild and code.redeemed_at is not None


def test_a_code_works_once_even_for_another_guild(guild, found_guild):
    _, code = a_set_with((WeaponCardFactory(), 1))
    services.set_code_redeem(guild=guild, code=code.code)
    for who in (guild, found_guild(name="Second House")):
        with pytest.raises(RuleViolation) as exc:
            services.set_code_redeem(guild=who, code=code.code)
        assert exc.value.code == "code_used"


@pytest.mark.parametrize("typed", ["NOPE-NOPE-NOPE", "", "   "])
def test_a_wrong_code_is_refused(guild, typed):
    with pytest.raises(RuleViolation) as exc:
        services.set_code_redeem(guild=guild, code=typed)
    assert exc.value.code == "code_unknown"


def test_two_codes_of_the_same_set_give_two_copies(guild):
    sword = WeaponCardFactory()
    card_set, first = a_set_with((sword, 2))
    second = models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))
    services.set_code_redeem(guild=guild, code=first.code)
    services.set_code_redeem(guild=guild, code=second.code)
    assert guild_database(guild, "weapon")[0].copies == 4

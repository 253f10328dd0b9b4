"""Two devices buying at once never overdraw feods (docs/architecture.md "Guilds and timers": row locks). PostgreSQL
only: real concurrent transactions in threads, each with its own connection."""


import pytest

from guilds import services
from tabletop.errors import RuleViolation
from tests.kit import race

from .conftest import money
from .factories import WeaponCardFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_two_concurrent_buys_with_feods_for_one_buy_exactly_one(guild, give):
    sword = WeaponCardFactory(price_feods=40)
    give(guild, (sword, 10))
    for _ in range(5):
        money(guild, feods=60)  # enough for one sword, not two
        before = guild.weapons.count()
        outcomes = race(2, catch=RuleViolation, timeout=30, action=lambda i: services.weapon_buy(guild=guild, card_id=sword.pk))
        refused = [o for o in outcomes if isinstance(o, RuleViolation)]
        assert len(refused) == 1 and refused[0].code == "not_enough_feods", outcomes
        guild.refresh_from_db()
        assert guild.feods == 20 and guild.weapons.count() == before + 1
        for cached, total in services.guild_ledger_audit(guild=guild).values():
            assert cached == total


def test_many_concurrent_buys_spend_exactly_what_the_guild_has(guild, give):
    sword = WeaponCardFactory(price_feods=10)
    give(guild, (sword, 10))
    money(guild, feods=35)
    outcomes = race(6, catch=RuleViolation, timeout=30, action=lambda i: services.weapon_buy(guild=guild, card_id=sword.pk))
    bought = [o for o in outcomes if not isinstance(o, RuleViolation)]
    guild.refresh_from_db()
    assert len(bought) == 3 and guild.feods == 5 and guild.weapons.count() == 3

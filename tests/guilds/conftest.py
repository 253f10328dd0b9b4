"""Fixtures: a founded Guild (through the real services) and ``give`` to put cards in its
database by redeeming a set code at the City Gate."""

import pytest

from guilds import models, services
from guilds.demo import new_code

from .factories import CardSetFactory, UserFactory


@pytest.fixture
def found_guild(db):
    """``found_guild(name="...", colour="red") -> Guild`` for a new user with a fresh account
    card."""

    def found(name: str = "House Vesper", colour: str = "red", user=None):
        card_set = CardSetFactory()
        code = models.AccountCode.objects.create(
            card_set=card_set, code=new_code(models.AccountCode)
        )
        return services.guild_create(
            master=user or UserFactory(), account_code=code.code, name=name, colour=colour
        )

    return found


@pytest.fixture
def guild(found_guild):
    return found_guild()


@pytest.fixture
def give(db):
    """``give(guild, card, quantity=1, ...)``: a new set holding the cards, redeemed by the Guild
    at the City Gate. Each argument is a card or a ``(card, quantity)`` pair."""

    def put(guild, *cards):
        card_set = CardSetFactory(kind=models.CardSet.Kind.EQUIPMENT)
        for item in cards:
            card, quantity = item if isinstance(item, tuple) else (item, 1)
            models.SetCard.objects.create(card_set=card_set, card=card, quantity=quantity)
        code = models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))
        services.set_code_redeem(guild=guild, code=code.code)
        return card_set

    return put


def money(guild, feods: int, blood_stones: int = 0, fame: int = 0):
    """Set the Guild's purse through the ledger (reason: adjustment)."""
    guild.refresh_from_db()
    services.guild_balance_change(
        guild_id=guild.pk,
        reason="adjustment",
        feods=feods - guild.feods,
        blood_stones=blood_stones - guild.blood_stones,
        fame=fame - guild.fame,
    )
    guild.refresh_from_db()
    return guild

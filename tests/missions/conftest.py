"""Fixtures for the mission lifecycle: Guilds built through the real guild services, a control
point, and demo missions."""

import pytest

from guilds import models as gm
from guilds import services as gs
from guilds.demo import new_code
from tests.guilds.factories import (
    AreaFactory,
    CardSetFactory,
    MercenaryCardFactory,
    UserFactory,
    WeaponCardFactory,
)


@pytest.fixture
def make_guild(db):
    """``make_guild(name, colour, mercenaries=("A", "B"), fame=0, feods=150) -> Guild``: a
    founded Guild with level-1 mercenaries of those names, each with a sword equipped. Cards of
    one name are shared between guilds (a mercenary card exists once in the catalog)."""

    def make(name, colour="red", mercenaries=("Rook", "Wren"), fame=0, feods=150, arcane=0):
        code = gm.AccountCode.objects.create(
            card_set=CardSetFactory(), code=new_code(gm.AccountCode)
        )
        guild = gs.guild_create(
            master=UserFactory(), account_code=code.code, name=name, colour=colour
        )
        cards = []
        for merc in mercenaries:
            card = gm.MercenaryCard.objects.filter(name=merc).first() or MercenaryCardFactory(
                name=merc, area=AreaFactory(), arcane_ability=arcane, hit_factor=3, armor=3
            )
            cards.append(card)
        sword = WeaponCardFactory(price_feods=0)
        card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
        for card in cards:
            gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
        gm.SetCard.objects.create(card_set=card_set, card=sword, quantity=len(cards))
        set_code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
        gs.set_code_redeem(guild=guild, code=set_code.code)
        for card in cards:
            merc = gs.mercenary_enlist(guild=guild, card_id=card.pk)
            weapon = gs.weapon_buy(guild=guild, card_id=sword.pk)
            gs.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=merc.pk)
        guild.refresh_from_db()
        gs.guild_balance_change(
            guild_id=guild.pk,
            reason="adjustment",
            fame=fame - guild.fame,
            feods=feods - guild.feods,
        )
        guild.refresh_from_db()
        return guild

    return make


@pytest.fixture
def demo_missions(db):
    from missions.demo import load_demo_missions

    return {d.kind: d for d in load_demo_missions()}


@pytest.fixture
def control_point(db):
    def make(name="Salt Gate", holder=None):
        return gm.ControlPoint.objects.create(
            name=name, area=AreaFactory(name="Docks"), kind="market", holder=holder
        )

    return make

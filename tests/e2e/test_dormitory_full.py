"""A full Dormitory (DemLoc rulebook 5.1.1 slots) on a 360 px phone: no Enlist button, a line
that it is full and what frees a slot; dismissing one brings the buttons back."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from guilds.rules import MERCENARY_TYPES
from tests.e2e.conftest import login, shot, tap_twice
from tests.guilds.factories import CardSetFactory, MercenaryCardFactory
from tests.missions.lifecycle_flow import build_guild


def test_5_1_1_a_full_dormitory_offers_no_enlist_until_a_slot_is_freed(new_phone):
    names = ("Rook", "Wren", "Ash", "Birch")  # one of each type: the per-type limit is 2
    for name, type_ in zip(names, MERCENARY_TYPES, strict=True):
        MercenaryCardFactory(name=name, type=type_)
    guild = build_guild("House Ash", "red", names)
    spare = MercenaryCardFactory(name="Brann the Trapper", type=MERCENARY_TYPES[1])
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    gm.SetCard.objects.create(card_set=card_set, card=spare, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code="DORMFULL01")
    gs.set_code_redeem(guild=guild, code=code.code)
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/dormitory/")
    full = phone.locator("[data-dormitory-full]")
    expect(full).to_contain_text("The Dormitory is full (4/4 slots)")
    expect(phone.get_by_role("button", name="Enlist Brann the Trapper")).to_have_count(0)
    shot(phone, "dormitory-full")
    tap_twice(phone.locator('[data-mercenary="Wren"]').get_by_role("button", name="Dismiss"))
    expect(phone.locator("[data-dormitory-full]")).to_have_count(0)
    phone.get_by_role("button", name="Enlist Brann the Trapper").tap()
    expect(phone.locator("[data-dormitory-full]")).to_be_visible()
    expect(phone.locator('[data-mercenary="Brann the Trapper"]')).to_be_visible()

"""Buy of a weapon the Guild cannot pay (DemLoc rulebook 5.1.4: "players have to use the feods
of their Guild"). Found by a new user: Buy Soulreaver (70 feods, 45 in the purse) stayed enabled
and was refused only after the tap, unlike the Dormitory's Enlist. It is disabled, its reason
beside it (weapon_buy's own refusal, word for word); an affordable Buy stays enabled and works
by touch."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from tests.guilds.factories import CardSetFactory, WeaponCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import shot
from .test_mission_lobby import login


def test_buy_of_a_weapon_the_purse_cannot_pay_is_disabled_with_its_reason_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook",), feods=45)
    soulreaver = WeaponCardFactory(name="Soulreaver", price_feods=70)
    dagger = WeaponCardFactory(name="Dirk", price_feods=20)
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    for card in (soulreaver, dagger):
        gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code="BUYWHY000001")
    gs.set_code_redeem(guild=guild, code=code.code)
    assert gm.Guild.objects.get(pk=guild.pk).feods == 45
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/armory/")
    buy = phone.get_by_role("button", name="Buy Soulreaver · 70 feods")
    buy.scroll_into_view_if_needed()
    expect(buy).to_be_disabled()
    why = phone.locator(f"#buy-{soulreaver.pk} [data-buy-why]")
    expect(why).to_have_text("Not now: This costs 70 feods; your Guild has 45.")
    box = why.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    shot(phone, "guild-buy-why")
    other = phone.get_by_role("button", name="Buy Dirk · 20 feods")
    expect(other).to_be_enabled()
    other.scroll_into_view_if_needed()
    other.tap()
    expect(phone.locator("[data-weapon='Dirk']")).to_have_count(1)
    assert not gm.ArmoryWeapon.objects.filter(guild=guild, card=soulreaver).exists()
    # 25 feods left: Soulreaver's reason says the new purse
    expect(phone.locator(f"#buy-{soulreaver.pk} [data-buy-why]")).to_have_text(
        "Not now: This costs 70 feods; your Guild has 25."
    )

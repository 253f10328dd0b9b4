"""Buy of a weapon the Guild cannot pay (DemLoc rulebook 5.1.4: "players have to use the feods
of their Guild"). Found by a new user: Buy Soulreaver (70 feods, 45 in the purse) stayed enabled
and was refused only after the tap, unlike the Dormitory's Enlist. It is disabled, its reason
beside it (weapon_buy's own refusal, word for word); an affordable Buy stays enabled and works
by touch."""

from playwright.sync_api import expect

from guilds import models as gm
from tests.guilds.factories import WeaponCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import disabled_with_reason, guild_phone, redeem_cards, tap_enabled


def test_buy_of_a_weapon_the_purse_cannot_pay_is_disabled_with_its_reason_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook",), feods=45)
    soulreaver = WeaponCardFactory(name="Soulreaver", price_feods=70)
    dagger = WeaponCardFactory(name="Dirk", price_feods=20)
    redeem_cards(guild, (soulreaver, dagger), "BUYWHY000001")
    assert gm.Guild.objects.get(pk=guild.pk).feods == 45
    phone = guild_phone(new_phone, guild, "/guild/armory/")
    disabled_with_reason(
        phone,
        "Buy Soulreaver · 70 feods",
        phone.locator(f"#buy-{soulreaver.pk} [data-buy-why]"),
        "Not now: This costs 70 feods; your Guild has 45.",
        "guild-buy-why",
    )
    tap_enabled(phone, "Buy Dirk · 20 feods")
    expect(phone.locator("[data-weapon='Dirk']")).to_have_count(1)
    assert not gm.ArmoryWeapon.objects.filter(guild=guild, card=soulreaver).exists()
    # 25 feods left: Soulreaver's reason says the new purse
    expect(phone.locator(f"#buy-{soulreaver.pk} [data-buy-why]")).to_have_text(
        "Not now: This costs 70 feods; your Guild has 25."
    )

"""Enlist of a mercenary the Guild cannot take yet (DemLoc rulebook 5.1.1, 6.3: a level 2
mercenary joins a Guild with at least 10 fame). Found by a new user: Enlist Altai stayed enabled
and was refused only after the tap. It is disabled, its reason beside it (the refusal's own
words); a level 1 mercenary's Enlist stays enabled and works by touch."""

from playwright.sync_api import expect

from guilds import models as gm
from tests.guilds.factories import MercenaryCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import disabled_with_reason, guild_phone, redeem_cards, tap_enabled


def test_enlist_of_a_level_2_mercenary_without_fame_is_disabled_with_its_reason_5_1_1(new_phone):
    guild = build_guild("House Ash", "red", ("Rook",))
    altai = MercenaryCardFactory(name="Altai", level=2, type="sorcerer")
    wren = MercenaryCardFactory(name="Wren", level=1, type="sorcerer")
    redeem_cards(guild, (altai, wren), "ENLISTWHY001")
    assert gm.Guild.objects.get(pk=guild.pk).fame < 10
    phone = guild_phone(new_phone, guild, "/guild/dormitory/")
    disabled_with_reason(
        phone, "Enlist Altai", phone.locator(f"#enlist-{altai.pk} [data-enlist-why]"),
        "Not now: A level 2 mercenary joins a Guild with at least 10 fame (yours: 0).",
        "guild-enlist-why",
    )
    tap_enabled(phone, "Enlist Wren")
    expect(phone.locator("[data-mercenary='Wren']")).to_have_count(1)
    assert not gm.Mercenary.objects.filter(guild=guild, card=altai).exists()

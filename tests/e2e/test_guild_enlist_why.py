"""Enlist of a mercenary the Guild cannot take yet (DemLoc rulebook 5.1.1, 6.3: a level 2
mercenary joins a Guild with at least 10 fame). Found by a new user: Enlist Altai stayed enabled
and was refused only after the tap. It is disabled, its reason beside it (the refusal's own
words); a level 1 mercenary's Enlist stays enabled and works by touch."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from tests.guilds.factories import CardSetFactory, MercenaryCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import shot
from .test_mission_lobby import login


def test_enlist_of_a_level_2_mercenary_without_fame_is_disabled_with_its_reason_5_1_1(new_phone):
    guild = build_guild("House Ash", "red", ("Rook",))
    altai = MercenaryCardFactory(name="Altai", level=2, type="sorcerer")
    wren = MercenaryCardFactory(name="Wren", level=1, type="sorcerer")
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    for card in (altai, wren):
        gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code="ENLISTWHY001")
    gs.set_code_redeem(guild=guild, code=code.code)
    assert gm.Guild.objects.get(pk=guild.pk).fame < 10
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/dormitory/")
    enlist = phone.get_by_role("button", name="Enlist Altai")
    enlist.scroll_into_view_if_needed()
    expect(enlist).to_be_disabled()
    why = phone.locator(f"#enlist-{altai.pk} [data-enlist-why]")
    expect(why).to_have_text("Not now: A level 2 mercenary joins a Guild with at least 10 fame (yours: 0).")
    box = why.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    shot(phone, "guild-enlist-why")
    other = phone.get_by_role("button", name="Enlist Wren")
    expect(other).to_be_enabled()
    other.scroll_into_view_if_needed()
    other.tap()
    expect(phone.locator("[data-mercenary='Wren']")).to_have_count(1)
    assert not gm.Mercenary.objects.filter(guild=guild, card=altai).exists()

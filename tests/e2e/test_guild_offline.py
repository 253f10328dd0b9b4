"""Guild pages offline (docs/playing.md, "The Guild pages: where a tap lands"). Found by a new
user: in the Dormitory, a Heal tapped offline was dropped with no word at the button, and the
red "Offline: no network." banner stayed up after the network came back, even after a Heal that
worked. A tap the phone could not send says so at its control (the form keeps what was typed),
and the banner goes when the network is back."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from tests.missions.lifecycle_flow import build_guild

from .conftest import at_the_gate_with_a_code, guild_phone, in_screen, shot


def test_heal_tapped_offline_says_not_sent_and_the_banner_goes_when_back(new_phone):
    """Heal (6.4.2: an injured mercenary is healed for its feods of care) tapped offline."""
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    merc = gm.Mercenary.objects.filter(guild=guild).first()
    gs.mercenary_status_set(mercenary_id=merc.pk, status="injured", heal_feods=5)
    feods = gm.Guild.objects.get(pk=guild.pk).feods
    phone = guild_phone(new_phone, guild, "/guild/dormitory/")
    heal = phone.get_by_role("button", name="Heal · 5 feods")
    heal.scroll_into_view_if_needed()
    banner = phone.locator("#net")
    phone.context.set_offline(True)
    expect(banner).to_have_text("Offline: no network.")
    heal.tap()
    note = phone.locator(f"#merc-{merc.pk} [data-code=not_sent]")
    expect(note).to_have_text("Not sent: no connection. Tap again when you are back online.")
    in_screen(note)
    shot(phone, "guild-offline-heal-not-sent")
    assert gm.Mercenary.objects.get(pk=merc.pk).status == "injured"
    phone.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=5000)  # "Back online." for a moment, then gone
    heal.tap()
    expect(phone.locator(f"#merc-{merc.pk}")).to_contain_text("healed")
    expect(note).to_have_count(0)
    expect(banner).to_be_hidden()
    shot(phone, "guild-offline-heal-back")
    assert gm.Mercenary.objects.get(pk=merc.pk).status == "active"
    assert gm.Guild.objects.get(pk=guild.pk).feods == feods - 5


def test_a_code_typed_offline_is_kept_and_the_banner_goes_after_a_tap_that_works(new_phone):
    """City Gate (6.2 item 2): Redeem tapped offline keeps the typed set code; an answer from
    the server takes the banner away even when the browser's 'online' event came early."""
    guild, code, phone = at_the_gate_with_a_code(new_phone, "OFFLINE00001")
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Redeem").tap()
    note = phone.locator("#guild-main [data-code=not_sent]")
    expect(note).to_be_visible()
    in_screen(note)
    expect(phone.locator("#set-code")).to_have_value(code.code)
    shot(phone, "guild-offline-redeem-kept")
    phone.context.set_offline(False)
    phone.get_by_role("button", name="Redeem").tap()
    expect(phone.locator("#redeem .notice.done")).to_have_text(
        "Bows of the Loch: its cards are in your database."
    )
    expect(phone.locator("#net")).to_be_hidden(timeout=5000)
    assert gm.SetCode.objects.get(pk=code.pk).redeemed_by_id == guild.pk

"""A double tap on a Guild form changes nothing the second time (the house rule; DemLoc rulebook
5.1.4: a weapon is bought once with the Guild's feods). Found by a new user: a double tap on
"Buy <weapon>" in the Armory bought it twice (two ledger rows of -15 feods, stock 3 -> 1).
Every Guild form carries a one-time key (``guilds.services.form_once``)."""

from playwright.sync_api import expect

from guilds import models as gm
from tests.guilds.factories import WeaponCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import at_the_gate_with_a_code, guild_phone, redeem_cards, shot


def test_a_double_tap_on_buy_buys_one_weapon_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    card = WeaponCardFactory(name="Hunting Bow", price_feods=15)
    redeem_cards(guild, (card,), "DBLTAP000001", quantity=3)
    feods = gm.Guild.objects.get(pk=guild.pk).feods
    phone = guild_phone(new_phone, guild, "/guild/armory/")
    button = phone.get_by_role("button", name="Buy Hunting Bow")
    button.tap()
    # The answer is in before the second tap of a double tap: it lands on the new Buy button.
    expect(phone.locator("[data-weapon='Hunting Bow']")).to_have_count(1)
    button.tap()
    expect(phone.locator("#guild-main")).to_contain_text(
        "a second tap on the same button changes nothing"
    )
    shot(phone, "guild-double-tap-buy")
    assert gm.ArmoryWeapon.objects.filter(guild=guild, card=card).count() == 1
    assert gm.Guild.objects.get(pk=guild.pk).feods == feods - 15
    assert gm.LedgerEntry.objects.filter(guild=guild, reason="weapon_bought").count() == 1
    # A deliberate tap a moment later buys the second copy.
    phone.wait_for_timeout(1200)
    button.tap()
    expect(phone.locator("[data-weapon='Hunting Bow']")).to_have_count(2)
    assert gm.LedgerEntry.objects.filter(guild=guild, reason="weapon_bought").count() == 2


def test_a_double_tap_on_redeem_is_silent_and_redeems_once(new_phone):
    """City Gate (6.2 item 2): a double tap on Redeem. Found by a new user: the second tap hit
    the answer's empty Set code field and Chromium's "Please fill out this field" bubble covered
    the confirmation. Redeem is disabled while its request flies and while the field is empty:
    the second tap asks nothing (no invalid event, no bubble), sends nothing, and the
    confirmation stays in view; typing a code enables Redeem again."""
    guild, code, phone = at_the_gate_with_a_code(new_phone, "DBLTAP000002")
    redeemed = gm.SetCode.objects.filter(redeemed_by=guild).count()
    phone.evaluate(
        "window.invalids = 0; document.addEventListener('invalid', () => window.invalids++, true)"
    )
    button = phone.get_by_role("button", name="Redeem")
    expect(button).to_be_enabled()
    requests = []
    phone.on("request", lambda r: requests.append(r.url) if "redeem" in r.url else None)
    button.tap()
    done = phone.locator("#redeem .notice.done")
    expect(done).to_have_text("Bows of the Loch: its cards are in your database.")
    button.tap(force=True)  # the second tap of the double tap, on the answer's button
    phone.wait_for_timeout(300)
    assert phone.evaluate("window.invalids") == 0  # no native validation bubble
    expect(button).to_be_disabled()
    expect(done).to_be_visible()
    box = done.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 740, box
    shot(phone, "guild-double-tap-redeem")
    assert len(requests) == 1, requests
    assert gm.SetCode.objects.filter(redeemed_by=guild).count() == redeemed + 1
    phone.locator("#set-code").press_sequentially("X")
    expect(button).to_be_enabled()
    phone.locator("#set-code").press("Backspace")
    expect(button).to_be_disabled()  # an empty field: nothing to send

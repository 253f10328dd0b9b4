"""Where a tap lands on the Guild pages (docs/playing.md, "The Guild pages: where a tap
lands"), by touch on a 360x740 phone: after Equip, Unequip, Buy and Enlist the phone shows that tap's result (the row
it made or changed, with its confirmation) and the row's next control, inside the viewport and
below the sticky top bar; a refusal is at the control that was used, inside the viewport.
Found by a new user: Equip by touch put the phone at the bottom of the page (scrollY 430 ->
2,797) with "Weapon equipped." at the top, off screen."""

from playwright.sync_api import expect

from guilds import models
from guilds import services as gs
from guilds.demo import load_demo_content
from tests.e2e.conftest import ARTIFACTS, login
from tests.guilds.factories import UserFactory

HEIGHT = 740  # new_phone's viewport

SETS = (
    "Basic Guild Set: Rise of Guilds 1",
    "Followers Set: Rise of the Guilds",
    "Rise of Guilds: Weapons and Arcane Codes",
)


def a_guild_with_a_long_armory():
    """A Guild of the demo content: three sets redeemed, three mercenaries enlisted, six weapons
    bought (a long armory page), the first on Brann the Trapper's top space, feods to spare."""
    load_demo_content()
    account = models.AccountCode.objects.filter(guild__isnull=True).first().code
    guild = gs.guild_create(master=UserFactory(), account_code=account, name="House Thumb", colour="red")
    for name in SETS:
        code = models.SetCode.objects.filter(card_set__name=name, redeemed_by__isnull=True)
        gs.set_code_redeem(guild=guild, code=code.first().code)
    for name in ("Brann the Trapper", "Okka Ironjaw", "Malve of the Ash"):
        gs.mercenary_enlist(guild=guild, card_id=models.MercenaryCard.objects.get(name=name).pk)
    gs.guild_balance_change(guild_id=guild.pk, reason="adjustment", feods=500)
    weapons = [
        e.card
        for e in gs.queries.guild_database(guild, models.Card.Kind.WEAPON)
        if e.left and e.card.name != "Hunting Bow"
    ]
    bought = [gs.weapon_buy(guild=guild, card_id=card.pk) for card in weapons[:6]]
    brann = guild.mercenaries.get(card__name="Brann the Trapper")
    gs.weapon_equip(guild=guild, weapon_id=bought[0].pk, mercenary_id=brann.pk, slot="primary")
    return guild


def visible_band(phone):
    """``(top, bottom)`` of the part of the viewport no fixed or sticky bar covers."""
    top = phone.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
    return top, HEIGHT


def assert_in_view(phone, locator, what):
    """``locator`` is wholly inside the viewport, below the top bar."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    top, bottom = visible_band(phone)
    assert box is not None, what
    assert box["y"] >= top - 1 and box["y"] + box["height"] <= bottom + 1, (
        f"{what} at y={box['y']:.0f}..{box['y'] + box['height']:.0f}, "
        f"viewport {top:.0f}..{bottom} (scrollY {phone.evaluate('scrollY')})"
    )


def shot(phone, name):
    """What the phone shows (the viewport, not the whole page): ``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def scroll_to(phone, locator):
    """Bring ``locator`` to the middle of the screen, as a thumb scrolling there would."""
    locator.scroll_into_view_if_needed()
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")


def test_equip_and_unequip_by_touch_land_on_the_weapon_row(new_phone):
    guild = a_guild_with_a_long_armory()
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/armory/")
    assert phone.evaluate("document.documentElement.scrollHeight") > 2 * HEIGHT

    # The last weapon of the armory list, well down the page.
    row = phone.locator("#guild-main li[data-weapon]").last
    name = row.get_attribute("data-weapon")
    scroll_to(phone, row.get_by_role("button", name="Equip"))
    before = phone.evaluate("scrollY")
    assert before > 300
    row.locator("select[name=mercenary]").select_option(label="Okka Ironjaw")
    row.get_by_role("button", name="Equip").tap()
    row = phone.locator(f'#guild-main li[data-weapon="{name}"]')
    done = row.locator(".notice.done")
    expect(done).to_have_text(f"{name} equipped: Okka Ironjaw, top space.")
    assert_in_view(phone, done, "the Equip confirmation")
    assert_in_view(phone, row.get_by_role("button", name="Unequip"), "Unequip")
    assert_in_view(phone, row.locator("strong").first, "the weapon's name")
    expect(phone.locator("#guild-main .guild-head ~ .notice")).to_have_count(0)  # not at the top
    shot(phone, "guild-landing-equip")

    row.get_by_role("button", name="Unequip").tap()
    done = row.locator(".notice.done")
    expect(done).to_have_text(f"{name} is back in the armory.")
    assert_in_view(phone, done, "the Unequip confirmation")
    assert_in_view(phone, row.get_by_role("button", name="Equip"), "Equip")
    shot(phone, "guild-landing-unequip")

    # A refusal is at the control that was used, inside the viewport: the lower space asked
    # for a mercenary whose top space is empty (5.1.4; who cannot take the weapon at all is
    # disabled in the picker, with why).
    scroll_to(phone, row.get_by_role("button", name="Equip"))
    row.locator("select[name=mercenary]").select_option(label="Malve of the Ash")
    row.locator("select[name=slot]").select_option("secondary")
    row.get_by_role("button", name="Equip").tap()
    refusal = row.locator(".alert[role=alert]")
    expect(refusal).to_be_visible()
    assert_in_view(phone, refusal, "the refusal")
    assert_in_view(phone, row.get_by_role("button", name="Equip"), "Equip after the refusal")
    shot(phone, "guild-landing-equip-refused")


def tap_below_the_fold(new_phone, path: str, button: str):
    """The Guild master of a long armory opens ``path``, scrolls to the button named ``button``
    (more than a screen down) and taps it; returns the phone."""
    guild = a_guild_with_a_long_armory()
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto(path)
    control = phone.get_by_role("button", name=button)
    scroll_to(phone, control)
    assert phone.evaluate("scrollY") > HEIGHT  # below the first screen
    control.tap()
    return phone


def test_buy_by_touch_lands_on_the_bought_weapon_with_its_equip(new_phone):
    phone = tap_below_the_fold(new_phone, "/guild/armory/", "Buy Hunting Bow · 15 feods")
    row = phone.locator('#guild-main li[data-weapon="Hunting Bow"]')
    done = row.locator(".notice.done")
    expect(done).to_contain_text("Hunting Bow bought: it is in the armory.")
    # What the purse has left is said where the result lands (the purse is off screen, 5.1.4).
    feods = models.Guild.objects.get(name="House Thumb").feods
    expect(done).to_have_text(f"Hunting Bow bought: it is in the armory. {feods} feods left.")
    assert_in_view(phone, done, "the Buy confirmation")
    assert_in_view(phone, row.get_by_role("button", name="Equip"), "the new weapon's Equip")
    shot(phone, "guild-landing-buy")


def test_enlist_by_touch_lands_on_the_new_mercenary(new_phone):
    phone = tap_below_the_fold(new_phone, "/guild/dormitory/", "Enlist Tibbs Gutterhand")
    row = phone.locator('#guild-main li[data-mercenary="Tibbs Gutterhand"]')
    done = row.locator(".notice.done")
    expect(done).to_have_text("Tibbs Gutterhand enlisted.")
    assert_in_view(phone, done, "the Enlist confirmation")
    # The next step of a new mercenary without a weapon: the Armory, from its row.
    assert_in_view(phone, row.get_by_role("link", name="arm in the Armory"), "the Armory link")
    shot(phone, "guild-landing-enlist")


def test_lodging_a_follower_by_touch_lands_on_the_new_guest(new_phone):
    """The Guesthouse: a follower lodged (enlisted for good, 5.1.2) by touch, its Lodge button
    scrolled to the middle of the screen: the phone shows the new guest's row with its
    confirmation and its next control (Send away), inside the viewport."""
    guild = a_guild_with_a_long_armory()
    gs.guild_balance_change(guild_id=guild.pk, reason="adjustment", feods=500)
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/guesthouse/")
    control = phone.locator("#guild-main li[id^=lodge-] button").last
    name = control.inner_text().removeprefix("Lodge ").split(" · ")[0]
    scroll_to(phone, control)
    before = phone.evaluate("scrollY")
    control.tap()
    row = phone.locator(f'#guild-main li[data-guest="{name}"]')
    done = row.locator(".notice.done")
    expect(done).to_have_text(f"{name} lodged.")
    phone.wait_for_timeout(200)
    assert_in_view(phone, done, "the Lodge confirmation")
    assert_in_view(phone, row.get_by_role("button", name="Send away"), "Send away")
    shot(phone, "guild-landing-lodge")
    print(f"lodge {name}: scrollY {before} -> {phone.evaluate('scrollY')}")

"""The Armory by touch at 360x740 (DemLoc rulebook 5.1.4: weapons bought with the Guild's feods
and equipped in a mercenary's spaces). Found by a new user: a refused Equip reset its menus
(mercenary, space) to their defaults, and of two tabs that both tapped "Buy" the loser got no
message at all, its row gone and its page scrolled far away (docs/playing.md, "The Guild
pages: where a tap lands": a refused tap says why, inside the screen, choices kept)."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from tests.guilds.factories import CardSetFactory, WeaponCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import shot
from .test_mission_lobby import login


def weapon_in_database(guild, name: str, price: int = 5):
    """A weapon card of one copy in ``guild``'s database (its set code redeemed)."""
    card = WeaponCardFactory(name=name, price_feods=price)
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code=f"ARM{card.pk:07d}")
    gs.set_code_redeem(guild=guild, code=code.code)
    return card


def armory(new_phone, guild):
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/armory/")
    return phone


def test_a_refused_equip_keeps_the_mercenary_and_space_chosen_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    card = weapon_in_database(guild, "Hooked Glaive")
    weapon = gs.weapon_buy(guild=guild, card_id=card.pk)
    phone = armory(new_phone, guild)
    row = phone.locator(f"#weapon-{weapon.pk}")
    who, space = row.locator('select[name="mercenary"]'), row.locator('select[name="slot"]')
    who.select_option(label="Wren")
    space.select_option("primary")  # Wren's top space holds his sword: refused
    wren = who.input_value()
    row.get_by_role("button", name="Equip").tap()
    alert = phone.locator(f"#weapon-{weapon.pk}").get_by_role("alert")
    expect(alert).to_contain_text("space already holds a weapon")
    expect(alert).to_be_in_viewport()
    row = phone.locator(f"#weapon-{weapon.pk}")
    expect(row.locator('select[name="mercenary"]')).to_have_value(wren)
    expect(row.locator('select[name="slot"]')).to_have_value("primary")
    print("refused Equip: the menus still say Wren, top space")


def test_of_two_tabs_buying_the_last_copy_the_loser_is_told_inside_the_screen_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    for n in range(6):  # a long page: the buy rows are far down
        weapon_in_database(guild, f"Spare blade {n}")
    card = weapon_in_database(guild, "Zweihander of Loch")
    first, second = armory(new_phone, guild), armory(new_phone, guild)
    buttons = [p.get_by_role("button", name="Buy Zweihander of Loch") for p in (first, second)]
    for button in buttons:
        button.scroll_into_view_if_needed()
    buttons[0].tap()
    expect(first.locator("[data-weapon='Zweihander of Loch']")).to_be_visible()
    buttons[1].tap()
    alert = second.locator("#guild-main").get_by_role("alert")
    expect(alert).to_contain_text("Zweihander of Loch")
    expect(alert).to_be_in_viewport()
    box = alert.bounding_box()
    print(f"the loser's refusal at y={box['y']:.0f} (scrollY {second.evaluate('scrollY')})")
    assert gm.ArmoryWeapon.objects.filter(guild=guild, card=card).count() == 1


def test_the_equip_menu_shows_a_long_mercenary_name_whole_at_360_px_5_1_4(new_phone):
    """Found by a new user: the mercenary menu of the Equip row was 152 px wide and cut
    "Brann the Trapper" to "Brann the Trap…"; it has the row to itself."""
    guild = build_guild("House Ash", "red", ("Brann the Trapper", "Wren"))
    card = weapon_in_database(guild, "Hunting Bow")
    weapon = gs.weapon_buy(guild=guild, card_id=card.pk)
    phone = armory(new_phone, guild)
    who = phone.locator(f"#weapon-{weapon.pk}").locator('select[name="mercenary"]')
    who.select_option(label="Brann the Trapper")
    who.scroll_into_view_if_needed()
    expect(who).to_be_in_viewport()
    # The width the chosen name needs in the menu's own font, plus its padding and arrow.
    need = who.evaluate(
        """s => { const c = document.createElement("canvas").getContext("2d");
                  const st = getComputedStyle(s); c.font = st.font;
                  return c.measureText(s.options[s.selectedIndex].text).width
                         + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + 24; }"""
    )
    box = who.bounding_box()
    shot(phone, "armory-equip-long-name")
    print(f"mercenary menu {box['width']:.0f} px wide, the name needs {need:.0f} px")
    assert box["width"] >= need
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360

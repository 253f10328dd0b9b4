"""Guild pages read on a 360x740 phone (found by a new user): the roster's weapon table broke
"Hatche/t" inside the word; the Roster had no Guild menu row."""

import re

from playwright.sync_api import expect

from guilds import models
from guilds import services as gs
from tests.e2e.conftest import login, shot
from tests.e2e.test_guild_landing import a_guild_with_a_long_armory

SPLIT_WORDS = """(sel) => {
  const split = [];
  document.querySelectorAll(sel).forEach((cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.data))) {
        const r = document.createRange();
        r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  });
  return split;
}"""


def test_the_roster_never_breaks_a_word_of_its_weapon_table(new_phone):
    guild = a_guild_with_a_long_armory()
    hatchet = gs.weapon_buy(guild=guild, card_id=models.WeaponCard.objects.get(name="Hatchet").pk)
    okka = guild.mercenaries.get(card__name="Okka Ironjaw")
    gs.weapon_equip(guild=guild, weapon_id=hatchet.pk, mercenary_id=okka.pk)
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/roster/")
    assert "Hatchet" in phone.locator('[data-mercenary="Okka Ironjaw"] table').inner_text()
    shot(phone, "guild-roster-words")
    assert phone.evaluate(SPLIT_WORDS, ".roster table.plain td") == []


def test_the_roster_has_the_guild_menu_row_in_the_first_screen(new_phone):
    """The Roster (5.8, 6.3) carries the same Guild menu row as the other Guild pages, on the
    first screen (found by a new user: only "Back to the office", at the very bottom); a tap
    on its Armory goes to the Armory."""
    guild = a_guild_with_a_long_armory()
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/roster/")
    menu = phone.get_by_role("navigation", name="Guild")
    expect(menu).to_be_visible()
    box = menu.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    expect(menu.locator("summary")).to_have_text("Menu · Roster")
    menu.locator("summary").tap()
    expect(menu.get_by_role("link", name="Roster")).to_have_class("here")
    shot(phone, "guild-roster-menu")
    menu.get_by_role("link", name="Armory").tap()
    expect(phone).to_have_url(re.compile(r"/guild/armory/$"))
    expect(phone.get_by_role("navigation", name="Guild").locator("summary")).to_have_text("Menu · Armory")

"""Guild pages read on a 360x740 phone (found by a new user): the roster's weapon table broke
"Hatche/t" inside the word."""

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

"""Pixel Demon's Realm with 60-character names on a 360x740 touch phone. Found by a new user: a
48-60 character name took 3 lines in the prompt card and 2 in the thumb bar ("<name>'s turn.").
Each is one line now: the name ellipsized (whole in its title), "'s turn." never cut."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot

ANN = "Bartholomew Aurelius Montgomery-Fitzwilliam of Lower Lochend"  # 60 characters
BEN = "Benedetta Ottoline Wolstenholme-Ravenscroft of Upper Dunmore"  # 60 characters

ONE_LINE = """(el) => {
  const size = parseFloat(getComputedStyle(el).fontSize);
  return el.getBoundingClientRect().height < 1.9 * size;
}"""
WHOLE = "(el) => el.scrollWidth <= el.clientWidth + 1"
#: How many lines the element's text is drawn on (distinct tops of its text's boxes).
LINES = """(el) => {
  const tops = new Set();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.data.trim()) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects()) if (b.width > 1) tops.add(Math.round(b.top));
  }
  return tops.size;
}"""


def test_whose_turn_is_one_line_in_the_card_and_in_the_bar(new_phone):
    phones = open_table(new_phone, "realm", names=(ANN, BEN))
    waiting = next(p for p in phones if p.locator("#rl-prompt").count())
    for where in ("#rl-prompt", "#rl-bar-prompt"):
        prompt = waiting.locator(where)
        expect(prompt).to_contain_text("'s turn.")
        assert prompt.evaluate(LINES) == 1, (where, prompt.inner_text(), prompt.bounding_box())
        box = prompt.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 740, (where, box)
    line = waiting.locator("#rl-prompt .rl-line")
    name = line.locator(".rl-nm")
    turn_name = name.get_attribute("title")
    assert turn_name in (ANN, BEN)
    expect(name).to_have_text(turn_name)  # whole in the text, drawn ellipsized
    for where in ("#rl-prompt .rl-line", "#rl-bar-prompt .rl-line"):
        el = waiting.locator(where)
        assert el.evaluate(ONE_LINE), (where, el.bounding_box())
        assert el.locator("span").last.evaluate(WHOLE), where  # "'s turn." never cut
        box = el.bounding_box()
        assert box["x"] + box["width"] <= 360, (where, box)
    bar = waiting.locator("#rl-bar-prompt")
    assert bar.evaluate(ONE_LINE), bar.bounding_box()
    assert waiting.evaluate("document.documentElement.scrollWidth") <= 360
    shot(waiting, "realm-long-name-turn")

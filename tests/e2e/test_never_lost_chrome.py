"""The fixed chrome of a DemLoc table in play leaves the page at least 70% of a 360x740 phone
(docs/playing.md "A live table"; DemLoc rulebook 6.4.2, the app screen). Found by a new user:
the sticky top bar (53 px), the turn bar (about 92 px with a 48-letter Guild name) and the
bottom bar (100 px) left about 55-65% of the screen during play. By touch, on the acting phone
with two long Guild names, scrolled into the page: what stays fixed at the top (the site's top
bar scrolls away with the page, the turn bar stays) and at the bottom is at most 30% of 740 px
together, the turn bar still says whose move it is and this phone's fate, and every control
of the bars is at least 44 px tall. At the top of the page the site's top bar is there."""

from missions.demo import load_demo_missions
from tests.e2e.conftest import host_lobby, open_at_stage, open_table
from tests.missions.lifecycle_flow import build_guild, to_stage
from tests.missions.lifecycle_flow import open_table as open_mission

SCREEN = 740
LONG = ("The Most Honourable Company of Ashen Lanternmen!", "Bert's <i>Ravens</i> &amp;")

MEASURE = """() => {
  const turn = document.getElementById("dl-turn").getBoundingClientRect();
  const top = document.querySelector(".topbar").getBoundingClientRect();
  const bar = document.getElementById("bottom-bar").getBoundingClientRect();
  const controls = [...document.querySelectorAll("#bottom-bar button, #bottom-bar .btn")]
    .filter(e => e.getClientRects().length);
  return {topbar: Math.max(0, top.bottom), turn_bar: turn.height,
          fixed_top: Math.max(turn.bottom, top.bottom), bottom_bar: innerHeight - bar.top,
          smallest: Math.min(...controls.map(e => e.getBoundingClientRect().height))};
}"""


def measure(phone, y: int) -> dict:
    phone.evaluate(f"window.scrollTo(0, {y})")
    phone.wait_for_timeout(250)
    m = {k: round(v) for k, v in phone.evaluate(MEASURE).items()}
    m["fixed"] = m["fixed_top"] + m["bottom_bar"]
    return m


def test_the_fixed_bars_take_at_most_30_percent_of_the_screen_in_play(new_phone):
    phones = open_table(new_phone, "demloc", names=LONG, inset=0)
    acting = next(p for p in phones if "Your move" in p.locator("#dl-acting").inner_text())
    at_top = measure(acting, 0)
    scrolled = measure(acting, 600)
    acting.screenshot(path="test-artifacts/never-lost-chrome-scrolled.png")
    print("bars at 360x740, long Guild names: at the top", at_top, "scrolled", scrolled)
    assert at_top["topbar"] >= 44, at_top  # the site's links at the top of the page
    assert scrolled["fixed"] <= 0.30 * SCREEN, scrolled
    assert scrolled["smallest"] >= 44, scrolled
    turn = acting.locator("#dl-turn")
    assert "Your move" in turn.inner_text() and "your fate" in turn.inner_text()
    box = acting.locator("#dl-my-fate").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= scrolled["fixed_top"], box


def overlap(a: dict, b: dict) -> float:
    """The height two boxes share (0 when they do not overlap)."""
    if a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]:
        return 0
    return max(0, min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]))


def test_the_offline_banner_stays_readable_under_a_toast(new_phone):
    """Found by a new user: the "Your move" toast at the top of the screen covered the
    "Offline: reconnecting..." banner, the only offline sign left was at the button. Ann
    passes; Ben's phone shows "Your move" and goes offline while it shows: the banner and the
    toast are both on screen, neither over the other."""
    phones = open_table(new_phone, "demloc", inset=0)
    acting = next(p for p in phones if "Your move" in p.locator("#dl-acting").inner_text())
    other = next(p for p in phones if p is not acting)
    other.evaluate("window.scrollTo(0, 400)")
    acting.locator("#dl-thumb").get_by_role("button", name="Next: pass").tap()
    toast = other.locator("#dl-alert:not(.dl-alert-quiet)")
    toast.wait_for(state="visible")
    other.context.set_offline(True)
    banner = other.locator("#net")
    banner.wait_for(state="visible")
    other.wait_for_timeout(150)
    other.screenshot(path="test-artifacts/never-lost-chrome-offline-toast.png")
    assert toast.is_visible(), "the toast went before it was measured (4 s)"
    net_box, toast_box = banner.bounding_box(), toast.bounding_box()
    print("banner", net_box, "toast", toast_box)
    assert "Offline" in banner.inner_text()
    assert overlap(net_box, toast_box) == 0, (net_box, toast_box)
    # (where it covers no control and no bar: app.js placeToast, tests/e2e/test_toast_place.py)
    assert toast_box["y"] + toast_box["height"] <= net_box["y"]
    other.context.set_offline(False)


def test_the_remove_buttons_of_the_characters_step_are_one_column_6_4_1(new_phone):
    """Found by a new user: after Choose, "Remove" sat under a long name and beside a short
    one, so the buttons were not one column. Two characters chosen by touch, names of 4 and
    35 letters (a Guild holds two mercenaries of an area): every Remove at the right of its
    row, beside its name, the same right edge."""
    names = ("Okka", "Sieglinde Longshot of the Salt Quay")
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", names, feods=150)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "characters")
    ann, _bob = open_at_stage(new_phone, table, (a, b), "characters")
    for name in names:
        choose = ann.locator(".dl-roster li, .dl-pool li").filter(has_text=name).get_by_role(
            "button", name="Choose")
        choose.first.scroll_into_view_if_needed()
        ann.wait_for_timeout(600)  # the ghost-tap guard of a control that just moved
        choose.first.tap()
        ann.locator(".dl-picks").get_by_text(name).wait_for()
    picks = ann.locator(".dl-picks > li")
    picks.first.scroll_into_view_if_needed()
    ann.wait_for_timeout(300)
    ann.locator(".dl-picks").screenshot(path="test-artifacts/never-lost-chrome-picks.png")
    rows = []
    for i in range(picks.count()):
        li = picks.nth(i)
        name = li.locator("span").first.bounding_box()
        remove = li.locator("form button").bounding_box()
        rows.append((round(name["x"] + name["width"]), round(remove["x"]),
                     round(remove["x"] + remove["width"]), round(name["y"]), round(remove["y"])))
    print("picks (name's right, Remove's left, Remove's right, name's top, Remove's top):", rows)
    assert len(rows) == 2
    assert len({r[2] for r in rows}) == 1, rows  # one column, one right edge
    for name_right, remove_left, _right, name_top, remove_top in rows:
        assert name_right <= remove_left, rows  # beside its name, not under it
        assert remove_top < name_top + 30, rows


def test_a_seat_name_longer_than_60_says_so_at_the_field(new_phone):
    """Found by a new user: a 75-letter seat name was cut to 60 by the field without a word.
    Typed on the join page, the field keeps 60 letters and the line under it says it is full."""
    _host, code = host_lobby(new_phone)
    guest = new_phone()
    guest.goto(f"/j/{code}/")
    hint = guest.locator("#name-hint")
    assert hint.inner_text() == "At most 60 characters."
    field = guest.locator("#name")
    field.fill("")
    field.press_sequentially("B" * 75)
    assert len(field.input_value()) == 60
    assert "Full: 60 of 60 characters" in hint.inner_text(), hint.inner_text()
    assert hint.bounding_box()["y"] < 740
    guest.screenshot(path="test-artifacts/never-lost-chrome-name-full.png")
    field.press("Backspace")
    assert hint.inner_text() == "At most 60 characters."


WHOLE = """(el) => {
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;white-space:nowrap;visibility:hidden;font:" +
    getComputedStyle(el).font;
  probe.textContent = el.textContent;
  document.body.append(probe);
  const natural = probe.getBoundingClientRect().width;
  probe.remove();
  const shown = [...el.getClientRects()].reduce((w, r) => w + r.width, 0);
  return {natural: Math.round(natural), shown: Math.round(shown),
          clipped: el.scrollWidth > el.clientWidth + 1};
}"""


def test_the_turn_bar_says_whose_turn_with_the_guilds_whole_names(new_phone):
    """Found by a new user: "First: The Most Ho…", "Bert's <i>Ravens…" in the turn bar. The
    waiting phone reads the acting Guild's name whole (wrapped); a tap on the turn bar shows
    the first player's name whole too, and a second tap folds it back to one line."""
    phones = open_table(new_phone, "demloc", names=LONG, inset=0)
    waiting = next(p for p in phones if "Your move" not in p.locator("#dl-acting").inner_text())
    acting_name = waiting.locator("#dl-acting .dl-nm")
    seen = acting_name.evaluate(WHOLE)
    print("acting name on the waiting phone:", seen)
    assert acting_name.inner_text() in LONG
    assert seen["shown"] >= 0.97 * seen["natural"] and not seen["clipped"], seen  # (a wrap drops a space)
    first = waiting.locator("#dl-turn .dl-first")
    folded = first.evaluate(WHOLE)
    waiting.locator("#dl-phase").tap()
    waiting.wait_for_timeout(200)
    opened = waiting.locator("#dl-first").evaluate(WHOLE)  # the name's own lines
    opened["clipped"] = first.evaluate("e => e.scrollWidth > e.clientWidth + 1 || "
                                       "e.scrollHeight > e.clientHeight + 1")
    waiting.locator("#dl-turn").screenshot(path="test-artifacts/never-lost-chrome-turn-whole.png")
    print("first player's name: folded", folded, "after a tap", opened)
    assert first.inner_text().removeprefix("First: ") in LONG
    assert not opened["clipped"] and opened["shown"] >= 0.97 * opened["natural"], opened
    waiting.locator("#dl-phase").tap()
    waiting.wait_for_timeout(200)
    again = first.evaluate("e => e.getBoundingClientRect().height")
    assert again <= 30, again  # one line again

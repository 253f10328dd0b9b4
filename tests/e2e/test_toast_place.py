"""A toast covers no control and no bar (docs/playing.md "A live table"; DemLoc rulebook 6.4.2,
the app screen). Found by two new users: the 4-second toast ("Your move: turn 1, strategic
phase.", "A shot on your character waits for you") lay at the top of the screen, over the
sticky turn bar's second row ("Your move" and the fate chip) while the page was scrolled.

By touch at 360x740: Ann passes; Ben, scrolled into the page, gets "Your move". While it shows,
at two scroll positions, the toast lies between the turn bar and the bottom bar, over no
button, link, field or card summary of the page, and the turn bar's fate chip is readable."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import drowned_bell_at, open_table
from tests.e2e.test_landing import aim_shot, in_view

UNDER = """t => {
  const r = t.getBoundingClientRect();
  const sel = "button, a[href], summary, input:not([type=hidden]), select, textarea, label, [role=button]";
  return [...document.querySelectorAll(sel)].filter(c => {
    if (t.contains(c) || !c.checkVisibility({visibilityProperty: true})) return false;
    const b = c.getBoundingClientRect();
    return b.width > 1 && b.height > 1 && b.bottom > r.top && b.top < r.bottom
      && b.right > r.left && b.left < r.right;
  }).map(c => c.tagName + ": " + c.textContent.replace(/\\s+/g, " ").trim().slice(0, 40));
}"""


def apart(a: dict, b: dict) -> bool:
    return a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]


def check(phone, toast, name: str) -> None:
    phone.wait_for_timeout(150)  # (placed on the next frame after a scroll)
    phone.screenshot(path=f"test-artifacts/{name}.png")
    assert toast.is_visible(), "the toast went before it was measured (4 s)"
    box = toast.bounding_box()
    turn = phone.locator("#dl-turn").bounding_box()
    bar = phone.locator("#bottom-bar").bounding_box()
    fate = phone.locator("#dl-my-fate").bounding_box()
    print(name, "toast", box, "turn bar", turn, "bottom bar", bar)
    assert box["width"] > 300 and box["y"] >= 0 and box["y"] + box["height"] <= 740, box
    assert apart(box, turn), (box, turn)
    assert apart(box, fate), (box, fate)
    assert box["y"] + box["height"] <= bar["y"], (box, bar)
    assert toast.evaluate(UNDER) == []


def test_your_move_covers_no_control_and_not_the_turn_bar(new_phone):
    phones = open_table(new_phone, "demloc", inset=0)
    acting = next(p for p in phones if "Your move" in p.locator("#dl-acting").inner_text())
    other = next(p for p in phones if p is not acting)
    other.evaluate("window.scrollTo(0, 400)")
    acting.locator("#dl-thumb").get_by_role("button", name="Next: pass").tap()
    toast = other.locator("#dl-alert:not(.dl-alert-quiet)")
    toast.wait_for(state="visible")
    expect(toast).to_contain_text("Your move")
    check(other, toast, "toast-place-scrolled")
    other.evaluate("window.scrollTo(0, 150)")
    check(other, toast, "toast-place-scrolled-back")


HEADINGS = """t => {
  const r = t.getBoundingClientRect();
  return [...document.querySelectorAll("h1, h2, h3")].filter(h => {
    if (!h.checkVisibility({visibilityProperty: true})) return false;
    const b = h.getBoundingClientRect();
    return b.height > 1 && b.bottom > r.top && b.top < r.bottom;
  }).map(h => h.textContent.replace(/\\s+/g, " ").trim().slice(0, 40));
}"""


def test_a_preparation_prompt_lies_above_its_next_not_over_the_step_6_4_1(new_phone):
    """Found by a new user: the preparation's prompt ("Map: tap Next when you are done.") lay
    at the top of the band for its 4 seconds, over the step's first lines, which it repeats.
    A prompt about the thumb bar's step lies just above that bar, next to its Next, over no
    control and no heading of the page."""
    *_, (ann, ben) = drowned_bell_at(new_phone, "objective")
    ann.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    expect(ann.locator("#dl-thumb-wait")).to_contain_text("waiting for Ben")
    ben.locator("#dl-thumb").get_by_role("button", name="Next").tap()
    for phone, name in ((ann, "ann"), (ben, "ben")):
        expect(phone.locator('[data-stage="map"]')).to_be_visible()
        toast = phone.locator("#dl-alert:not(.dl-alert-quiet)")
        expect(toast).to_contain_text("Map: tap Next when you are done.")
        phone.wait_for_timeout(150)  # (placed on the next frame after the swap)
        phone.screenshot(path=f"test-artifacts/toast-place-prep-{name}.png")
        box = toast.bounding_box()
        bar = phone.locator("#bottom-bar").bounding_box()
        print(name, "toast", box, "bottom bar", bar)
        assert box["y"] + box["height"] <= bar["y"], (box, bar)
        assert bar["y"] - (box["y"] + box["height"]) <= 24, (box, bar)  # next to its Next
        assert toast.evaluate(UNDER) == []
        assert toast.evaluate(HEADINGS) == []
        in_view(phone, phone.locator("#dl-thumb").get_by_role("button", name="Next"))


def test_a_shot_waiting_on_the_screen_is_not_covered_by_its_own_toast(new_phone):
    """Found by a new user: on the target's phone "A shot on your character waits for you"
    lay over the calculation it points at ("Shot: proposed result"). Ann works out a shot on
    Ben's gunner: Ben's calculation is on his screen, so the alert is said to screen readers
    only (quiet: not drawn over the page); the calculation's heading and Apply are in view."""
    ann, ben = open_table(new_phone, "demloc", inset=0)
    aim_shot(ann, "s0-korr", "s1-gunner", 1, "2 2 2").tap()
    alert = ben.locator("#dl-alert")
    expect(alert).to_contain_text("A shot on your character waits for you")
    heading = ben.locator("#dl-pending h2")
    expect(heading).to_contain_text("Shot: proposed result")
    ben.wait_for_timeout(150)
    ben.screenshot(path="test-artifacts/toast-place-shot-waits.png")
    in_view(ben, heading)
    in_view(ben, ben.locator("#dl-pending").get_by_role("button", name="Apply"))
    expect(alert).to_have_class(re.compile(r"\bdl-alert-quiet\b"))
    box = alert.bounding_box()  # quiet: said to screen readers, drawn over nothing
    assert box is None or (box["width"] <= 2 and box["height"] <= 2), box


def test_a_shot_waiting_off_the_screen_is_announced_covering_no_heading(new_phone):
    """Ben reads the bottom of his page when Ann's shot on his gunner comes: the toast shows,
    covering no heading and no control, and its link brings the calculation."""
    ann, ben = open_table(new_phone, "demloc", inset=0)
    ben.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    ben.wait_for_timeout(200)
    aim_shot(ann, "s0-korr", "s1-gunner", 1, "2 2 2").tap()
    toast = ben.locator("#dl-alert:not(.dl-alert-quiet)")
    expect(toast).to_contain_text("A shot on your character waits for you")
    ben.wait_for_timeout(150)
    ben.screenshot(path="test-artifacts/toast-place-shot-waits-away.png")
    assert toast.evaluate(UNDER) == []
    assert toast.evaluate(HEADINGS) == []

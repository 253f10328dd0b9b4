"""A toast covers no control and no bar (docs/playing.md "A live table"; DemLoc rulebook 6.4.2,
the app screen). Found by two new users: the 4-second toast ("Your move: turn 1, strategic
phase.", "A shot on your character waits for you") lay at the top of the screen, over the
sticky turn bar's second row ("Your move" and the fate chip) while the page was scrolled.

By touch at 360x740: Ann passes; Ben, scrolled into the page, gets "Your move". While it shows,
at two scroll positions, the toast lies between the turn bar and the bottom bar, over no
button, link, field or card summary of the page, and the turn bar's fate chip is readable."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table

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

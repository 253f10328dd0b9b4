"""A tapped control stays under the thumb, by touch at 360x740 (tabletop/KIT.md "Where the
page lands"). Found by a new user: a tap on a token "+" of a character card moved the button
from y 364 to 252 with scrollY unchanged, because the line of an earlier refusal above it was
taken away at the tap. The counters are the character's tokens (DemLoc rulebook 5.1.1)."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_landing import open_sheet

TOLERANCE = 2  # px


def test_a_tap_below_an_earlier_refusal_keeps_the_button_under_the_thumb(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    open_sheet(ann, "s0-korr", "shoot")
    card = ann.locator("#piece-s0-korr")
    armor = card.locator('[data-token="broken_armor"]')
    plus = armor.get_by_role("button", name="add a broken armor token")
    refusal = card.locator(".alert.at-control")
    for n in range(1, 6):  # up to its limit, then one more: refused, its line at the control
        plus.tap()
        if n > 3:
            break
        expect(armor.locator(".dl-counter-value")).to_contain_text(str(n))
    expect(refusal).to_be_visible()
    bleeding = card.locator('[data-token="bleeding"]')
    button = bleeding.get_by_role("button", name="add a bleeding token")
    # The player scrolls to it (a thumb's scroll ends the ghost-tap guard's watch, app.js; the
    # script's scroll does not, so it comes after the guard of the refused tap).
    ann.wait_for_timeout(600)
    button.evaluate("b => b.scrollIntoView({block: 'center'})")
    ann.wait_for_timeout(300)
    refusal_box, box = refusal.bounding_box(), button.bounding_box()
    assert refusal_box["y"] < box["y"], (refusal_box, box)  # the line is above the button
    y0, scroll0 = box["y"], ann.evaluate("scrollY")
    button.tap()
    expect(bleeding.locator(".dl-counter-value")).to_have_text("1")
    expect(refusal).to_have_count(0)
    ann.wait_for_timeout(300)
    y1 = bleeding.get_by_role("button", name="add a bleeding token").bounding_box()["y"]
    print(f"the tapped '+' at y {y0:.0f} -> {y1:.0f} (scrollY {scroll0} -> {ann.evaluate('scrollY')})")
    assert abs(y1 - y0) <= TOLERANCE, (y0, y1)

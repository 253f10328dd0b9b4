"""A shot or fight on my character is never applied unseen (rulebook 7.2.2: the target's player
checks the proposed result; docs/playing.md). Found by a new user at 360x740: the calculation
arrived while he read a card, and only Apply and Cancel were on his screen, the calculation
above them hidden under the sticky turn bar: a thumb could apply a fight it never saw. Another
player's action does not move the view; a tap on Apply while the calculation's head is not
between the bars applies nothing and brings the calculation between the bars; the next tap
applies it. Touch taps; screenshots in test-artifacts/."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_between_bars import propose_shot
from tests.e2e.test_landing import in_view

BAND = """() => {
  const top = Math.max(document.querySelector('.topbar').getBoundingClientRect().bottom,
                       document.getElementById('dl-turn').getBoundingClientRect().bottom);
  const bottom = document.getElementById('bottom-bar').getBoundingClientRect().top;
  const head = document.querySelector('#dl-pending h2').getBoundingClientRect();
  const apply = document.querySelector('#dl-pending [data-keep-above-bar]').getBoundingClientRect();
  return {top, bottom, head: head.top, headBottom: head.bottom, apply: apply.top, applyBottom: apply.bottom, y: scrollY};
}"""


def test_apply_with_the_calculation_out_of_view_first_shows_it(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    propose_shot(ann, ben)
    # Ben's screen as the new user's: Apply and Cancel whole just under the turn bar, the
    # calculation's head above them, under the bar.
    m = ben.evaluate(BAND)
    ben.evaluate(f"window.scrollBy(0, {m['apply'] - m['top'] - 12})")
    ben.wait_for_timeout(300)
    m = ben.evaluate(BAND)
    assert m["head"] < m["top"] and m["top"] <= m["apply"] and m["applyBottom"] <= m["bottom"], m
    ben.screenshot(path="test-artifacts/apply-seen-before.png")
    version = ben.locator("#live").get_attribute("data-version")

    apply = ben.locator("#dl-pending").get_by_role("button", name="Apply")
    apply.tap()
    ben.wait_for_timeout(600)
    m = ben.evaluate(BAND)
    ben.screenshot(path="test-artifacts/apply-seen-shown.png")
    expect(ben.locator("#dl-pending")).to_be_visible()  # not applied
    assert ben.locator("#live").get_attribute("data-version") == version
    # and it says so above Apply, in view (a new user's held tap said nothing: "did nothing")
    check = ben.locator("#dl-calc-check")
    expect(check).to_have_text("Not applied yet: read the result above, then tap Apply again.")
    in_view(ben, check)
    assert m["top"] <= m["head"] and m["applyBottom"] <= m["bottom"], m  # head, result, Apply

    apply.tap()  # read: applied
    expect(ben.locator("#dl-pending")).to_have_count(0)
    in_sync([ann, ben])

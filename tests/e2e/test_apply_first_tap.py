"""A fight on my character that the page itself brought between the bars applies on the first
tap of Apply (rulebook 7.3.2: the defender's player checks the proposed result; docs/playing.md
"A live table: where a tap lands, the next step under the thumb"). Found by a new user at
360x740: the fight arrived with its Apply straddling the bottom bar; the page scrolled it (too
long to show whole: Apply above the bar, its head and first step under the turn bar), and his
first tap on Apply answered "Not applied yet: read the result above", the page's own guard
firing on what the page had just shown him."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_between_bars import APPLY_AT, between_bars
from tests.e2e.test_landing import aim_brawl, scroll_y


def propose_brawl(ann, ben) -> None:
    """Ann works out Korr's Brawl on Ben's Bram (7.3.2); Ben's phone shows the fight waiting
    for his Apply."""
    work = aim_brawl(ann, "s0-korr", "s1-bram")
    in_sync([ann, ben])
    work.tap()
    expect(ben.locator("#dl-pending")).to_contain_text("Fight")
    in_sync([ann, ben])
    ben.wait_for_timeout(400)


def test_a_fight_the_page_brought_between_the_bars_applies_on_the_first_tap_7_3_2(new_phone):
    """Ben's phone has a tall home indicator (a 60 px inset under the bottom bar): the fight is
    taller than the band the bars leave.
    It arrives with Apply straddling the bottom bar; the page brings Apply above the bar, the
    fight's head and first step going under the turn bar. His first tap on Apply applies it."""
    ann, ben = open_table(new_phone, "demloc", inset=60)
    ben.evaluate("window.scrollTo(0, 0)")
    propose_brawl(ann, ben)  # where the fight goes in Ben's page
    first = ben.evaluate(APPLY_AT)
    ann.locator("#dl-pending").get_by_role("button", name="Cancel").tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    in_sync([ann, ben])
    ben.wait_for_timeout(300)
    # Ben scrolls so that the fight, back in the same place, would show Apply's top above the
    # bottom bar and its lower 20 px under it: the page brings it between the bars.
    ben.evaluate(f"window.scrollTo(0, {first['y'] + first['apply'] - first['bar'] - 20})")
    ben.wait_for_timeout(300)
    y = scroll_y(ben)
    propose_brawl(ann, ben)
    block = ben.locator("#dl-pending")
    apply = block.get_by_role("button", name="Apply")
    m = between_bars(ben, apply)
    tall = block.evaluate("b => b.getBoundingClientRect().height")
    step = block.locator(".dl-steps li").first.bounding_box()
    assert step["y"] < m["top"], (step, m)  # the page left its first step under the turn bar
    ben.screenshot(path="test-artifacts/apply-first-tap-brought.png")
    print(f"fight {tall:.0f} px tall, band {m['top']}..{m['bar']}: Ben at scrollY {y} ->"
          f" {scroll_y(ben)}, Apply at y={m['y']}..{m['bottom']}")
    apply.tap()
    expect(block).to_have_count(0)  # applied on the first tap
    expect(ben.locator("#dl-calc-check")).to_have_count(0)
    in_sync([ann, ben])

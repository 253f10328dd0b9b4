"""Another player's action never moves my view (docs/playing.md "A live table: where a tap
lands"), when that action is a pass (7.2: the acting player taps *Next: pass*), by touch at
360x740 on two phones. A helper's browser test saw the other phone, scrolled to the middle of
the page (scrollY 420), at 612 (the end of the page) after the acting phone passed. Reproduced:
not the pass, but that test's own full-page screenshot of the other phone (``shot``), which
Chromium takes by capturing beyond the viewport and which leaves a page with a fixed bar
scrolled to its end; ``shot`` now puts the page back where it was. Prints what it measured;
screenshots in test-artifacts/other-view-pass-*.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_landing import scroll_y, view_kept, view_mark

PASS = "Next: pass"


def two_phones_scrolled(new_phone, y: int):
    """A training mission on two phones, settled, each scrolled to ``y``:
    ``(phones, acting, other)``."""
    phones = ann, ben = open_table(new_phone, "demloc", options={"#opt-turn_limit": "3"}, inset=0)
    ann.wait_for_timeout(500)
    in_sync(phones)
    for phone in phones:
        phone.evaluate(f"window.scrollTo(0, {y})")
    acting = ann if ann.locator("#bottom-bar").get_by_role("button", name=PASS).count() else ben
    return phones, acting, ben if acting is ann else ann


def test_a_whole_page_screenshot_leaves_the_phone_where_it_was(new_phone):
    """The measuring tool first: a full-page screenshot (``shot``) of a phone scrolled to 420
    leaves it at 420, what it showed at the same height (it was taken to 612, the page's end)."""
    _phones, _acting, other = two_phones_scrolled(new_phone, 420)
    other.wait_for_timeout(300)
    mark, before = view_mark(other), scroll_y(other)
    shot(other, "other-view-pass-whole-page")
    after = scroll_y(other)
    print(f"full-page screenshot: scrollY {before} -> {after}")
    assert after == before, (before, after)
    view_kept(other, mark)


def test_a_pass_on_one_phone_leaves_the_other_phones_view_where_it_was_7_2(new_phone):
    """Ann and Ben read the middle of their pages (scrollY 420); the acting one taps *Next:
    pass* in its thumb bar; the other's view does not move (what was at the top of its screen
    is at the same height), its full-page screenshot taken after the pass as the helper's test
    did. Then, the roles swapped, the same at the top of the page (150) and at its end."""
    phones, acting, other = two_phones_scrolled(new_phone, 420)
    for y in (420, 150, 10_000):
        other.evaluate(f"window.scrollTo(0, {y})")
        other.wait_for_timeout(300)
        mark, before = view_mark(other), scroll_y(other)
        v = version(other)
        acting.locator("#bottom-bar").get_by_role("button", name=PASS).tap()
        expect(other.locator("#live")).not_to_have_attribute("data-version", str(v))
        in_sync(phones)
        other.wait_for_timeout(500)
        shot(other, f"other-view-pass-{before:.0f}")
        kept = view_kept(other, mark)
        print(f"a pass seen from scrollY {before}: {kept}")
        acting, other = other, acting
        if not acting.locator("#bottom-bar").get_by_role("button", name=PASS).count():
            break

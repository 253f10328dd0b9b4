"""What the table just did is read between the bars, on a scrolled page too (docs/playing.md).
Found by a new user at 360x740: "Calculation cancelled.", "Undone: …", "+1 mercenary kill",
"… uses Snare" and the pass line sit right under the turn bar in the page, so the sticky turn bar
(rulebook 7.2: the phase and who acts) covered them whenever the page was scrolled. A new one is
shown in a copy on the turn bar (#dl-float) on the phone that tapped and on the other,
neither view moving: one line over the turn bar's last line, inside its box, so it covers none of
the page (tests/e2e/test_notice_copy.py). Touch taps; screenshots in test-artifacts/."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot
from tests.e2e.demloc_turns import in_sync


def band(phone) -> tuple[float, float]:
    """The band between the bars: under the sticky top bar and turn bar, above the thumb bar."""
    return phone.evaluate("""() => [
        Math.max(document.querySelector('.topbar').getBoundingClientRect().bottom,
                 document.getElementById('dl-turn').getBoundingClientRect().bottom),
        document.getElementById('bottom-bar').getBoundingClientRect().top]""")


def assert_read_in_band(phone, text: str, name: str) -> None:
    status = phone.locator("#dl-status")
    expect(status).to_contain_text(text)
    phone.wait_for_timeout(300)  # the bars settled (the turn bar's height follows its lines)
    top, bottom = band(phone)
    box = status.bounding_box()
    assert box["y"] < top, "the line is not under the turn bar: the test does not show the case"
    float_ = phone.locator("#dl-float")
    expect(float_).to_be_visible()
    expect(float_).to_contain_text(text)
    f, turn = float_.bounding_box(), phone.locator("#dl-turn").bounding_box()
    shot(phone, name)
    phone.screenshot(path=f"test-artifacts/{name}-screen.png")
    # one line, on the turn bar: the band between the bars is what it was
    assert f["height"] <= 30, f
    assert turn["y"] <= f["y"] and f["y"] + f["height"] <= turn["y"] + turn["height"], (f, turn)
    assert band(phone) == [top, bottom]


def test_the_pass_line_and_undo_are_read_between_the_bars_on_a_scrolled_page(new_phone):
    phones = ann, ben = open_table(new_phone, "demloc", options={"#opt-turn_limit": "3"}, inset=0)
    for phone in phones:
        phone.evaluate("window.scrollTo(0, 420)")
    ann.wait_for_timeout(500)
    in_sync(phones)
    acting, other = (ann, ben) if ann.locator("#bottom-bar").get_by_role("button", name="Next: pass").count() else (ben, ann)
    assert other.evaluate("window.scrollY") > 300

    acting.locator("#bottom-bar").get_by_role("button", name="Next: pass").tap()
    # The line is under the turn bar on both phones: it is read in the copy.
    assert_read_in_band(acting, "passes", "notice-band-pass-acting")
    assert_read_in_band(other, "passes", "notice-band-pass-other")

    # Back where it read (the full-page screenshots move the view): the open log's newest
    # line, which would say "(undone)" itself, is below the thumb bar there.
    acting.evaluate("window.scrollTo(0, 420)")
    acting.wait_for_timeout(600)
    acting.locator("#bottom-bar").get_by_role("button", name="Undo").tap()
    assert_read_in_band(acting, "Undone", "notice-band-undo")

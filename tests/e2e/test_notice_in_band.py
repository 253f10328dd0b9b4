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

# The band between the bars: under the sticky top bar and turn bar, above the thumb bar.
BAND = """() => [
    Math.max(document.querySelector('.topbar').getBoundingClientRect().bottom,
             document.getElementById('dl-turn').getBoundingClientRect().bottom),
    document.getElementById('bottom-bar').getBoundingClientRect().top]"""

# Everything the assertions need, read in one go while the copy shows.
MEASURE = """() => {
  const box = id => { const r = document.getElementById(id).getBoundingClientRect();
                      return {y: r.top, height: r.height}; };
  const f = document.getElementById('dl-float');
  return {band: (BAND)(), status: box('dl-status'), float: box('dl-float'),
          turn: box('dl-turn'), shown: !f.hidden && f.getClientRects().length > 0}; }""".replace(
    "BAND", BAND
)


def band(phone) -> list[float]:
    return phone.evaluate(BAND)


def read_in_band(phone, text: str) -> dict:
    """``phone``'s measures once its copy of the line ``text`` shows on the turn bar (150 ms
    after the page settled, for 4 s: table.js). Measured as soon as it shows, in one go, not
    after a fixed wait and one phone's screenshots: under load the other phone's copy had gone
    (its 4 s were up) before the test looked at it."""
    expect(phone.locator("#dl-status")).to_contain_text(text)
    float_ = phone.locator("#dl-float")
    expect(float_).to_be_visible()
    expect(float_).to_contain_text(text)
    m = phone.evaluate(MEASURE)
    assert m["shown"], m
    return m


def assert_in_band(phone, m: dict, name: str) -> None:
    top, bottom = m["band"]
    assert m["status"]["y"] < top, "the line is not under the turn bar: the test does not show the case"
    f, turn = m["float"], m["turn"]
    # one line, on the turn bar: the band between the bars is what it was
    assert f["height"] <= 30, f
    assert turn["y"] <= f["y"] and f["y"] + f["height"] <= turn["y"] + turn["height"], (f, turn)
    shot(phone, name)
    phone.screenshot(path=f"test-artifacts/{name}-screen.png")
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
    seen = {phone: read_in_band(phone, "passes") for phone in (acting, other)}
    assert_in_band(acting, seen[acting], "notice-band-pass-acting")
    assert_in_band(other, seen[other], "notice-band-pass-other")

    # Back where it read (the full-page screenshots move the view): the open log's newest
    # line, which would say "(undone)" itself, is below the thumb bar there.
    acting.evaluate("window.scrollTo(0, 420)")
    acting.wait_for_timeout(600)
    acting.locator("#bottom-bar").get_by_role("button", name="Undo").tap()
    assert_in_band(acting, read_in_band(acting, "Undone"), "notice-band-undo")

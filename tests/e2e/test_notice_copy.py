"""What the table just did, copied when it is hidden, never covers the page (docs/playing.md "What
the table just did is read between the bars"), by touch at 360x740. Found by a new user: after
*Work it out* of a shot that failed its test (rulebook 7.2.2: a stray shot) a copy of nine lines
under the turn bar sat over the shooter's card and its Shoot section, saying the notice and the
log line twice; after *Apply* it covered the log; the sticky bars and the copy hid about 40% of
the screen. The copy now shows only when the line itself is hidden and its words are nowhere else
on the screen, in one line over the turn bar's last line (the band between the bars is what the
bars alone leave), whole in its title and on a tap, gone on any other tap. Each phone prints the
pixels the bars and any copy take; screenshots in test-artifacts/notice-copy-*.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_landing import aim_shot, open_sheet

SCREEN = 740
# The pixels the top bars (the top bar, the sticky turn bar, and any copy over or under it) and
# the fixed bottom bar take; the band the bars alone leave.
COVER = """() => {
  let top = 0;
  for (const n of document.querySelectorAll('body *')) {
    const s = getComputedStyle(n);
    if (((s.position === 'sticky' && s.top !== 'auto') || s.position === 'fixed') && !n.closest('#bottom-bar')
        && n.id !== 'dl-alert' && !n.closest('#dl-alert') && n.getClientRects().length) {
      const q = n.getBoundingClientRect();
      if (q.top < 300 && q.bottom > top && q.height < 600) top = q.bottom;
    }
  }
  const bars = Math.max(document.querySelector('.topbar').getBoundingClientRect().bottom,
                        document.getElementById('dl-turn').getBoundingClientRect().bottom);
  const bar = document.getElementById('bottom-bar').getBoundingClientRect().top;
  const f = document.getElementById('dl-float');
  const shown = !!f && !f.hidden && f.getClientRects().length > 0;
  return {top: Math.round(top), bars: Math.round(bars), bottom: Math.round(innerHeight - bar),
          covered: Math.round(top + innerHeight - bar), float: shown ? f.textContent : null,
          floatH: shown ? Math.round(f.getBoundingClientRect().height) : 0};
}"""

# How many elements on screen, between the bars or over them, read ``probe``: the page's
# smallest elements holding it, and the copy.
READ = """probe => {
  const els = [...document.querySelectorAll('#live p, #live li, #live .notice, #dl-float')]
    .filter(e => e.textContent.replace(/\\s+/g, ' ').includes(probe) && e.checkVisibility()
            && ![...e.children].some(c => c.textContent.replace(/\\s+/g, ' ').includes(probe)));
  return els.filter(e => { const r = e.getBoundingClientRect();
                           return r.bottom > 0 && r.top < innerHeight; }).length;
}"""


def cover(phone, name: str) -> dict:
    phone.wait_for_timeout(600)  # the answer landed; a copy (150 ms after) is up
    phone.screenshot(path=f"test-artifacts/notice-copy-{name}.png")
    c = phone.evaluate(COVER)
    print(
        f"{name}: bars and copy take {c['covered']} px of {SCREEN} "
        f"({100 * c['covered'] / SCREEN:.0f}%): top {c['top']} (bars alone {c['bars']}), "
        f"bottom {c['bottom']}; copy {c['floatH']} px: {c['float']!r}"
    )
    return c


def assert_one_line_on_the_bar(phone, c: dict) -> None:
    """The copy, if shown: one line inside the turn bar's box; the band is the bars' alone."""
    assert c["top"] <= c["bars"] + 1, c  # nothing under the turn bar
    if c["float"] is None:
        return
    f, turn = phone.locator("#dl-float").bounding_box(), phone.locator("#dl-turn").bounding_box()
    assert f["height"] <= 30, f
    assert turn["y"] <= f["y"] and f["y"] + f["height"] <= turn["y"] + turn["height"] + 1, (f, turn)
    # this phone's fate chip on that line stays read (a new user lost "your fate N" under it)
    chip = phone.locator("#dl-my-fate")
    if chip.count():
        b = chip.bounding_box()
        overlap = b["y"] < f["y"] + f["height"] and f["y"] < b["y"] + b["height"]
        assert not overlap or f["x"] + f["width"] <= b["x"] + 1 or f["x"] >= b["x"] + b["width"] - 1, (
            f,
            b,
        )


def test_the_copy_of_a_hidden_notice_is_one_line_on_the_turn_bar_and_covers_nothing_7_2_2(
    new_phone,
):
    ann, ben = open_table(new_phone, "demloc", inset=0)
    # Ben reads his Bram's card, the page scrolled: the lines under the turn bar are hidden.
    open_sheet(ben, "s1-bram", "brawl")
    ben.evaluate("window.scrollTo(0, 600)")
    ann.wait_for_timeout(300)
    in_sync([ann, ben])

    # Ann's Korr shoots at Bram and fails his test (a stray shot: no calculation to apply).
    work = aim_shot(ann, "s0-korr", "s1-bram", 6, "6 6 5")
    ann.wait_for_timeout(300)
    work.tap()
    notice = ann.locator("#dl-notice")
    expect(notice).to_contain_text("Stray shot")
    c = cover(ann, "stray-shooter")
    assert_one_line_on_the_bar(ann, c)
    probe = " ".join(notice.inner_text().split())[:40]
    # What the tap brought is read once: the notice, never a copy of it too.
    assert ann.evaluate(READ, probe) == 1, probe

    # Ben's page, scrolled: the log's new line is hidden under the bars, so it is copied in one
    # line on the turn bar, the band left as the bars alone leave it.
    in_sync([ann, ben])
    c = cover(ben, "stray-other")
    assert c["float"] is not None, "the line is not copied: the test does not show the case"
    assert_one_line_on_the_bar(ben, c)
    copy = ben.locator("#dl-float")
    whole = copy.text_content()
    expect(copy).to_have_attribute("title", whole)
    # the words of a line that is hidden under the bars (the newest log line or an event)
    assert ben.evaluate(
        """t => ['dl-status', 'dl-event', 'dl-notice'].some(id => { const e = document.getElementById(id);
             return e && e.textContent.replace(/\\s+/g, ' ').trim() === t
               && e.getBoundingClientRect().bottom <= document.getElementById('dl-turn').getBoundingClientRect().bottom; })""",
        whole,
    ), whole
    assert copy.evaluate("e => e.scrollWidth > e.clientWidth"), "a long line is ellipsized"
    # A tap on it: the whole text; any other tap: gone.
    copy.tap()
    expect(copy).to_have_class("dl-float dl-float-whole")
    ben.wait_for_timeout(200)
    ben.screenshot(path="test-artifacts/notice-copy-stray-other-whole.png")
    assert copy.bounding_box()["height"] > 40
    ben.locator("#dl-turn").tap()
    expect(copy).to_be_hidden()

    # A shot that hits: Ben applies it; what it did (Bram is killed) is read once, where the
    # page landed, and nothing is under the turn bar on either phone.
    ben.wait_for_timeout(600)
    work = aim_shot(ann, "s0-korr", "s1-bram", 1, "6 6 5")
    ann.wait_for_timeout(300)
    work.tap()
    expect(ben.locator("#dl-pending")).to_be_visible()
    in_sync([ann, ben])
    ben.locator('#bottom-bar a[href="#dl-pending"]').tap()  # "A shot waits for you: check it"
    ben.wait_for_timeout(300)
    ben.locator("#dl-pending").get_by_role("button", name="Apply").tap()
    expect(ben.locator("#dl-pending")).to_have_count(0)
    expect(ben.locator("#dl-status")).to_contain_text("Bram Oakjaw")  # a kill (7.2.2)
    c = cover(ben, "apply-applier")
    assert_one_line_on_the_bar(ben, c)
    probe = " ".join(ben.locator("#dl-status").inner_text().split())[:40]
    assert ben.evaluate(READ, probe) == 1, probe
    in_sync([ann, ben])
    assert_one_line_on_the_bar(ann, cover(ann, "apply-shooter"))

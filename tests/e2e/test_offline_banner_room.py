"""The connection banner on the DemLoc play page (docs/playing.md "A live table: where a tap
lands, the next step under the thumb"), by touch at 360x740: it sits just above the bottom bar
and covers no control of the page, and what it would say twice is said once. Found by a new
user: "Offline: no network." drawn over the Brawl form's Work it out, and "Your tap while
offline was not applied: the table moved on." both in the banner and in the line above Next
(DemLoc rulebook 7.2, 7.3.2)."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_work_it_out_room import brawl_form

# The controls of the page (not of the bottom bar) whose centre shows (the point hits them), by
# name or text, with their boxes' bottoms.
HIT = """() => [...document.querySelectorAll('#live button, #live a[href], #live summary, '
    + '#live input:not([type=hidden]), #live select, #live textarea')]
  .filter(c => !c.closest('#bottom-bar') && c.getClientRects().length)
  .filter(c => { const r = c.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.width > 0 && at && (at === c || c.contains(at)); })
  .map(c => [(c.name || c.textContent.trim()).slice(0, 30), Math.round(c.getBoundingClientRect().bottom)])"""


NOT_APPLIED = "Your tap while offline was not applied: the table moved on"

# Every element on screen whose own text says ``words`` (not its parents').
SAID = """words => [...document.querySelectorAll('body *')].filter(e => {
  if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') return false;
  const own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
  const r = e.getBoundingClientRect();
  return own.includes(words) && r.bottom > 0 && r.top < innerHeight;
}).map(e => e.id || e.className)"""


def test_the_offline_banner_covers_no_control_work_it_out_goes_above_it_7_3_2(new_phone):
    """Ann's Brawl form is open, its Work it out stuck above the thumb bar; Ben reads the
    roster, a control just above his bottom bar. Both phones lose the network: the banner
    "Offline: no network." shows above the bottom bar. Ann's Work it out goes above it, tappable;
    Ben's view does not move (a thumb about to tap keeps its control where it was:
    test_never_lost_leftovers), and the page's end, scrolled to, is above the banner."""
    ben, ann = open_table(new_phone, "demloc", names=("Ben", "Ann"), inset=0)
    box, form = brawl_form(ann, "s1-bram", "s0-korr")
    work = form.get_by_role("button", name="Work it out")
    form.locator('select[name="d.defender"]').evaluate("e => e.scrollIntoView({block: 'start'})")
    ann.evaluate("window.scrollBy(0, -110)")  # the form's head under the turn bar
    ben.evaluate("""() => {  // a card's summary 6 px above the bottom bar
      const bar = document.getElementById('bottom-bar').getBoundingClientRect().top;
      const s = document.querySelectorAll('#live summary.dl-summary');
      const card = s[s.length - 1].getBoundingClientRect();
      window.scrollBy(0, card.bottom - (bar - 6));
    }""")
    ann.wait_for_timeout(300)
    before = work.bounding_box()
    ben_y = ben.evaluate("window.scrollY")
    for phone in (ann, ben):
        phone.context.set_offline(True)
    for phone in (ann, ben):
        expect(phone.locator("#net")).to_contain_text("Offline")
    ann.wait_for_timeout(300)
    ann.screenshot(path="test-artifacts/offline-banner-work-it-out.png")
    ben.screenshot(path="test-artifacts/offline-banner-roster.png")
    net, button = ann.locator("#net").bounding_box(), work.bounding_box()
    print(f"Work it out y {before['y']:.0f} -> {button['y']:.0f}, banner {net['y']:.0f}.."
          f"{net['y'] + net['height']:.0f}")
    assert button["y"] + button["height"] <= net["y"], (button, net)
    assert work.evaluate("""w => { const r = w.getBoundingClientRect();
      return w.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }""")
    assert ben.evaluate("window.scrollY") == ben_y  # his view did not move
    ben.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    ben.wait_for_timeout(300)
    ben_net = ben.locator("#net").bounding_box()
    lowest = max(ben.evaluate(HIT), key=lambda c: c[1])  # the page's last control that shows
    assert lowest[1] <= ben_net["y"], (lowest, ben_net)
    for phone in (ann, ben):
        phone.context.set_offline(False)
    for phone in (ann, ben):
        expect(phone.locator("body")).to_have_attribute("data-ws", "open", timeout=20_000)


def test_a_stale_offline_tap_is_said_once_at_its_control_not_again_in_the_banner_7_2(new_phone):
    """Whoever acts (Ann) taps Next: pass offline; the other (Ben) gives himself a fate point
    meanwhile (the table moves on). Back online, her tap is sent again and refused as stale: the
    line above Next says so, and the banner does not say it again (a new user read it twice,
    one over the other)."""
    phones = open_table(new_phone, "demloc", inset=0)
    ann = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    ben = next(p for p in phones if p is not ann)
    ann.context.set_offline(True)
    ann.get_by_role("button", name="Next: pass").tap()
    expect(ann.locator('#unsent[data-code="not_sent"]')).to_be_visible()
    ben.get_by_role("button", name="+1 fate point").tap()
    expect(ben.locator("#dl-my-fate")).to_contain_text("your fate 4")
    ann.context.set_offline(False)
    line = ann.locator('#bottom-bar .alert[data-code="stale_version"]')
    expect(line).to_contain_text(NOT_APPLIED, timeout=20_000)
    ann.wait_for_timeout(500)
    ann.screenshot(path="test-artifacts/offline-banner-said-once.png")
    said = ann.evaluate(SAID, NOT_APPLIED)
    print("said by:", said, "banner:", ann.locator("#net").evaluate("n => n.hidden ? '(hidden)' : n.textContent"))
    assert len(said) == 1, said

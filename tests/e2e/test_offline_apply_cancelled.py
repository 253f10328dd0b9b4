"""A tap made offline that the table can no longer take says so on the screen when the phone is
back (docs/playing.md: "if the table moved on meanwhile it is not applied, and the line at the
button says so"). Found by a new user: Ben, offline, tapped Apply on Ann's shot ("Not sent yet");
Ann cancelled the shot; back online, Ben's refusal was drawn 421 px above his screen, where the
calculation had been, or was gone, and the banner said only "Back online: up to date."

By touch at 360x740 (rulebook 7.2.2: the target's player applies the proposed result)."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_apply_seen import BAND
from tests.e2e.test_between_bars import propose_shot

GONE = "Your tap while offline was not applied: the table moved on."

# Where the words are on Ben's screen: the line at the control, or the banner.
SAID = """(text) => {
  const seen = [];
  document.querySelectorAll('#live .alert, #net').forEach(e => {
    if (!e.getClientRects().length || !e.textContent.includes(text)) return;
    const r = e.getBoundingClientRect();
    if (r.bottom > 0 && r.top < innerHeight) seen.push(e.id || e.className);
  });
  return seen;
}"""


def test_an_apply_sent_offline_then_cancelled_by_the_other_phone_is_said_on_screen(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    propose_shot(ann, ben)
    m = ben.evaluate(BAND)
    ben.evaluate(f"window.scrollBy(0, {m['apply'] - m['top'] - 12})")
    ben.wait_for_timeout(300)
    ben.context.set_offline(True)
    expect(ben.locator("#net")).to_contain_text("Offline")
    apply = ben.locator("#dl-pending").get_by_role("button", name="Apply")
    apply.tap()  # held: "no connection (offline)" (test_apply_offline_says)
    expect(ben.locator("#dl-calc-check")).to_contain_text("no connection (offline)")
    ben.wait_for_timeout(600)
    apply.tap()  # again: queued, "Not sent yet"
    expect(ben.locator("#unsent")).to_be_visible()
    ann.locator("#dl-pending").get_by_role("button", name="Cancel").tap()
    expect(ann.locator("#dl-pending")).to_have_count(0)
    ben.context.set_offline(False)
    expect(ben.locator("body")).to_have_attribute("data-ws", "open", timeout=20_000)
    in_sync([ann, ben])
    expect(ben.locator("#unsent")).to_have_count(0, timeout=10_000)
    # Said on the screen, and still said after the socket's first frame and the catch-up, and
    # after Ann's next tap about 2 s later (an update that takes a race's line away).
    def said() -> None:
        ben.screenshot(path="test-artifacts/offline-apply-cancelled.png")
        assert ben.evaluate(SAID, GONE), (ben.locator("#net").inner_text(),
                                          ben.locator("#live .alert").all_inner_texts())

    ben.wait_for_timeout(1200)
    said()
    ann.wait_for_timeout(800)
    version = int(ben.locator("#live").get_attribute("data-version"))
    ann.locator("#dl-players h2").first.tap()
    ann.locator("#dl-players").get_by_role("button", name="+1 fate point").first.tap()
    expect(ben.locator("#live")).to_have_attribute("data-version", str(version + 1))
    ben.wait_for_timeout(400)
    said()

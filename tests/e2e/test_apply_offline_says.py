"""An Apply tapped offline says so at the control (rulebook 7.2.2: the target's player checks
the proposed result, then applies it; docs/playing.md "A live table: where a tap lands, the next step under the thumb"). Found by a new user at
360x740: the fight's target's phone offline, his tap on Apply was held by the reading guard and
told "Not applied yet: check the result ... then tap Apply again", while the Offline banner
showed: nothing said the tap could not go anywhere, and the same line stayed once back online.

By touch: Ann's shot waits for Ben; Ben, offline, with only Apply and Cancel under the turn bar,
taps Apply: nothing is applied, and the line at Apply says there is no connection (not "read the
result"), in view. Back online, the line says so, and one tap applies the shot."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync
from tests.e2e.test_apply_seen import BAND
from tests.e2e.test_between_bars import propose_shot
from tests.e2e.test_landing import in_view


def test_apply_tapped_offline_says_no_connection_at_apply(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    propose_shot(ann, ben)
    m = ben.evaluate(BAND)
    ben.evaluate(f"window.scrollBy(0, {m['apply'] - m['top'] - 12})")
    ben.wait_for_timeout(300)
    version = ben.locator("#live").get_attribute("data-version")
    ben.context.set_offline(True)
    expect(ben.locator("#net")).to_contain_text("Offline")

    apply = ben.locator("#dl-pending").get_by_role("button", name="Apply")
    apply.tap()
    ben.wait_for_timeout(600)
    ben.screenshot(path="test-artifacts/apply-offline-held.png")
    check = ben.locator("#dl-calc-check")
    expect(check).to_contain_text("no connection (offline)")
    expect(check).not_to_contain_text("read the result above, then")
    in_view(ben, check)
    expect(ben.locator("#dl-pending")).to_be_visible()  # not applied
    assert ann.locator("#live").get_attribute("data-version") == version

    ben.context.set_offline(False)
    expect(ben.locator("body")).to_have_attribute("data-ws", "open")
    ben.wait_for_timeout(300)
    ben.screenshot(path="test-artifacts/apply-offline-back.png")
    if check.count():  # (a catch-up that redrew the calculation leaves no line to say it)
        expect(check).not_to_contain_text("offline")
    ben.wait_for_timeout(600)
    apply.tap()  # read (the held tap brought it), online: applied
    expect(ben.locator("#dl-pending")).to_have_count(0)
    in_sync([ann, ben])

"""Log out asks for a second tap, in place, like every other tap that cannot be taken back
(tabletop/KIT.md "Where the page lands": data-two-step). Found by two new users: one tap on the
header's "Log out" on the mission page dropped the phone out of its mission mid-game (the
submit listener that empties the service worker's cache ran before the two-step confirm).

By touch at 360x740, Ann at her mission's table: a first tap on Log out logs nothing out and
says "Tap again to log out" on the button, inside the screen; a tap elsewhere puts the label
back; a first tap then a second one on the same button logs her out."""

from playwright.sync_api import expect

from tests.e2e.conftest import drowned_bell_at


def test_log_out_at_a_table_asks_for_a_second_tap(new_phone):
    table, *_, (ann, _bob) = drowned_bell_at(new_phone, "characters", heroes=("Okka", "Ash"),
                                           feods=(150, 80))
    out = ann.locator(".topbar form[data-logout] button")
    expect(out).to_have_text("Log out")

    out.tap()
    ann.wait_for_timeout(700)  # a page the tap had sent away would be loading by now
    ann.screenshot(path="test-artifacts/log-out-asks-armed.png")
    expect(out).to_have_text("Tap again to log out")
    expect(out).to_be_in_viewport(ratio=1)
    assert ann.url.endswith(f"/t/{table.code}/"), ann.url
    expect(ann.get_by_role("link", name="Log in", exact=True)).to_have_count(0)
    expect(ann.locator("body")).to_have_attribute("data-ws", "open")

    ann.locator("#live h2, #live h1").first.tap()  # the player moved on
    expect(out).to_have_text("Log out")
    ann.wait_for_timeout(600)  # (the ghost-tap guard of the label that changed under the thumb)
    out.tap()
    expect(out).to_have_text("Tap again to log out")
    ann.wait_for_timeout(600)
    out.tap()
    expect(ann.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    ann.screenshot(path="test-artifacts/log-out-asks-done.png")

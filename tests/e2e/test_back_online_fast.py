"""Back online, a tap made offline is sent at once (docs/architecture.md "The live path": the live
connection). Found by a new user: after ~40 s offline the page kept "Offline: reconnecting..."
and the tap "Not sent yet" for 11-16 s after the network came back. On the browser's 'online'
event the page reconnects and sends the tap over HTTP without waiting for the new socket's
first frame. DemLoc rulebook 7.2 (+1 fate point: a counter any player may change at any time)."""

import re
import time

from playwright.sync_api import expect

from tests.e2e.conftest import open_table

from .conftest import shot

UNSENT = "Not sent yet: no connection. Your tap will be sent when you are back."


def test_a_tap_made_offline_is_sent_as_soon_as_the_network_returns(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    fate, ben_sees = ann.locator("#dl-my-fate"), ben.locator("#live")
    before, version = fate.inner_text(), ben_sees.get_attribute("data-version")
    ann.context.set_offline(True)
    expect(ann.locator("#net")).to_contain_text("Offline")
    plus = ann.get_by_role("button", name="+1 fate point")
    plus.scroll_into_view_if_needed()
    plus.tap()
    expect(ann.locator("#unsent")).to_have_text(UNSENT)
    ann.wait_for_timeout(20_000)  # every reconnect backoff grown
    # The new socket is slow to say anything (a proxy, a server busy): it opens, but its first
    # frame never comes. The tap must not wait for it.
    ann.route_web_socket(re.compile(r"/ws/"), lambda ws: None)
    start = time.monotonic()
    ann.context.set_offline(False)
    expect(ann.locator("#unsent")).to_have_count(0, timeout=5_000)
    took = time.monotonic() - start
    expect(ben_sees).not_to_have_attribute("data-version", version)  # it reached the table
    expect(fate).not_to_have_text(before)
    shot(ann, "back-online-fast")
    print(f"back online: the tap reached the table in {took:.1f} s")
    assert took < 1.5, took

"""Phones that recover (docs/architecture.md "The event-sourced table"), in a real browser:

- a phone whose network silently dies (a TCP proxy that black-holes its traffic: no FIN, no
  RST) says "Offline" within 10 s, reconnects by itself when the network is back and catches
  up, and a tap made while it was cut off is not lost: its fate shows (here: refused as stale,
  with the current state);
- a push that never reaches a connected phone (a command committed with no publish) is
  repaired by the heartbeat within seconds, not at the next change.
"""

import time

import pytest
from playwright.sync_api import expect

from tabletop import services
from tabletop.models import Table
from tabletop.rules import Command
from tests.e2e.conftest import open_table, shot, table_code
from tests.faults import BlackHoleProxy


@pytest.fixture
def proxy(server_url):
    host, port = server_url.removeprefix("http://").split(":")
    p = BlackHoleProxy(host, int(port))
    yield p
    p.close()


def _table_with_two(ann, ben):
    open_table((ann, ben), "counter", inset=0)
    expect(ben.locator("#total")).to_have_text("0")
    return table_code(ann)


def test_a_silently_cut_off_phone_says_so_reconnects_and_its_tap_is_not_lost(
    new_phone, phone_at, proxy
):
    ann = new_phone()
    ben = phone_at(f"http://127.0.0.1:{proxy.port}")
    _table_with_two(ann, ben)

    proxy.black_hole()  # Ben's Wi-Fi dies silently: the browser still thinks it is online
    cut = time.monotonic()
    ben.get_by_role("button", name="+1").tap()  # this tap leaves into the void
    for n in (1, 2, 3):
        ann.get_by_role("button", name="+1").tap()
        expect(ann.locator("#total")).to_have_text(str(n))
    expect(ben.locator("#net")).to_contain_text("Offline", timeout=10_000)
    detected = time.monotonic() - cut
    expect(ben.locator("[data-code=not_sent]")).to_be_visible(timeout=15_000)
    shot(ben, "recovery-offline-unsent")

    proxy.restore()
    back = time.monotonic()
    expect(ben.locator("#total")).to_have_text("3", timeout=15_000)
    converged = time.monotonic() - back
    # Ben's tap was sent again once he was back; he tapped on version 2, the table was at 5:
    # refused as stale, said at the control (as a tap made offline), with the current state.
    expect(ben.locator("#live .alert")).to_contain_text(
        "Your tap while offline was not applied: the table moved on", timeout=10_000
    )
    expect(ben.locator("#total")).to_have_text("3")
    expect(ben.locator("#net")).to_be_hidden(timeout=10_000)  # the banner clears
    version = ann.locator("#live").get_attribute("data-version")
    expect(ben.locator("#live")).to_have_attribute("data-version", version)
    shot(ben, "recovery-back")
    print(
        f"\nRECOVERY black-hole: offline shown after {detected:.1f} s, "
        f"caught up {converged:.1f} s after the network came back"
    )


def test_a_missed_push_is_repaired_without_any_new_change(new_phone, settings):
    ann = new_phone()
    ben = new_phone()
    code = _table_with_two(ann, ben)
    table = Table.objects.get(code=code)
    host = table.seats.get(number=0)
    # A command committed whose push reaches nobody: published to a channel layer that no
    # server listens to (this test process's own in-memory layer).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    committed = time.monotonic()
    services.run_command(table, host, Command("counter.add", {"amount": 5}))
    expect(ben.locator("#total")).to_have_text("5", timeout=8_000)
    expect(ann.locator("#total")).to_have_text("5", timeout=8_000)
    print(
        f"\nRECOVERY missed push: both phones up to date {time.monotonic() - committed:.1f} s "
        "after the commit"
    )

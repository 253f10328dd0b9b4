"""Two phones join one table by code; one acts, the other sees it without reloading. Every
control is tapped as a thumb does, but for the stale phone's tap, sent from a page script in
the same tick as the version it changes (no push may refresh the page between them)."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import host_lobby, open_table, shot
from tests.e2e.test_landing import in_view


def test_two_phones_share_a_table_live(new_phone):
    ann = new_phone()
    ann.goto("/")
    ann.get_by_role("link", name="New table").tap()
    ann.select_option("#ruleset", "counter")
    ann.fill("#name", "Ann")
    ann.get_by_role("button", name="Open the table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    expect(ann.locator("body")).to_have_attribute("data-ws", "open")
    shot(ann, "table-lobby-host")

    ben = new_phone()
    ben.goto("/")
    ben.fill("#code", code.lower())
    ben.get_by_role("button", name="Join table").tap()
    ben.fill("#name", "Ben")
    ben.get_by_role("button", name="Join table").tap()
    expect(ben.locator("#live")).to_contain_text("Waiting for the host")
    expect(ann.locator(".seats")).to_contain_text("Ben")  # live, no reload

    ann.get_by_role("button", name="Start the game").tap()
    expect(ann.locator("#total")).to_have_text("0")
    expect(ben.locator("#total")).to_have_text("0")
    expect(ben.locator("body")).to_have_attribute("data-ws", "open")

    ben.get_by_role("button", name="+1").tap()
    expect(ben.locator("#total")).to_have_text("1")
    expect(ann.locator("#total")).to_have_text("1")  # Ann never reloaded
    in_view(ben, ben.locator("#total"))
    in_view(ben, ben.get_by_role("button", name="+1"))
    ann.get_by_role("button", name="Roll d6").tap()
    expect(ben.locator("#live")).to_have_attribute("data-version", "4")
    ben.get_by_role("button", name="↶ Undo").tap()
    expect(ann.locator("#total")).to_have_text("1")
    expect(ann.locator("#secret")).not_to_have_text(ben.locator("#secret").inner_text())
    shot(ann, "table-counter-ann")
    shot(ben, "table-counter-ben")

    # A phone that lost its session: the seat cookie brings it back by scanning the code again.
    ben.context.clear_cookies(name="sessionid")
    ben.goto(f"/j/{code}/")
    expect(ben.locator("#total")).to_have_text("1")

    # A phone with no seat here watches, live, and is told how a seat comes back.
    watcher = new_phone()
    watcher.goto(f"/t/{code}/")
    expect(watcher.locator("#total")).to_have_text("1")
    expect(watcher.locator("#seat-back")).to_contain_text("Had a seat here?")
    ann.get_by_role("button", name="+1").tap()
    expect(watcher.locator("#total")).to_have_text("2")
    shot(watcher, "table-counter-watcher")
    watcher.locator("#seat-back").get_by_role("link", name="Log in").tap()
    expect(watcher).to_have_url(re.compile(rf"/accounts/login/\?next=/t/{code}/$"))


def test_a_refused_command_shows_the_message_where_the_player_tapped(new_phone):
    ann, _code = host_lobby(new_phone, "counter")
    ann.get_by_role("button", name="Start the game").tap()
    expect(ann.locator("#total")).to_have_text("0")
    ann.get_by_role("button", name="↶ Undo").is_disabled()
    expect(ann.locator("body")).to_have_attribute("data-ws", "open")
    # A stale phone: it still believes in version 1 when the tap leaves (same JS tick, so no
    # push can refresh it in between).
    ann.evaluate(
        """() => { document.getElementById('live').dataset.version = '1';
                   [...document.querySelectorAll('#live button')]
                     .find(b => b.textContent.trim() === '+1').click(); }"""
    )
    expect(ann.locator(".alert")).to_contain_text("Someone acted just before you")
    in_view(ann, ann.locator(".alert"))
    expect(ann.locator("#total")).to_have_text("0")
    ann.get_by_role("button", name="+1").tap()
    expect(ann.locator("#total")).to_have_text("1")
    shot(ann, "table-error")


def test_a_dropped_phone_shows_offline_then_catches_up(new_phone):
    ann, ben = open_table(new_phone, "counter", inset=0)
    expect(ben.locator("#total")).to_have_text("0")

    # Ben's socket drops (a sleeping phone, a flaky network): the page says so...
    ben.evaluate(
        "document.querySelector('[ws-connect]')['htmx-internal-data'].webSocket.socket.close()"
    )
    expect(ben.locator("#net")).to_contain_text("Offline")
    ann.get_by_role("button", name="+1").tap()
    expect(ann.locator("#total")).to_have_text("1")
    ann.get_by_role("button", name="+1").tap()
    expect(ann.locator("#total")).to_have_text("2")
    # ...comes back by itself and catches up with what happened meanwhile.
    expect(ben.locator("#net")).to_contain_text("Back online", timeout=15_000)
    expect(ben.locator("#total")).to_have_text("2")
    shot(ben, "table-back-online")

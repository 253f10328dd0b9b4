"""A third phone watches a DemLoc mission (a spectator or a public screen, no seat): it sees the
whole table live (cards, damage, fate, turn, log) and no control, no bottom bar; the players'
phones keep theirs. A killed character's card shows no mana (5.1.1)."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import host_lobby, open_table, shot


def test_a_watcher_sees_the_mission_live_and_no_control(new_phone):
    ann, _ben = open_table(new_phone, "demloc", names=("Ann", "Ben"))
    code = re.fullmatch(r".*/t/([A-Z0-9]{6})/", ann.url).group(1)
    expect(ann.locator("#dl-turn")).to_be_visible()

    screen = new_phone()
    screen.goto(f"/t/{code}/")
    expect(screen.locator("#dl-turn")).to_be_visible()
    expect(screen.locator("body")).to_have_attribute("data-ws", "open")
    # Every Guild's cards, unfolded; nothing that sends a command.
    expect(screen.locator("#dl-others")).to_contain_text("Vesna the Gray")
    expect(screen.locator("#dl-others")).to_contain_text("Maud Brinewitch")
    assert screen.locator("#live form").count() == 0
    assert screen.locator("#live button").count() == 0
    assert screen.locator("#bottom-bar").count() == 0
    assert ann.locator("#bottom-bar button").count() >= 2  # the players keep theirs

    # Ann gains a fate point and kills her own Vesna (three broken hearts, by hand): the
    # screen follows without reloading.
    ann.locator("#dl-players").get_by_role("button", name="+1 fate point").tap()
    expect(screen.locator("#dl-fate-0")).to_have_text("fate 4")
    vesna = ann.locator("#piece-s0-vesna")
    vesna.locator("summary.dl-summary").tap()
    for n in (1, 2):
        vesna.get_by_role("button", name="add a broken heart").tap()
        expect(vesna.locator("[data-token=broken_hearts] .dl-counter-value")).to_have_text(
            re.compile(rf"^{n}/")
        )
    vesna.get_by_role("button", name="add a broken heart").tap()
    expect(screen.locator("#piece-s0-vesna .dl-status")).to_have_text("killed")
    expect(screen.locator("#dl-log")).to_contain_text("Vesna")
    dead = ann.locator("#piece-s0-vesna")
    # Ann's own page may swap its region a moment after the screen's: wait for it, then look
    expect(dead.locator(".dl-status")).to_have_text("killed")
    expect(dead.locator("[data-token=common], [data-token=dark], form")).to_have_count(0)
    assert "mana" not in dead.inner_text().lower()
    assert screen.locator("#live form, #live button").count() == 0
    screen.locator("#piece-s0-vesna summary.dl-summary").tap()
    shot(screen, "watcher-demloc-360")
    shot(ann, "watcher-demloc-ann-360")


def test_a_phone_without_a_seat_watches_a_mission_from_its_lobby_to_its_game(new_phone):
    """README: anyone with the code may watch. Found by a new user: a phone opening /t/CODE/ of
    a table still in the lobby got only "Take a seat". The join page offers "Watch the table";
    the watcher sees the lobby live (Ben sits down), then the game when Ann starts it, without
    a reload, and no control in either."""
    ann, code = host_lobby(new_phone)
    screen = new_phone()
    screen.goto(f"/t/{code}/")
    expect(screen.get_by_role("button", name="Join table")).to_be_visible()
    screen.screenshot(path="test-artifacts/watcher-join-lobby-360.png")
    screen.get_by_role("link", name="Watch the table").tap()
    expect(screen.locator("#live")).to_have_attribute("data-status", "lobby")
    expect(screen.locator("#watching")).to_contain_text("You are watching")
    expect(screen.locator("body")).to_have_attribute("data-ws", "open")
    assert screen.locator("#live form, #live button, #bottom-bar").count() == 0
    ben = new_phone()
    ben.goto(f"/j/{code}/")
    ben.fill("#name", "Ben")
    ben.get_by_role("button", name="Join table").tap()
    expect(screen.locator("ul.seats").first).to_contain_text("Ben")
    screen.screenshot(path="test-artifacts/watcher-lobby-360.png")
    ann.get_by_role("button", name="Start the game").tap()
    expect(screen.locator("#dl-turn")).to_be_visible()
    expect(screen.locator("#dl-others")).to_contain_text("Vesna the Gray")
    assert screen.locator("#live form, #live button, #bottom-bar").count() == 0
    assert "Take a seat" not in screen.locator("#live").inner_text()
    screen.screenshot(path="test-artifacts/watcher-lobby-started-360.png")

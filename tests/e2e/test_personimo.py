"""Personimo on two phones: the first row's claims and one full turn, live on both screens."""

import json
import re

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot, tap_through


def _version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def _act(page) -> None:
    """Do what this phone's prompt asks: claim the first card, or place by tapping two cells."""
    if page.locator("button.pm-claim").count():
        tap_through(page.locator("button.pm-claim").first)
        return
    legal = json.loads(page.locator("#pm-legal").text_content())
    if legal:
        (r1, c1), (r2, c2) = legal[0]["cells"]
        page.locator(f'#pm-grid [data-r="{r1}"][data-c="{c1}"]').tap()
        expect(page.locator(f'#pm-grid [data-r="{r2}"][data-c="{c2}"]')).to_have_class(
            re.compile("partner")
        )
        page.locator(f'#pm-grid [data-r="{r2}"][data-c="{c2}"]').tap()
        page.locator("#pm-orient button").first.tap()
    elif page.get_by_role("button", name="Discard it").count():
        page.get_by_role("button", name="Discard it").tap()
    else:
        page.locator(".pm-shift button:not([disabled])").first.tap()


def _started(new_phone, ann_name="Ann"):
    """Ann opens a Personimo table, Ben takes a seat, Ann starts: ``(ann, ben)``, both phones
    on the live socket showing the market and the 5x5 grid."""
    ann, ben = open_table(new_phone, "personimo", names=(ann_name, "Ben"), inset=0)
    for phone in (ann, ben):
        expect(phone.locator("#pm-market")).to_be_visible()
        expect(phone.locator("#pm-grid .pm-cell")).to_have_count(25)
    return ann, ben


#: A 60-character seat name with no space (the longest a seat takes): it must not widen the
#: page on a 360 px phone where it labels a claimed card (found by a new user: 413 px, zoomed).
LONG_NAME = "Ann" + "x" * 57
WIDEST = """() => [...document.querySelectorAll('body, body *')]
  .filter(e => e.scrollWidth > 361 || e.getBoundingClientRect().width > 361)
  .map(e => e.tagName + '.' + e.className + ' sw=' + e.scrollWidth + ' w=' + Math.round(e.getBoundingClientRect().width))
  .slice(0, 12)"""


def test_two_phones_claim_and_play_a_full_turn(new_phone):
    ann, ben = _started(new_phone, LONG_NAME)

    shot(ann if "Your turn" in ann.locator("#pm-prompt").inner_text() else ben, "personimo-claim")
    # Four claims of the first row, then one turn: each of the four tokens places and claims.
    placed_shot = wide_seen = False
    for _ in range(4 + 8):
        phone = ann if "Your turn" in ann.locator("#pm-prompt").inner_text() else ben
        other = ben if phone is ann else ann
        expect(phone.locator("#pm-prompt")).to_contain_text("Your turn")
        before = _version(phone)
        if not placed_shot and phone.locator("#pm-legal").count():
            legal = json.loads(phone.locator("#pm-legal").text_content())
            (r1, c1), (r2, c2) = legal[0]["cells"]
            phone.locator(f'#pm-grid [data-r="{r1}"][data-c="{c1}"]').tap()
            phone.locator(f'#pm-grid [data-r="{r2}"][data-c="{c2}"]').tap()
            expect(phone.locator("#pm-orient button").first).to_be_visible()
            shot(phone, "personimo-place")
            phone.locator("#pm-orient button").first.tap()
            placed_shot = True
            expect(phone.locator(f'#pm-grid [data-r="{r1}"][data-c="{c1}"]')).to_have_class(
                re.compile("built")
            )
        else:
            _act(phone)
        expect(phone.locator("#live")).not_to_have_attribute("data-version", str(before))
        expect(other.locator("#live")).to_have_attribute("data-version", str(_version(phone)))
        for p in (ann, ben):  # the long name labels claimed cards: no sideways scroll
            wide_seen = wide_seen or LONG_NAME[:12] in p.locator("#pm-market").inner_text()
            assert p.evaluate("document.documentElement.scrollWidth") <= 360, p.evaluate(WIDEST)
    assert placed_shot
    # After a full turn both players have two cards each and the third row is on the table.
    for phone in (ann, ben):
        expect(phone.locator("#pm-mine .pm-cell.built")).to_have_count(1 + 4)
        expect(phone.locator("#pm-prompt")).to_contain_text("Season 3 of 6")
    shot(ann, "personimo-ann")
    shot(ben, "personimo-ben")
    assert wide_seen, "no claimed card was labelled with the long name"


def test_score_a_physical_district_on_a_phone(new_phone):
    phone = new_phone()
    phone.goto("/personimo/score/")
    phone.select_option("#hq", "island")
    phone.select_option('select[name="card0"]', "diplomat")
    phone.select_option('select[name="cell0"]', "a3")
    phone.select_option('select[name="card1"]', "sea")
    phone.select_option('select[name="cell1"]', "d3")
    phone.get_by_role("button", name="Score").tap()
    expect(phone.locator("#pm-result [data-score]")).to_have_text("7 pts")  # Suns 2x2 + Waves 3x1
    expect(phone.locator("#pm-result")).to_contain_text("the Diplomat: Moons on its first block")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "personimo-score")


def test_a_heartbeat_between_the_two_taps_keeps_the_first_block(new_phone):
    """Found by a new user: the socket's heartbeat answer (every 2.5 s) fired the re-marking
    that dropped the first tapped block, so at a normal pace the second tap silently started a
    new choice. Now only a new grid (a new state) resets the choice."""
    ann, ben = _started(new_phone)
    for _ in range(12):  # claims first; then the first placement
        phone = ann if "Your turn" in ann.locator("#pm-prompt").inner_text() else ben
        expect(phone.locator("#pm-prompt")).to_contain_text("Your turn")
        legal = []
        if phone.locator("#pm-legal").count():
            legal = json.loads(phone.locator("#pm-legal").text_content() or "[]")
        if legal:
            break
        before = _version(phone)
        _act(phone)
        expect(phone.locator("#live")).not_to_have_attribute("data-version", str(before))
    assert legal, "no placement came up"
    (r1, c1), (r2, c2) = legal[0]["cells"]
    phone.locator(f'#pm-grid [data-r="{r1}"][data-c="{c1}"]').tap()
    partner = phone.locator(f'#pm-grid [data-r="{r2}"][data-c="{c2}"]')
    expect(partner).to_have_class(re.compile("partner"))
    # Wait for the next message on the socket (the heartbeat's answer), no fixed sleep.
    phone.evaluate(
        "() => new Promise(done => document.addEventListener('htmx:wsAfterMessage', "
        "() => done(), {once: true}))"
    )
    partner.tap()
    expect(phone.locator("#pm-orient button").first).to_be_visible()
    shot(phone, "personimo-place-after-heartbeat")

"""A 60-character Guild name (the most a Guild name may have) without spaces on a 360 px phone: no sideways scroll on any
guild page nor on the mission table through its phases (phones first, 360 px)."""

import re

from playwright.sync_api import expect

from guilds.demo import load_demo_content
from missions.demo import load_demo_missions
from tests.e2e.conftest import login, shot
from tests.missions.lifecycle_flow import build_guild

LONG = "Thequickbrownfoxjumpsoverthelazydog12345Sphinxofblackquartz7"  # 60 characters, no space
PAGES = (
    "",
    "gate/",
    "dormitory/",
    "armory/",
    "library/",
    "guesthouse/",
    "pantheon/",
    "buildings/",
    "ledger/",
    "roster/",
    "city/",
)


PHONE_WIDTH = 360  # new_phone's viewport


def overflow(page) -> int:
    """How many CSS pixels the page is wider than the phone's 360 px (0: no sideways scroll).
    A mobile browser (Playwright's ``is_mobile``) widens its layout viewport to a page too wide,
    so ``innerWidth`` and ``clientWidth`` grow with it: both the page and the viewport are
    measured against 360, never against each other (as tests/e2e/test_mission_narrow.py)."""
    return page.evaluate(
        f"""Math.max(document.documentElement.scrollWidth, window.innerWidth,
                     document.documentElement.clientWidth) - {PHONE_WIDTH}"""
    )


def tap_next(phone):
    """Tap Next and wait until the table moved on, so the other phone's tap never lands on a
    button that a push is replacing at that very moment (a real player would tap again)."""
    before = phone.locator("#live").get_attribute("data-version")
    phone.get_by_role("button", name="Next").tap()
    expect(phone.locator("#live")).not_to_have_attribute("data-version", before)


def test_a_long_guild_name_never_scrolls_sideways(new_phone):
    assert len(LONG) == 60
    load_demo_content()
    load_demo_missions()
    a = build_guild(LONG, "red", ("Rook",), feods=80)
    b = build_guild(LONG[::-1], "blue", ("Ash",), feods=80)
    ann, bob = new_phone(), new_phone()
    login(ann, a.master.username)
    login(bob, b.master.username)
    wide = {}
    for path in PAGES:
        ann.goto(f"/guild/{path}")
        wide[path] = overflow(ann)
    shot(ann, "guild-long-name-office")
    assert wide == dict.fromkeys(PAGES, 0)

    ann.goto("/missions/")
    assert overflow(ann) == 0  # the lobby names the Guild
    ann.get_by_text("The Drowned Bell").tap()
    ann.get_by_role("button", name="Open the mission table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    bob.goto(f"/j/{code}/")
    bob.fill("#name", LONG[::-1])
    bob.get_by_role("button", name="Join table").tap()
    expect(ann.locator(".seats")).to_contain_text(LONG[::-1])
    ann.get_by_role("button", name="Start the game").tap()
    for phone in (ann, bob):
        phone.get_by_role("button", name="Bring my Guild", exact=True).tap()
    expect(ann.locator("#dl-guild-data")).to_contain_text(re.compile(r"taken \d\d:\d\d"))
    for phone in (ann, bob):  # both Guilds bound before anyone taps Next
        expect(phone.locator("#dl-guilds")).not_to_contain_text("waiting")
    stages = {}
    for stage in ("raffle", "objective", "map", "characters"):
        stages[f"guilds->{stage}"] = overflow(ann)
        for phone in (ann, bob):
            tap_next(phone)
        expect(ann.locator(f'[data-stage="{stage}"]')).to_be_visible()
    ann.get_by_role("button", name="Choose").first.tap()
    expect(ann.locator(".dl-picks")).to_contain_text("Rook")
    stages["characters"] = overflow(ann)
    shot(ann, "mission-long-name-characters")
    assert stages == dict.fromkeys(stages, 0)

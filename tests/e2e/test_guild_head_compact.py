"""The head of every Guild page at 360x740 (the Guild's name, its purse and the Guild menu) is
compact, so the page's own content starts high in the first screen (found by a new user: the
name, the purse and the eleven menu pills took about 420 of the first 740 px of every Guild
page; still about 300 px with the menu a grid of chips). By touch, with a 60-letter Guild name:
on the Office, the Dormitory, the Armory and the Ledger the head (the name, the folded menu
"Menu · <page>" and the purse) ends by 150 px; a tap on the menu's line opens it: each of its
links wholly on the screen and at least 44 px tall, the current page marked; a tap on a link
goes to its page."""

import re

from playwright.sync_api import expect

from tests.missions.lifecycle_flow import build_guild

from .conftest import guild_menu, open_guild_menu, shot
from .test_mission_lobby import login

NAME = "The Lantern-Bearers of the Drowned Bell Quarter and the Quays"[:60]
MENU_END = 150  # was 435 (the name on three lines, four rows of pills), then 300 (three rows)
PAGES = {"/guild/": "Office", "/guild/dormitory/": "Dormitory", "/guild/armory/": "Armory",
         "/guild/ledger/": "Ledger"}


def test_every_guild_page_starts_its_own_content_in_the_first_screen(new_phone):
    assert len(NAME) == 60
    guild = build_guild(NAME, "red", ("Rook",))
    phone = new_phone()
    login(phone, guild.master.username)
    measured = {}
    for path, here in PAGES.items():
        phone.goto(path)
        nav = phone.get_by_role("navigation", name="Guild")
        expect(nav.locator("summary")).to_have_text(f"Menu · {here}")
        head, menu = phone.locator(".guild-head").bounding_box(), nav.bounding_box()
        measured[here] = round(max(head["y"] + head["height"], menu["y"] + menu["height"]))
        shot(phone, f"guild-head-{here.lower()}-folded")
        open_guild_menu(phone)
        expect(nav.get_by_role("link", name=here, exact=True)).to_have_class("here")
        shot(phone, f"guild-head-{here.lower()}")
    print("Guild page's head (name, folded menu, purse) ends at 360x740 (px):", measured)
    for here, bottom in measured.items():
        assert bottom <= MENU_END, (here, bottom)
    guild_menu(phone, "Library")  # the menu still open: a tap on its chip
    expect(phone).to_have_url(re.compile(r"/guild/library/$"))

"""The admin and its operations page on a phone (360x740, touch): no page scrolls sideways, and
a live table's code on the operations page opens that table."""

from __future__ import annotations

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from guilds.demo import load_demo_content
from tabletop import services
from tabletop.rules import Command
from tests.e2e.conftest import login, shot
from tests.e2e.test_every_page import OVERFLOW
from tests.guilds.factories import UserFactory

#: The admin pages an operator opens from a phone: the index, the changelists of the live
#: tables, their events and seats, the Guilds and their ledgers, and a change form.
PAGES = [
    "/admin/",
    "/admin/tabletop/table/",
    "/admin/tabletop/event/",
    "/admin/tabletop/seat/",
    "/admin/guilds/guild/",
    "/admin/guilds/ledgerentry/",
    "/admin/guilds/mercenarycard/",
    "/admin/guilds/weaponcard/",
    "/admin/missions/mission/",
    "/admin/ops/workerbeat/",
]


def test_the_admin_and_the_ops_page_do_not_scroll_sideways_at_360_px(new_phone):
    staff = UserFactory(username="operator", is_staff=True, is_superuser=True)
    assert staff.is_staff
    load_demo_content()
    table, host = services.table_create(
        ruleset="counter", host_name="Bartholomew of the Lower Loch Lanterns"
    )
    services.seat_join(table=table, name="Wilhelmina the Unbowed of Ashgrave")
    services.run_command(table, host, Command("table.start"))
    phone = new_phone()
    login(phone, "operator")
    wide = {}
    for path in [*PAGES, f"/admin/tabletop/table/{table.pk}/change/", "/admin/ops/"]:
        phone.goto(path)
        phone.wait_for_load_state("load")
        over = phone.evaluate(OVERFLOW)
        shot(phone, "admin" + path.strip("/").replace("/", "-"))
        if over > 0:
            wide[path] = over
    assert wide == {}, f"pages scrolling sideways (px): {wide}"
    # The operations page with a live table: no serious or critical accessibility finding.
    serious = [
        v["id"]
        for v in Axe().run(phone).response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
    assert serious == []
    # On the operations page the live table's code is a link a thumb taps to open the table.
    card = phone.locator(f'[data-table="{table.code}"]')
    expect(card).to_contain_text("Bartholomew of the Lower Loch Lanterns")
    expect(card).to_contain_text("Playing")
    # A card, not a list item: no bullet at the screen's edge (the admin's square bullet).
    assert card.evaluate("e => getComputedStyle(e).listStyleType") == "none"
    link = card.get_by_role("link", name=f"Table {table.code}", exact=True)
    link.scroll_into_view_if_needed()  # the thumb scrolls down to the live tables
    expect(link).to_be_in_viewport()
    box = link.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44  # a thumb's target
    link.tap()
    expect(phone).to_have_url(re.compile(f"/t/{table.code}/$"))

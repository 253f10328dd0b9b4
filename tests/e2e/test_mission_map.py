"""The map picture at 360 px (DemLoc rulebook 6.4.1 map creation: "the app shows all
participants which tiles of the modular map must be used ... and how all the parts must be
assembled"): every demo mission's map in the lobby fits the phone's width, its labels render
at 12 px or more, and it has an accessible name and description."""

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from tests.e2e.conftest import login, shot
from tests.missions.lifecycle_flow import build_guild


def test_every_demo_map_fits_a_360_px_phone_and_reads_6_4_1(new_phone):
    definitions = load_demo_missions()
    guild = build_guild("House Ash", "red", ("Rook",))
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/missions/")
    summaries = phone.locator(".dl-lobby-map > summary")
    expect(summaries).to_have_count(len(definitions))
    for i in range(len(definitions)):
        summaries.nth(i).tap()
    maps = phone.locator(".dl-lobby-map svg[role=img]")
    expect(maps).to_have_count(len(definitions))
    for i in range(len(definitions)):
        svg = maps.nth(i)
        svg.scroll_into_view_if_needed()
        box = svg.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
        labelled = svg.get_attribute("aria-labelledby").split()
        for ref in labelled:
            assert phone.locator(f"[id='{ref}']").count() == 1
        # The rendered size of each label: its font size times the SVG's scale on the page.
        sizes = svg.evaluate(
            "s => { const r = s.getBoundingClientRect(), v = s.viewBox.baseVal;"
            " const k = Math.min(r.width / v.width, r.height / v.height);"
            " return [...s.querySelectorAll('text')]"
            ".map(t => Number(t.getAttribute('font-size')) * k); }"
        )
        assert sizes and min(sizes) >= 12, sizes
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    shot(phone, "mission-maps-lobby")

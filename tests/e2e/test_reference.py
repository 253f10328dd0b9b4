"""The rules reference in a phone's browser (DemLoc rulebook 6.4.2 "consult the updated rulebook
and search its rules also through the use of keywords"): the search runs in the page, also with
the network gone, at 360 px."""

from playwright.sync_api import expect

from .conftest import ARTIFACTS, shot


def visible_ids(page) -> list[str]:
    return page.eval_on_selector_all(
        ".ref-entry", "els => els.filter(e => e.offsetParent !== null).map(e => e.id)"
    )


def test_the_reference_search_at_360_px_6_4_2(new_phone):
    phone = new_phone()
    phone.goto("/missions/reference/")
    total = phone.locator(".ref-entry").count()
    assert total > 80
    expect(phone.locator("#ref-count")).to_have_text(f"{total} entries.")
    # Readable at 360 px: nothing wider than the screen, no text under 12 px.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    smallest = phone.evaluate(
        "Math.min(...[...document.querySelectorAll('.ref-entry p, .ref-entry h3, .ref-toc a')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 12
    shot(phone, "reference-360")
    phone.screenshot(path=str(ARTIFACTS / "reference-360-top.png"))  # what the phone shows

    search = phone.get_by_label("Search the rules")
    search.fill("poison")
    expect(phone.locator("#ref-count")).to_have_text(
        f"{len(visible_ids(phone))} entries for \u201cpoison\u201d."
    )
    shown = visible_ids(phone)
    assert {"weapon-poisonous", "arcane-poison", "reading-bleeding-poison"} <= set(shown)
    assert "weapon-backstack" not in shown and len(shown) < total
    expect(phone.locator(".ref-toc")).to_be_hidden()
    shot(phone, "reference-360-poison")

    search.fill("BACKSTACK")
    expect(phone.locator("#weapon-backstack")).to_be_visible()
    assert visible_ids(phone) == ["weapon-backstack"]

    # No network: the search still answers (it runs in the page).
    phone.context.set_offline(True)
    search.fill("escape")
    expect(phone.locator("#escape")).to_be_visible()
    assert "escape" in visible_ids(phone) and "weapon-backstack" not in visible_ids(phone)
    search.fill("zzzz nothing")
    expect(phone.locator("#ref-none")).to_be_visible()
    assert visible_ids(phone) == []
    search.press("Escape")  # clears the search: everything is back
    expect(phone.locator("#ref-none")).to_be_hidden()
    assert len(visible_ids(phone)) == total
    phone.context.set_offline(False)

    # A link from a character's sheet lands on its entry, highlighted.
    phone.goto("/missions/reference/?q=shield#weapon-shield")
    expect(phone.locator("#weapon-shield")).to_have_class("card ref-entry target")
    assert "weapon-backstack" not in visible_ids(phone)


def test_what_a_mission_pays_reads_at_360_px_6_4_1(new_phone):
    """The contents' "What a mission pays" tapped: the section's heading and the default
    amounts come into view, the win row read as its numbers (6.4.1 resolution phase), and the
    tables fit the screen."""
    phone = new_phone()
    phone.goto("/missions/reference/")
    phone.locator(".ref-toc").get_by_role("link", name="What a mission pays").tap()
    expect(phone.locator("#g-pays-h")).to_be_in_viewport()
    win = phone.locator('#pays-defaults tr[data-row="win"]')
    win.scroll_into_view_if_needed()
    expect(win).to_be_in_viewport(ratio=1)
    assert win.get_attribute("data-fame") and win.inner_text().split()[-3].startswith("+")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    kills = phone.locator("#pays-defaults .ref-kills")
    kills.scroll_into_view_if_needed()
    box = kills.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    phone.screenshot(path=str(ARTIFACTS / "reference-360-pays.png"))

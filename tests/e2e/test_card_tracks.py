"""A character card's damage tracks by touch at 360x740 (DemLoc rulebook 5.1.1: the armor
factor is the damage before each broken armor token, 3 at most; the hit factor the damage before
each broken heart): the bar, the circles and the sheet's words are one projection, so a card
whose circles show broken tokens never shows an empty bar. Screenshot in
test-artifacts/card-tracks-*.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def test_broken_armor_tokens_fill_the_armor_bar_and_circles_alike(new_phone):
    ann, ben = open_table(new_phone, "demloc", inset=0)
    card = ann.locator("#piece-s0-korr")
    card.locator("summary.dl-summary").tap()
    armor = int(card.locator(".dl-factors dt:text-is('Armor') + dd").inner_text())
    plus = card.get_by_role("button", name="+1 damage")
    for _ in range(armor):  # one armor step: the first broken armor token (5.1.1)
        before = version(ann)
        plus.tap()
        for p in (ann, ben):
            expect(p.locator("#live")).to_have_attribute("data-version", str(before + 1))
    for p in (ann, ben):
        track = p.locator("#piece-s0-korr .dl-track-armor")
        meter = track.locator("meter")
        expect(meter).to_have_attribute("value", str(armor))
        expect(meter).to_have_attribute("max", str(3 * armor))
        expect(track.locator(".dl-armor-pips")).to_have_attribute(
            "aria-label", "1 of 3 broken armor tokens"
        )
        expect(track).to_contain_text(f"Armor {armor}")
    words = card.locator("[data-tracks]")
    expect(words).to_contain_text(
        f"Armor {armor}: 1 of 3 broken armor tokens, 0/{armor} damage toward the next"
    )
    shot(ann, "card-tracks-ann")
    card.locator(".dl-track-hit").scroll_into_view_if_needed()
    ann.evaluate("window.scrollBy(0, -200)")  # under the sticky turn bar
    expect(card.locator(".dl-track-armor meter")).to_be_in_viewport()
    # the whole track row fits the card at 360 px (no circle cut at the edge)
    box, row = card.bounding_box(), card.locator(".dl-track-hit").bounding_box()
    assert row["x"] + row["width"] <= box["x"] + box["width"], (row, box)
    ann.screenshot(path="test-artifacts/card-tracks-ann-viewport.png")

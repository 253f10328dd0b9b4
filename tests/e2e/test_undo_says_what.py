"""The enabled Undo says what it takes back, under its label, by touch at 360x740 (found by a
new user: during a mission Undo said nothing of what it would undo). Screenshot in
test-artifacts/undo-says-what.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def test_undo_names_the_action_it_takes_back(new_phone):
    ann, ben = open_table(new_phone, "demloc", inset=0)
    card = ann.locator("#piece-s0-korr")
    card.locator("summary.dl-summary").tap()
    before = version(ann)
    card.get_by_role("button", name="+1 damage").tap()
    for p in (ann, ben):
        expect(p.locator("#live")).to_have_attribute("data-version", str(before + 1))
    undo = ann.locator("nav.toolbar").get_by_role("button", name="Undo")
    expect(undo).to_be_enabled()
    what = ann.locator("#undo-what")
    expect(what).to_have_text("damage")
    expect(what).to_have_class("undo-what")  # its own class, not the greyed reason's
    # under "Undo", on at most two lines inside the button (the toolbar's small line)
    assert what.evaluate("e => getComputedStyle(e).webkitLineClamp") == "2"
    expect(undo).to_have_attribute("aria-describedby", "undo-what")  # read out after "Undo"
    expect(what).to_be_in_viewport()
    box, inner = undo.bounding_box(), what.bounding_box()
    assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5
    expect(ben.locator("#undo-what")).to_have_text("damage")  # the same on every phone
    ann.screenshot(path="test-artifacts/undo-says-what.png")
    undo.tap()
    expect(ann.locator("#piece-s0-korr .dl-track-armor meter")).to_have_attribute("value", "0")

"""In-mission play's rough edges a new user found (docs/playing.md), by touch at 360x740: the
arcane test is disabled with its reason while the mana pool is empty (DemLoc rulebook 7.2.3,
7.2.3.5), as "Use" and "Summon" are. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_landing import channel_by_touch, in_view, open_sheet


def test_the_arcane_test_is_disabled_with_its_reason_until_there_is_mana_7_2_3_5(new_phone):
    """Vesna holds no mana: Test is greyed, the reason beside it, no "passes" preview; after a
    setup channelling of one common die, Test is live and the preview reads the die."""
    ann, _ben = open_table(new_phone, "demloc")
    box = open_sheet(ann, "s0-vesna", "arcane")
    form = box.locator('form[data-test="arcane"]')
    test = form.get_by_role("button", name="Test")
    reason = form.locator("[data-blocked]")
    test.evaluate("e => e.scrollIntoView({block: 'center'})")
    ann.wait_for_timeout(200)
    expect(test).to_be_disabled()
    expect(reason).to_have_text(
        "Vesna the Gray needs an arcane die in its mana pool for the test (7.2.3): channel first."
    )
    in_view(ann, reason)
    form.locator('input[name="d.roll"]').fill("1")
    expect(form.locator(".dl-preview")).to_have_count(0)  # no "passes" for a refused test
    ann.screenshot(path="test-artifacts/in-mission-arcane-test-no-mana.png")
    print("no mana: Test disabled,", reason.inner_text())
    box = channel_by_touch(ann, "s0-vesna", common=1)
    form = box.locator('form[data-test="arcane"]')
    test = form.get_by_role("button", name="Test")
    expect(test).to_be_enabled()
    expect(form.locator("[data-blocked]")).to_have_count(0)
    form.locator('input[name="d.roll"]').fill("1")
    expect(form.locator(".dl-preview")).to_contain_text("passes")
    test.evaluate("e => e.scrollIntoView({block: 'center'})")
    ann.screenshot(path="test-artifacts/in-mission-arcane-test-mana.png")
    print("one common die: Test enabled, preview", form.locator(".dl-preview").inner_text())

"""In-mission play's rough edges a new user found (docs/playing.md), by touch at 360x740: the
arcane test is disabled with its reason while the mana pool is empty (DemLoc rulebook 7.2.3,
7.2.3.5), as "Use" and "Summon" are. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_landing import aim_shot, channel_by_touch, in_view, open_sheet


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


def test_a_sheet_without_actions_says_why_in_one_line(new_phone):
    """Found by a new user: Nib's open sheet had no Shoot or Brawl and nothing said why (its
    actions load when the sheet opens; the phone was offline). Offline: one line in their
    place, then the actions once back online. A calculation waiting on the table (7.2.2): the
    line says they come back once it is applied or cancelled."""
    ann, ben = open_table(new_phone, "demloc")
    ann.context.set_offline(True)
    ann.locator("#piece-s0-korr summary.dl-summary").tap()
    why = ann.locator("#piece-s0-korr [data-acts-why]")
    expect(why).to_contain_text("did not load: no connection")
    in_view(ann, why)
    ann.screenshot(path="test-artifacts/in-mission-sheet-offline.png")
    print("offline:", why.inner_text())
    ann.context.set_offline(False)
    expect(ann.locator("#shoot-s0-korr")).to_be_visible(timeout=20000)
    expect(why).to_have_count(0)
    print("back online: Shoot is there")
    # Ann works out Korr's shot at Bram: Ben's Bram shows no actions until Apply or Cancel.
    aim_shot(ann, "s0-korr", "s1-bram", 1, "6 6 6").tap()
    expect(ben.locator("#dl-pending")).to_contain_text("Shot: proposed result")
    ben.locator("#piece-s1-maud summary.dl-summary").tap()
    why = ben.locator("#piece-s1-maud [data-acts-why]")
    expect(why).to_have_text(
        "No Shoot, Brawl or Arcane while a calculation waits on the table: they come back once "
        "it is applied or cancelled."
    )
    in_view(ben, why)
    ben.screenshot(path="test-artifacts/in-mission-sheet-pending.png")
    print("pending:", why.inner_text())


def test_an_open_action_names_its_character_in_its_head(new_phone):
    """Found by a new user: with a sheet's head scrolled away (or folded by a tap on the
    name), an open Brawl form under the turn bar did not say whose it was. An open action's
    head names its character; a closed one stays one word, two a row."""
    ann, _ben = open_table(new_phone, "demloc")
    box = open_sheet(ann, "s0-vesna", "brawl")
    head = box.locator("> summary")
    head.evaluate("e => window.scrollBy(0, e.getBoundingClientRect().top - 200)")
    ann.wait_for_timeout(300)
    expect(head).to_contain_text("Brawl · Vesna the Gray")
    in_view(ann, head)
    name = ann.locator("#piece-s0-vesna summary.dl-summary")
    top = name.bounding_box()
    assert top is None or top["y"] + top["height"] < 200, top  # the sheet's own head is gone
    arcane = ann.locator("#arcane-s0-vesna > summary")
    assert arcane.inner_text().strip() == "Arcane", arcane.inner_text()
    ann.screenshot(path="test-artifacts/in-mission-action-head.png")
    print("open head:", head.inner_text(), "| closed:", arcane.inner_text())

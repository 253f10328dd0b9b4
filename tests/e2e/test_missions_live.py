"""Two phones play a DemLoc mission turn: cards with +/- buttons, a shot worked out on one phone
and confirmed on the other, the cadence, the first player and Next turn (DemLoc rulebook 6.4.2)."""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot, table_code


def serious_axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    results = Axe().run(page)
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def small_text(page) -> list[str]:
    """Visible text rendered under 12 px."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#live *')].filter(e =>
             e.offsetParent && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
             && parseFloat(getComputedStyle(e).fontSize) < 12).map(e => e.textContent.trim().slice(0, 30))"""
    )


def test_two_phones_play_a_mission_turn(new_phone):
    ann, ben = open_table(new_phone, "demloc", options={"#opt-turn_limit": "3"}, inset=0)
    code = table_code(ann)
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    expect(ann.locator("#dl-turn-no")).to_have_text("Turn 1 / 3")
    expect(ben.locator("#dl-turn-no")).to_have_text("Turn 1 / 3")

    # Ann's +1 damage on her own card shows on Ben's phone without a reload.
    # Everyone lands on the sticky turn bar; the roster is compact.
    # The live region's top is on screen on both phones (the host tapped Start at the bottom of
    # the lobby; a sticky bar alone would always look "in view").
    for phone in (ann, ben):
        expect(phone.locator("#dl-turn")).to_be_in_viewport()
        phone.wait_for_function(
            "() => { const t = document.getElementById('live').getBoundingClientRect().top;"
            " return t > -2 && t < 200; }"
        )
    heights = {"start": ann.evaluate("document.documentElement.scrollHeight")}
    korr_ann = ann.locator("#piece-s0-korr")
    korr_ann.locator("summary").first.tap()  # tap the card: its sheet opens
    expect(korr_ann.get_by_role("button", name="+1 damage")).to_be_visible()
    korr_ann.get_by_role("button", name="+1 damage").tap()
    expect(ben.locator("#piece-s0-korr .dl-track-armor meter")).to_have_attribute("value", "1")
    # Ann taps again once her own phone shows the +1 (as a player does): a tap sent from the
    # version before it is refused as stale (expected_version) and the counter stays at 0.
    expect(korr_ann.locator(".dl-track-armor meter")).to_have_attribute("value", "1")
    korr_ann.locator('[data-token="bleeding"]').get_by_role(
        "button", name="add a bleeding token"
    ).tap()
    expect(ben.locator('#piece-s0-korr [data-token="bleeding"] .dl-counter-value')).to_have_text(
        "1"
    )
    # The sheet stays open across the push, and the turn bar stays on screen while scrolling.
    expect(korr_ann.get_by_role("button", name="+1 damage")).to_be_visible()
    korr_ann.get_by_role("button", name="+1 damage").scroll_into_view_if_needed()
    expect(ann.locator("#dl-turn")).to_be_in_viewport()
    shot(ann, "missions-cards-ann")
    assert serious_axe_violations(ann) == []
    assert small_text(ann) == []
    ann.screenshot(path="test-artifacts/missions-sticky-turn-bar.png")  # the viewport, scrolled

    # Ann works out a shot from Korr's sheet (7.2.2); Ben (the target's player) applies it.
    # Taps: card (open already) -> Shoot -> target -> Work it out -> Apply, the dice typed.
    taps = 1  # the card, opened above
    shoot = korr_ann.locator("#shoot-s0-korr")
    shoot.locator("summary").tap()
    taps += 1
    shoot.locator('select[name="d.target"]').select_option("s1-bram")
    taps += 1
    shoot.locator('input[name="d.test_roll"]').fill("2")
    # A refused command (2 dice typed, 3 needed) shows its message at the control, announced,
    # with what was typed kept.
    shoot.locator('input[name="d.dice"]').fill("3 3")
    shoot.get_by_role("button", name="Work it out").tap()
    refusal = shoot.get_by_role("alert")
    expect(refusal).to_contain_text("fighting dice")
    expect(refusal).to_be_in_viewport()
    expect(shoot.locator('input[name="d.test_roll"]')).to_have_value("2")
    expect(shoot.locator('select[name="d.target"]')).to_have_value("s1-bram")
    shot(ann, "missions-error-at-control")
    shoot.locator('input[name="d.dice"]').fill("3 3 3")
    shoot.get_by_role("button", name="Work it out").tap()
    taps += 1
    expect(ben.locator("#dl-pending")).to_contain_text("(4 + 4) - 0 = 8")
    shot(ben, "missions-shot-proposed-ben")
    ben.locator("#dl-pending").screenshot(path="test-artifacts/missions-pending.png")
    ben.locator("#dl-pending").get_by_role("button", name="Apply").tap()
    taps += 1
    assert taps <= 5
    expect(ann.locator("#piece-s1-bram .dl-hearts > span")).to_have_attribute(
        "aria-label", "1 of 3"
    )
    expect(ann.locator("#dl-log")).to_contain_text("Shot applied")
    # where the damage went: the broken armor tokens as pips beside the hearts (5.1.1)
    expect(ann.locator("#piece-s1-bram .dl-armor-pips")).to_have_attribute(
        "aria-label", re.compile(r"^[0-3] of 3 broken armor tokens$")
    )

    # Both players pass both phases; whoever acts sees the Next button.
    # Each pass waits until both phones show the new newest log line (no double tap on a stale page).
    for _ in range(4):
        newest = ann.locator("#dl-log li").first.get_attribute("data-v")
        for phone in (ann, ben):
            expect(phone.locator("#dl-log li").first).to_have_attribute("data-v", newest)
        phone = ann if ann.locator("#dl-acting").inner_text().startswith("Your move") else ben
        phone.get_by_role("button", name="Next: pass").tap()
        for other in (ann, ben):
            expect(other.locator("#dl-log li").first).not_to_have_attribute("data-v", newest)
    expect(ben.get_by_role("button", name="Next turn")).to_be_visible()
    ben.get_by_role("button", name="Next turn").tap()
    expect(ann.locator("#dl-turn-no")).to_have_text("Turn 2 / 3")
    # Bleeding at the end of turn 1 (6.4.2 default): Korr's 1 bleeding token is 1 hit; the live
    # log tells the turn change, the whole log (replayed) tells every consequence.
    expect(ann.locator("#dl-log")).to_contain_text("Turn 2")
    expect(ben.locator("#piece-s0-korr .dl-track-hit meter")).to_have_attribute("value", "1")
    expect(ann.locator("#dl-first")).to_have_text(re.compile("Ann|Ben"))
    shot(ann, "missions-turn2-ann")
    ann.locator("#dl-turn").screenshot(path="test-artifacts/missions-turn-panel.png")
    ann.locator("#piece-s0-korr").screenshot(path="test-artifacts/missions-card-korr.png")
    ann.locator("#piece-s0-vesna summary").first.tap()
    ann.locator("#arcane-s0-vesna > summary").tap()
    ann.locator("#piece-s0-vesna").screenshot(path="test-artifacts/missions-card-vesna-arcane.png")
    shot(ben, "missions-turn2-ben")
    heights["turn2"] = ann.evaluate("document.documentElement.scrollHeight")
    print("page heights at 360x740:", heights)
    log = ann.context.new_page()
    log.goto(f"/t/{code}/log/")
    expect(log.locator("body")).to_contain_text("Korr Halfhand bleeds: 1 hit.")

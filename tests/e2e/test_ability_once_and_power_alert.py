"""Two DemLoc rules a new user hit, by touch at 360x740 (a second evening's report): an
activated ability is used once per phase, its button then disabled with its reason at the
control (5.1.1, 6.4.2, 7.2); an arcane power on another player's character alerts that player,
with a link to the character whose Arcane section holds the defend test (7.2.3.5). Every test
prints what it measured and leaves a screenshot in test-artifacts/."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_landing import channel_by_touch, in_view, open_sheet


def fate(phone) -> str:
    return phone.locator("#dl-my-fate").inner_text()


def test_an_activated_ability_is_used_once_a_phase_then_disabled_with_its_reason(new_phone):
    """Ben taps Maud's *Use Tide sense (2 fate)*: fate 3 -> 1, and the same button is now
    disabled with "Tide sense was already used this phase" beside it, inside the viewport; a
    second tap sends nothing (fate stays 1)."""
    ann, ben = open_table(new_phone, "demloc")
    card = ben.locator("#piece-s1-maud")
    card.locator("summary.dl-summary").tap()
    abilities = card.locator('[aria-label="Abilities of Maud Brinewitch"]')
    button = abilities.get_by_role("button", name=re.compile(r"^Use Tide sense \(2 fate\)"))
    button.scroll_into_view_if_needed()
    expect(button).to_be_enabled()
    assert fate(ben) == "your fate 3"
    v = version(ben)
    button.tap()
    expect(ben.locator("#live")).not_to_have_attribute("data-version", str(v))
    in_sync([ann, ben])
    expect(ben.locator("#dl-my-fate")).to_have_text("your fate 1")
    button = abilities.get_by_role("button", name=re.compile(r"^Use Tide sense \(2 fate\)"))
    expect(button).to_be_disabled()
    reason = abilities.locator("[data-ability-blocked]")
    expect(reason).to_contain_text("Tide sense was already used this phase")
    button.scroll_into_view_if_needed()
    box = in_view(ben, reason)
    in_view(ben, button)
    v = version(ben)
    button.tap(force=True)  # a thumb on the greyed button: nothing is sent
    ben.wait_for_timeout(500)
    assert version(ben) == v and fate(ben) == "your fate 1"
    ben.screenshot(path="test-artifacts/ability-alert-ability-once-ben.png")
    print(f"Tide sense: fate 3 -> 1, reason at y={box['y']:.0f}: {reason.inner_text()!r}; "
          f"a second tap sent nothing (version {v})")


def test_an_arcane_power_on_anothers_character_alerts_its_player_7_2_3_5(new_phone):
    """Ben gives Maud mana (the setup channelling); Ann's Vesna uses Black flame on Maud. Ben's
    phone, which was looking elsewhere, gets the alert naming the caster, the power and the
    effect, and a line in the thumb bar; the alert's link brings Maud's card on screen, and
    her defend test (7.2.3.5) answers it: the line goes."""
    ann, ben = open_table(new_phone, "demloc")
    # Ben: Maud's setup channelling (6.4.1: no activation), so she can defend.
    channel_by_touch(ben, "s1-maud")
    ben.locator("#piece-s1-maud summary.dl-summary").tap()  # Ben folds Maud's sheet
    ben.evaluate("window.scrollTo(0, 0)")
    # Ann: Vesna channels (setup), then Black flame on Maud.
    arcane = channel_by_touch(ann, "s0-vesna", 1, 1)
    expect(arcane.locator("[data-mana]")).to_contain_text("1 common, 1 dark")
    flame = arcane.locator('form[data-power="1"]')
    flame.locator('select[name="d.target"]').select_option("s1-maud")
    use = flame.get_by_role("button", name="Use Black flame")
    use.scroll_into_view_if_needed()
    v = version(ann)
    use.tap()
    expect(ann.locator("#live")).not_to_have_attribute("data-version", str(v))
    in_sync([ann, ben])

    alert = ben.locator("#dl-alert")
    expect(alert).to_contain_text("Vesna the Gray (Ann) used Black flame on your Maud Brinewitch:")
    expect(alert).to_contain_text("hit damage 0 → 2")
    expect(alert).to_contain_text("Defend: Maud Brinewitch's arcane test")
    words = alert.inner_text()
    alert_box = alert.bounding_box()  # the alert toast lies over the top of the screen
    assert alert_box and alert_box["y"] >= 0 and alert_box["y"] + alert_box["height"] <= 740
    line = ben.locator("#dl-power-go")
    expect(line).to_contain_text("Black flame hit your character: check it")
    in_view(ben, line)
    ben.screenshot(path="test-artifacts/ability-alert-power-alert-ben.png")
    alert.locator("a").tap()
    ben.wait_for_timeout(400)
    card_box = in_view(ben, ben.locator("#piece-s1-maud .dl-summary"))
    # Her defend test, in her Arcane section (7.2.3.5): a failed roll answers it.
    arcane = open_sheet(ben, "s1-maud", "arcane")
    defend = arcane.locator("form", has=ben.locator('input[name="d.purpose"][value="defend"]'))
    expect(defend).to_contain_text("Defend against Black flame")
    defend.get_by_label("Die").fill("6")
    test = defend.get_by_role("button", name="Test")
    test.scroll_into_view_if_needed()
    in_view(ben, test)
    v = version(ben)
    test.tap()
    expect(ben.locator("#live")).not_to_have_attribute("data-version", str(v))
    expect(ben.locator("#dl-power-go")).to_have_count(0)
    ben.screenshot(path="test-artifacts/ability-alert-power-defended-ben.png")
    print(f"Ben's alert: {words!r}; Maud's card at y={card_box['y']:.0f} after the link; "
          "the defend test answered it (the bar line is gone)")

"""What a DemLoc control says, by touch at 360x740 (docs/playing.md "A live table: where a tap
lands"): an arcane test's result is at its Test form and the acting phone lands on it
(7.2.3.5); a Summon the rules would refuse is a disabled button with the command's own reason
beside it, on screen (7.2, 7.2.3.2). Every test prints what it measured."""

import re

from playwright.sync_api import expect

from tests.e2e import test_landing as landing
from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version


def test_an_arcane_test_lands_on_its_result_line_at_the_test_form_7_2_3_5(new_phone):
    """Vesna channels (the setup channelling, 6.4.1), then makes an arcane test with a fate
    point: the form starts afresh and Ann's phone shows the test's result line just above it
    (it was only in the log at the top of the page); Ben's view does not move."""
    ann, ben = open_table(new_phone, "demloc")
    arcane = landing.channel_by_touch(ann, "s0-vesna")
    test = arcane.locator('form[data-test="arcane"]')
    # The sheet's forms of the new version (her mana in): Test no longer "channel first". A
    # field being typed in is never replaced (app.js), so typing before they came kept the
    # old form, Test disabled (found in CI: the die typed while they were on their way).
    expect(test.get_by_role("button", name="Test")).to_be_enabled()
    test.get_by_label("Die").fill("3")
    test.get_by_label(re.compile(r"^Fate \(of")).fill("1")
    button = test.get_by_role("button", name="Test")
    button.evaluate("e => e.scrollIntoView({block: 'center'})")
    in_sync([ann, ben])
    ben.evaluate("window.scrollTo(0, 500)")
    ben.wait_for_timeout(100)
    mark, before = landing.view_mark(ben), landing.scroll_y(ann)
    button.tap()
    result = ann.locator("#dl-test-s0-vesna")
    expect(result).to_contain_text("Vesna the Gray's arcane test: rolled 3 − 1 fate point → 2")
    expect(result).to_contain_text("against Arcane 2: passed.")
    in_sync([ann, ben])
    ann.wait_for_timeout(300)
    box = landing.in_view(ann, result)
    landing.in_view(ann, test.get_by_label("Die"))  # the Test form, afresh, just under it
    expect(test.get_by_label("Die")).to_have_value("")
    ann.screenshot(path="test-artifacts/control-says-arcane-test-ann.png")
    kept = landing.view_kept(ben, mark)
    print(f"arcane test: Ann scrollY {before} -> {landing.scroll_y(ann)}, {result.inner_text()!r} at"
          f" y={box['y']:.0f}; Ben's view kept: {kept}")



def test_a_die_typed_while_the_new_forms_came_gets_their_enabled_test_7_2_3_5(new_phone):
    """Found by a new user: a die typed right after channelling, while the sheet's forms of
    the new version were on their way, kept Test disabled ("channel first") until the field
    was left. Ann channels with the forms' fetch held back, types the die, the forms come:
    Test is enabled at once, the die field still focused with her die and its preview, and
    the test is made by touch."""
    ann, ben = open_table(new_phone, "demloc")
    arcane = landing.open_sheet(ann, "s0-vesna", "arcane")
    test = arcane.locator('form[data-test="arcane"]')
    button = test.get_by_role("button", name="Test")
    expect(button).to_be_disabled()  # no mana yet: channel first (7.2.3.5)
    held, released = [], []
    ann.route(re.compile(r"/sheet/s0-vesna/$"),
              lambda route: route.continue_() if released else held.append(route))
    channel = arcane.locator("form", has=ann.locator('input[value="demloc.mana.channel"]'))
    channel.get_by_label("Common", exact=True).fill("1")
    channel.get_by_label("setup channelling (seals have no effect)").check()
    v = version(ann)
    channel.get_by_role("button", name="Channel").tap()
    expect(ann.locator("#live")).not_to_have_attribute("data-version", str(v))
    ann.wait_for_timeout(300)
    assert held, "the sheet's forms of the new version were not fetched"
    die = test.get_by_label("Die")
    die.tap()
    ann.keyboard.type("3")
    expect(button).to_be_disabled()  # the old forms still: the new ones are held back
    released.append(True)
    for route in held:
        route.continue_()
    expect(button).to_be_enabled()
    expect(arcane.locator("[data-mana]")).to_contain_text("0 common")  # the rest of the sheet waits
    assert die.evaluate("e => e === document.activeElement"), "the die field lost the focus"
    expect(die).to_have_value("3")
    expect(test.locator(".dl-preview")).to_contain_text("d6 3")
    landing.in_view(ann, button)
    ann.screenshot(path="test-artifacts/control-says-typed-test-enabled.png")
    button.tap()
    expect(ann.locator("#dl-test-s0-vesna")).to_contain_text("rolled 3")
    in_sync([ann, ben])

def test_a_summon_the_rules_would_refuse_is_disabled_with_its_reason_on_screen_7_2_3_2(new_phone):
    """Found by a new user: "Summon a daemon" was an enabled button while its section said
    the cost could not be paid, and the tap was refused for another reason. Vesna channels in
    play (her activation of the phase, 7.2): her Summon and Use <power> buttons are disabled,
    each with the command's own reason beside it, inside the viewport; a tap on the disabled
    Summon sends nothing."""
    ann, ben = open_table(new_phone, "demloc")
    arcane = landing.channel_by_touch(ann, "s0-vesna", setup=False)
    # the sheet's forms come again with the new version (loaded when it changes)
    expect(arcane.locator("[data-mana]")).to_contain_text("1 common, 0 dark")
    in_sync([ann, ben])
    ann.wait_for_timeout(300)
    words = "Vesna the Gray was already activated this phase (7.2)"
    use = arcane.locator('form[data-power="0"]').get_by_role("button", name=re.compile("^Use "))
    expect(use).to_be_disabled()
    use.scroll_into_view_if_needed()
    landing.in_view(ann, use)
    power_reason = arcane.locator('form[data-power="0"] [data-blocked]')
    expect(power_reason).to_contain_text(words + ": it cannot use an arcane power")
    landing.in_view(ann, power_reason)
    ann.screenshot(path="test-artifacts/control-says-power-disabled-ann.png")

    summon = landing.open_sheet(ann, "s0-vesna", "summon")
    button = summon.get_by_role("button", name=re.compile("^Summon a daemon")).first
    expect(button).to_be_disabled()
    button.scroll_into_view_if_needed()
    reason = summon.locator("[data-blocked]").first
    expect(reason).to_contain_text(words + ": it cannot summon a daemon until the next phase.")
    in_sync([ann, ben])
    r, b = landing.in_view(ann, reason), landing.in_view(ann, button)
    assert 0 <= b["y"] - (r["y"] + r["height"]) < 40, (r, b)  # the reason just above it
    v = version(ann)
    button.tap(force=True)  # a thumb on the disabled button
    ann.wait_for_timeout(500)
    assert version(ann) == v
    expect(ann.locator("#live .alert.at-control")).to_have_count(0)
    ann.screenshot(path="test-artifacts/control-says-summon-disabled-ann.png")
    print(f"summon: disabled, {reason.inner_text()!r} at y={r['y']:.0f}, button at"
          f" y={b['y']:.0f}; a tap sent nothing (version {v})")

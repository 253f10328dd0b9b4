"""A Brawl worked out with junk in its fields (DemLoc rulebook 7.3.2, 7.3.2.1), by touch at
360x740. Found by a new user: "5 3" typed in every field of the Brawl form answered HTTP 400,
and the refusal said "Order must be a whole number", a name the form does not show."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_between_bars import between_bars
from tests.e2e.test_landing import open_sheet

FIELDS = ("d.attacker_dice", "d.defender_dice", "d.order", "d.attacker_extra", "d.defender_extra")


def type_in(field, text: str) -> None:
    """By thumb: tap the field, select what is in it, type ``text`` over it."""
    field.tap()
    field.press("Control+a")
    field.press_sequentially(text)


def test_junk_in_every_brawl_field_is_refused_at_work_it_out_naming_the_field_7_3_2(new_phone):
    """Ann types "5 3" in every field of Korr's Brawl form (the number fields keep "53") and
    taps Work it out: the refusal is coded, names the field by its label ("Attacker no.",
    then "Attack ±", "Defence ±", "Defender's dice" as each is mended), shows at Work it out between
    the bars, keeps what was typed, and changes nothing on either phone."""
    ann, ben = open_table(new_phone, "demloc")
    box = open_sheet(ann, "s0-korr", "brawl")
    form = box.locator("form", has=ann.locator('input[value="demloc.brawl.propose"]'))
    form.locator('select[name="d.defender"]').select_option("s1-bram")
    for name in FIELDS:
        type_in(form.locator(f'input[name="{name}"]'), "5 3")
    in_sync([ann, ben])
    v = version(ann)
    work = form.get_by_role("button", name="Work it out")
    seen = []
    for label, code, mend in (
        ("Attacker no.", "bad_input", ("d.order", "1")),
        ("Attack ±", "bad_input", ("d.attacker_extra", "0")),
        ("Defence ±", "bad_input", ("d.defender_extra", "0")),
        ("Defender's dice", "bad_dice", None),  # Korr's 2 dice are right: Bram rolls 3
    ):
        typed = {n: form.locator(f'input[name="{n}"]').input_value() for n in FIELDS}
        work.tap()
        refusal = box.locator(".alert.at-control")
        expect(refusal).to_contain_text(label)
        assert refusal.get_attribute("data-code") == code, refusal.get_attribute("data-code")
        ann.wait_for_timeout(200)
        at = between_bars(ann, refusal)
        button = work.bounding_box()
        ann.screenshot(path=f"test-artifacts/brawl-refusal-{code}-{len(seen)}.png")
        seen.append((refusal.inner_text(), at["y"], round(button["y"] + button["height"])))
        # at its control: right under Work it out
        assert 0 <= at["y"] - (button["y"] + button["height"]) <= 40, (at, button)
        assert {n: form.locator(f'input[name="{n}"]').input_value() for n in FIELDS} == typed
        assert version(ann) == v and version(ben) == v  # nothing changed
        expect(ann.locator("#dl-pending")).to_have_count(0)
        if mend:
            type_in(form.locator(f'input[name="{mend[0]}"]'), mend[1])
    print("refusals (text, y, Work it out's bottom):", seen)
    assert typed["d.attacker_dice"] == "5 3" and typed["d.order"] == "1"

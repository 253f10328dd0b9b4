"""The open Shoot and Brawl forms on a 360x740 touch phone (DemLoc rulebook 7.2.2, 7.3.2):
where a refusal of Work it out shows, and what the sticky Work it out may cover (docs/playing.md
"A live table: where a tap lands, the next step under the thumb"). Found by a new user: a
refusal drawn under the fixed bottom bar (only a red sliver showed), and the sticky button over
the very field they were about to fill. Every test prints what it measured."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.demloc_turns import in_sync, version
from tests.e2e.test_between_bars import BAND
from tests.e2e.test_landing import open_sheet


def brawl_form(phone, attacker: str = "s0-korr", defender: str = "s1-bram"):
    """By touch: ``attacker``'s Brawl sheet open, its form aimed at ``defender``."""
    box = open_sheet(phone, attacker, "brawl")
    form = box.locator("form", has=phone.locator('input[value="demloc.brawl.propose"]'))
    form.locator('select[name="d.defender"]').select_option(defender)
    return box, form


def test_a_refusal_of_work_it_out_at_the_form_end_shows_between_the_bars_7_3_2(new_phone):
    """Whoever acts (Ann) types one die fewer than her attacker rolls (7.3.2.1) and taps Work it
    out with the Brawl form's end just above the thumb bar, or under it (Work it out sticking
    above the bar): the refusal goes right under Work it out, where the bottom bar was (a new
    user saw only a red sliver of "My dice: ... rolls 3 fighting dice."). Each time the page is
    scrolled so the refusal is between the bars, right under the button; nothing changed."""
    phones = open_table(new_phone, "demloc", inset=0)
    ann = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    ben = next(p for p in phones if p is not ann)
    box, form = brawl_form(ann, *(("s0-korr", "s1-bram") if ann is phones[0] else ("s1-bram", "s0-korr")))
    dice = form.locator('select[name="d.defender"] option:checked').inner_text().split(" v ")[0]
    form.locator('input[name="d.attacker_dice"]').fill(" ".join(["6"] * (int(dice) - 1)))
    form.locator('input[name="d.defender_dice"]').fill("1 1 1")
    work = form.get_by_role("button", name="Work it out")
    in_sync([ann, ben])
    v = version(ann)
    seen = []
    for below in (-4, 40, 80, 110, 140, 200):
        # the form's end (its button) ``below`` px under the bottom bar's top
        ann.evaluate("""([w, below]) => {
          const bar = document.getElementById('bottom-bar').getBoundingClientRect().top;
          window.scrollBy(0, w.form.getBoundingClientRect().bottom - (bar + below));
        }""", [work.element_handle(), below])
        ann.wait_for_timeout(150)
        work.tap()
        refusal = box.locator(".alert.at-control")
        expect(refusal).to_contain_text("fighting dice")
        ann.wait_for_timeout(300)
        ann.screenshot(path=f"test-artifacts/work-it-out-refusal-{below}.png")
        m = refusal.evaluate(BAND)
        button = work.bounding_box()
        seen.append((below, m["y"], m["bottom"], m["bar"], round(button["y"] + button["height"])))
        assert m["inside"] and m["hit"], (below, m)
        assert 0 <= m["y"] - (button["y"] + button["height"]) <= 40, (below, m, button)
        refusal.evaluate("n => n.remove()")
    print("form end under the bar's top, refusal top, bottom, bar top, Work it out's bottom:", seen)
    assert version(ann) == v and version(ben) == v


def test_a_field_tapped_under_the_sticky_work_it_out_comes_out_above_it_7_3_2(new_phone):
    """Ann's Brawl form is taller than the band: Work it out sticks just above the thumb bar,
    over the form's own fields (a new user found it over "My dice" and "Attacker no."). She taps
    the strip of "Attacker no." that shows above it: the field takes the focus and the page
    scrolls so the whole field is above Work it out, between the bars. The same for "Defender's
    dice" with only its top strip showing."""
    ben, ann = open_table(new_phone, "demloc", names=("Ben", "Ann"), inset=0)
    box, form = brawl_form(ann, "s1-bram", "s0-korr")
    work = form.get_by_role("button", name="Work it out")
    seen = []
    for name, strip in (("d.order", 30), ("d.defender_dice", 24)):
        field = form.locator(f'input[name="{name}"]')
        # the field's top ``strip`` px above the stuck Work it out
        ann.evaluate("""([f, w, strip]) => {
          window.scrollBy(0, f.getBoundingClientRect().top - (w.getBoundingClientRect().top - strip));
        }""", [field.element_handle(), work.element_handle(), strip])
        ann.wait_for_timeout(150)
        f0, w0 = field.bounding_box(), work.bounding_box()
        assert f0["y"] + f0["height"] > w0["y"] + 4, (name, f0, w0)  # under it
        ann.touchscreen.tap(f0["x"] + 20, f0["y"] + strip / 2)
        ann.wait_for_timeout(300)
        assert field.evaluate("f => f === document.activeElement"), name
        f1, w1 = field.bounding_box(), work.bounding_box()
        ann.screenshot(path=f"test-artifacts/work-it-out-field-{name}.png")
        seen.append((name, round(f0["y"]), round(f1["y"] + f1["height"]), round(w1["y"])))
        assert f1["y"] + f1["height"] <= w1["y"], (name, f1, w1)  # wholly above Work it out
        m = field.evaluate(BAND)
        assert m["inside"] and m["hit"], (name, m)
        field.evaluate("f => f.blur()")
        ann.wait_for_timeout(600)  # past the ghost-tap guard of the field now under that spot
    print("field, its top before, its bottom after the tap, Work it out's top:", seen)

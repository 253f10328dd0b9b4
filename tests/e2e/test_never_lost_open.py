"""Never lost on the phone, in play (docs/playing.md "A live table: where a tap lands, the next
step under the thumb"; tabletop/KIT.md "Where the page lands"), by touch at 360x740 on two
phones: what a tap opens (a character's sheet, its Shoot, Brawl, Arcane and Summon sections,
DemLoc rulebook 7.2.2 shooting, 7.3.2 brawl, 7.2.3 the arcane) is brought between the top bars
and the thumb bar, its head and first control inside the band; another player's Apply never
moves my view (7.2.2: either player of a shot applies it); a race refusal ("Someone acted just
before you") goes at the next update that changes the table, and says the table moved on when
the control tapped is gone. Every test prints what it measured; screenshots in
test-artifacts/never-lost-open-*.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table
from tests.e2e.test_between_bars import BAND

# What each phone of the demo table opens (missions/rules/roster.py): Ann's Ashen Lanterns,
# Ben's Salt Hounds. (piece, section) in tap order; the section None is the sheet itself.
OPENS = {
    0: [("s0-korr", None), ("s0-korr", "shoot"), ("s0-watch", None), ("s0-watch", "brawl"),
        ("s0-vesna", None), ("s0-vesna", "arcane")],
    1: [("s1-gunner", None), ("s1-gunner", "shoot"), ("s1-bram", None), ("s1-bram", "brawl"),
        ("s1-maud", None), ("s1-maud", "arcane"), ("s1-maud", "summon")],
}


def band(locator) -> dict:
    return locator.evaluate(BAND)


def near_the_thumb_bar(phone, locator) -> None:
    """Scroll ``phone`` so that ``locator`` (a summary to tap) sits just above the thumb bar, as
    a thumb finds a card at the bottom of the screen (the report's Sieg: his Shoot and Brawl
    opened under the bar)."""
    locator.evaluate(
        """e => { const bar = document.getElementById('bottom-bar').getBoundingClientRect().top;
        const r = e.getBoundingClientRect(); window.scrollBy(0, r.bottom - (bar - 12)); }"""
    )
    phone.wait_for_timeout(150)


def opened(phone, pid: str, section: str | None) -> dict:
    """Tap the sheet's (or the section's) head by touch, near the thumb bar; return the head's
    and the first control's measures once it is open (its forms loaded, for a sheet)."""
    card = phone.locator(f"#piece-{pid}")
    if section is None:
        head = card.locator("summary.dl-summary")
        near_the_thumb_bar(phone, head)
        head.tap()
        expect(card.locator('[data-forms-slot="acts"][data-loaded]')).to_be_attached()
        first = card.locator(".dl-act > summary").first
        what = card.locator("details.dl-sheet")
    else:
        what = card.locator(f"#{section}-{pid}")
        head = what.locator("> summary")
        near_the_thumb_bar(phone, head)
        head.tap()
        expect(what).to_have_attribute("open", "")
        first = what.locator("select, input:not([type=hidden]), button").first
    phone.wait_for_timeout(400)  # a late forms refresh must not move it back either
    return {"head": band(head), "first": band(first), "whole": band(what)}


def test_what_a_tap_opens_lands_between_the_bars_on_both_phones_7_2(new_phone):
    """Found by a new user: Sieg's sheet opened with Shoot and Brawl half under the thumb bar,
    Shoot's form wholly below the screen, Arcane the last thing visible with Summon off screen.
    On each phone, every sheet and section opened from just above the thumb bar lands with its
    head and its first control between the bars (a part taller than the band: its top at the
    band's top)."""
    phones = open_table(new_phone, "demloc")
    seen = {}
    for seat, phone in enumerate(phones):
        # "Your move" shows over the top bar for 4 s (missions/table.js): it is not a bar
        expect(phone.locator("#dl-alert:not(.dl-alert-quiet):not([hidden])")).to_have_count(0)
        for pid, section in OPENS[seat]:
            m = opened(phone, pid, section)
            name = f"{pid}/{section or 'sheet'}"
            phone.screenshot(path=f"test-artifacts/never-lost-open-{seat}-{pid}-{section or 'sheet'}.png")
            seen[name] = (m["head"]["y"], m["first"]["y"], m["whole"]["y"], m["whole"]["bottom"],
                          m["head"]["top"], m["head"]["bar"])
            assert m["head"]["inside"] and m["head"]["hit"], (name, m)
            assert m["first"]["inside"] and m["first"]["hit"], (name, m)
            # shown whole if it fits the band, else its top at the band's top (8 px margin)
            fits = m["whole"]["bottom"] - m["whole"]["y"] <= m["head"]["bar"] - m["head"]["top"]
            if fits:
                assert m["whole"]["inside"], (name, m)
            else:
                assert abs(m["whole"]["y"] - m["head"]["top"]) <= 12, (name, m)
    print("opened (head y, first control y, top, bottom, band top, bar):")
    for name, figures in seen.items():
        print(f"  {name}: {figures}")

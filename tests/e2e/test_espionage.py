"""Demon Espionage on three phones: secret factions dealt, one duel played to the reveal, live
on every screen, and no phone shows another's faction or face-down card."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot, tap_twice


def test_three_phones_play_a_duel(new_phone):
    names = ("Ann", "Ben", "Cat")
    phones = dict(zip(names, open_table(new_phone, "espionage", 3, inset=0), strict=True))

    # Every phone shows its own faction (one #my-faction) and no one else's.
    for phone in phones.values():
        expect(phone.locator("#my-faction")).to_have_count(1)
        expect(phone.locator("[data-faction]")).to_have_count(0)
        expect(phone.locator("#es-souls-left")).to_have_text("14")
    active = next(n for n, p in phones.items() if p.locator("#es-turn").count())
    names = list(phones)
    foe = names[(names.index(active) + 1) % 3]
    third = next(n for n in names if n not in (active, foe))
    a, b, c = phones[active], phones[foe], phones[third]
    shot(a, "espionage-turn")

    a.get_by_role("button", name=f"Duel {foe}").tap()
    a.locator("#es-troop label", has_text="7").tap()
    a.locator("#es-troop label", has_text="Rock").tap()
    shot(a, "espionage-card-form")
    a.get_by_role("button", name="Play troop face down").tap()
    expect(a.locator("#es-duel")).to_contain_text("7 Rock")
    expect(b.locator("#es-duel")).to_contain_text("face down")  # live, no reload
    expect(b.locator("#es-duel")).not_to_contain_text("7 Rock")
    b.get_by_role("button", name="Play the Dummy Corpse").tap()
    expect(c.locator("#es-duel")).not_to_contain_text("Dummy")
    b.get_by_role("button", name="Done").tap()
    shot(a, "espionage-duel-initiator")
    a.locator("#es-actions label", has_text="R.P.S").tap()
    tap_twice(a.get_by_role("button", name="Done — REVEAL!"))

    # R.P.S: Rock beats the Dummy Corpse (no symbol); the winner draws a soul, the loser bleeds.
    for phone in (a, b, c):
        expect(phone.locator("#es-log")).to_contain_text(f"{active} won the duel against {foe}")
        expect(phone.locator(f'[data-seat="{names.index(foe)}"] [data-health]')).to_have_attribute(
            "data-health", "4"
        )
        expect(phone.locator("#es-souls-left")).to_have_text("13")
        # listed in seat order, whoever won (the first player is drawn: seat order varies)
        expect(phone.locator("#es-draw-back")).to_contain_text(f"{active} 2")
        expect(phone.locator("#es-draw-back")).to_contain_text(f"{foe} 1")
    expect(a.locator("#my-soul-total")).to_have_count(1)
    expect(b.locator("#my-soul-total")).to_have_count(0)
    expect(b.locator("#es-turn")).to_be_visible()  # play passes on
    shot(b, "espionage-after-duel")


def test_a_long_name_keeps_health_and_souls_at_the_right(new_phone):
    """Found by a new user: the phone's own row, a long name and its "you" badge, had its
    hearts and souls wrapped to the left of the next line, out of line with the others. Each
    row's hearts end at the same right edge."""
    name = "Catherine of the Long Road"
    phones = open_table(new_phone, "espionage", 3, names=("Ann", "Ben", name), inset=0)
    cat = phones[2]
    rights = cat.locator("#es-players .es-right")
    expect(rights).to_have_count(3)
    edges = [rights.nth(i).bounding_box() for i in range(3)]
    cat.screenshot(path="test-artifacts/espionage-long-name-row.png")
    ends = [round(b["x"] + b["width"]) for b in edges]
    assert max(ends) - min(ends) <= 2, edges

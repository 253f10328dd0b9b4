"""Pixel Demon's Realm, Personal Demons (rulebook "Personal Demons", "Public Information"):
each player's Personal Demon lies face up for everyone and only its owner may bind it. Each
phone shows its own as "Your Demon" beside the Active Demon, and says so in its own row of
Players; the other player's row shows theirs, the same card their phone shows. By touch at
360x740; screenshots test-artifacts/realm-personal-demon-*.png."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table


def demon_text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_each_phone_says_where_its_own_personal_demon_is(new_phone):
    ann, ben = open_table(new_phone, "realm", inset=0)
    for me, other, mine, theirs in ((ann, ben, 0, 1), (ben, ann, 1, 0)):
        own_row = me.locator(f'#rl-players .rl-player[data-seat="{mine}"]')
        other_row = me.locator(f'#rl-players .rl-player[data-seat="{theirs}"]')
        me.locator("#rl-players h3").tap()  # a thumb on the panel's title
        own_row.scroll_into_view_if_needed()
        hint = own_row.locator("[data-own-demon]")
        expect(hint).to_have_text(
            'Your Personal Demon is "Your Demon" above, face up for everyone; only you may bind it.'
        )
        expect(hint).to_be_in_viewport()
        name = other.locator("#rl-players .rl-player .badge.warn").locator("xpath=..").locator(
            "strong").inner_text()
        expect(other_row).to_contain_text(f"{name}'s Personal Demon (face up; only {name} may bind it):")
        # the other row's demon is the card the other phone shows as its own
        theirs_there = demon_text(other.locator("#rl-demons .rl-demons > div").nth(1).locator(".rl-demon"))
        assert demon_text(other_row.locator(".rl-demon")) == theirs_there
        me.screenshot(path=f"test-artifacts/realm-personal-demon-{'ann' if me is ann else 'ben'}.png")

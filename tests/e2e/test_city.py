"""The map of DemLoc on a phone (DemLoc rulebook 6.2 "Exploring and conquering the City of
DemLoc"): tap an unknown place, choose two mercenaries, see the time before sending, explore;
the countdown runs from the server's deadline and, when it ends, the page fetches the result by
itself. No worker runs here (the embedded default's in-memory channel layer cannot push from
one anyway): the page settles its overdue timer when it asks."""

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from guilds import models, services
from guilds.demo import new_code
from tests.e2e.conftest import in_screen, shot
from tests.guilds.factories import PASSWORD, CardSetFactory, MercenaryCardFactory, UserFactory


def guild_with_two_mercenaries():
    card_set = CardSetFactory()
    account = models.AccountCode.objects.create(
        card_set=card_set, code=new_code(models.AccountCode)
    )
    guild = services.guild_create(
        master=UserFactory(), account_code=account.code, name="House Vesper", colour="green"
    )
    cards = [
        MercenaryCardFactory(name=n, type=t) for n, t in (("Rook", "hunter"), ("Wren", "sorcerer"))
    ]
    for c in cards:
        models.SetCard.objects.create(card_set=card_set, card=c)
    code = models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))
    services.set_code_redeem(guild=guild, code=code.code)
    for c in cards:
        services.mercenary_enlist(guild=guild, card_id=c.pk)
    return guild


def test_explore_a_place_and_see_the_result_when_the_countdown_ends(new_phone):
    guild = guild_with_two_mercenaries()
    area, _ = models.CityArea.objects.get_or_create(name="Ashen Market")
    models.ControlPoint.objects.create(
        name="The Tarred Tankard", area=area, kind="tavern", explore_minutes=30, income_feods=12
    )
    phone = new_phone()
    phone.goto("/accounts/login/")
    phone.fill("#id_username", guild.master.username)
    phone.fill("#id_password", PASSWORD)
    with phone.expect_navigation():
        phone.locator("form button").last.tap()

    phone.goto("/guild/")
    with phone.expect_navigation():
        phone.get_by_role("link", name="Map of DemLoc").tap()
    place = phone.locator('[data-point="unknown-1"]')
    expect(place).to_contain_text("Unknown place 1")
    place.locator("summary").tap()
    place.get_by_label("Rook").tap()
    expect(place.locator("[data-preview]")).to_contain_text("back in 30 min")
    place.get_by_label("Wren").tap()
    expect(place.locator("[data-preview]")).to_contain_text("back in 20 min")
    shot(phone, "city-send")
    place.get_by_role("button", name="Explore").tap()
    expect(phone.locator("[data-party]")).to_be_visible()
    in_screen(phone.locator("[data-party]"))
    expect(phone.locator("[data-party] [data-due]")).to_have_text("19:59", timeout=3000)

    # Bring the deadline close (instead of waiting 20 minutes), then let the countdown run out.
    models.Expedition.objects.update(due_at=timezone.now() + timedelta(seconds=4))
    phone.reload()
    expect(phone.locator("[data-party] [data-due]")).to_have_text("0:03", timeout=3000)
    shot(phone, "city-countdown")
    digest = phone.locator("#digest")
    expect(digest).to_contain_text("Back from The Tarred Tankard", timeout=10_000)
    expect(phone.locator('[data-point="The Tarred Tankard"]')).to_have_attribute(
        "data-state", "known"
    )
    expect(phone.locator("[data-report]")).to_contain_text("explored The Tarred Tankard")
    shot(phone, "city-back")
    phone.get_by_role("button", name="Got it").tap()
    expect(digest).to_have_count(0)

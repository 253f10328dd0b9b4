"""Founding a Guild on a 360 px phone (DemLoc rulebook 6.2, first access): a name longer than
the limit is refused at the field, with the limit, not cut without a word. Found by a new
user: 61 characters typed, the field's maxlength kept 60 and nothing said so."""

from playwright.sync_api import expect

from guilds import models
from guilds.demo import new_code
from guilds.rules import GUILD_NAME_MAX
from tests.e2e.conftest import login, shot
from tests.guilds.factories import CardSetFactory, UserFactory


def test_a_name_one_character_too_long_is_refused_at_the_field_6_2(new_phone):
    account = models.AccountCode.objects.create(
        card_set=CardSetFactory(), code=new_code(models.AccountCode)
    )
    user = UserFactory()
    phone = new_phone()
    login(phone, user.username)
    phone.goto("/guild/")
    name = ("The Long Guild of the Lantern Bearers " * 2)[: GUILD_NAME_MAX + 1]
    phone.locator("#code").fill(account.code)
    phone.locator("#name").fill(name)
    assert phone.locator("#name").input_value() == name  # not cut by the field
    phone.get_by_role("button", name="Found the Guild").tap()
    field = phone.locator("#name")
    alert = field.locator("xpath=..").get_by_role("alert")
    expect(alert).to_have_attribute("data-code", "bad_name")
    expect(alert).to_contain_text(str(GUILD_NAME_MAX))
    expect(alert).to_be_in_viewport()
    assert field.input_value() == name  # kept, to be shortened by the user
    shot(phone, "guild-found-name-too-long")
    assert not models.Guild.objects.filter(master=user).exists()

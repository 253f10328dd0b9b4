"""A double tap changes nothing (the house rule): every Guild page form carries a one-time key
(``guilds.services.form_once``), checked in the transaction of the action it runs. Found by a
new user: a double tap on "Buy <weapon>" bought it twice (DemLoc rulebook 5.1.4)."""

import re

import pytest
from django.urls import reverse

from guilds import services
from guilds.models import ArmoryWeapon, FormUse, LedgerEntry
from guilds.views import ALREADY_DONE, PAGES
from tabletop.errors import RuleViolation, TabletopError

from .factories import WeaponCardFactory

pytestmark = pytest.mark.django_db

KEY = "k" * 24


@pytest.fixture
def bow(guild, give):
    card = WeaponCardFactory(name="Hunting Bow", price_feods=15)
    give(guild, (card, 3))
    return card


def test_the_same_key_twice_buys_once(guild, bow):
    first = services.form_once(guild=guild, key=KEY, action=services.weapon_buy, card_id=bow.pk)
    second = services.form_once(guild=guild, key=KEY, action=services.weapon_buy, card_id=bow.pk)
    assert first[0] is True and second == (False, None)
    assert ArmoryWeapon.objects.filter(guild=guild).count() == 1
    assert LedgerEntry.objects.filter(guild=guild, reason="weapon_bought").count() == 1


def test_another_key_buys_again(guild, bow):
    for key in (KEY, "z" * 24):
        services.form_once(guild=guild, key=key, action=services.weapon_buy, card_id=bow.pk)
    assert ArmoryWeapon.objects.filter(guild=guild).count() == 2


def test_a_refused_action_leaves_its_key_unused(guild, bow):
    with pytest.raises(TabletopError):
        services.form_once(guild=guild, key=KEY, action=services.weapon_buy, card_id=999999)
    assert not FormUse.objects.filter(guild=guild).exists()
    services.form_once(guild=guild, key=KEY, action=services.weapon_buy, card_id=bow.pk)
    assert ArmoryWeapon.objects.filter(guild=guild).count() == 1


def test_a_malformed_key_is_refused_with_a_code_and_changes_nothing(guild, bow):
    with pytest.raises(RuleViolation) as exc:
        services.form_once(guild=guild, key="x<1", action=services.weapon_buy, card_id=bow.pk)
    assert exc.value.code == "bad_form_key"
    assert not ArmoryWeapon.objects.filter(guild=guild).exists()


def test_the_armory_page_sends_the_buy_form_twice_and_buys_once(client, guild, bow):
    client.force_login(guild.master)
    page = client.get(reverse("guilds:armory")).content.decode()
    once = re.search(r'name="once" value="([^"]+)"', page).group(1)
    data = {"card": bow.pk, "at": f"buy-{bow.pk}", "once": once}
    client.post(reverse("guilds:buy"), data, headers={"HX-Request": "true"})
    again = client.post(reverse("guilds:buy"), data, headers={"HX-Request": "true"})
    assert again.status_code == 200 and ALREADY_DONE in again.content.decode()
    assert LedgerEntry.objects.filter(guild=guild, reason="weapon_bought").count() == 1


def test_every_guild_write_form_carries_a_one_time_key(client, guild, bow):
    client.force_login(guild.master)
    for page in (*PAGES, "city"):
        html = client.get(reverse("guilds:home" if page == "office" else f"guilds:{page}"))
        html = html.content.decode()
        forms = re.findall(r"<form method=\"post\".*?</form>", html, re.S)
        for form in forms:
            if "logout" in form or "data-tour-form" in form:  # the tour: seen twice is seen
                continue
            assert 'name="once"' in form, (page, form[:120])

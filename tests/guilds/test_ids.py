"""Ids from outside (forms, JSON, URLs) too big for the database answer the same 404/400 as
``abc``, never a 500 (``guilds.ids``): 2**63 - 1 is the largest id, 2**63 is none."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from guilds import models
from guilds.demo import load_demo_content
from guilds.ids import MAX_ID, parse_id

from .factories import UserFactory

HUGE = "99999999999999999999999"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", 1),
        (" 42 ", 42),
        (7, 7),
        (str(MAX_ID), MAX_ID),
        (MAX_ID, MAX_ID),
        (str(MAX_ID + 1), None),
        (MAX_ID + 1, None),
        (HUGE, None),
        ("0", None),
        (0, None),
        ("-1", None),
        (-1, None),
        ("abc", None),
        ("", None),
        (None, None),
        (True, None),
        ("1e3", None),
        ("١٢", None),
        (1.0, None),
    ],
)
def test_parse_id(value, expected):
    assert parse_id(value) == expected


@pytest.fixture
def demo(db):
    load_demo_content()


def _found(client):
    code = (
        models.AccountCode.objects.filter(guild__isnull=True, card_set__is_demo=True).first().code
    )
    assert (
        client.post(
            reverse("guilds:found"), {"code": code, "name": "House Vesper", "colour": "red"}
        ).status_code
        == 302
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "guilds:buy",
        "guilds:enlist",
        "guilds:follower_enlist",
        "guilds:daemon_add",
        "guilds:code_add",
    ],
)
def test_a_huge_card_id_in_a_form_is_404_like_abc(client, demo, url):
    client.force_login(UserFactory())
    _found(client)
    for value in ("abc", HUGE, str(MAX_ID + 1), str(MAX_ID)):
        response = client.post(reverse(url), {"card": value})
        assert response.status_code == 404, (value, response.status_code)
        assert b"No such card." in response.content
    assert models.Guild.objects.get().feods == 150


@pytest.mark.django_db
def test_a_huge_mercenary_id_to_equip_is_404(client, demo):
    client.force_login(UserFactory())
    _found(client)
    guild = models.Guild.objects.get()
    weapon = guild.weapons.create(card=models.WeaponCard.objects.get(name="Dagger"), price_paid=0)
    response = client.post(reverse("guilds:equip", args=[weapon.pk]), {"mercenary": HUGE})
    assert response.status_code == 404 and b"No such mercenary" in response.content
    assert client.post(f"/guild/dormitory/{HUGE}/dismiss/").status_code == 404
    assert client.post(f"/guild/armory/{HUGE}/unequip/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["weapons", "mercenaries", "codes", "guests", "pantheon"])
def test_a_huge_card_id_in_json_is_400_invalid(demo, path):
    api = APIClient()
    api.force_authenticate(UserFactory())
    code = (
        models.AccountCode.objects.filter(guild__isnull=True, card_set__is_demo=True).first().code
    )
    api.post(
        "/api/guild/", {"account_code": code, "name": "Vesper", "colour": "red"}, format="json"
    )
    for value in (int(HUGE), MAX_ID + 1, 0, "x"):
        response = api.post(f"/api/guild/{path}", {"card_id": value}, format="json")
        assert response.status_code == 400, (value, response.content)
        assert response.json()["code"] == "invalid" and "card_id" in response.json()["detail"]
    response = api.post(f"/api/guild/{path}", {"card_id": MAX_ID}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "card_not_found"
    response = api.post("/api/guild/weapons/1/equip", {"mercenary_id": int(HUGE)}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert api.post(f"/api/guild/weapons/{HUGE}/unequip").status_code == 404


@pytest.mark.django_db
def test_a_refused_founding_can_be_reloaded(client, demo):
    """(6.2) A used account code shows the form with the error; GET on /guild/found/ then shows
    the form, not a blank 405."""
    client.force_login(UserFactory())
    used = models.AccountCode.objects.filter(card_set__is_demo=True).first()
    other = UserFactory()
    from guilds import services

    services.guild_create(master=other, account_code=used.code, name="First", colour="red")
    response = client.post(
        reverse("guilds:found"), {"code": used.code, "name": "Second", "colour": "blue"}
    )
    assert response.status_code == 400 and b"Account card code" in response.content
    assert b'value="Second"' in response.content
    response = client.get(reverse("guilds:found"))
    assert response.status_code == 200 and b"Account card code" in response.content
    _found(client)
    assert client.get(reverse("guilds:found")).status_code == 302


@pytest.mark.django_db
def test_a_huge_mercenary_or_point_id_in_the_city_is_no_500(client, demo):
    client.force_login(UserFactory())
    _found(client)
    point = models.ControlPoint.objects.first()
    assert point is not None
    response = client.post(reverse("guilds:city_send", args=[point.pk]), {"mercenary": HUGE})
    assert response.status_code in (400, 404)
    assert client.post(f"/guild/city/points/{HUGE}/send/", {"mercenary": "1"}).status_code == 404
    response = client.get(reverse("guilds:city_preview", args=[point.pk]), {"mercenary": HUGE})
    assert response.status_code < 500


@pytest.mark.django_db
def test_reloading_an_action_address_goes_back_to_its_page(client, demo):
    """A refused action re-renders its page at the action's address (400); reloading that
    address (GET) goes back to the page instead of a blank 405."""
    client.force_login(UserFactory())
    _found(client)
    assert client.post(reverse("guilds:buy"), {"card": "abc"}).status_code == 404
    for name, page in (
        ("guilds:buy", "guilds:armory"),
        ("guilds:redeem", "guilds:gate"),
        ("guilds:enlist", "guilds:dormitory"),
        ("guilds:daemon_add", "guilds:pantheon"),
    ):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"] == reverse(page)
    response = client.get(reverse("guilds:upgrade", args=["armory"]))
    assert response["Location"] == reverse("guilds:buildings")
    assert client.put(reverse("guilds:buy")).status_code == 405
    client.logout()
    assert "/login" in client.get(reverse("guilds:buy"))["Location"]

"""Guild JSON API (docs/architecture.md "Interfaces and errors"): the same services as the pages, errors as
``{"code", "detail"}``, other Guilds' ids 404, every endpoint in the OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

from guilds import models
from guilds.demo import load_demo_content

from .factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(db):
    load_demo_content()
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


def account_code():
    return (
        models.AccountCode.objects.filter(guild__isnull=True, card_set__is_demo=True).first().code
    )


def set_code(name):
    return models.SetCode.objects.filter(card_set__name=name, redeemed_by__isnull=True).first().code


def found(api, name="House Vesper"):
    response = api.post(
        "/api/guild/",
        {"account_code": account_code(), "name": name, "colour": "red"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_found_redeem_enlist_buy_equip_and_read_the_roster(api):
    body = found(api)
    assert body["feods"] == 150 and len(body["buildings"]) == 5
    for name in ("Basic Guild Set: Rise of Guilds 1", "Rise of Guilds: Weapons and Arcane Codes"):
        assert (
            api.post("/api/guild/gate/redeem", {"code": set_code(name)}, format="json").status_code
            == 201
        )
    mercs = api.get("/api/guild/database", {"kind": "mercenary"}).json()
    assert len(mercs) == 4 and all(m["left"] == 1 for m in mercs)
    brann = next(m for m in mercs if m["name"] == "Brann the Trapper")
    enlisted = api.post("/api/guild/mercenaries", {"card_id": brann["card_id"]}, format="json")
    assert enlisted.status_code == 201
    merc = enlisted.json()
    assert merc["mission_ready"] is False and merc["not_ready_code"] == "no_weapon"

    bow = models.WeaponCard.objects.get(name="Hunting Bow")
    bought = api.post("/api/guild/weapons", {"card_id": bow.pk}, format="json").json()
    assert api.get("/api/guild/").json()["feods"] == 150 - 15
    equipped = api.post(
        f"/api/guild/weapons/{bought['id']}/equip", {"mercenary_id": merc["id"]}, format="json"
    )
    assert equipped.status_code == 200 and equipped.json()["slot"] == "primary"
    [row] = api.get("/api/guild/mercenaries").json()
    assert row["mission_ready"] is True and row["weapons"][0]["name"] == "Hunting Bow"
    roster = api.get("/api/guild/roster").json()
    assert roster["mercenaries"][0]["weapons"][0]["range"] == 6
    ledger = api.get("/api/guild/ledger").json()
    assert [r["reason"] for r in ledger] == ["weapon_bought", "founded"]


def test_errors_are_codes_with_400_and_nothing_changes(api):
    found(api)
    response = api.post("/api/guild/gate/redeem", {"code": "WRONG"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "code_unknown"
    response = api.post("/api/guild/buildings/tavern/upgrade")
    assert response.status_code == 400 and response.json()["code"] == "unknown_building"
    response = api.post("/api/guild/mercenaries", {"card_id": "x"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    response = api.get("/api/guild/database", {"kind": "dragons"})
    assert response.json()["code"] == "bad_kind"
    assert api.get("/api/guild/").json()["feods"] == 150


def test_another_guilds_rows_answer_404(api):
    found(api)
    api.post(
        "/api/guild/gate/redeem",
        {"code": set_code("Rise of Guilds: Weapons and Arcane Codes")},
        format="json",
    )
    dagger = models.WeaponCard.objects.get(name="Dagger")
    weapon = api.post("/api/guild/weapons", {"card_id": dagger.pk}, format="json").json()
    rival = APIClient()
    rival.force_authenticate(UserFactory())
    found(rival, name="Rivals")
    response = rival.post(f"/api/guild/weapons/{weapon['id']}/unequip")
    assert response.status_code == 404 and response.json()["code"] == "weapon_not_found"


def test_no_guild_yet_is_404_and_anonymous_is_refused(api):
    assert api.get("/api/guild/").json()["code"] == "no_guild"
    assert APIClient().get("/api/guild/").status_code == 403


def test_every_guild_endpoint_is_in_the_openapi_schema(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    paths = [p for p in schema["paths"] if p.startswith("/api/guild/")]
    for expected in (
        "/api/guild/",
        "/api/guild/gate/redeem",
        "/api/guild/weapons/{id}/equip",
        "/api/guild/codes/{id}/assign",
        "/api/guild/pantheon",
        "/api/guild/buildings/{kind}/upgrade",
        "/api/guild/roster",
    ):
        assert expected in paths
    assert len(paths) == 19 + 7  # + the city (tests/guilds/test_city_views.py)

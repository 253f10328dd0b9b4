"""The mission lifecycle over the JSON API: open, join, bring the Guilds, close, report."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from missions.models import Mission
from tabletop import services as table_services
from tabletop.rules import Command

from .lifecycle_flow import achieve, prepare

pytestmark = pytest.mark.django_db


def test_open_bind_close_and_report_over_the_api(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    ann, bob = APIClient(), APIClient()
    ann.force_authenticate(a.master)
    bob.force_authenticate(b.master)
    listed = ann.get(reverse("missions:api_definitions")).json()
    assert {d["kind"] for d in listed} == {"objective", "turns", "control", "waves", "relic"}
    response = ann.post(
        reverse("missions:api_open"),
        {"definition": demo_missions["objective"].pk, "mode": "standard"},
        format="json",
    )
    assert response.status_code == 201
    mission = Mission.objects.get(pk=response.json()["mission_id"])
    table = mission.table
    sb = table_services.seat_join(table=table, name="House Birch", user=b.master)
    sa = table.seats.get(number=0)
    table_services.run_command(table, sa, Command("table.start"))
    stranger = APIClient()
    response = stranger.post(reverse("missions:api_bind", args=[mission.pk]))
    assert response.status_code == 404 and response.json()["code"] == "not_seated"
    for client in (ann, bob):
        assert client.post(reverse("missions:api_bind", args=[mission.pk])).status_code == 204
    response = ann.post(reverse("missions:api_close", args=[mission.pk]))
    assert response.status_code == 400 and response.json()["code"] == "not_ended"
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    achieve(table, sb)
    result = bob.post(reverse("missions:api_close", args=[mission.pk])).json()
    assert result["winner"] == 1 and result["guilds"][1]["fame"] == 15
    again = ann.post(reverse("missions:api_close", args=[mission.pk])).json()
    assert again == result
    # By the mission's id only for its players; anyone with the table's code may read it.
    assert stranger.get(reverse("missions:api_report", args=[mission.pk])).status_code == 404
    assert ann.get(reverse("missions:api_report", args=[mission.pk])).json() == (
        report := stranger.get(reverse("missions:report_json", args=[table.code])).json()
    )
    assert report["result"]["winner"] == 1 and report["timeline"][0]["kind"] == "first_player"
    response = bob.post(
        reverse("missions:api_continue", args=[mission.pk]),
        {"definition": demo_missions["waves"].pk, "mode": "training"},
        format="json",
    )
    assert response.status_code == 201 and response.json()["seat"] == 1


def test_the_schema_lists_the_mission_endpoints(client):
    schema = client.get("/api/schema/").content.decode()
    for path in ("/missions/api/missions/{mission_id}/close", "/missions/api/definitions"):
        assert path in schema


def test_ids_too_big_for_the_database_are_refused_not_a_crash(client, make_guild, demo_missions):
    huge = 99999999999999999999999
    a = make_guild("House Ash", "red", ("Rook",))
    ann = APIClient()
    ann.force_authenticate(a.master)
    for value in (huge, 2**63, 0, "x"):
        response = ann.post(
            reverse("missions:api_open"), {"definition": value, "mode": "standard"}, format="json"
        )
        assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert ann.post(f"/missions/api/missions/{huge}/close").status_code == 404
    client.force_login(a.master)
    response = client.post(reverse("missions:lobby"), {"definition": huge, "mode": "standard"})
    assert response.status_code == 404 and Mission.objects.count() == 0

"""The map of DemLoc page and the city API through the test client (DemLoc rulebook 6.2 item
5, "Exploring and conquering the City of DemLoc", "Random events")."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from guilds import models, services
from guilds.demo import load_demo_content

from .test_city import hire, make_point

pytestmark = pytest.mark.django_db


@pytest.fixture
def master(client, guild):
    client.force_login(guild.master)
    return guild


def test_the_map_shows_unknown_points_without_their_names(client, master):
    make_point()
    page = client.get(reverse("guilds:city")).content.decode()
    assert "Unknown place 1" in page and "Tarred Tankard" not in page


def test_send_a_party_see_the_countdown_then_the_report_after_the_deadline(client, master, give):
    point = make_point()
    party = hire(master, give, 2)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        preview = client.get(
            reverse("guilds:city_preview", args=[point.pk]),
            {"mercenary": [m.pk for m in party]},
            headers={"HX-Request": "true"},
        ).content.decode()
        assert "back in <strong>20 min</strong>" in preview
        response = client.post(
            reverse("guilds:city_send", args=[point.pk]),
            {"mercenary": [m.pk for m in party]},
            headers={"HX-Request": "true"},
        )
        page = response.content.decode()
        assert response.status_code == 200 and "on their way" in page
        assert 'data-due="2026-05-01T18:20:00+00:00"' in page
        office = client.get(reverse("guilds:home")).content.decode()
        assert "data-city-badge" not in office
        # Found by a new user: the office did not say a party was out nor when it returns.
        out = office.split("data-party-out>")[1].split("</p>")[0]
        assert "The Tarred Tankard" in out and "back in 20\xa0minutes" in out
        assert all(m.card.name in out for m in party)

        clock.shift(timedelta(minutes=20))
        page = client.get(
            reverse("guilds:city_refresh"), headers={"HX-Request": "true"}
        ).content.decode()  # what the page asks when its countdown ends
        assert "While you were away" in page and "Back from The Tarred Tankard" in page
        assert "data-city-badge>1<" in client.get(reverse("guilds:home")).content.decode()
        client.post(reverse("guilds:city_seen"))
        assert "data-city-badge" not in client.get(reverse("guilds:home")).content.decode()


def test_a_refused_send_shows_the_message_at_the_point(client, master, give):
    point = make_point()
    (merc,) = hire(master, give, 1)
    services.mercenary_status_set(mercenary_id=merc.pk, status="injured", heal_feods=5)
    response = client.post(reverse("guilds:city_send", args=[point.pk]), {"mercenary": [merc.pk]})
    assert response.status_code == 400
    assert 'data-code="mercenary_injured"' in response.content.decode()
    assert not models.Expedition.objects.exists()


def test_answer_an_event_on_the_page(client, master):
    event = models.CityEvent.objects.create(title="A duel", text="Fight?", scope="guild")
    yes = models.CityEventOption.objects.create(event=event, label="Accept", fame=3)
    models.CityEventOption.objects.create(event=event, label="Decline", is_default=True)
    posted = services.city_event_post(guild_id=master.pk, event_id=event.pk)
    assert "Accept" in client.get(reverse("guilds:city")).content.decode()
    client.post(reverse("guilds:city_answer", args=[posted.pk]), {"option": yes.pk})
    master.refresh_from_db()
    assert master.fame == 3


def test_api_map_preview_send_and_result(client, master, give):
    point = make_point()
    (merc,) = hire(master, give, 1)
    data = client.get("/api/guild/city").json()
    (shown,) = [p for a in data["areas"] for p in a["points"]]
    assert shown == {
        "id": point.pk,
        "name": None,
        "kind": None,
        "state": "unknown",
        "holder": None,
        "income": None,
        "bonuses": [],
        "party": None,
    }
    preview = client.post(
        "/api/guild/city/preview",
        {"point_id": point.pk, "mercenary_ids": [merc.pk]},
        content_type="application/json",
    ).json()
    assert preview == {"action": "explore", "minutes": 30, "chance": 100, "holder": None}
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        sent = client.post(
            "/api/guild/city/expeditions",
            {"point_id": point.pk, "mercenary_ids": [merc.pk]},
            content_type="application/json",
        )
        assert sent.status_code == 201
        exp = sent.json()
        assert exp["due_at"] == "2026-05-01T18:30:00Z" and exp["outcome"] == ""
        again = client.post(
            "/api/guild/city/expeditions",
            {"point_id": point.pk, "mercenary_ids": [merc.pk]},
            content_type="application/json",
        )
        assert again.status_code == 400 and again.json()["code"] == "mercenary_busy"
        clock.shift(timedelta(minutes=30))
        result = client.get(f"/api/guild/city/expeditions/{exp['id']}").json()
    assert result["outcome"] == "explored" and "known" in result["report"]


def test_api_hides_other_guilds_expeditions(client, master, found_guild, give):
    other = found_guild("House B")
    (merc,) = hire(other, give, 1)
    exp = services.expedition_start(guild=other, point_id=make_point().pk, mercenary_ids=[merc.pk])
    assert client.get(f"/api/guild/city/expeditions/{exp.pk}").status_code == 404


def test_demo_city_loads_five_areas_with_points_and_events():
    load_demo_content()
    load_demo_content()  # idempotent
    areas = models.CityArea.objects.filter(control_points__isnull=False).distinct()
    assert areas.count() == 5
    assert models.ControlPoint.objects.filter(is_demo=True).count() == 11
    assert models.CityEvent.objects.filter(scope="news").exists()
    assert models.CityEventOption.objects.filter(is_default=True).count() == 3


def test_the_map_shows_ensigns_of_held_points(client, master, found_guild):
    other = found_guild("House B", colour="blue")
    mine, theirs = make_point(), make_point("The Old Forge", kind="forge")
    services.control_point_transfer(point_id=mine.pk, to_guild_id=master.pk, reason="won")
    services.control_point_transfer(point_id=theirs.pk, to_guild_id=other.pk, reason="won")
    models.KnownPoint.objects.create(guild=master, point=theirs, known_at=timezone.now())
    page = client.get(reverse("guilds:city")).content.decode()
    assert "⚑ yours" in page and "⚑ House B" in page and 'class="ensign blue"' in page
    assert "+1 dormitory slot" not in page  # no bonuses on these points
    assert "10 feods" in page  # income shown for known points

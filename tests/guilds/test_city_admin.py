"""Admin of the city: content pages load; expeditions by state, the overdue warning and the
"Settle now" button (docs/architecture.md "Guilds and timers")."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from guilds import models, services
from guilds.demo import load_demo_content

from .test_city import hire, make_point

pytestmark = pytest.mark.django_db

CITY_MODELS = [
    models.ControlPoint,
    models.CityEvent,
    models.Expedition,
    models.IncomePeriod,
    models.GuildEvent,
    models.CityNews,
    models.KnownPoint,
]


def test_city_admin_pages_load(admin_client, guild, give):
    load_demo_content()
    (merc,) = hire(guild, give, 1)
    point = models.ControlPoint.objects.first()
    services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=[merc.pk])
    for model in CITY_MODELS:
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, model
        assert admin_client.get(url, {"q": "x"}).status_code == 200, model
        row = model.objects.first()
        if row is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
            assert admin_client.get(change).status_code == 200, model


def test_overdue_expeditions_are_flagged_and_settled_by_the_button(admin_client, guild, give):
    (merc,) = hire(guild, give, 1)
    url = reverse("admin:guilds_expedition_changelist")
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        exp = services.expedition_start(
            guild=guild, point_id=make_point().pk, mercenary_ids=[merc.pk]
        )
        page = admin_client.get(url, {"state": "open"}).content.decode()
        assert "Settle now" in page and "overdue (should be none" not in page
        clock.shift(timedelta(minutes=31))
        page = admin_client.get(url, {"state": "overdue"}).content.decode()
        assert "1 overdue (should be none" in page
        response = admin_client.post(reverse("admin:guilds_expedition_settle", args=[exp.pk]))
        assert response.status_code == 302
    exp.refresh_from_db()
    assert exp.outcome == "explored"
    assert "overdue (should be none" not in admin_client.get(url).content.decode()


def test_settle_now_action_is_idempotent(admin_client, guild, give):
    (merc,) = hire(guild, give, 1)
    exp = services.expedition_start(guild=guild, point_id=make_point().pk, mercenary_ids=[merc.pk])
    url = reverse("admin:guilds_expedition_changelist")
    for _ in range(2):
        admin_client.post(url, {"action": "settle_now", "_selected_action": [exp.pk]})
    assert models.CityNews.objects.filter(reference=f"expedition:{exp.pk}").count() == 1

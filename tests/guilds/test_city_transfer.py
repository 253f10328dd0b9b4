"""The interface for missions: control_point_transfer and control_points_for_raffle (DemLoc
rulebook 6.2 bonuses and income timers; 6.4.1 raffle phase)."""

import pytest

from guilds import models, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def point(db):
    area, _ = models.CityArea.objects.get_or_create(name="Ashen Market")
    point = models.ControlPoint.objects.create(
        name="The Tarred Tankard", area=area, kind="tavern", income_feods=10, income_fame=1
    )
    models.ControlPointBonus.objects.create(point=point, kind="slots", amount=1)
    return point


def test_transfer_applies_bonuses_starts_income_and_tells_both_guilds(found_guild, point):
    a, b = found_guild("House A"), found_guild("House B")
    slots = services.queries.dormitory_usage(a).limits.slots
    services.control_point_transfer(
        point_id=point.pk, to_guild_id=a.pk, reason="won", reference="mission:1"
    )
    point.refresh_from_db()
    assert point.holder == a and point.held_since is not None
    assert services.queries.dormitory_usage(a).limits.slots == slots + 1
    assert models.IncomePeriod.objects.get(point=point, settled_at__isnull=True).guild == a
    assert models.KnownPoint.objects.filter(guild=a, point=point).exists()

    services.control_point_transfer(
        point_id=point.pk, to_guild_id=b.pk, reason="lost a mission", reference="mission:2"
    )
    point.refresh_from_db()
    assert point.holder == b
    assert services.queries.dormitory_usage(a).limits.slots == slots
    assert services.queries.dormitory_usage(b).limits.slots == slots + 1
    stopped = models.IncomePeriod.objects.get(guild=a, point=point)
    assert stopped.stopped and stopped.settled_at is not None
    assert models.IncomePeriod.objects.get(point=point, settled_at__isnull=True).guild == b
    assert a.city_news.filter(reference="mission:2").count() == 1
    assert b.city_news.filter(reference="mission:2").count() == 1


def test_transfer_to_nobody_frees_the_point(guild, point):
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="won")
    services.control_point_transfer(point_id=point.pk, to_guild_id=None, reason="abandoned")
    point.refresh_from_db()
    assert point.holder is None
    assert not models.IncomePeriod.objects.filter(settled_at__isnull=True).exists()
    assert not guild.limit_bonuses.exists()


def test_raffle_offers_free_points_and_those_of_the_players_only(found_guild, point):
    a, b, c = found_guild("House A"), found_guild("House B"), found_guild("House C")
    other = models.ControlPoint.objects.create(name="Forge", area=point.area, kind="forge")
    third = models.ControlPoint.objects.create(name="Shrine", area=point.area, kind="shrine")
    services.control_point_transfer(point_id=other.pk, to_guild_id=b.pk, reason="won")
    services.control_point_transfer(point_id=third.pk, to_guild_id=c.pk, reason="won")
    names = {p.name for p in services.control_points_for_raffle(guild_ids=[a.pk, b.pk])}
    assert names == {"The Tarred Tankard", "Forge"}

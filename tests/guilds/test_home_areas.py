"""A Guild's home areas and their limits (DemLoc rulebook 5.1.1: limits "according to the
areas of DemLoc where the Guild is based and based on the control it exercises over the
different areas of the city"). Our numbers are in ``guilds.rules``."""

import pytest
from django.urls import reverse

from guilds import models, rules, services
from tabletop.errors import RuleViolation

from .factories import AreaFactory, MercenaryCardFactory

pytestmark = pytest.mark.django_db


def test_holding_a_point_makes_its_area_home_and_raises_the_type_limit_5_1_1(guild, give):
    docks = AreaFactory(name="Docks")
    hunters = [MercenaryCardFactory(type="hunter", level=1, area=docks) for _ in range(3)]
    give(guild, *hunters)
    for card in hunters[:2]:
        services.mercenary_enlist(guild=guild, card_id=card.pk)
    with pytest.raises(RuleViolation) as err:  # level-1 dormitory: 2 per type
        services.mercenary_enlist(guild=guild, card_id=hunters[2].pk)
    assert err.value.code == "type_limit_reached"
    point = models.ControlPoint.objects.create(name="Salt Gate", area=docks, kind="market")
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="test")
    usage = services.queries.dormitory_usage(guild)
    assert usage.home_areas == ["Docks"]
    assert usage.limits.per_type["hunter"] == rules.DORMITORY_PER_TYPE[1] + 1
    services.mercenary_enlist(guild=guild, card_id=hunters[2].pk)
    # Losing the point takes the home area (and its raise) away again.
    services.control_point_transfer(point_id=point.pk, to_guild_id=None, reason="test")
    assert services.queries.dormitory_usage(guild).home_areas == []


def test_the_dormitory_page_states_the_home_areas_5_1_1(client, guild):
    client.force_login(guild.master)
    page = client.get(reverse("guilds:dormitory")).content.decode()
    assert "No home area yet" in page
    point = models.ControlPoint.objects.create(
        name="Salt Gate", area=AreaFactory(name="Docks"), kind="market"
    )
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="test")
    page = client.get(reverse("guilds:dormitory")).content.decode()
    assert "Home area: Docks" in page and "+1 per type and +1 at level 2" in page

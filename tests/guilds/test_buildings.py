"""Guild buildings and upgrades (DemLoc rulebook 6.2 item 4, 6.1)."""

import pytest

from guilds import rules, services
from tabletop.errors import RuleViolation

from .conftest import money

pytestmark = pytest.mark.django_db


def test_an_upgrade_costs_feods_and_raises_the_level(guild):
    cost = rules.upgrade_cost("dormitory", 1)
    building = services.building_upgrade(guild=guild, kind="dormitory")
    guild.refresh_from_db()
    assert building.level == 2 and guild.feods == 150 - cost.feods
    row = guild.ledger.first()
    assert (row.amount, row.reason, row.note) == (
        -cost.feods,
        "building_upgraded",
        "Dormitory to level 2",
    )


def test_top_levels_also_cost_blood_stones_and_nothing_is_paid_without_them(guild):
    money(guild, feods=10_000, blood_stones=0)
    for _ in range(2):
        services.building_upgrade(guild=guild, kind="armory")
    ledger_rows = guild.ledger.count()
    with pytest.raises(RuleViolation) as exc:
        services.building_upgrade(guild=guild, kind="armory")
    assert exc.value.code == "not_enough_blood_stones"
    guild.refresh_from_db()
    assert guild.ledger.count() == ledger_rows and guild.feods == 10_000 - 40 - 80
    assert guild.buildings.get(kind="armory").level == 3
    # rules.UPGRADE_COSTS: level 4 asks 1 blood stone, level 5 asks 3.
    money(guild, feods=guild.feods, blood_stones=4)
    services.building_upgrade(guild=guild, kind="armory")
    services.building_upgrade(guild=guild, kind="armory")
    guild.refresh_from_db()
    assert guild.blood_stones == 0 and guild.buildings.get(kind="armory").level == 5
    with pytest.raises(RuleViolation) as exc:
        services.building_upgrade(guild=guild, kind="armory")
    assert exc.value.code == "building_max_level"


def test_not_enough_feods_and_unknown_buildings(guild):
    money(guild, feods=1)
    for kind, code in (("defenses", "not_enough_feods"), ("tavern", "unknown_building")):
        with pytest.raises(RuleViolation) as exc:
            services.building_upgrade(guild=guild, kind=kind)
        assert exc.value.code == code
    assert all(b.level == 1 for b in guild.buildings.all())

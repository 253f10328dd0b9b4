"""The city's formulas, pure (DemLoc rulebook 6.2: "send more mercenaries ... reducing the
duration of the mission, and increasing the probability of success of the acquisition"; the
numbers are ours, documented in ``guilds.city_rules``)."""

import pytest

from guilds import city_rules as cr
from tabletop.errors import RuleViolation


def test_more_mercenaries_shorten_the_duration():
    assert [cr.duration_minutes(120, n) for n in (1, 2, 3, 4)] == [120, 80, 60, 48]
    assert [cr.duration_minutes(30, n) for n in (1, 2, 3, 4)] == [30, 20, 15, 12]
    assert cr.duration_minutes(1, 4) == 1  # never below a minute


def test_party_size_is_one_to_four():
    for n, code in ((0, "party_empty"), (5, "party_too_large")):
        with pytest.raises(RuleViolation) as exc:
            cr.duration_minutes(30, n)
        assert exc.value.code == code


def test_more_and_stronger_mercenaries_raise_the_chance():
    assert cr.acquire_chance(50, [1]) == 50
    assert cr.acquire_chance(50, [1, 1]) == 62
    assert cr.acquire_chance(50, [1, 2, 1]) == 78
    assert cr.acquire_chance(50, [3]) == 58
    chances = [cr.acquire_chance(40, [1] * n) for n in (1, 2, 3, 4)]
    assert chances == sorted(chances) and len(set(chances)) == 4


def test_a_held_point_is_harder_by_ten_plus_five_per_defense():
    assert cr.acquire_chance(50, [1], holder_defense=1) == 35
    assert cr.acquire_chance(50, [1], holder_defense=5) == 15


def test_the_chance_stays_between_5_and_95():
    assert cr.acquire_chance(90, [5, 5, 5, 5]) == 95
    assert cr.acquire_chance(5, [1], holder_defense=5) == 5


def test_success_when_the_roll_is_at_most_the_chance():
    assert cr.succeeds(62, 62) and not cr.succeeds(63, 62)


def test_failure_consequence_bands():
    assert cr.failure_consequence(1, [1, 3]) == cr.Consequence("injury", victim=1, heal_feods=30)
    assert cr.failure_consequence(40, [2, 1]) == cr.Consequence("injury", victim=0, heal_feods=20)
    assert cr.failure_consequence(41, [1, 1]) == cr.Consequence("feods", feods=20)
    assert cr.failure_consequence(80, [1]) == cr.Consequence("feods", feods=15)
    assert cr.failure_consequence(81, [1]) == cr.Consequence("repelled")


def test_armory_discount_rounds_down_and_is_capped():
    assert cr.armory_price(15, 20) == 12
    assert cr.armory_price(40, 90) == 20  # at most 50 percent
    assert cr.armory_price(1, 50) == 1

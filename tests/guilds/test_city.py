"""Exploring and acquiring control points on timers, income and the sweeper (DemLoc rulebook
6.2 "Exploring and conquering the City of DemLoc"; docs/architecture.md "Guilds and timers"). Time is
travelled with time-machine; the Celery tasks are called for real (their function bodies, as a
worker runs them)."""

import random
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from guilds import models, services, tasks
from guilds.models import Expedition, Mercenary
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .factories import MercenaryCardFactory, WeaponCardFactory

pytestmark = pytest.mark.django_db

TYPES = ("hunter", "belligerent", "sorcerer", "miserable")


def make_point(name="The Tarred Tankard", **fields) -> models.ControlPoint:
    area, _ = models.CityArea.objects.get_or_create(name="Ashen Market")
    defaults = {
        "kind": "tavern",
        "explore_minutes": 30,
        "acquire_minutes": 120,
        "base_chance": 50,
        "income_feods": 10,
        "income_fame": 1,
        "income_period_minutes": 360,
    }
    defaults.update(fields)
    return models.ControlPoint.objects.create(name=name, area=area, **defaults)


def hire(guild, give, n=1, level=1) -> list[models.Mercenary]:
    """``n`` mercenaries of ``level`` (of different types, within the level-1 dormitory)."""
    cards = [MercenaryCardFactory(type=TYPES[i % 4], level=level) for i in range(n)]
    give(guild, *cards)
    if level > 1:
        money(guild, feods=guild.feods, fame=100)
    return [services.mercenary_enlist(guild=guild, card_id=c.pk) for c in cards]


SUCCESS = 1  # random.Random(1): roll 18, consequence roll 73
FAIL_INJURY = 6  # roll 74, consequence roll 11: an injury
FAIL_FEODS = 9  # roll 60, consequence roll 79: feods lost


def statuses(mercenaries):
    return [Mercenary.objects.get(pk=m.pk).status for m in mercenaries]


def news(guild, ref):
    return models.CityNews.objects.filter(guild=guild, reference=ref).count()


def test_explore_then_acquire_end_to_end_with_income(guild, give):
    point = make_point()
    party = hire(guild, give, 2)
    ids = [m.pk for m in party]
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        preview = services.expedition_preview(guild=guild, point_id=point.pk, mercenary_ids=ids)
        assert (preview.action, preview.minutes, preview.chance) == ("explore", 20, 100)
        exp = services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=ids)
        assert exp.due_at == timezone.now() + timedelta(minutes=20)  # 30 * 2 / 3
        assert statuses(party) == ["exploring", "exploring"]

        clock.shift(timedelta(minutes=19, seconds=59))
        assert tasks.sweep_city_timers()["Expedition"] == 0  # not due yet
        tasks.settle_expedition(exp.pk)  # an ETA message delivered early does nothing
        assert statuses(party) == ["exploring", "exploring"]
        clock.shift(timedelta(seconds=1))
        tasks.settle_expedition(exp.pk)  # the ETA task
        exp.refresh_from_db()
        assert exp.outcome == "explored" and exp.settled_at == timezone.now()
        assert models.KnownPoint.objects.filter(guild=guild, point=point).exists()
        assert statuses(party) == ["active", "active"]
        tasks.settle_expedition(exp.pk)  # delivered twice: nothing more happens
        assert tasks.sweep_city_timers()["Expedition"] == 0
        assert news(guild, f"expedition:{exp.pk}") == 1

        preview = services.expedition_preview(guild=guild, point_id=point.pk, mercenary_ids=ids)
        assert (preview.action, preview.minutes, preview.chance) == ("acquire", 80, 62)
        exp = services.expedition_start(
            guild=guild, point_id=point.pk, mercenary_ids=ids, rng=random.Random(SUCCESS)
        )
        assert (exp.action, exp.chance, exp.roll) == ("acquire", 62, 18)
        clock.shift(timedelta(minutes=80))
        assert tasks.sweep_city_timers()["Expedition"] == 1  # the sweeper, as if the task was lost
        exp.refresh_from_db()
        point.refresh_from_db()
        assert exp.outcome == "success" and point.holder == guild
        assert statuses(party) == ["active", "active"]

        guild.refresh_from_db()
        feods, fame = guild.feods, guild.fame
        clock.shift(timedelta(minutes=360))
        assert tasks.sweep_city_timers()["IncomePeriod"] == 1
        guild.refresh_from_db()
        assert (guild.feods, guild.fame) == (feods + 10, fame + 1)
        row = guild.ledger.filter(reason="city", currency="feods").get()
        assert row.reference.startswith("income:")
        # The next period started when the first was due, and its task is already scheduled.
        nxt = models.IncomePeriod.objects.get(point=point, settled_at__isnull=True)
        assert nxt.started_at == exp.settled_at + timedelta(minutes=360)
        for cached, total in services.guild_ledger_audit(guild=guild).values():
            assert cached == total


def test_an_acquisition_that_fails_injures_a_mercenary_and_says_how_to_retry(guild, give):
    point = make_point()
    models.KnownPoint.objects.create(guild=guild, point=point, known_at=timezone.now())
    party = hire(guild, give, 2)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        exp = services.expedition_start(
            guild=guild,
            point_id=point.pk,
            mercenary_ids=[m.pk for m in party],
            rng=random.Random(FAIL_INJURY),
        )
        clock.shift(timedelta(minutes=80))
        tasks.settle_expedition(exp.pk)
    exp.refresh_from_db()
    victim = party[11 % 2]  # consequence roll 11 picks party member 1
    assert exp.outcome == "failure" and "Dormitory for 10 feods" in exp.report
    assert "acquire it again" in exp.report
    assert statuses(party) == ["active", "injured"]
    assert Mercenary.objects.get(pk=victim.pk).heal_feods == 10
    point.refresh_from_db()
    assert point.holder is None


def test_a_failure_can_cost_feods_never_below_zero(guild, give):
    point = make_point()
    models.KnownPoint.objects.create(guild=guild, point=point, known_at=timezone.now())
    party = hire(guild, give, 1)
    money(guild, feods=7)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        exp = services.expedition_start(
            guild=guild,
            point_id=point.pk,
            mercenary_ids=[party[0].pk],
            rng=random.Random(FAIL_FEODS),
        )
        clock.shift(timedelta(minutes=120))
        tasks.sweep_city_timers()
    exp.refresh_from_db()
    guild.refresh_from_db()
    assert exp.outcome == "failure" and guild.feods == 0  # 15 asked, 7 paid
    assert guild.ledger.get(reference=f"expedition:{exp.pk}").amount == -7


def test_a_point_held_by_another_guild_is_harder_and_changes_hands(found_guild, give):
    a, b = found_guild("House A"), found_guild("House B")
    point = make_point()
    services.control_point_transfer(point_id=point.pk, to_guild_id=b.pk, reason="seeded")
    services.building_upgrade(guild=b, kind="defenses")  # defense rating 2
    models.KnownPoint.objects.create(guild=a, point=point, known_at=timezone.now())
    party = hire(a, give, 1)
    preview = services.expedition_preview(guild=a, point_id=point.pk, mercenary_ids=[party[0].pk])
    assert preview.chance == 50 - 10 - 5 * 2 and preview.holder == "House B"
    with time_machine.travel(timezone.now(), tick=False) as clock:
        exp = services.expedition_start(
            guild=a, point_id=point.pk, mercenary_ids=[party[0].pk], rng=random.Random(SUCCESS)
        )
        clock.shift(timedelta(minutes=120))
        tasks.settle_expedition(exp.pk)
    point.refresh_from_db()
    assert point.holder == a
    assert b.city_news.filter(headline__contains="lost").count() == 1


def test_a_busy_mercenary_cannot_be_sent_twice_enlisted_or_dismissed(guild, give):
    first, second = make_point(), make_point("The Old Forge", kind="forge")
    (merc,) = hire(guild, give, 1)
    services.expedition_start(guild=guild, point_id=first.pk, mercenary_ids=[merc.pk])
    with pytest.raises(RuleViolation) as exc:
        services.expedition_start(guild=guild, point_id=second.pk, mercenary_ids=[merc.pk])
    assert exc.value.code == "mercenary_busy"
    merc.refresh_from_db()
    assert services.mercenary_can_go_on_mission(merc).code == "mercenary_absent"
    with pytest.raises(RuleViolation) as exc:
        services.mercenary_dismiss(guild=guild, mercenary_id=merc.pk)
    assert exc.value.code == "mercenary_absent"


def test_sending_is_refused_with_codes_and_changes_nothing(found_guild, give):
    guild, other = found_guild("House A"), found_guild("House B")
    point = make_point()
    party = hire(guild, give, 4)
    (stranger,) = hire(other, give, 1)
    ids = [m.pk for m in party]
    cases = [
        ([], "party_empty"),
        (ids + [stranger.pk], "party_too_large"),
        ([stranger.pk], "mercenary_not_found"),
        ([2**70], "mercenary_not_found"),  # out of any id range: no crash
        (["abc"], "mercenary_not_found"),
    ]
    for mercenary_ids, code in cases:
        with pytest.raises((RuleViolation, NotFound)) as exc:
            services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=mercenary_ids)
        assert exc.value.code == code
    with pytest.raises(NotFound) as exc:
        services.expedition_start(guild=guild, point_id=2**70, mercenary_ids=ids[:1])
    assert exc.value.code == "control_point_not_found"
    services.mercenary_status_set(mercenary_id=ids[0], status="injured", heal_feods=5)
    with pytest.raises(RuleViolation) as exc:
        services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=ids[:1])
    assert exc.value.code == "mercenary_injured"
    services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=ids[1:2])
    with pytest.raises(RuleViolation) as exc:
        services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=ids[2:3])
    assert exc.value.code == "expedition_under_way"
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="won")
    with pytest.raises(RuleViolation) as exc:
        services.expedition_preview(guild=guild, point_id=point.pk, mercenary_ids=ids[3:])
    assert exc.value.code == "point_already_held"
    assert Expedition.objects.count() == 1


def test_the_sweeper_hands_far_deadlines_to_the_broker_only_when_they_come_near(guild, give):
    point = make_point(explore_minutes=180)
    (merc,) = hire(guild, give, 1)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        exp = services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=[merc.pk])
        exp.refresh_from_db()
        assert exp.eta_sent_at is None  # three hours away: no ETA message kept that long
        clock.shift(timedelta(minutes=176))  # 4 min away: beyond the 2-min ETA horizon
        assert tasks.sweep_city_timers()["scheduled"] == 0
        clock.shift(timedelta(minutes=3))
        assert tasks.sweep_city_timers()["scheduled"] == 1
        exp.refresh_from_db()
        assert exp.eta_sent_at == timezone.now()
        assert tasks.sweep_city_timers()["scheduled"] == 0


def test_the_page_settles_its_own_overdue_timers(guild, give):
    point = make_point()
    (merc,) = hire(guild, give, 1)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        exp = services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=[merc.pk])
        assert services.city_overdue_settle(guild=guild) == 0
        clock.shift(timedelta(minutes=30))
        assert services.city_overdue_settle(guild=guild) == 1
        assert services.city_overdue_settle(guild=guild) == 0
    exp.refresh_from_db()
    assert exp.outcome == "explored"


def test_held_points_make_the_armory_cheaper(guild, give):
    point = make_point()
    models.ControlPointBonus.objects.create(point=point, kind="armory_discount", amount=20)
    sword = WeaponCardFactory(price_feods=15)
    give(guild, (sword, 2))
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="won")
    assert services.weapon_buy(guild=guild, card_id=sword.pk).price_paid == 12
    services.control_point_transfer(point_id=point.pk, to_guild_id=None, reason="lost")
    assert services.weapon_buy(guild=guild, card_id=sword.pk).price_paid == 15

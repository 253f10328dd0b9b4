"""Timers settled in chunks (docs/architecture.md "Guilds and timers"; DemLoc rulebook 6.2): the deadlines
of one moment share one Celery task, which settles everything due with few queries per
expedition, with the same outcome, report, news and mercenary states as one-by-one settlement,
exactly once."""

import random
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from guilds import models, services, tasks
from guilds.services import city

from .test_city import FAIL_FEODS, SUCCESS, hire, make_point, news, statuses

pytestmark = pytest.mark.django_db


def test_deadlines_of_one_moment_share_one_task():
    t = timezone.now().replace(microsecond=100_000)
    assert city._bucket(t) == t.replace(microsecond=250_000)
    assert city._bucket(t.replace(microsecond=250_000)) == t.replace(microsecond=250_000)
    assert city._bucket(t.replace(microsecond=900_000)) == t.replace(microsecond=0) + timedelta(
        seconds=1
    )
    from django.core.cache import cache

    cache.clear()
    due = timezone.now() + timedelta(minutes=3)
    sent = [city._send_due(due + timedelta(milliseconds=ms)) for ms in range(0, 1000, 50)]
    assert 4 <= sum(sent) <= 5  # twenty deadlines within one second: one task per 250 ms
    assert city._send_due(due, force=True)  # a restarted worker sends again


def test_a_chunk_settles_explorations_and_acquisitions_like_one_by_one(found_guild, give):
    a, b = found_guild("House A"), found_guild("House B")
    points = [make_point(f"Point {i}", explore_minutes=30) for i in range(6)]
    models.KnownPoint.objects.create(guild=a, point=points[5], known_at=timezone.now())
    party_a, party_b = hire(a, give, 4), hire(b, give, 3)
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        started = [
            services.expedition_start(guild=a, point_id=points[i].pk, mercenary_ids=[m.pk])
            for i, m in enumerate(party_a[:3])
        ]
        started += [
            services.expedition_start(
                guild=b, point_id=points[0].pk, mercenary_ids=[m.pk for m in party_b[:2]]
            ),
            services.expedition_start(
                guild=a,
                point_id=points[5].pk,
                mercenary_ids=[party_a[3].pk],
                rng=random.Random(SUCCESS),
            ),
        ]
        (merc_b,) = party_b[2:]
        models.KnownPoint.objects.create(guild=b, point=points[4], known_at=timezone.now())
        started.append(
            services.expedition_start(
                guild=b,
                point_id=points[4].pk,
                mercenary_ids=[merc_b.pk],
                rng=random.Random(FAIL_FEODS),
            )
        )
        assert [e.action for e in started] == ["explore"] * 4 + ["acquire"] * 2
        clock.shift(timedelta(minutes=30))  # the explorations are due, the acquisitions not
        assert tasks.settle_due_timers()["Expedition"] == 4
        assert tasks.settle_due_timers()["Expedition"] == 0  # a duplicate task: nothing due
        for e in started[:4]:
            e.refresh_from_db()
            assert e.outcome == "explored" and e.settled_at == timezone.now()
            assert news(e.guild, f"expedition:{e.pk}") == 1
        assert started[0].report == (
            f"{party_a[0].card.name} explored Point 0 (Ashen Market): a tavern. It is known now; "
            "send a party to acquire it."
        )
        names = ", ".join(m.card.name for m in sorted(party_b[:2], key=lambda m: m.pk))
        assert started[3].report.startswith(f"{names} explored Point 0")
        assert statuses(party_a[:3] + party_b[:2]) == ["active"] * 5
        assert models.KnownPoint.objects.filter(guild=a).count() == 4
        assert models.KnownPoint.objects.filter(guild=b).count() == 2

        clock.shift(timedelta(minutes=200))
        assert tasks.settle_due_timers()["Expedition"] == 2
        won, lost = started[4], started[5]
        won.refresh_from_db()
        lost.refresh_from_db()
        assert won.outcome == "success"
        assert models.ControlPoint.objects.get(pk=points[5].pk).holder_id == a.pk
        assert lost.outcome == "failure" and news(b, f"expedition:{lost.pk}") == 1
    for g in (a, b):
        g.refresh_from_db()
        for cached, total in services.guild_ledger_audit(guild=g).values():
            assert cached == total
    assert not models.Mercenary.objects.filter(status="exploring").exists()


def test_a_chunk_costs_a_fixed_number_of_queries(found_guild, give):
    guilds = [found_guild(f"House {i}") for i in range(4)]
    points = [make_point(f"Point {i}", explore_minutes=30) for i in range(10)]
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        for g in guilds:
            party = hire(g, give, 1)
            for p in points:
                exp = models.Expedition.objects.create(
                    guild=g,
                    point=p,
                    action="explore",
                    party_size=1,
                    chance=100,
                    roll=1,
                    consequence_roll=1,
                    started_at=timezone.now(),
                    due_at=timezone.now() + timedelta(minutes=1),
                )
                exp.mercenaries.add(party[0])
        clock.shift(timedelta(minutes=2))
        with CaptureQueriesContext(connection) as queries:
            assert city.city_timers_settle_due()["Expedition"] == 40
    # claim, Guild locks, party, points, known points, 4 writes, savepoints; then the empty
    # claim and the income/event look-ups: independent of the 40 expeditions.
    assert len(queries) < 20, [q["sql"][:80] for q in queries]
    assert models.CityNews.objects.filter(headline__startswith="Back from").count() == 40

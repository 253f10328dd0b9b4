"""Random events of the city (DemLoc rulebook 6.2 "Random events": some are news, some affect
the Guild or its control points and need an answer). An unanswered event gets its default at
the deadline, settled by its timer task or the sweeper."""

import random
from datetime import timedelta

import pytest
import time_machine

from guilds import models, services, tasks
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .test_city import hire, make_point

pytestmark = pytest.mark.django_db


@pytest.fixture
def protection(db):
    event = models.CityEvent.objects.create(
        title="Protection money",
        text="The Ash Brothers want a cut of {point}.",
        scope="control_point",
        answer_minutes=240,
    )
    pay = models.CityEventOption.objects.create(
        event=event, order=1, label="Pay", feods=-20, outcome="They leave."
    )
    refuse = models.CityEventOption.objects.create(
        event=event, order=2, label="Refuse", lose_point=True, is_default=True, fame=2
    )
    return event, pay, refuse


def test_news_is_told_and_needs_no_answer(guild):
    event = models.CityEvent.objects.create(title="Fog on the canal", text="Ships wait.")
    posted = services.city_event_post(guild_id=guild.pk, event_id=event.pk)
    assert posted.settled_at is not None
    assert guild.city_news.get(reference=f"event:{posted.pk}").headline == "Fog on the canal"


def test_an_answered_event_applies_the_chosen_option(guild, protection):
    event, pay, _ = protection
    point = make_point()
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="won")
    money(guild, feods=50)
    posted = services.city_event_post(guild_id=guild.pk, event_id=event.pk, point_id=point.pk)
    assert posted.text == "The Ash Brothers want a cut of The Tarred Tankard."
    assert posted.due_at == posted.posted_at + timedelta(minutes=240)
    answered = services.city_event_answer(guild=guild, event_id=posted.pk, option_id=pay.pk)
    guild.refresh_from_db()
    assert answered.chosen == pay and not answered.answered_by_default
    assert guild.feods == 30 and "They leave." in answered.outcome
    tasks.settle_city_event(posted.pk)  # the deadline task still fires: nothing more happens
    guild.refresh_from_db()
    assert guild.feods == 30
    with pytest.raises(RuleViolation) as exc:
        services.city_event_answer(guild=guild, event_id=posted.pk, option_id=pay.pk)
    assert exc.value.code == "event_closed"


def test_an_unanswered_event_gets_its_default_at_the_deadline(guild, protection):
    event, pay, refuse = protection
    point = make_point()
    services.control_point_transfer(point_id=point.pk, to_guild_id=guild.pk, reason="won")
    with time_machine.travel("2026-05-01 18:00Z", tick=False) as clock:
        posted = services.city_event_post(guild_id=guild.pk, event_id=event.pk, point_id=point.pk)
        clock.shift(timedelta(minutes=239))
        assert tasks.sweep_city_timers()["GuildEvent"] == 0
        clock.shift(timedelta(minutes=1))
        with pytest.raises(RuleViolation) as exc:  # too late to answer
            services.city_event_answer(guild=guild, event_id=posted.pk, option_id=pay.pk)
        assert exc.value.code == "event_closed"
        assert tasks.sweep_city_timers()["GuildEvent"] == 1
    posted.refresh_from_db()
    point.refresh_from_db()
    assert posted.chosen == refuse and posted.answered_by_default
    assert point.holder is None  # "Refuse" loses the point
    assert guild.ledger.get(reference=f"event:{posted.pk}").amount == 2


def test_an_event_cannot_be_answered_by_another_guild_or_with_a_foreign_option(
    found_guild, protection
):
    event, pay, _ = protection
    a, b = found_guild("House A"), found_guild("House B")
    posted = services.city_event_post(guild_id=a.pk, event_id=event.pk)
    with pytest.raises(NotFound):
        services.city_event_answer(guild=b, event_id=posted.pk, option_id=pay.pk)
    other = models.CityEvent.objects.create(title="Other", text="x")
    stray = models.CityEventOption.objects.create(event=other, label="Stray")
    with pytest.raises(RuleViolation) as exc:
        services.city_event_answer(guild=a, event_id=posted.pk, option_id=stray.pk)
    assert exc.value.code == "bad_option"
    posted.refresh_from_db()
    assert posted.settled_at is None


def test_the_periodic_draw_fits_events_to_the_guild(found_guild, protection, give):
    a, b = found_guild("House A"), found_guild("House B")
    point = make_point()
    services.control_point_transfer(point_id=point.pk, to_guild_id=a.pk, reason="won")
    hire(b, give, 1)
    injury = models.CityEvent.objects.create(title="Brawl", text="A brawl.", scope="guild")
    models.CityEventOption.objects.create(event=injury, label="Oh no", injure_mercenary=True)
    protection[0].weight = 50
    protection[0].save()
    assert services.city_events_post(rng=random.Random(3), chance=1.0) == 2
    # B holds no point: it can only draw the Guild event, whose only option injures.
    brawl = b.city_events.get()
    assert brawl.title == "Brawl"
    tasks.settle_city_event(brawl.pk)  # an early task does nothing
    assert b.mercenaries.get().status == "active"
    services.city_event_settle(event_id=brawl.pk)  # the admin's "settle now"
    assert b.mercenaries.get().status == "injured"
    assert a.city_events.count() == 1
    assert services.city_events_post(rng=random.Random(3), chance=0.0) == 0

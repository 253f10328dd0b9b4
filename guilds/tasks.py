"""Celery tasks of the city (DESIGN.md "Guilds and timers"; STYLE.md 6): each takes ids, calls
one service and can run twice without harm (settlement is idempotent under a row lock)."""

from celery import shared_task

from . import services


@shared_task(name="guilds.tasks.settle_expedition", ignore_result=True)
def settle_expedition(expedition_id: int) -> None:
    """At an expedition's ``due_at``: bring the party back (``services.expedition_settle``)."""
    services.expedition_settle(expedition_id=expedition_id)


@shared_task(name="guilds.tasks.settle_income", ignore_result=True)
def settle_income(period_id: int) -> None:
    """At an income period's ``due_at``: pay it and start the next (``services.income_settle``)."""
    services.income_settle(period_id=period_id)


@shared_task(name="guilds.tasks.settle_city_event", ignore_result=True)
def settle_city_event(event_id: int) -> None:
    """At an unanswered event's deadline: apply the default (``services.city_event_settle``)."""
    services.city_event_settle(event_id=event_id)


@shared_task(name="guilds.tasks.sweep_city_timers", ignore_result=True)
def sweep_city_timers() -> dict[str, int]:
    """Beat: settle whatever is overdue, schedule what comes due soon (``city_timers_sweep``)."""
    return services.city_timers_sweep()


@shared_task(name="guilds.tasks.post_city_events", ignore_result=True)
def post_city_events() -> int:
    """Beat: random events of the city (``services.city_events_post``)."""
    return services.city_events_post()

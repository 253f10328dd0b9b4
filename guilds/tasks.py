"""Celery tasks of the city (docs/architecture.md "Guilds and timers"): each takes ids, calls
one service and can run twice without harm (settlement is idempotent under a row lock). A task
delivered before its deadline, or for a row that does not exist, does nothing: the sweeper
settles the row when it is due."""

import logging

from celery import shared_task
from django.core.cache import cache

from tabletop.errors import NotFound

from . import services

log = logging.getLogger(__name__)


@shared_task(name="guilds.tasks.settle_expedition", ignore_result=True)
def settle_expedition(expedition_id: int) -> None:
    """At an expedition's ``due_at``: bring the party back (``services.expedition_settle``)."""
    try:
        services.expedition_settle(expedition_id=expedition_id, only_if_due=True)
    except NotFound:
        log.warning("Expedition %s does not exist: nothing to settle.", expedition_id)


@shared_task(name="guilds.tasks.settle_income", ignore_result=True)
def settle_income(period_id: int) -> None:
    """At an income period's ``due_at``: pay it and start the next (``services.income_settle``)."""
    try:
        services.income_settle(period_id=period_id, only_if_due=True)
    except NotFound:
        log.warning("Income period %s does not exist: nothing to settle.", period_id)


@shared_task(name="guilds.tasks.settle_city_event", ignore_result=True)
def settle_city_event(event_id: int) -> None:
    """At an unanswered event's deadline: apply the default (``services.city_event_settle``)."""
    try:
        services.city_event_settle(event_id=event_id, only_if_due=True)
    except NotFound:
        log.warning("City event %s does not exist: nothing to settle.", event_id)


@shared_task(name="guilds.tasks.settle_due_timers", ignore_result=True)
def settle_due_timers(moment: str | None = None) -> dict[str, int]:
    """At a moment when deadlines fall due (one task per 250 ms of deadlines, ``moment`` the
    ISO time it was meant for, for the log only): settle every timer due now, in chunks
    (``services.city_timers_settle_due``)."""
    return services.city.city_timers_settle_due()


@shared_task(name="guilds.tasks.sweep_city_timers", ignore_result=True)
def sweep_city_timers(rearm: bool = False) -> dict[str, int]:
    """Beat: settle whatever is overdue, schedule what comes due soon (``city_timers_sweep``)."""
    return services.city_timers_sweep(rearm=rearm)


@shared_task(name="guilds.tasks.post_city_events", ignore_result=True)
def post_city_events(period: int | None = None) -> int:
    """Every 30 min, sent by each worker's clock (config/celery.py): random events of the city
    (``services.city_events_post``), once per ``period`` (the clock's period number) however
    many workers send it: the first to mark the period in the cache posts, the others do
    nothing. With the cache unreachable the period is skipped (events are not timers)."""
    if period is not None:
        try:
            if not cache.add(f"guilds:city-events:{period}", 1, 6 * 3600):
                return 0
        except Exception:  # noqa: BLE001
            log.warning("No cache for the random-events mark; period %s skipped.", period)
            return 0
    return services.city_events_post()

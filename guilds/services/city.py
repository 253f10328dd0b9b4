"""The city of DemLoc: control points, expeditions, income and random events, on timers
(DemLoc rulebook 6.2 "Exploring and conquering the City of DemLoc", "Random events"; docs/architecture.md
"Guilds and timers").

Timers. Every deadline is a row (``Expedition``, ``IncomePeriod``, ``GuildEvent``: ``due_at``,
``settled_at``). After commit, a deadline within ``ETA_HORIZON`` gets a Celery task at its
moment, shared by all deadlines of the same ``ETA_BUCKET`` (250 ms); later ones get theirs from
the sweeper when they come near, so nothing relies on a broker keeping an ETA message for
hours. That task and the beat sweeper (``city_timers_sweep``) settle whatever is due in chunks
(``_settle_expedition_chunk``: ``SELECT ... FOR UPDATE SKIP LOCKED``, bulk writes). Settling locks the timer row and sets
``settled_at``: a second run, from the ETA task, the sweeper, the page or the admin, is a no-op.

Lock order, the same everywhere so two settlements never deadlock: the timer row, then the
control point, then the Guilds by id. Callers that already hold a Guild lock (a mission ending)
may call ``control_point_transfer``; the database breaks the rare deadlock, and a timer task
that loses one is settled by the next sweep.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from celery import current_app
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q, Sum
from django.utils import timezone

from tabletop.errors import NotFound, RuleViolation

from .. import city_rules, rules
from ..ids import parse_id
from ..models import (
    CityEvent,
    CityEventOption,
    CityNews,
    ControlPoint,
    ControlPointBonus,
    Expedition,
    Guild,
    GuildEvent,
    IncomePeriod,
    KnownPoint,
    LedgerEntry,
    LimitBonus,
    Mercenary,
)
from ._common import building_level, lock_guild, post
from .holds import require_free
from .reserves import spendable_feods

log = logging.getLogger(__name__)

# Deadlines nearer than this get their ETA task after commit; later ones from the sweeper. Kept
# below the broker visibility timeout (settings: 5 min), so no held ETA message is redelivered.
ETA_HORIZON = timedelta(minutes=2)
SWEEP_BATCH = 500


# --- helpers ---------------------------------------------------------------------------------------


def _lock_guilds(*ids: int | None) -> dict[int, Guild]:
    """The Guild rows of ``ids`` (None ignored), locked in id order."""
    wanted = sorted({i for i in ids if i is not None})
    found = {
        g.pk: g for g in Guild.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    }
    return found


def _lock_point(point_id) -> ControlPoint:
    pk = parse_id(point_id)
    point = None
    if pk is not None:
        point = (
            ControlPoint.objects.select_related("area")
            .select_for_update(of=("self",))
            .filter(pk=pk)
            .first()
        )
    if point is None:
        raise NotFound("control_point_not_found", "No such control point.")
    return point


def _news(guild_id: int, headline: str, body: str = "", reference: str = "", now=None) -> None:
    CityNews.objects.create(
        guild_id=guild_id,
        created_at=now or timezone.now(),
        headline=headline[:200],
        body=body,
        reference=reference,
    )


def _know(guild_id: int, point_id: int, now) -> bool:
    """Mark the point known to the Guild; True if it was unknown. The caller holds the Guild's
    lock, so no one else adds the same row meanwhile (no savepoint needed)."""
    if KnownPoint.objects.filter(guild_id=guild_id, point_id=point_id).exists():
        return False
    KnownPoint.objects.create(guild_id=guild_id, point_id=point_id, known_at=now)
    return True


TASKS = {
    Expedition: "guilds.tasks.settle_expedition",
    IncomePeriod: "guilds.tasks.settle_income",
    GuildEvent: "guilds.tasks.settle_city_event",
}
DUE_TASK = "guilds.tasks.settle_due_timers"
ETA_BUCKET = timedelta(milliseconds=250)


def _send_eta(model, pk: int, due_at: datetime) -> None:
    """Hand the broker the settlement task of one timer (the admin's and old messages' path;
    deadlines are scheduled by ``_send_due``). A broker outage is logged, never raised: the
    sweeper settles the row anyway (docs/architecture.md)."""
    try:
        current_app.send_task(TASKS[model], args=(pk,), eta=due_at)
    except Exception:  # noqa: BLE001 - any broker failure only delays settlement
        log.warning("Could not schedule %s %s; the sweeper will settle it.", model.__name__, pk)


def _bucket(due_at: datetime) -> datetime:
    """``due_at`` rounded up to the next multiple of ``ETA_BUCKET`` (UTC epoch)."""
    step = ETA_BUCKET.total_seconds()
    ts = due_at.timestamp()
    ticks = -(-round(ts * 1000) // round(step * 1000))  # ceil, in whole milliseconds
    return datetime.fromtimestamp(ticks * step, tz=due_at.tzinfo or timezone.get_current_timezone())


def _send_due(due_at: datetime, force: bool = False) -> bool:
    """Hand the broker one ``settle_due_timers`` task at the end of ``due_at``'s bucket
    (``ETA_BUCKET``, 250 ms), unless one was already sent for that bucket: the deadlines of one
    moment share one task, which settles everything due then in chunks. The "already sent"
    mark is kept in Django's cache (per process with the default local memory cache, shared
    with a Redis cache); a missing mark only costs a duplicate task that finds nothing due.
    ``force``: send even if marked (a restarted worker: the dead one's messages are invisible
    in Redis until the visibility timeout). A broker outage is logged, never raised: the
    sweeper settles the rows anyway (docs/architecture.md). Returns True if a task was sent."""
    eta = _bucket(due_at)
    key = f"guilds:city-due:{eta.timestamp():.3f}"
    ttl = int((ETA_HORIZON + timedelta(minutes=5)).total_seconds())
    # This runs after commit: a cache or broker outage must never turn committed work into an
    # error answer (docs/architecture.md), so every failure here is logged and left to the sweeper.
    try:
        if force:
            cache.set(key, 1, ttl)
        elif not cache.add(key, 1, ttl):
            return False
    except Exception:  # noqa: BLE001 - the mark only saves duplicate tasks
        log.warning("The cache is unreachable; sending the task of %s unmarked.", eta)
    try:
        current_app.send_task(DUE_TASK, args=(eta.isoformat(),), eta=eta)
    except Exception:  # noqa: BLE001 - any broker failure only delays settlement
        try:
            cache.delete(key)
        except Exception:  # noqa: BLE001
            pass
        log.warning("Could not schedule the timers due at %s; the sweeper will settle them.", eta)
        return False
    return True


def _schedule(timer) -> None:
    """After commit, send the (shared) settlement task of the deadline's moment if the deadline
    is within ``ETA_HORIZON``; mark the row sent (in this transaction) so the sweeper does not
    send it again."""
    if timer.due_at - timezone.now() > ETA_HORIZON:
        return
    model, pk, due_at = type(timer), timer.pk, timer.due_at
    model.objects.filter(pk=pk).update(eta_sent_at=timezone.now())
    transaction.on_commit(lambda: _send_due(due_at))


def _party_levels(expedition: Expedition) -> list[tuple[Mercenary, int]]:
    party = list(expedition.mercenaries.select_related("card").order_by("pk"))
    return [(m, m.card.level) for m in party]


# --- control points (the interface for missions) -------------------------------------------------


def _bonus_source(point: ControlPoint) -> str:
    return f"control_point:{point.pk}"


def _apply_bonuses(point: ControlPoint, guild_id: int) -> None:
    LimitBonus.objects.bulk_create(
        LimitBonus(
            guild_id=guild_id, kind=b.kind, key=b.key, amount=b.amount, source=_bonus_source(point)
        )
        for b in point.bonuses.exclude(kind=ControlPointBonus.Kind.ARMORY_DISCOUNT)
    )


def _start_income(point: ControlPoint, guild_id: int, start) -> IncomePeriod | None:
    if not point.has_income:
        return None
    period = IncomePeriod.objects.create(
        guild_id=guild_id,
        point=point,
        started_at=start,
        due_at=start + timedelta(minutes=point.income_period_minutes),
        fame=point.income_fame,
        feods=point.income_feods,
        blood_stones=point.income_blood_stones,
    )
    _schedule(period)
    return period


@transaction.atomic
def control_point_transfer(
    *, point_id: int, to_guild_id: int | None, reason: str, reference: str = ""
) -> ControlPoint:
    """Give control point ``point_id`` to Guild ``to_guild_id`` (None: the point becomes free),
    in one transaction (6.2: bonuses "immediately applied", income timers "activated"; 6.4.1
    raffle: a standard mission can move a point between Guilds).

    The previous holder loses the point's bonuses (its ``LimitBonus`` rows; mercenaries already
    enlisted stay) and its running income period stops without pay; the new holder gets the
    bonuses, knows the point, and its first income period starts now. Both Guilds get a news
    item saying ``reason`` (e.g. "won in a standard mission"); ``reference`` (``"mission:12"``)
    is stored on them. Transferring to the current holder changes nothing.

    Raises ``NotFound`` ``control_point_not_found`` / ``guild_not_found``.
    """
    point = _lock_point(point_id)
    old = point.holder_id
    guilds = _lock_guilds(old, to_guild_id)
    if to_guild_id is not None and to_guild_id not in guilds:
        raise NotFound("guild_not_found", "No such Guild.")
    if old == to_guild_id:
        return point
    now = timezone.now()
    if old is not None:
        LimitBonus.objects.filter(guild_id=old, source=_bonus_source(point)).delete()
        IncomePeriod.objects.filter(point=point, settled_at__isnull=True).update(
            settled_at=now, stopped=True
        )
        taker = guilds[to_guild_id].name if to_guild_id else "nobody"
        _news(old, f"{point.name} is lost: now held by {taker}.", reason, reference, now)
    point.holder_id = to_guild_id
    point.held_since = now if to_guild_id else None
    point.save(update_fields=["holder", "held_since"])
    if to_guild_id is not None:
        _know(to_guild_id, point.pk, now)
        _apply_bonuses(point, to_guild_id)
        _start_income(point, to_guild_id, now)
        _news(
            to_guild_id,
            f"{point.name} is yours: your ensign flies over it.",
            reason,
            reference,
            now,
        )
    return point


def control_points_for_raffle(*, guild_ids: list[int]) -> list[ControlPoint]:
    """The control points a standard mission between ``guild_ids`` may be fought over (6.4.1
    raffle phase): free ones and those held by one of these Guilds, with ``area``, ``holder``
    and ``bonuses`` loaded, in map order. Reads only."""
    return list(
        ControlPoint.objects.filter(Q(holder__isnull=True) | Q(holder_id__in=guild_ids))
        .select_related("area", "holder")
        .prefetch_related("bonuses")
        .order_by("area__order", "order", "name")
    )


def armory_discount(guild: Guild) -> int:
    """Percent off weapon prices from the control points the Guild holds (0..50)."""
    total = (
        ControlPointBonus.objects.filter(
            point__holder=guild, kind=ControlPointBonus.Kind.ARMORY_DISCOUNT
        ).aggregate(s=Sum("amount"))["s"]
        or 0
    )
    return min(total, 50)


# --- expeditions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """What a party would do, shown before sending: ``minutes`` until the return, ``chance``
    percent of success (100 for an exploration), the point's current holder (or None)."""

    action: str
    minutes: int
    chance: int
    holder: str | None


def _point_state(guild: Guild, point: ControlPoint) -> str:
    """ "unknown", "known" (free or held by another) or "held" (by this Guild)."""
    if point.holder_id == guild.pk:
        return "held"
    if KnownPoint.objects.filter(guild=guild, point=point).exists():
        return "known"
    return "unknown"


def _plan(guild: Guild, point: ControlPoint, levels: list[int]) -> Preview:
    state = _point_state(guild, point)
    if state == "held":
        raise RuleViolation("point_already_held", f"{point.name} is already yours.")
    if state == "unknown":
        minutes = city_rules.duration_minutes(point.explore_minutes, len(levels))
        return Preview(Expedition.Action.EXPLORE, minutes, 100, None)
    defense = None
    holder = None
    holder_guild = point.holder
    if holder_guild is not None:
        holder = holder_guild.name
        defense = rules.DEFENSE_RATING[building_level(holder_guild, "defenses")]
    minutes = city_rules.duration_minutes(point.acquire_minutes, len(levels))
    return Preview(
        Expedition.Action.ACQUIRE,
        minutes,
        city_rules.acquire_chance(point.base_chance, levels, defense),
        holder,
    )


def _party(guild: Guild, mercenary_ids) -> list[Mercenary]:
    if isinstance(mercenary_ids, (str, bytes)) or not hasattr(mercenary_ids, "__iter__"):
        raise RuleViolation("bad_mercenary", "Mercenaries are chosen by id.")
    parsed = [parse_id(i) for i in mercenary_ids]
    city_rules.check_party(len(set(parsed)))
    if None in parsed:
        raise NotFound("mercenary_not_found", "No such mercenary in your Guild.")
    ids = sorted({i for i in parsed if i is not None})
    party = list(
        guild.mercenaries.select_related("card", "hold").filter(pk__in=ids).order_by("pk")
    )
    if len(party) != len(ids):
        raise NotFound("mercenary_not_found", "No such mercenary in your Guild.")
    for m in party:
        require_free(m, "sent to the city")
        if m.status != Mercenary.Status.ACTIVE:
            raise RuleViolation(
                "mercenary_busy"
                if m.is_away
                else "mercenary_injured"
                if m.status == Mercenary.Status.INJURED
                else "mercenary_dead",
                f"{m.card.name} is {m.get_status_display().lower()}: only active mercenaries "
                "in the dormitory can be sent.",
            )
    return party


def _visible_point(guild: Guild, point_id) -> ControlPoint:
    pk = parse_id(point_id)
    point = None
    if pk is not None:
        point = ControlPoint.objects.select_related("holder").filter(pk=pk).first()
    if point is None:
        raise NotFound("control_point_not_found", "No such control point.")
    return point


def expedition_preview(*, guild: Guild, point_id: int, mercenary_ids: list[int]) -> Preview:
    """Duration and chance of sending ``mercenary_ids`` to ``point_id`` now (formulas in
    ``guilds.city_rules``). Same checks as ``expedition_start``; writes nothing."""
    point = _visible_point(guild, point_id)
    party = _party(guild, mercenary_ids)
    return _plan(guild, point, [m.card.level for m in party])


@transaction.atomic
def expedition_start(
    *,
    guild: Guild,
    point_id: int,
    mercenary_ids: list[int],
    rng: random.Random | None = None,
) -> Expedition:
    """Send 1..4 active mercenaries (not injured, dead, exploring or on a mission) to a control
    point (6.2): Explore if the Guild does not know it, Acquire if it does (free or held by
    another Guild). The mercenaries are "exploring" (busy: no second expedition, no mission)
    until the return at ``due_at``; the outcome roll is drawn now with ``rng`` and kept hidden
    in the row. A Celery task settles it at ``due_at`` (after commit).

    Raises ``NotFound`` ``control_point_not_found`` / ``mercenary_not_found``,
    ``OnMission("on_mission")`` (chosen for a running mission, 6.4; names and links it),
    ``RuleViolation`` ``party_empty``, ``party_too_large``, ``mercenary_busy``,
    ``mercenary_injured``, ``mercenary_dead``, ``point_already_held``, ``expedition_under_way``
    (this Guild already has a party at that point).
    """
    guild = lock_guild(guild)
    point = _visible_point(guild, point_id)
    party = _party(guild, mercenary_ids)
    plan = _plan(guild, point, [m.card.level for m in party])
    if Expedition.objects.filter(guild=guild, point=point, settled_at__isnull=True).exists():
        raise RuleViolation(
            "expedition_under_way", f"Your mercenaries are already on their way to {point.name}."
        )
    rng = rng or random.SystemRandom()
    now = timezone.now()
    expedition = Expedition.objects.create(
        guild=guild,
        point=point,
        action=plan.action,
        party_size=len(party),
        chance=plan.chance,
        roll=rng.randint(1, 100),
        consequence_roll=rng.randint(1, 100),
        started_at=now,
        due_at=now + timedelta(minutes=plan.minutes),
    )
    expedition.mercenaries.set(party)
    guild.mercenaries.filter(pk__in=[m.pk for m in party]).update(
        status=Mercenary.Status.EXPLORING,
        status_note=f"{plan.action.title()} {point.name}",
        status_changed_at=now,
    )
    _schedule(expedition)
    return expedition


def _settle_expedition(
    expedition_id: int, skip_locked: bool = False, only_if_due: bool = False
) -> bool:
    """Settle one expedition under its row lock; False if already settled (or, with
    ``skip_locked``, being settled by someone else right now)."""
    with transaction.atomic():
        expedition = (
            Expedition.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=expedition_id)
            .first()
        )
        if expedition is None or expedition.settled_at is not None:
            return False
        now = timezone.now()
        if only_if_due and expedition.due_at > now:
            return False
        if expedition.action == Expedition.Action.EXPLORE:  # changes no control point
            point = ControlPoint.objects.select_related("area").get(pk=expedition.point_id)
            guilds = _lock_guilds(expedition.guild_id)
        else:
            point = _lock_point(expedition.point_id)
            guilds = _lock_guilds(expedition.guild_id, point.holder_id)
        guild = guilds[expedition.guild_id]
        ref = f"expedition:{expedition.pk}"
        party = _party_levels(expedition)
        names = ", ".join(m.card.name for m, _ in party)
        injured: Mercenary | None = None
        if expedition.action == Expedition.Action.EXPLORE:
            if _know(guild.pk, point.pk, now):
                outcome, report = (
                    Expedition.Outcome.EXPLORED,
                    (
                        f"{names} explored {point.name} ({point.area.name}): "
                        f"a {point.get_kind_display().lower()}. It is known now; send a party to "
                        "acquire it."
                    ),
                )
            else:
                outcome, report = Expedition.Outcome.NOTHING, f"{point.name} was already known."
        elif point.holder_id == guild.pk:
            outcome, report = Expedition.Outcome.NOTHING, f"{point.name} was already yours."
        elif city_rules.succeeds(expedition.roll, expedition.chance):
            outcome = Expedition.Outcome.SUCCESS
            report = f"{names} acquired {point.name} (chance {expedition.chance}%)."
            control_point_transfer(
                point_id=point.pk,
                to_guild_id=guild.pk,
                reason=f"Acquired by {guild.name}'s mercenaries.",
                reference=ref,
            )
        else:
            outcome = Expedition.Outcome.FAILURE
            consequence = city_rules.failure_consequence(
                expedition.consequence_roll, [level for _, level in party]
            )
            report = f"{names} failed to acquire {point.name} (chance {expedition.chance}%). "
            if consequence.kind == "injury":
                injured = party[consequence.victim][0]
                report += (
                    f"{injured.card.name} came back injured: heal them at the Dormitory for "
                    f"{consequence.heal_feods} feods. "
                )
            elif consequence.kind == "feods":
                paid = min(consequence.feods, spendable_feods(guild))
                post(guild, "feods", -paid, LedgerEntry.Reason.CITY, f"Failed at {point.name}", ref)
                report += f"Bribes and losses cost {paid} feods. "
            else:
                report += "They were driven off, unharmed. "
            report += "The point stays known: send a party to acquire it again when ready."
        back = Mercenary.objects.filter(
            pk__in=[m.pk for m, _ in party], status=Mercenary.Status.EXPLORING
        )
        if injured is not None:
            back.filter(pk=injured.pk).update(
                status=Mercenary.Status.INJURED,
                heal_feods=consequence.heal_feods,
                status_note=f"Injured at {point.name}",
                status_changed_at=now,
            )
            back = back.exclude(pk=injured.pk)
        back.update(status=Mercenary.Status.ACTIVE, status_note="", status_changed_at=now)
        expedition.outcome = outcome
        expedition.report = report
        expedition.settled_at = now
        expedition.save(update_fields=["outcome", "report", "settled_at"])
        _news(
            guild.pk,
            f"Back from {point.name}: {expedition.get_outcome_display().lower()}",
            report,
            ref,
            now,
        )
        return True


@transaction.atomic
def expedition_cancel(*, expedition_id: int, note: str = "") -> Expedition:
    """Call a party back without an outcome (the admin's "cancel", or before its row is
    deleted): its mercenaries still exploring are active in the dormitory again (never
    "Exploring the city" forever), the point is not explored or acquired, and the row is
    settled with outcome ``cancelled`` so no task or sweeper settles it later. One news item.
    Same lock order as the settlement (expedition row, then Guild). ``note``: why, for the
    report. Raises ``NotFound("expedition_not_found")``, ``RuleViolation("expedition_settled")``.
    """
    pk = parse_id(expedition_id)
    expedition = (
        Expedition.objects.select_for_update().filter(pk=pk).first() if pk is not None else None
    )
    if expedition is None:
        raise NotFound("expedition_not_found", "No such expedition.")
    if expedition.settled_at is not None:
        raise RuleViolation("expedition_settled", "That party is already back.")
    _lock_guilds(expedition.guild_id)
    now = timezone.now()
    party = list(expedition.mercenaries.select_related("card"))
    Mercenary.objects.filter(
        pk__in=[m.pk for m in party], status=Mercenary.Status.EXPLORING
    ).update(status=Mercenary.Status.ACTIVE, status_note="", status_changed_at=now)
    names = ", ".join(m.card.name for m in party) or "The party"
    expedition.outcome = Expedition.Outcome.CANCELLED
    expedition.report = f"{names} called back from {expedition.point.name}. {note}".strip()
    expedition.settled_at = now
    expedition.save(update_fields=["outcome", "report", "settled_at"])
    _news(
        expedition.guild_id,
        f"Called back from {expedition.point.name}",
        expedition.report,
        f"expedition:{expedition.pk}",
        now,
    )
    return expedition


def expedition_settle(*, expedition_id: int, only_if_due: bool = False) -> Expedition:
    """Bring a party back (6.2): an exploration makes the point known; an acquisition succeeds
    when its roll is at most its chance (``control_point_transfer`` to the Guild) or fails with
    ``city_rules.failure_consequence``. The mercenaries are active again (or injured). One news
    item. Idempotent: the row lock and ``settled_at`` make a second call a no-op, whoever calls
    (the ETA task, the sweeper, the page when its countdown ends, the admin). Settles even
    before ``due_at`` (the admin's "settle now") unless ``only_if_due`` (the tasks: an ETA
    message delivered early or meant for another database does nothing). Raises ``NotFound``.
    """
    _settle_expedition(expedition_id, only_if_due=only_if_due)
    expedition = Expedition.objects.filter(pk=expedition_id).first()
    if expedition is None:
        raise NotFound("expedition_not_found", "No such expedition.")
    return expedition


# --- income ----------------------------------------------------------------------------------------


def _settle_income(period_id: int, skip_locked: bool = False, only_if_due: bool = False) -> bool:
    with transaction.atomic():
        found = IncomePeriod.objects.filter(pk=period_id, settled_at__isnull=True).first()
        if found is None or (only_if_due and found.due_at > timezone.now()):
            return False
        point = _lock_point(found.point_id)
        guilds = _lock_guilds(found.guild_id)
        period = (
            IncomePeriod.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=period_id)
            .first()
        )
        if period is None or period.settled_at is not None:
            return False
        now = timezone.now()
        period.settled_at = now
        period.save(update_fields=["settled_at"])
        if point.holder_id != period.guild_id:  # lost without the period being stopped
            period.stopped = True
            period.save(update_fields=["stopped"])
            return True
        guild = guilds[period.guild_id]
        ref = f"income:{period.pk}"
        note = f"Income of {point.name}"
        paid = []
        for currency in rules.CURRENCIES:
            amount = getattr(period, currency)
            if amount:
                post(guild, currency, amount, LedgerEntry.Reason.CITY, note, ref)
                paid.append(f"{amount} {currency.replace('_', ' ')}")
        _news(guild.pk, f"{point.name} paid {', '.join(paid) or 'nothing'}.", "", ref, now)
        # The next period starts when this one was due, so a late settlement never shifts the
        # rhythm (an overdue chain catches up one period per sweep).
        _start_income(point, guild.pk, period.due_at)
        return True


def income_settle(*, period_id: int, only_if_due: bool = False) -> IncomePeriod:
    """Pay one income period of a held control point into the ledger (reason "city",
    reference ``income:<id>``) and start the next one (6.2). Idempotent like
    ``expedition_settle``; a period of a point lost meanwhile pays nothing. Raises
    ``NotFound``. ``only_if_due``: as in ``expedition_settle``."""
    _settle_income(period_id, only_if_due=only_if_due)
    period = IncomePeriod.objects.filter(pk=period_id).first()
    if period is None:
        raise NotFound("income_not_found", "No such income period.")
    return period


# --- random events ------------------------------------------------------------------------------------


def _apply_option(event: GuildEvent, option: CityEventOption, guild: Guild, now) -> str:
    ref = f"event:{event.pk}"
    where = event.point.name if event.point_id and event.point else "your point"
    told = [option.outcome.replace("{point}", where)] if option.outcome else []
    for currency in rules.CURRENCIES:
        amount = getattr(option, currency)
        if amount < 0 and currency != "fame":
            have = spendable_feods(guild) if currency == "feods" else getattr(guild, currency)
            amount = -min(-amount, have)
        if amount:
            post(guild, currency, amount, LedgerEntry.Reason.EVENT, event.title, ref)
            told.append(f"{amount:+d} {currency.replace('_', ' ')}")
    if option.injure_mercenary:
        victim = (
            guild.mercenaries.filter(status=Mercenary.Status.ACTIVE)
            .select_related("card")
            .order_by("pk")
            .first()
        )
        if victim is not None:
            heal = city_rules.HEAL_FEODS_PER_LEVEL * victim.card.level
            victim.status = Mercenary.Status.INJURED
            victim.heal_feods = heal
            victim.status_note = event.title
            victim.status_changed_at = now
            victim.save(update_fields=["status", "heal_feods", "status_note", "status_changed_at"])
            told.append(f"{victim.card.name} injured (healing {heal} feods)")
    if option.lose_point and event.point_id is not None:
        point = ControlPoint.objects.filter(pk=event.point_id).first()
        if point is not None and point.holder_id == guild.pk:
            control_point_transfer(
                point_id=point.pk, to_guild_id=None, reason=event.title, reference=ref
            )
            told.append(f"{point.name} lost")
    return "; ".join(told)


def _settle_event(
    event_id: int, option_id: int | None, skip_locked: bool = False, only_if_due: bool = False
) -> bool:
    with transaction.atomic():
        event = (
            GuildEvent.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=event_id)
            .first()
        )
        if event is None or event.settled_at is not None:
            return False
        if only_if_due and event.due_at > timezone.now():
            return False
        if event.point_id is not None:
            _lock_point(event.point_id)
        guild = _lock_guilds(event.guild_id)[event.guild_id]
        options = event.event.options.all()
        if option_id is None:
            option = options.filter(is_default=True).first() or options.first()
        else:
            option = options.filter(pk=option_id).first()
            if option is None:
                raise RuleViolation("bad_option", "That is not an answer to this event.")
        now = timezone.now()
        outcome = _apply_option(event, option, guild, now) if option else ""
        event.chosen = option
        event.answered_by_default = option_id is None
        event.outcome = outcome
        event.settled_at = now
        event.save(update_fields=["chosen", "answered_by_default", "outcome", "settled_at"])
        how = "No answer in time" if option_id is None else "You answered"
        label = option.label if option else "nothing"
        _news(guild.pk, f"{event.title}: {how} ({label}).", outcome, f"event:{event.pk}", now)
        return True


@transaction.atomic
def city_event_answer(*, guild: Guild, event_id: object, option_id: object) -> GuildEvent:
    """Answer an event that concerns the Guild (6.2 "Random events": "the player has to
    interact") with one of its options, before its deadline.

    Raises ``NotFound("event_not_found")`` (also another Guild's), ``RuleViolation``
    ``event_closed`` (already answered, or the deadline passed: the default applies),
    ``bad_option``.
    """
    pk = parse_id(event_id)
    found = GuildEvent.objects.filter(pk=pk, guild=guild).first() if pk is not None else None
    if found is None:
        raise NotFound("event_not_found", "No such event for your Guild.")
    if found.settled_at is not None or found.due_at <= timezone.now():
        raise RuleViolation("event_closed", "This event is over: see what came of it.")
    chosen = parse_id(option_id)
    if chosen is None:
        raise RuleViolation("bad_option", "Choose one of the answers.")
    if not _settle_event(found.pk, chosen):
        raise RuleViolation("event_closed", "This event is over: see what came of it.")
    return GuildEvent.objects.get(pk=found.pk)


def city_event_settle(*, event_id: int, only_if_due: bool = False) -> GuildEvent:
    """At the deadline of an unanswered event, apply its default option (or its first one).
    Idempotent like ``expedition_settle``; ``only_if_due`` too. Raises ``NotFound``."""
    _settle_event(event_id, None, only_if_due=only_if_due)
    event = GuildEvent.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFound("event_not_found", "No such event.")
    return event


@transaction.atomic
def city_event_post(*, guild_id: int, event_id: int, point_id: int | None = None) -> GuildEvent:
    """Post ``CityEvent`` ``event_id`` to a Guild (6.2 "Random events"). News (no options) is
    told and settled at once; an event with options waits for an answer until
    ``answer_minutes`` from now, then its default applies (a timer). ``point_id``: the held
    control point it concerns (``{point}`` in the text). Raises ``NotFound``."""
    guild = lock_guild(guild_id)
    event = CityEvent.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFound("event_not_found", "No such event.")
    point = ControlPoint.objects.filter(pk=point_id).first() if point_id else None
    now = timezone.now()
    has_options = event.options.exists()
    text = event.text.replace("{point}", point.name if point else "a point of yours")
    posted = GuildEvent.objects.create(
        guild=guild,
        event=event,
        point=point,
        title=event.title,
        text=text,
        posted_at=now,
        due_at=now + timedelta(minutes=event.answer_minutes) if has_options else now,
        settled_at=None if has_options else now,
    )
    headline = f"{event.title}: answer by the deadline." if has_options else event.title
    _news(guild.pk, headline, text, f"event:{posted.pk}", now)
    if has_options:
        _schedule(posted)
    return posted


def city_events_post(
    *, rng: random.Random | None = None, chance: float = city_rules.EVENT_CHANCE_PER_RUN
) -> int:
    """The periodic task of random events: for each Guild, with probability ``chance``, post one
    active ``CityEvent`` drawn by weight among those that fit it (a ``control_point`` event only
    for a Guild holding a point, about one of them). Returns how many were posted."""
    rng = rng or random.Random()
    events = list(CityEvent.objects.filter(is_active=True))
    if not events:
        return 0
    posted = 0
    for guild_id in Guild.objects.order_by("pk").values_list("pk", flat=True):
        if rng.random() >= chance:
            continue
        held = list(ControlPoint.objects.filter(holder_id=guild_id).values_list("pk", flat=True))
        fitting = [e for e in events if e.scope != CityEvent.Scope.CONTROL_POINT or held]
        weights = [max(e.weight, 1) for e in fitting]
        event = rng.choices(fitting, weights)[0]
        point_id = rng.choice(held) if event.scope == CityEvent.Scope.CONTROL_POINT else None
        city_event_post(guild_id=guild_id, event_id=event.pk, point_id=point_id)
        posted += 1
    return posted


# --- settling in chunks, the sweeper -----------------------------------------------------------------

SETTLERS: dict[type[Expedition] | type[IncomePeriod] | type[GuildEvent], Callable[[int], bool]] = {
    Expedition: lambda pk: _settle_expedition(pk, skip_locked=True),
    IncomePeriod: lambda pk: _settle_income(pk, skip_locked=True),
    GuildEvent: lambda pk: _settle_event(pk, None, skip_locked=True),
}
SETTLE_CHUNK = 200
SETTLE_BUDGET = 20.0  # seconds one task spends settling before it leaves the rest to others


def _explorations_settle(explorations: list[Expedition], now) -> None:
    """Settle locked, due explorations together, with the same outcome, report, news and
    mercenary states as ``_settle_expedition`` (whose rules this mirrors), in a fixed number of
    queries. The caller holds the expedition rows and their Guilds' locks."""
    ids = [e.pk for e in explorations]
    through = Expedition.mercenaries.through
    party: dict[int, list[Mercenary]] = defaultdict(list)
    for link in (
        through.objects.filter(expedition_id__in=ids)
        .select_related("mercenary__card")
        .order_by("mercenary_id")
    ):
        party[link.expedition_id].append(link.mercenary)
    points = ControlPoint.objects.select_related("area").in_bulk({e.point_id for e in explorations})
    # The known points of these Guilds among these points (at most Guilds x map size rows).
    known = set(
        KnownPoint.objects.filter(
            guild_id__in={e.guild_id for e in explorations}, point_id__in=points.keys()
        ).values_list("guild_id", "point_id")
    )
    new_known, news = [], []
    for e in explorations:
        point = points[e.point_id]
        if (e.guild_id, e.point_id) in known:
            e.outcome, e.report = Expedition.Outcome.NOTHING, f"{point.name} was already known."
        else:
            known.add((e.guild_id, e.point_id))
            new_known.append(KnownPoint(guild_id=e.guild_id, point_id=point.pk, known_at=now))
            names = ", ".join(m.card.name for m in party[e.pk])
            e.outcome = Expedition.Outcome.EXPLORED
            e.report = (
                f"{names} explored {point.name} ({point.area.name}): "
                f"a {point.get_kind_display().lower()}. It is known now; send a party to "
                "acquire it."
            )
        e.settled_at = now
        news.append(
            CityNews(
                guild_id=e.guild_id,
                created_at=now,
                headline=f"Back from {point.name}: {e.get_outcome_display().lower()}"[:200],
                body=e.report,
                reference=f"expedition:{e.pk}",
            )
        )
    KnownPoint.objects.bulk_create(new_known)
    Mercenary.objects.filter(
        pk__in=[m.pk for e in explorations for m in party[e.pk]],
        status=Mercenary.Status.EXPLORING,
    ).update(status=Mercenary.Status.ACTIVE, status_note="", status_changed_at=now)
    # One statement run for many rows (psycopg pipelines it); bulk_update's CASE expression
    # cost more CPU than the rest of the settlement.
    meta = Expedition._meta
    fields = {f.name: f for f in meta.concrete_fields}
    column = {f: fields[f].column for f in ("outcome", "report", "settled_at", "id")}
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {meta.db_table} SET {column['outcome']} = %s, {column['report']} = %s, "
            f"{column['settled_at']} = %s WHERE {column['id']} = %s",
            [(e.outcome, e.report, e.settled_at, e.pk) for e in explorations],
        )
    CityNews.objects.bulk_create(news)


def _settle_expedition_chunk(limit: int = SETTLE_CHUNK) -> tuple[int, int]:
    """Claim up to ``limit`` due, unsettled expeditions (oldest first; rows another settler
    holds are skipped, ``SELECT ... FOR UPDATE SKIP LOCKED``) and settle them in one
    transaction: explorations together (``_explorations_settle``), acquisitions one by one in
    a savepoint each (a failing one is logged and left for later). Lock order as everywhere:
    the timer rows, then the control points, then the Guilds, each by id.

    Returns ``(claimed, settled)``; ``claimed`` 0 means nothing due is left unclaimed. If the
    chunk fails as a whole, it is rolled back and its rows are settled one by one instead."""
    claimed: list[int] = []
    try:
        with transaction.atomic():
            now = timezone.now()
            rows = list(
                Expedition.objects.select_for_update(skip_locked=True)
                .filter(settled_at__isnull=True, due_at__lte=now)
                .order_by("due_at", "pk")[:limit]
            )
            claimed = [e.pk for e in rows]
            if not rows:
                return 0, 0
            acquisitions = [e for e in rows if e.action == Expedition.Action.ACQUIRE]
            holders = set()
            if acquisitions:
                holders = set(
                    ControlPoint.objects.select_for_update(of=("self",))
                    .filter(pk__in={e.point_id for e in acquisitions})
                    .order_by("pk")
                    .values_list("holder_id", flat=True)
                )
            _lock_guilds(*{e.guild_id for e in rows}, *holders)
            explorations = [e for e in rows if e.action == Expedition.Action.EXPLORE]
            settled = len(explorations)
            if explorations:
                _explorations_settle(explorations, now)
            for e in acquisitions:
                try:
                    settled += _settle_expedition(e.pk)  # a savepoint; we hold its locks
                except Exception:  # noqa: BLE001 - one bad row must not stop the others
                    log.exception("Settling expedition %s failed; retrying later.", e.pk)
            return len(rows), settled
    except Exception:  # noqa: BLE001 - e.g. a deadlock with a mission: row by row instead
        log.exception("Settling expeditions %s together failed; one by one now.", claimed)
        settled = 0
        for pk in claimed:
            try:
                settled += bool(_settle_expedition(pk, skip_locked=True, only_if_due=True))
            except Exception:  # noqa: BLE001
                log.exception("Settling expedition %s failed; retrying later.", pk)
        return len(claimed), settled


def _settle_due_rows(model, limit: int) -> int:
    """Settle up to ``limit`` due rows of ``model`` one by one (income periods and events:
    few, and each touches the ledger), oldest first; a failing row is logged and left."""
    due = list(
        model.objects.filter(settled_at__isnull=True, due_at__lte=timezone.now())
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )
    done = 0
    for pk in due:
        try:
            done += bool(SETTLERS[model](pk))
        except Exception:  # noqa: BLE001 - one bad row must not stop the others
            log.exception("Settling %s %s failed; retrying next sweep.", model.__name__, pk)
    return done


def city_timers_settle_due(*, budget: float = SETTLE_BUDGET) -> dict[str, int]:
    """Settle every timer due now: expeditions in chunks of ``SETTLE_CHUNK``
    (``_settle_expedition_chunk``), until none is left unclaimed or ``budget`` seconds have
    passed (the sweeper and the next tasks take the rest); then due income periods and
    events, up to ``SWEEP_BATCH`` each. Several workers may run it at once: each claims other
    rows. Returns ``{"Expedition": settled, "IncomePeriod": ..., "GuildEvent": ...}``."""
    started = time.monotonic()
    settled = 0
    while True:
        claimed, done = _settle_expedition_chunk()
        settled += done
        if claimed < SETTLE_CHUNK or time.monotonic() - started > budget:
            break
    return {
        "Expedition": settled,
        "IncomePeriod": _settle_due_rows(IncomePeriod, SWEEP_BATCH),
        "GuildEvent": _settle_due_rows(GuildEvent, SWEEP_BATCH),
    }


def _send_all_due(moments: list[datetime], force: bool) -> None:
    """``_send_due`` for each moment (after the commit that marked their timers sent)."""
    for moment in moments:
        _send_due(moment, force=force)


def _schedule_upcoming(now, limit: int, force: bool = False) -> int:
    """Send the settlement tasks of open timers due by ``now + ETA_HORIZON`` that have none
    yet (one per ``ETA_BUCKET`` they fall in). Returns how many timers were covered."""
    scheduled = 0
    for model in SETTLERS:
        soon = list(
            model.objects.filter(
                settled_at__isnull=True, eta_sent_at__isnull=True, due_at__lte=now + ETA_HORIZON
            )
            .order_by("due_at")
            .values_list("pk", "due_at")[:limit]
        )
        if soon:
            model.objects.filter(pk__in=[pk for pk, _ in soon]).update(eta_sent_at=now)
            moments = sorted({_bucket(max(due_at, now)) for _, due_at in soon})
            transaction.on_commit(functools.partial(_send_all_due, moments, force))
            scheduled += len(soon)
    return scheduled


def city_timers_sweep(*, limit: int = SWEEP_BATCH, rearm: bool = False) -> dict[str, int]:
    """The beat sweeper (docs/architecture.md): hand the broker the settlement tasks of timers due within
    ``ETA_HORIZON`` that have none yet (one task per ``ETA_BUCKET`` of deadlines), after
    settling every overdue timer itself (``city_timers_settle_due``, 4 s at most; rows another
    settler holds are skipped: they are being settled). A failing row is logged and left for
    the next run.

    ``rearm``: first forget which tasks were sent, so all of them are sent again. A worker that
    starts does this: the ETA messages a killed worker had taken stay invisible in Redis until
    the visibility timeout, and a duplicate costs only a task that finds nothing due.

    Returns ``{"Expedition": settled, "IncomePeriod": ..., "GuildEvent": ..., "scheduled": n}``.
    """
    now = timezone.now()
    if rearm:
        for model in SETTLERS:
            model.objects.filter(settled_at__isnull=True, due_at__lte=now + ETA_HORIZON).update(
                eta_sent_at=None
            )
    counts = city_timers_settle_due(budget=4.0)  # the backlog first (a restarted worker)
    counts["scheduled"] = _schedule_upcoming(now, 10**6 if rearm else limit, force=rearm)
    return counts


def city_overdue_settle(*, guild: Guild) -> int:
    """Settle the Guild's overdue timers now (the page calls it when a countdown ends, so the
    result shows even with no worker running). Each timer in its own transaction; idempotent.
    Returns how many it settled."""
    now = timezone.now()
    done = 0
    for model, settle in SETTLERS.items():
        for pk in model.objects.filter(
            guild=guild, settled_at__isnull=True, due_at__lte=now
        ).values_list("pk", flat=True):
            done += bool(settle(pk))
    return done


@transaction.atomic
def city_news_seen(*, guild: Guild) -> int:
    """Mark the Guild's digest and returned expeditions as read (clears the badge)."""
    now = timezone.now()
    n = CityNews.objects.filter(guild=guild, seen_at__isnull=True).update(seen_at=now)
    Expedition.objects.filter(guild=guild, settled_at__isnull=False, seen_at__isnull=True).update(
        seen_at=now
    )
    return n

"""Expeditions: exploring and conquering a control point with a party of mercenaries
(DemLoc rulebook 6.2 "Exploring and conquering the City of DemLoc"): preview, start, cancel,
settle."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tabletop.errors import NotFound, RuleViolation
from tabletop.rules import counted

from ... import city_rules, rules
from ...ids import parse_id
from ...models import (
    ControlPoint,
    Expedition,
    Guild,
    KnownPoint,
    LedgerEntry,
    Mercenary,
)
from .._common import building_level, lock_guild, post
from ..holds import require_at_home, require_free
from ..reserves import spendable_feods
from .common import _know, _lock_guilds, _lock_point, _news, _party_levels
from .eta import _schedule
from .points import control_point_transfer


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
    party = list(guild.mercenaries.select_related("card", "hold").filter(pk__in=ids).order_by("pk"))
    if len(party) != len(ids):
        raise NotFound("mercenary_not_found", "No such mercenary in your Guild.")
    for m in party:
        require_free(m, "sent to the city")
    require_at_home(guild, "sent to the city")
    for m in party:
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
    ``OnMission("on_mission")`` (chosen for a running mission, or the Guild at a mission table
    not closed yet, 6.4; names and links it),
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
                    f"{counted(consequence.heal_feods, 'feod')}. "
                )
            elif consequence.kind == "feods":
                paid = min(consequence.feods, spendable_feods(guild))
                post(guild, "feods", -paid, LedgerEntry.Reason.CITY, f"Failed at {point.name}", ref)
                report += f"Bribes and losses cost {counted(paid, 'feod')}. "
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

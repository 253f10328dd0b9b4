"""Random events of the city (DemLoc rulebook 6.2 "Random events"): posted to a Guild, answered
with one of their options or settled by default at their deadline."""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tabletop.errors import NotFound, RuleViolation
from tabletop.rules import counted

from ... import city_rules, rules
from ...ids import parse_id
from ...models import (
    CityEvent,
    CityEventOption,
    ControlPoint,
    Guild,
    GuildEvent,
    LedgerEntry,
    Mercenary,
)
from .._common import lock_guild, post
from ..reserves import spendable_feods
from .common import _lock_guilds, _lock_point, _news
from .eta import _schedule
from .points import control_point_transfer


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
            told.append(f"{victim.card.name} injured (healing {counted(heal, 'feod')})")
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

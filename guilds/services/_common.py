"""Helpers shared by the guild services: locking, the ledger, the Guild's card database.

Every service locks the Guild row first (``select_for_update``), so all writes to one Guild are
serialized: two devices buying at once see each other's feods (docs/architecture.md "Guilds and timers").
"""

from __future__ import annotations

from django.db.models import Sum

from tabletop.errors import NotFound, RuleViolation

from .. import rules
from ..ids import parse_id
from ..models import Building, Card, ControlPoint, Guild, LedgerEntry, LimitBonus, SetCard
from .reserves import require_spendable

CURRENCY_LABELS = {"fame": "fame", "feods": "feods", "blood_stones": "blood stones"}


def lock_guild(guild: Guild | int) -> Guild:
    """The Guild row, locked until the end of the transaction. ``NotFound`` if it is gone."""
    pk = guild.pk if isinstance(guild, Guild) else parse_id(guild)
    locked = Guild.objects.select_for_update().filter(pk=pk).first() if pk is not None else None
    if locked is None:
        raise NotFound("guild_not_found", "No such Guild.")
    return locked


def require_balances(guild: Guild, **costs: int) -> None:
    """Check ``guild`` (locked) can pay ``costs`` (currency -> whole amount >= 0).

    Raises ``RuleViolation("not_enough_<currency>")`` before anything is written.
    """
    for currency, cost in costs.items():
        have = getattr(guild, currency)
        if cost > 0 and have < cost:
            raise RuleViolation(
                "not_enough_feods" if currency == "feods" else "not_enough_blood_stones",
                f"This costs {cost} {CURRENCY_LABELS[currency]}; your Guild has {have}.",
            )


def post(
    guild: Guild, currency: str, amount: int, reason: str, note: str = "", reference: str = ""
) -> None:
    """Write one ledger row and the Guild's cached balance. ``guild`` must be locked by the
    caller; a zero ``amount`` writes nothing. ``reference``: what caused it, as
    ``"<kind>:<id>"`` (e.g. ``"mission:12"``, ``"expedition:7"``), so a row points to its cause. Raises ``RuleViolation("not_enough_<currency>")``
    if feods or blood stones would drop below 0 (fame may go negative: a Guild can be infamous),
    and ``OnMission("feods_reserved")`` (``reserves.require_spendable``) if feods spent for any
    reason but a mission's own result would eat into what a running mission will charge (6.4).
    """
    if amount == 0:
        return
    if currency not in rules.CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}")  # callers pass rules.CURRENCIES only
    if currency == "feods" and amount < 0 and reason != LedgerEntry.Reason.MISSION:
        require_spendable(guild, -amount)
    after = getattr(guild, currency) + amount
    if after < 0 and currency != "fame":
        require_balances(guild, **{currency: -amount})
    setattr(guild, currency, after)
    guild.save(update_fields=[currency])
    LedgerEntry.objects.create(
        guild=guild,
        currency=currency,
        amount=amount,
        balance_after=after,
        reason=reason,
        note=note,
        reference=reference,
    )


def database_copies(guild: Guild, card: Card) -> int:
    """Copies of ``card`` in the Guild's card database: the sum, over every set code the Guild
    redeemed, of the copies of the card in that set (6.2 item 1). Two codes of one set: twice."""
    total = SetCard.objects.filter(card=card, card_set__codes__redeemed_by=guild).aggregate(
        n=Sum("quantity")
    )["n"]
    return total or 0


def require_copy(guild: Guild, card: Card, used: int) -> None:
    """Check the database still has a copy of ``card`` not yet ``used`` (6.2 item 2, 6.3: the
    app matches the cards in the Guild box). Raises ``RuleViolation("not_in_database")`` or
    ``RuleViolation("no_copy_left")``."""
    copies = database_copies(guild, card)
    if copies == 0:
        raise RuleViolation(
            "not_in_database",
            f"{card.name} is not in your database: redeem the code of its set at the City Gate.",
        )
    if used >= copies:
        said = (f"Your only copy of {card.name} is" if copies == 1
                else f"All your {copies} copies of {card.name} are")
        raise RuleViolation("no_copy_left", f"{said} already in use.")


def building_level(guild: Guild, kind: str) -> int:
    """Level of the Guild's ``kind`` building (1 if the row is missing)."""
    building = Building.objects.filter(guild=guild, kind=kind).first()
    return building.level if building else 1


def home_areas_of(guild: Guild) -> list[str]:
    """The names of the Guild's home areas: where it holds control points (5.1.1;
    ``rules.home_areas``)."""
    held = ControlPoint.objects.filter(holder=guild).values_list("area__name", flat=True)
    counts: dict[str, int] = {}
    for name in held:
        counts[name] = counts.get(name, 0) + 1
    return rules.home_areas(counts)


def limits_of(guild: Guild) -> rules.DormitoryLimits:
    """The Guild's dormitory limits: building level, plus city bonuses (5.1.1, control
    points' ``LimitBonus`` rows), plus its home areas (``rules.home_area_bonuses``)."""
    bonuses = [
        rules.LimitBonus(kind=b.kind, key=b.key, amount=b.amount)
        for b in LimitBonus.objects.filter(guild=guild)
    ]
    bonuses += rules.home_area_bonuses(home_areas_of(guild))
    return rules.dormitory_limits(building_level(guild, "dormitory"), bonuses)


def get_card[C: Card](model: type[C], card_id: object) -> C:
    """A catalog card of ``model`` by id, or ``NotFound("card_not_found")`` (also for an id
    that is no number or out of range, ``guilds.ids.parse_id``)."""
    pk = parse_id(card_id)
    card = model.objects.filter(pk=pk).first() if pk is not None else None
    if card is None:
        raise NotFound("card_not_found", "No such card.")
    return card


def get_owned(queryset, pk, code: str):
    """A row of one Guild by id, locked, or ``NotFound(code)`` (``"<what>_not_found"``; never
    says it belongs to another). ``pk``: anything (``guilds.ids.parse_id``): not an id in
    range is ``NotFound`` too."""
    number = parse_id(pk)
    row = None
    if number is not None:
        row = queryset.order_by().select_for_update(of=("self",)).filter(pk=number).first()
    if row is None:
        what = code.removesuffix("_not_found").replace("_", " ")
        raise NotFound(code, f"No such {what} in your Guild.")
    return row

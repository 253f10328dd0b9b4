"""Founding a Guild and changing its balances (DemLoc rulebook 6.2 first access, 3)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum

from tabletop.errors import RuleViolation
from tabletop.names import clean_name, first_clash

from .. import rules
from ..models import AccountCode, Building, Guild, GuildColour, LedgerEntry, SetCode
from ._common import lock_guild, post, require_balances


def clean_guild_name(name) -> str:
    """``name`` cleaned as every name is (``tabletop.names.clean_name``: NFKC, no invisible
    characters, single spaces) with 2..60 characters (``rules.GUILD_NAME_MAX``, the seat name
    limit: the name is the Guild's seat at a table). Raises ``RuleViolation("bad_name")``."""
    name = clean_name(name, what="your Guild", limit=rules.GUILD_NAME_MAX)
    if not rules.GUILD_NAME_MIN <= len(name) <= rules.GUILD_NAME_MAX:
        raise RuleViolation(
            "bad_name",
            f"A Guild name has {rules.GUILD_NAME_MIN} to {rules.GUILD_NAME_MAX} characters "
            f"(yours: {len(name)}).",
        )
    return name


def _refuse_look_alike(name: str, exclude_id: int | None) -> None:
    # Every Guild's name is compared (tabletop.names.first_clash: the skeleton, then
    # character by character): a look-alike would be a second seat nobody can tell apart.
    others = Guild.objects.all()
    if exclude_id is not None:
        others = others.exclude(pk=exclude_id)
    taken = first_clash(name, others.values_list("name", flat=True).iterator())
    if taken is not None:
        raise RuleViolation(
            "name_taken",
            f"Another Guild already has that name, or one that looks like it ({taken}).",
        )


def guild_name_check(name: str, *, exclude_id: int | None = None) -> str:
    """The cleaned Guild name (``clean_guild_name``) if it may be used: not another Guild's
    nor one that looks like it (``tabletop.names.names_clash``: case, accents, apostrophes,
    dashes, look-alike letters). Reads only (the admin form validates with it;
    ``guild_update`` writes). Raises ``RuleViolation`` ``bad_name`` / ``name_taken``."""
    name = clean_guild_name(name)
    _refuse_look_alike(name, exclude_id)
    return name


@transaction.atomic
def guild_create(*, master: User, account_code: str, name: str, colour: str) -> Guild:
    """Found a Guild with the code of a player account card (6.2: "use your code card to create
    your first Guild"); one Guild per account.

    ``name``: cleaned and checked by ``guild_name_check`` (2..60 characters, no look-alike of
    another Guild's); ``colour``: a ``GuildColour`` (the
    sub-bases of the miniatures). The Guild starts with ``rules.STARTING_BALANCES`` (one ledger
    row each, reason "founded") and every building at level 1.

    Raises ``RuleViolation`` ``guild_exists``, ``code_unknown``, ``code_used``, ``bad_name``,
    ``name_taken``, ``bad_colour``.
    """
    if Guild.objects.filter(master=master).exists():
        raise RuleViolation("guild_exists", "You already lead a Guild.")
    name = clean_guild_name(name)
    if colour not in GuildColour.values:
        raise RuleViolation("bad_colour", "Choose red, blue, yellow or green.")
    code = (
        AccountCode.objects.select_for_update()
        .filter(code=rules.normalize_code(account_code))
        .first()
    )
    if code is None:
        if SetCode.objects.filter(code=rules.normalize_code(account_code)).exists():
            raise RuleViolation(
                "code_unknown",
                "That is a set code: found the Guild with an account-card code, then redeem "
                "set codes at the City Gate.",
            )
        raise RuleViolation("code_unknown", "That account code does not exist. Check the card.")
    if Guild.objects.filter(account_code=code).exists():
        raise RuleViolation("code_used", "That account code has already founded a Guild.")
    _refuse_look_alike(name, None)
    try:
        with transaction.atomic():
            guild = Guild.objects.create(master=master, account_code=code, name=name, colour=colour)
    except IntegrityError:
        # Lost a race with a second tap of the same master, or a Guild of the same name.
        raise RuleViolation("name_taken", "That Guild already exists. Reload the page.") from None
    Building.objects.bulk_create(Building(guild=guild, kind=k) for k in rules.BUILDING_KINDS)
    for currency, amount in rules.STARTING_BALANCES.items():
        post(guild, currency, amount, LedgerEntry.Reason.FOUNDED, "Starting purse")
    return guild


@transaction.atomic
def guild_update(*, guild: Guild, name: str | None = None, colour: str | None = None) -> Guild:
    """Rename a Guild or change its colour (the Master in the app, the admin's change form, the
    API): same checks as ``guild_create``. A running mission keeps the name it was brought
    with (its snapshot, 6.4.1). Raises ``RuleViolation`` ``bad_name``, ``name_taken``,
    ``bad_colour``; ``NotFound("guild_not_found")``."""
    guild = lock_guild(guild)
    if name is not None:
        name = guild_name_check(name, exclude_id=guild.pk)
    if colour is not None and colour not in GuildColour.values:
        raise RuleViolation("bad_colour", "Choose red, blue, yellow or green.")
    if name is not None:
        guild.name = name
    if colour is not None:
        guild.colour = colour
    guild.save(update_fields=["name", "colour"])
    return guild


@transaction.atomic
def guild_tour_seen(*, guild: Guild) -> Guild:
    """The Master finished or skipped the first-access tour (6.2): it is not shown again by
    itself (the office's Tour link still opens it). Idempotent. Raises
    ``NotFound("guild_not_found")``."""
    guild = lock_guild(guild)
    if not guild.tour_seen:
        guild.tour_seen = True
        guild.save(update_fields=["tour_seen"])
    return guild


@transaction.atomic
def guild_balance_change(
    *,
    guild_id: int,
    reason: str,
    note: str = "",
    fame: int = 0,
    feods: int = 0,
    blood_stones: int = 0,
    reference: str = "",
) -> Guild:
    """Add (or, negative, take) fame, feods and blood stones, one ledger row per currency.
    ``reference``: the cause as ``"<kind>:<id>"`` (``"mission:12"``), stored on each row.

    For the missions and city issues (mission rewards, income, random events) and the admin.
    ``reason``: a ``LedgerEntry.Reason``. All or nothing: raises ``RuleViolation``
    ``not_enough_feods`` / ``not_enough_blood_stones`` before writing if a balance would drop
    below 0, ``bad_reason`` for an unknown reason; ``NotFound`` for an unknown Guild.
    """
    if reason not in LedgerEntry.Reason.values:
        raise RuleViolation("bad_reason", f"Unknown ledger reason {reason!r}.")
    guild = lock_guild(guild_id)
    require_balances(guild, feods=-feods, blood_stones=-blood_stones)
    for currency, amount in (("fame", fame), ("feods", feods), ("blood_stones", blood_stones)):
        post(guild, currency, amount, reason, note, reference)
    return guild


def guild_ledger_audit(*, guild: Guild) -> dict[str, tuple[int, int]]:
    """For each currency, ``(cached balance, sum of ledger rows)``; equal unless someone wrote
    the balance columns behind the services' back."""
    guild.refresh_from_db()
    out = {}
    for currency in rules.CURRENCIES:
        total = guild.ledger.filter(currency=currency).aggregate(s=Sum("amount"))["s"] or 0
        out[currency] = (getattr(guild, currency), total)
    return out

"""The Guesthouse: permanently enlisted followers (DemLoc rulebook 5.1.2)."""

from __future__ import annotations

from django.db import transaction

from tabletop.errors import RuleViolation
from tabletop.rules import counted

from .. import rules
from ..models import FollowerCard, GuestFollower, Guild, LedgerEntry
from ._common import building_level, get_card, get_owned, lock_guild, post, require_copy


@transaction.atomic
def follower_enlist(*, guild: Guild, card_id: int) -> GuestFollower:
    """Enlist a follower of the database permanently (5.1.2: then "available for each mission
    without paying the cost in feods"), paying its one-off ``permanent_feods``.

    Raises ``NotFound("card_not_found")``, ``RuleViolation`` ``not_permanent`` (the card cannot
    be enlisted permanently), ``not_in_database``, ``no_copy_left``, ``guesthouse_full``
    (``rules.GUESTHOUSE_CAPACITY``), ``not_enough_feods``.
    """
    guild = lock_guild(guild)
    card = get_card(FollowerCard, card_id)
    if not card.can_enlist_permanently:
        raise RuleViolation("not_permanent", f"{card.name} only joins for one mission at a time.")
    require_copy(guild, card, guild.guests.filter(card=card).count())
    capacity = rules.GUESTHOUSE_CAPACITY[building_level(guild, "guesthouse")]
    if guild.guests.count() >= capacity:
        raise RuleViolation(
            "guesthouse_full", f"The guesthouse lodges {counted(capacity, 'follower')}. Upgrade it first."
        )
    post(guild, "feods", -card.permanent_feods, LedgerEntry.Reason.FOLLOWER_ENLISTED, card.name)
    return GuestFollower.objects.create(guild=guild, card=card, price_paid=card.permanent_feods)


@transaction.atomic
def follower_dismiss(*, guild: Guild, guest_id: int) -> None:
    """Send a permanently enlisted follower away (no refund). ``NotFound("follower_not_found")``."""
    guild = lock_guild(guild)
    get_owned(guild.guests.all(), guest_id, "follower_not_found").delete()

"""Writing a mission's result into a Guild (DemLoc rulebook 6.4.1 resolution phase).

Written by the missions app (issue 6); ``missions.services.mission_close`` is its only caller.
"""

from __future__ import annotations

from django.db import transaction

from ..models import LedgerEntry
from ._common import lock_guild, post


@transaction.atomic
def guild_mission_result_post(
    *,
    guild_id: int,
    fame: int = 0,
    feods: int = 0,
    blood_stones: int = 0,
    note: str = "",
    reference: str = "",
) -> dict[str, int]:
    """Post a mission's fame, feods and blood stones to a Guild, one ledger row per currency
    (reason ``mission``, ``reference`` e.g. ``"mission:12"``).

    Unlike ``guild_balance_change`` a loss never fails: feods and blood stones are taken only
    down to 0 (the Guild may have spent them during the mission; fame may go negative).
    Returns the amounts actually posted ``{"fame", "feods", "blood_stones"}``. Raises
    ``NotFound("guild_not_found")``.
    """
    guild = lock_guild(guild_id)
    posted = {
        "fame": fame,
        "feods": max(feods, -guild.feods),
        "blood_stones": max(blood_stones, -guild.blood_stones),
    }
    for currency, amount in posted.items():
        post(guild, currency, amount, LedgerEntry.Reason.MISSION, note[:200], reference)
    return posted

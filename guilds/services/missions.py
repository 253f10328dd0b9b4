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
    charges: int = 0,
    note: str = "",
    reference: str = "",
) -> dict[str, int]:
    """Post a mission's result to a Guild (reason ``mission``, ``reference`` e.g.
    ``"mission:12"``): first ``charges`` (>= 0 feods: followers enlisted and offers won at the
    table, 5.1.1, 5.1.2; reserved while the mission ran, so the purse covers them), then the
    signed ``fame``, ``feods`` and ``blood_stones`` won or lost. One ledger row per currency
    and one for the charges.

    Nothing is ever silently zeroed: what the purse cannot pay (a loss of feods or blood stones
    larger than what is left: fame may go negative, balances never) is returned as
    ``unpaid_feods`` / ``unpaid_blood_stones`` and named in the ledger note. Returns
    ``{"fame", "feods", "blood_stones", "charges", "unpaid_feods", "unpaid_blood_stones"}``
    (amounts actually posted). Raises ``NotFound("guild_not_found")``.
    """
    guild = lock_guild(guild_id)
    charges = max(int(charges), 0)
    paid_charges = min(charges, guild.feods)
    unpaid = {"feods": charges - paid_charges, "blood_stones": 0}
    post(
        guild,
        "feods",
        -paid_charges,
        LedgerEntry.Reason.MISSION,
        f"{note} · followers and offers"[:200],
        reference,
    )
    posted = {"fame": fame}
    for currency, amount in (("feods", feods), ("blood_stones", blood_stones)):
        have = getattr(guild, currency)
        posted[currency] = max(amount, -have)
        unpaid[currency] += posted[currency] - amount
    for currency in ("fame", "feods", "blood_stones"):
        short = unpaid.get(currency, 0)
        line = note if not short else f"{note} · {short} {currency.replace('_', ' ')} unpaid"
        post(guild, currency, posted[currency], LedgerEntry.Reason.MISSION, line[:200], reference)
    return {
        **posted,
        "charges": paid_charges,
        "unpaid_feods": unpaid["feods"],
        "unpaid_blood_stones": unpaid["blood_stones"],
    }

"""Writing a mission's result into a Guild (DemLoc rulebook 6.4.1 resolution phase).

Written by the missions app; ``missions.services.mission_close`` is its only caller.
"""

from __future__ import annotations

from django.db import transaction

from ..models import FollowerCard, LedgerEntry
from ._common import lock_guild, post
from .city import control_points_for_raffle


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


def raffle_candidates(*, guild_ids: list[int]) -> list[dict]:
    """The control points a standard mission between ``guild_ids`` may be fought over (6.4.1
    raffle phase), as the mission's JSON: ``[{"id", "name", "area", "kind", "holder_guild_id",
    "holder", "effects": ["Armory discount +10", "income 2 fame"...]}]``, free points and those
    held by one of these Guilds, in map order. Reads only."""
    out = []
    for p in control_points_for_raffle(guild_ids=guild_ids):
        effects = [f"{b.get_kind_display()} +{b.amount}" for b in p.bonuses.all()]
        income = [
            f"{n} {c}"
            for n, c in (
                (p.income_fame, "fame"),
                (p.income_feods, "feods"),
                (p.income_blood_stones, "blood stones"),
            )
            if n
        ]
        if income:
            effects.append("income " + ", ".join(income))
        out.append(
            {
                "id": p.pk,
                "name": p.name,
                "area": p.area.name,
                "kind": p.get_kind_display(),
                "holder_guild_id": p.holder_id,
                "holder": p.holder.name if p.holder else None,
                "effects": effects,
            }
        )
    return out


def demo_mission_followers(*, count: int = 2) -> list[FollowerCard]:
    """The first ``count`` demo follower cards that only join for one mission (the demo
    missions offer them, 5.1.2), ``FollowerCard`` rows. Reads only."""
    return list(
        FollowerCard.objects.filter(is_demo=True).order_by("can_enlist_permanently", "name")[:count]
    )

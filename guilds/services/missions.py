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
    items: list[dict] | None = None,
) -> dict[str, int]:
    """Post a mission's result to a Guild (reason ``mission``, ``reference`` e.g.
    ``"mission:12"``): first ``charges`` (>= 0 feods: followers enlisted and offers won at the
    table, 5.1.1, 5.1.2; reserved while the mission ran, so the purse covers them), then the
    signed ``fame``, ``feods`` and ``blood_stones`` won or lost. One ledger row for the
    charges; then, with ``items`` (``missions.rules.resolution.compute``'s: ``[{"why": str,
    "fame"?, "feods"?, "blood_stones"?: int, "charge": bool}]``, the charges among them left
    out here), one row per reason and currency, its note ``"<note> · <why>"`` (a defeat's
    -2 fame and a kill's +2 fame are two rows, not one row of 0: 6.4.1 resolution); without
    ``items``, one row per currency. The items (charges apart) must sum to ``fame``, ``feods``
    and ``blood_stones``, else ``ValueError``. A mission that changes nothing still writes one
    row (amount 0, ``note`` and "no change"), so every closed mission is in the ledger.

    Nothing is ever silently zeroed: what the purse cannot pay (a loss of feods or blood stones
    larger than what is left: fame may go negative, balances never) is returned as
    ``unpaid_feods`` / ``unpaid_blood_stones`` and named in the ledger note. Returns
    ``{"fame", "feods", "blood_stones", "charges", "unpaid_feods", "unpaid_blood_stones"}``
    (amounts actually posted). Raises ``NotFound("guild_not_found")``.
    """
    wanted = {"fame": fame, "feods": feods, "blood_stones": blood_stones}
    rows = [(note, wanted)]
    if items is not None:
        rows = [(f"{note} · {i['why']}", i) for i in items if not i.get("charge")]
        summed = {c: sum(int(r.get(c, 0)) for _why, r in rows) for c in wanted}
        if summed != wanted:
            raise ValueError(f"the items sum to {summed}, not {wanted}")
    guild = lock_guild(guild_id)
    charges = max(int(charges), 0)
    paid_charges = min(charges, guild.feods)
    unpaid = {"fame": 0, "feods": charges - paid_charges, "blood_stones": 0}
    post(
        guild,
        "feods",
        -paid_charges,
        LedgerEntry.Reason.MISSION,
        f"{note} · followers and offers"[:200],
        reference,
    )
    posted = dict.fromkeys(wanted, 0)
    # Gains before losses: a loss is paid from what the same mission brought, so what is left
    # unpaid is what the totals alone would leave unpaid.
    flat = [(line, c, int(amounts.get(c, 0))) for line, amounts in rows for c in wanted]
    for line, currency, amount in sorted(flat, key=lambda row: row[2] < 0):
        paid = amount if currency == "fame" else max(amount, -getattr(guild, currency))
        short = paid - amount  # what the purse could not pay (fame may go negative)
        unpaid[currency] += short
        posted[currency] += paid
        text = line if not short else f"{line} · {short} {currency.replace('_', ' ')} unpaid"
        post(guild, currency, paid, LedgerEntry.Reason.MISSION, text[:200], reference)
    if not paid_charges and not any(posted.values()):
        # A mission that changed nothing (a draw, no kills) still names itself in the ledger,
        # so a Guild checks its ledger against the evening (6.4.1 resolution): one row of 0.
        LedgerEntry.objects.create(
            guild=guild,
            currency="fame",
            amount=0,
            balance_after=guild.fame,
            reason=LedgerEntry.Reason.MISSION,
            note=f"{note} · no change in fame, feods or blood stones"[:200],
            reference=reference,
        )
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

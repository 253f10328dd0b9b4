"""Guild buildings and their upgrades (DemLoc rulebook 6.2 item 4, 6.1)."""

from __future__ import annotations

from django.db import transaction

from tabletop.errors import RuleViolation

from .. import rules
from ..models import Building, Guild, LedgerEntry
from ._common import lock_guild, post, require_balances


@transaction.atomic
def building_upgrade(*, guild: Guild, kind: str) -> Building:
    """Raise building ``kind`` (dormitory, armory, library, guesthouse, defenses) one level,
    paying ``rules.upgrade_cost`` in feods and blood stones (one ledger row per currency).

    Raises ``RuleViolation`` ``unknown_building``, ``building_max_level``, ``not_enough_feods``,
    ``not_enough_blood_stones``; nothing is paid unless the upgrade happens.
    """
    guild = lock_guild(guild)
    if kind not in rules.BUILDING_KINDS:
        raise RuleViolation("unknown_building", f"There is no building called {kind!r}.")
    building, _ = Building.objects.select_for_update().get_or_create(guild=guild, kind=kind)
    cost = rules.upgrade_cost(kind, building.level)
    require_balances(guild, feods=cost.feods, blood_stones=cost.blood_stones)
    note = f"{building.get_kind_display()} to level {building.level + 1}"
    post(guild, "feods", -cost.feods, LedgerEntry.Reason.BUILDING_UPGRADED, note)
    post(guild, "blood_stones", -cost.blood_stones, LedgerEntry.Reason.BUILDING_UPGRADED, note)
    building.level += 1
    building.save(update_fields=["level"])
    return building

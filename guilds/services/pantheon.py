"""The daemonic pantheon (DemLoc rulebook 5.1.3, 7.2.3.2)."""

from __future__ import annotations

from django.db import transaction

from tabletop.errors import RuleViolation

from .. import rules
from ..models import DaemonCard, Guild, PantheonDaemon
from ._common import building_level, get_card, get_owned, lock_guild, require_copy


@transaction.atomic
def daemon_add(*, guild: Guild, card_id: int) -> PantheonDaemon:
    """Put a daemon of the Guild's database in its pantheon (5.1.3), free. A daemon name at
    most once (5.1.3: no two daemons of the same name at once); size limited by the Arcane
    Library level (``rules.PANTHEON_CAPACITY``).

    Raises ``NotFound("card_not_found")``, ``RuleViolation`` ``not_in_database``,
    ``daemon_in_pantheon``, ``pantheon_full``.
    """
    guild = lock_guild(guild)
    card = get_card(DaemonCard, card_id)
    if guild.pantheon.filter(card=card).exists():
        raise RuleViolation("daemon_in_pantheon", f"{card.name} is already in your pantheon.")
    require_copy(guild, card, 0)
    capacity = rules.PANTHEON_CAPACITY[building_level(guild, "library")]
    if guild.pantheon.count() >= capacity:
        raise RuleViolation(
            "pantheon_full",
            f"Your pantheon holds {capacity} daemons. Upgrade the Arcane Library for more.",
        )
    return PantheonDaemon.objects.create(guild=guild, card=card)


@transaction.atomic
def daemon_remove(*, guild: Guild, entry_id: int) -> None:
    """Take a daemon out of the pantheon. ``NotFound("daemon_not_found")``."""
    guild = lock_guild(guild)
    get_owned(guild.pantheon.all(), entry_id, "daemon_not_found").delete()


def pantheon_by_kabbalah(guild: Guild) -> dict[str, dict[int, list[DaemonCard]]]:
    """The pantheon grouped ``{kabbalah name: {level: [daemon cards by name]}}`` for the pages
    and for the mission summoning draw (7.2.3.2: by kabbalah and level, falling back to lower
    levels when none of the asked level is there)."""
    out: dict[str, dict[int, list[DaemonCard]]] = {}
    entries = guild.pantheon.select_related("card__kabbalah")
    for entry in entries:
        card = entry.card
        out.setdefault(card.kabbalah.name, {}).setdefault(card.level, []).append(card)
    return out

"""The Arcane Library: add Arcane Codes, assign them to characters (DemLoc rulebook 5.1.5)."""

from __future__ import annotations

from django.db import transaction

from tabletop.errors import RuleViolation

from .. import rules
from ..models import ArcaneCodeCard, Guild, LedgerEntry, LibraryCode
from ._common import building_level, get_card, get_owned, lock_guild, post, require_copy
from .dormitory import require_present
from .holds import require_free


@transaction.atomic
def arcane_code_add(*, guild: Guild, card_id: int) -> LibraryCode:
    """Add an Arcane Code card of the Guild's database to its library (5.1.5, 6.2 item 2),
    paying its ``price_feods`` (section 3: richer Guilds acquire "increasingly powerful weapons
    and arcane codes"; a price of 0 is free). Raises ``NotFound("card_not_found")``,
    ``RuleViolation`` ``not_in_database``, ``no_copy_left``, ``library_full``
    (``rules.LIBRARY_CAPACITY``), ``not_enough_feods``.
    """
    guild = lock_guild(guild)
    card = get_card(ArcaneCodeCard, card_id)
    require_copy(guild, card, guild.codes.filter(card=card).count())
    capacity = rules.LIBRARY_CAPACITY[building_level(guild, "library")]
    if guild.codes.count() >= capacity:
        raise RuleViolation(
            "library_full", f"The library holds {capacity} Arcane Codes. Upgrade it to hold more."
        )
    post(guild, "feods", -card.price_feods, LedgerEntry.Reason.CODE_BOUGHT, card.name)
    return LibraryCode.objects.create(guild=guild, card=card, price_paid=card.price_feods)


@transaction.atomic
def arcane_code_assign(*, guild: Guild, code_id: int, mercenary_id: int) -> LibraryCode:
    """Give a library Arcane Code to a mercenary with arcane ability above 0; each holds at most
    as many codes as its arcane ability (``rules.arcane_code_capacity``).

    Raises ``NotFound`` ``arcane_code_not_found`` / ``mercenary_not_found``, ``RuleViolation``
    ``code_already_held``, ``code_held_elsewhere``, ``mercenary_dead``, ``mercenary_absent``,
    ``no_arcane_ability``, ``codes_full``.
    """
    guild = lock_guild(guild)
    code = get_owned(guild.codes.all(), code_id, "arcane_code_not_found")
    mercenary = get_owned(guild.mercenaries.all(), mercenary_id, "mercenary_not_found")
    if code.mercenary_id == mercenary.pk:
        raise RuleViolation("code_already_held", f"{mercenary.card.name} already holds it.")
    if code.mercenary_id is not None:
        raise RuleViolation(
            "code_held_elsewhere",
            f"{code.card.name} is held by {code.mercenary.card.name}: take it back first.",
        )
    require_present(mercenary, "re-equipped")
    rules.check_code_assign(mercenary.card.arcane_ability, mercenary.codes.count())
    code.mercenary = mercenary
    code.save(update_fields=["mercenary"])
    return code


@transaction.atomic
def arcane_code_unassign(*, guild: Guild, code_id: int) -> LibraryCode:
    """Put an Arcane Code back on the library shelf. Raises ``NotFound("arcane_code_not_found")``,
    ``RuleViolation`` ``code_not_held``, ``mercenary_absent``."""
    guild = lock_guild(guild)
    code = get_owned(guild.codes.all(), code_id, "arcane_code_not_found")
    if code.mercenary is None:
        raise RuleViolation("code_not_held", f"{code.card.name} is on the library shelf.")
    require_free(code.mercenary, "unequipped")
    if code.mercenary.is_away:
        raise RuleViolation("mercenary_absent", f"{code.mercenary.card.name} is away.")
    code.mercenary = None
    code.save(update_fields=["mercenary"])
    return code

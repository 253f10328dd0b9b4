"""The City Gate: redeem a set code (DemLoc rulebook 6.2 item 1)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tabletop.errors import RuleViolation

from .. import rules
from ..models import Guild, SetCode
from ._common import lock_guild


@transaction.atomic
def set_code_redeem(*, guild: Guild, code: str) -> SetCode:
    """Add the cards of the set behind ``code`` to the Guild's database (6.2 item 1, 6.3).

    ``code``: as typed (case, spaces and dashes ignored). Each code works once, for one Guild.
    Raises ``RuleViolation`` ``code_unknown`` or ``code_used`` (also when this Guild used it).
    """
    guild = lock_guild(guild)
    normal = rules.normalize_code(code)
    row = SetCode.objects.select_for_update().filter(code=normal).first() if normal else None
    if row is None:
        raise RuleViolation("code_unknown", "That code does not exist. Check the card in the box.")
    if row.redeemed_by_id is not None:
        raise RuleViolation("code_used", "That code has already been used.")
    row.redeemed_by = guild
    row.redeemed_at = timezone.now()
    row.save(update_fields=["redeemed_by", "redeemed_at"])
    return row

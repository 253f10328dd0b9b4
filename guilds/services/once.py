"""One-time form keys: a second tap on the same Guild form changes nothing (the house rule "a
double tap changes nothing"; docs/architecture.md "Guilds and timers").

Every Guild page form carries a hidden ``once`` field with a fresh random key
(``{% once %}``, ``guilds.templatetags.guild_tags``). ``form_once`` runs the form's service and
records the key in the same transaction, after locking the Guild row: a second request with the
same key waits for the first to commit, then finds the key and runs nothing. A refused action
rolls the key back with everything else, so the form can be tried again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tabletop.errors import RuleViolation

from ..models import FormUse, Guild
from ._common import lock_guild

KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
KEPT = timedelta(days=2)  # a page older than this is not tapped twice by accident


@transaction.atomic
def form_once(
    *, guild: Guild, key: str, action: Callable[..., Any], **kwargs: Any
) -> tuple[bool, Any]:
    """Run ``action(guild=guild, **kwargs)`` unless the form key ``key`` was already used by
    this Guild; returns ``(True, its result)`` or ``(False, None)`` (nothing run, nothing
    written). ``key`` empty: no key to check (the API, a script), the action simply runs.

    Raises ``RuleViolation`` ``bad_form_key`` for a key that is not 16 to 64 letters, digits,
    ``-`` or ``_``, before anything is written; whatever ``action`` raises, with nothing written.
    """
    if key and not KEY.fullmatch(key):
        raise RuleViolation("bad_form_key", "This form is broken: reload the page and tap again.")
    guild = lock_guild(guild)
    if key:
        if FormUse.objects.filter(guild=guild, key=key).exists():
            return False, None
        FormUse.objects.filter(guild=guild, created_at__lt=timezone.now() - KEPT).delete()
        FormUse.objects.create(guild=guild, key=key)
    return True, action(guild=guild, **kwargs)

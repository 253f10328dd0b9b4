"""The Dormitory: enlist, dismiss, heal; mercenary status (DemLoc rulebook 5.1.1, 6.2 item 2)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tabletop.errors import RuleViolation

from .. import rules
from ..models import Guild, LedgerEntry, Mercenary, MercenaryCard
from ._common import get_card, get_owned, limits_of, lock_guild, post, require_copy
from .holds import require_free


def living(guild: Guild):
    """The Guild's mercenaries that hold a slot: all but the dead."""
    return guild.mercenaries.exclude(status=Mercenary.Status.DEAD)


def require_present(mercenary: Mercenary, doing: str = "changed") -> None:
    """Raise ``RuleViolation`` ``mercenary_dead``, ``OnMission("on_mission")`` (chosen for a
    running mission, 6.4; names and links it) or ``mercenary_absent`` (exploring) unless the
    mercenary is in the dormitory, active or injured. ``doing``: the refused action, as a past
    participle ("dismissed")."""
    require_free(mercenary, doing)
    if mercenary.is_dead:
        raise RuleViolation(
            "mercenary_dead", f"{mercenary.card.name} is dead and can never be used again."
        )
    if mercenary.is_away:
        raise RuleViolation(
            "mercenary_absent",
            f"{mercenary.card.name} is {mercenary.get_status_display().lower()}; wait for the "
            "return.",
        )


@transaction.atomic
def mercenary_enlist(*, guild: Guild, card_id: int) -> Mercenary:
    """Enlist a mercenary card of the Guild's database into the dormitory (5.1.1, 6.3).

    Checks, in order: the card exists (``NotFound("card_not_found")``), a copy is left in the
    database (``not_in_database``, ``no_copy_left``; a dead mercenary keeps its copy), then the
    fame for its level and the slot, type and level limits (``guilds.rules.check_enlist``:
    ``fame_too_low``, ``slots_full``, ``type_limit_reached``, ``level_limit_reached``).
    """
    guild = lock_guild(guild)
    card = get_card(MercenaryCard, card_id)
    require_copy(guild, card, guild.mercenaries.filter(card=card).count())
    enlisted = [
        rules.Enlisted(type=m.card.type, level=m.card.level)
        for m in living(guild).select_related("card")
    ]
    rules.check_enlist(
        limits_of(guild), enlisted, rules.Enlisted(type=card.type, level=card.level), guild.fame
    )
    return Mercenary.objects.create(guild=guild, card=card)


def enlist_refusal(guild: Guild, card: MercenaryCard) -> RuleViolation | None:
    """Why Enlist of ``card`` would be refused now by the fame and limits of 5.1.1 / 6.3
    (``guilds.rules.check_enlist``: ``fame_too_low``, ``slots_full``, ``type_limit_reached``,
    ``level_limit_reached``), or None: the Dormitory disables that Enlist with this reason
    beside it, word for word what ``mercenary_enlist`` answers (a read: nothing locked)."""
    enlisted = [
        rules.Enlisted(type=m.card.type, level=m.card.level)
        for m in living(guild).select_related("card")
    ]
    try:
        rules.check_enlist(
            limits_of(guild), enlisted, rules.Enlisted(type=card.type, level=card.level), guild.fame
        )
    except RuleViolation as refusal:
        return refusal
    return None


def _release_equipment(mercenary: Mercenary) -> None:
    """Weapons back to the armory, Arcane Codes back to the library."""
    mercenary.weapons.update(mercenary=None, slot="")
    mercenary.codes.update(mercenary=None)


@transaction.atomic
def mercenary_dismiss(*, guild: Guild, mercenary_id: int) -> None:
    """Dismiss a mercenary: its weapons go back to the armory, its codes to the library, and its
    card copy back to the database (can be enlisted again).

    Raises ``NotFound("mercenary_not_found")`` (also for another Guild's mercenary),
    ``RuleViolation("mercenary_dead")`` (the dead stay listed, 6.4.1 resolution phase),
    ``OnMission("on_mission")`` (at the table of a running mission, 6.4) or
    ``RuleViolation("mercenary_absent")``.
    """
    guild = lock_guild(guild)
    mercenary = get_owned(guild.mercenaries.all(), mercenary_id, "mercenary_not_found")
    require_present(mercenary, "dismissed")
    _release_equipment(mercenary)
    mercenary.delete()


def mercenaries_to_heal(guild: Guild) -> list[tuple[str, int]]:
    """The injured mercenaries of ``guild`` who have a weapon equipped, as ``(name, feods to
    heal)``, by name: healing (6.4.1 resolution) is all they need to play a mission. Reads only."""
    injured = guild.mercenaries.filter(status=Mercenary.Status.INJURED, weapons__isnull=False)
    rows = injured.distinct().select_related("card").order_by("card__name")
    return [(m.card.name, m.heal_feods) for m in rows]


@transaction.atomic
def mercenary_heal(*, guild: Guild, mercenary_id: int) -> Mercenary:
    """Make an injured mercenary active again by paying its ``heal_feods`` (6.4.1 resolution
    phase: "what is needed to make it active again"); a ledger row if the cost is above 0.

    Raises ``NotFound("mercenary_not_found")``, ``OnMission`` ``on_mission`` /
    ``feods_reserved`` (6.4), ``RuleViolation`` ``not_injured`` or ``not_enough_feods``.
    """
    guild = lock_guild(guild)
    mercenary = get_owned(guild.mercenaries.all(), mercenary_id, "mercenary_not_found")
    require_free(mercenary, "healed")
    if mercenary.status != Mercenary.Status.INJURED:
        raise RuleViolation("not_injured", f"{mercenary.card.name} is not injured.")
    post(
        guild,
        "feods",
        -mercenary.heal_feods,
        LedgerEntry.Reason.MERCENARY_HEALED,
        f"Healed {mercenary.card.name}",
    )
    mercenary.status = Mercenary.Status.ACTIVE
    mercenary.heal_feods = 0
    mercenary.status_note = ""
    mercenary.status_changed_at = timezone.now()
    mercenary.save(update_fields=["status", "heal_feods", "status_note", "status_changed_at"])
    return mercenary


@transaction.atomic
def mercenary_status_set(
    *, mercenary_id: int, status: str, heal_feods: int = 0, note: str = ""
) -> Mercenary:
    """Change a mercenary's status: for the missions issue (injured, dead, on a mission, back to
    active) and the city issue (exploring, back to active). Not scoped to a user: callers are
    trusted code that already checked the mercenary belongs to the right Guild.

    ``heal_feods`` (>= 0) and ``note`` say what an injured mercenary needs to be active again.
    Death is final (6.4.1): a dead mercenary's weapons go back to the armory and its codes to
    the library (the cards go back in the Guild box), and its status never changes again.
    Raises ``NotFound("mercenary_not_found")``, ``RuleViolation`` ``bad_status``,
    ``mercenary_dead``.
    """
    # Lock the Guild before the mercenary, in the same order as every other service.
    found = get_owned(Mercenary.objects.all(), mercenary_id, "mercenary_not_found")
    guild = lock_guild(found.guild_id)
    mercenary = get_owned(guild.mercenaries.all(), mercenary_id, "mercenary_not_found")
    if status not in Mercenary.Status.values:
        raise RuleViolation("bad_status", f"Unknown status {status!r}.")
    if mercenary.is_dead:
        raise RuleViolation("mercenary_dead", f"{mercenary.card.name} is dead.")
    if heal_feods < 0:
        raise RuleViolation("bad_heal_feods", "A healing cost is 0 or more feods.")
    if status == Mercenary.Status.DEAD:
        _release_equipment(mercenary)
    mercenary.status = status
    mercenary.heal_feods = heal_feods if status == Mercenary.Status.INJURED else 0
    mercenary.status_note = note
    mercenary.status_changed_at = timezone.now()
    mercenary.save()
    return mercenary



"""A Guild frozen while it plays (DemLoc rulebook 6.4, 6.4.1).

6.4: "Only after disconnecting from the app, the statistics of each Guild will be updated and it
will be possible to modify their structure (hire mercenaries, change their equipment, etc.)".
Our reading: from the moment a Guild is brought to a mission until the mission is
closed, the characters it chose are ``on_mission`` and nobody can dismiss, unequip, re-equip,
heal or send them to the city; the feods the mission will charge (followers enlisted, offers
for contested mercenaries) are reserved and cannot be spent. No mercenary of a Guild at a table
is sent to the city either, chosen or not (``require_at_home``): the table's characters step
offers the roster as the Guild was brought (6.4.1 characters choice), and a mercenary gone
exploring meanwhile would be offered there and then refused. Everything else (redeeming codes,
buying with the feods left, the expeditions already under way) goes on.

The missions app is the only caller of ``mission_hold_bind``, ``mission_hold_sync`` and
``mission_hold_release``; every other guild service asks ``require_free`` and
``require_spendable`` before it writes. Each refusal is an ``OnMission`` error (code
``on_mission`` or ``feods_reserved``) that names the mission and links to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from tabletop.errors import NotFound, RuleViolation
from tabletop.rules import counted

from ..models import Guild, Mercenary, MissionHold
from ._common import lock_guild
from .reserves import OnMission, _holds, reserved_feods


def require_free(mercenary: Mercenary, doing: str) -> None:
    """Raise ``OnMission("on_mission")`` if ``mercenary`` was chosen for a running mission
    (6.4: the Guild's structure is frozen until the mission is closed). ``doing``: what was
    refused, as a past participle ("dismissed", "healed", ...), for the message."""
    if mercenary.status != Mercenary.Status.ON_MISSION:
        return
    hold = mercenary.hold
    title = hold.title if hold else "a mission"
    raise OnMission(
        "on_mission",
        f"{mercenary.card.name} is at the table in {title}: they cannot be {doing} until "
        "the mission is closed (6.4).",
        link=hold.url if hold else "",
        mission=title,
    )


def require_at_home(guild: Guild, doing: str) -> None:
    """Raise ``OnMission("on_mission")`` if ``guild`` is at a mission table not closed yet
    (6.4: "Its characters are frozen until it is closed"; the characters step, 6.4.1, offers
    every mercenary the Guild brought): none of its mercenaries can be ``doing`` ("sent to the
    city") until the mission is closed or the Guild taken out of it."""
    hold = _holds(guild).order_by("pk").first()
    if hold is None:
        return
    raise OnMission(
        "on_mission",
        f"{guild.name} is at the table in {hold.title}: its mercenaries cannot be {doing} "
        "until the mission is closed or the Guild taken out of it (6.4).",
        link=hold.url,
        mission=hold.title,
    )


@transaction.atomic
def mission_hold_bind(*, guild_id: int, reference: str, title: str, url: str) -> MissionHold:
    """The Guild is brought to the mission ``reference`` (``"mission:<id>"``; 6.4 "connect
    their profiles"): open its hold (idempotent: a second call returns the same row, with the
    title and url refreshed). Raises ``NotFound("guild_not_found")``."""
    guild = lock_guild(guild_id)
    hold, created = MissionHold.objects.get_or_create(
        guild=guild, reference=reference, defaults={"title": title[:120], "url": url[:200]}
    )
    if not created and (hold.title, hold.url) != (title[:120], url[:200]):
        hold.title, hold.url = title[:120], url[:200]
        hold.save(update_fields=["title", "url"])
    return hold


@transaction.atomic
def mission_hold_sync(
    *, guild_id: int, reference: str, mercenary_ids: Iterable[int], feods: int
) -> MissionHold:
    """Make the hold match the Guild's choices at the table: exactly ``mercenary_ids`` are
    ``on_mission`` for this mission (those newly chosen must be ready: 6.4.1 characters choice,
    "equipped mercenaries in good health and not on a mission"; those no longer chosen go back
    to the dormitory, active), and ``feods`` (>= 0) are reserved for what it will charge.

    Raises ``NotFound`` ``guild_not_found`` / ``hold_not_found`` / ``mercenary_not_found``,
    the readiness codes of ``mercenary_can_go_on_mission`` (``mercenary_absent``,
    ``mercenary_injured``, ``mercenary_dead``, ``no_weapon``), ``OnMission("on_mission")`` for
    a mercenary chosen for another running mission, ``RuleViolation("not_enough_feods")`` when
    the Guild's feods (less other missions' reservations) no longer cover ``feods``.
    Nothing is written when one is raised (the table command that caused it is refused too).
    """
    guild = lock_guild(guild_id)
    hold = MissionHold.objects.select_for_update().filter(guild=guild, reference=reference).first()
    if hold is None:
        raise NotFound("hold_not_found", "This Guild is not at that mission.")
    wanted = set(mercenary_ids)
    rows = {
        m.pk: m
        for m in guild.mercenaries.select_related("card", "hold")
        .select_for_update(of=("self",))
        .filter(pk__in=wanted | set(hold.mercenaries.values_list("pk", flat=True)))
    }
    missing = wanted - rows.keys()
    if missing:
        raise NotFound("mercenary_not_found", "A chosen mercenary is no longer in the Guild.")
    now = timezone.now()
    for pk in sorted(wanted):
        m = rows[pk]
        if m.hold_id == hold.pk and m.status == Mercenary.Status.ON_MISSION:
            continue
        if m.status == Mercenary.Status.ON_MISSION:
            require_free(m, "chosen")
        mercenary_can_go_on_mission(m).require()
        m.status, m.hold, m.status_changed_at = Mercenary.Status.ON_MISSION, hold, now
        m.status_note = hold.title[:200]
        m.save(update_fields=["status", "hold", "status_changed_at", "status_note"])
    for m in rows.values():
        if m.pk not in wanted and m.hold_id == hold.pk:
            _back_home(m, now)
    if feods < 0:
        raise RuleViolation("bad_feods", "Reserved feods are 0 or more.")
    others = reserved_feods(guild) - hold.feods
    if feods > hold.feods and guild.feods - others < feods:
        raise RuleViolation(
            "not_enough_feods",
            f"This mission would charge {counted(feods, 'feod')}; your Guild has "
            f"{max(guild.feods - others, 0)} to spend now.",
        )
    if hold.feods != feods:
        hold.feods = feods
        hold.save(update_fields=["feods"])
    return hold


def _back_home(m: Mercenary, now) -> None:
    if m.status == Mercenary.Status.ON_MISSION:
        m.status, m.status_note = Mercenary.Status.ACTIVE, ""
    m.hold, m.status_changed_at = None, now
    m.save(update_fields=["status", "status_note", "hold", "status_changed_at"])


@transaction.atomic
def mission_hold_release(*, guild_id: int, reference: str) -> int:
    """The mission ``reference`` is closed (or the Guild left it): mercenaries still
    ``on_mission`` for it go back to the dormitory, active (the dead and injured were written
    by the close before this), and its reserved feods are free. Idempotent; returns how many
    mercenaries came back. Raises ``NotFound("guild_not_found")``."""
    guild = lock_guild(guild_id)
    hold = MissionHold.objects.select_for_update().filter(guild=guild, reference=reference).first()
    if hold is None:
        return 0
    now = timezone.now()
    back = list(hold.mercenaries.select_for_update())
    for m in back:
        _back_home(m, now)
    hold.delete()
    return len(back)


def mission_hold_guilds(*, reference: str) -> list[int]:
    """Ids of the Guilds held by the mission ``reference`` (reads only)."""
    return list(MissionHold.objects.filter(reference=reference).values_list("guild_id", flat=True))


def mission_holds(guild: Guild) -> list[MissionHold]:
    """The running missions ``guild`` is bound to, oldest first (for the Guild pages)."""
    return list(_holds(guild).prefetch_related("mercenaries__card"))


@dataclass(frozen=True)
class Readiness:
    """Whether a mercenary can be chosen for a mission; falsy with a ``code`` and ``message``."""

    ok: bool
    code: str = ""
    message: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def require(self) -> None:
        """Raise ``RuleViolation(code, message)`` unless ready."""
        if not self.ok:
            raise RuleViolation(self.code, self.message)


def mercenary_can_go_on_mission(mercenary: Mercenary) -> Readiness:
    """Can ``mercenary`` take part in a mission (6.4.1 characters choice: "equipped mercenaries
    in good health and not on a mission in the individual game")?

    Not ready, by code: ``mercenary_dead``, ``mercenary_injured``, ``mercenary_absent``
    (exploring or on a mission), ``no_weapon`` (5.1.4: "mercenaries must have at least one
    weapon equipped in order to be part of a mission"). Reads only; no lock.
    """
    name = mercenary.card.name
    if mercenary.status == Mercenary.Status.DEAD:
        return Readiness(False, "mercenary_dead", f"{name} is dead.")
    if mercenary.status == Mercenary.Status.INJURED:
        return Readiness(False, "mercenary_injured", f"{name} is injured: heal first.")
    if mercenary.is_away:
        return Readiness(False, "mercenary_absent", f"{name} is away from the Guild.")
    if not mercenary.weapons.exists():
        return Readiness(False, "no_weapon", f"{name} has no weapon equipped: buy one in the Armory and equip it (5.1.4).")
    return Readiness(True)

"""Feods a running mission will charge, kept from every other spending (DemLoc rulebook 6.4,
6.4.1): the lowest of the guild services, so that the ledger (``_common.post``) and the holds
(``holds``) both ask it without importing each other."""

from __future__ import annotations

from django.db.models import Sum

from tabletop.errors import RuleViolation
from tabletop.rules import counted

from ..models import Guild, MissionHold


class OnMission(RuleViolation):
    """Refused because the Guild is playing a mission (6.4). ``link``: the mission's table
    page; ``mission``: its title. HTTP 400 like every ``RuleViolation``."""

    def __init__(self, code: str, message: str, *, link: str = "", mission: str = "") -> None:
        super().__init__(code, message)
        self.link = link
        self.mission = mission

    def as_dict(self) -> dict:
        return {**super().as_dict(), "link": self.link, "mission": self.mission}


def _holds(guild: Guild):
    return MissionHold.objects.filter(guild=guild)


def reserved_feods(guild: Guild) -> int:
    """Feods the Guild's running missions will charge when they are closed (0 if none)."""
    return _holds(guild).aggregate(n=Sum("feods"))["n"] or 0


def spendable_feods(guild: Guild) -> int:
    """The Guild's feods minus those reserved by its running missions (never below 0)."""
    return max(guild.feods - reserved_feods(guild), 0)


def require_spendable(guild: Guild, cost: int) -> None:
    """Raise ``OnMission("feods_reserved")`` if paying ``cost`` feods would eat into the feods
    a running mission will charge (followers enlisted, offers won; 6.4.1, 5.1.1, 5.1.2).
    ``guild`` must be locked by the caller. A purse too small anyway is left to the caller's
    own ``not_enough_feods`` check."""
    if cost <= 0 or cost > guild.feods:
        return
    holds = [h for h in _holds(guild) if h.feods > 0]
    reserved = sum(h.feods for h in holds)
    if guild.feods - reserved >= cost:
        return
    first = holds[0]
    raise OnMission(
        "feods_reserved",
        f"This costs {counted(cost, 'feod')}; {reserved} of your {counted(guild.feods, 'feod')} are kept for "
        f"{first.title}, which charges them when it is closed (6.4).",
        link=first.url,
        mission=first.title,
    )

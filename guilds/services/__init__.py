"""The one write path for Guild data (docs/architecture.md "Guilds and timers"): ``<thing>_<verb>`` functions, keyword-only,
each one ``@transaction.atomic`` and locking the Guild row before checking anything.

Errors: ``tabletop.errors.RuleViolation`` (HTTP 400) for a broken rule, ``NotFound`` (404) for
what does not exist or belongs to another Guild. Nothing is written when one is raised.
"""

from ..codes import HOLD_CODES
from .armory import buy_refusal, weapon_buy, weapon_equip, weapon_unequip
from .buildings import building_upgrade
from .city import (
    Preview,
    armory_discount,
    city_event_answer,
    city_event_post,
    city_event_settle,
    city_events_post,
    city_news_seen,
    city_overdue_settle,
    city_timers_sweep,
    control_point_transfer,
    control_points_for_raffle,
    expedition_cancel,
    expedition_preview,
    expedition_settle,
    expedition_start,
    income_settle,
)
from .dormitory import (
    enlist_refusal,
    mercenaries_to_heal,
    mercenary_dismiss,
    mercenary_enlist,
    mercenary_heal,
    mercenary_status_set,
)
from .gate import set_code_redeem
from .guesthouse import follower_dismiss, follower_enlist
from .guests import (
    guest_guild_delete,
    guest_guild_of,
    guest_guild_played,
    guest_guild_prepare,
    guest_guild_snapshot,
    guest_guilds,
    is_guest_id,
)
from .guild import (
    guild_balance_change,
    guild_create,
    guild_ledger_audit,
    guild_name_check,
    guild_tour_seen,
    guild_update,
)
from .holds import (
    Readiness,
    mercenary_can_go_on_mission,
    mission_hold_bind,
    mission_hold_guilds,
    mission_hold_release,
    mission_hold_sync,
    mission_holds,
)
from .library import arcane_code_add, arcane_code_assign, arcane_code_unassign
from .missions import (  # noqa: F401 (the missions app's calls)
    demo_mission_followers,
    guild_mission_result_post,
    raffle_candidates,
)
from .once import form_once
from .pantheon import daemon_add, daemon_remove, pantheon_by_kabbalah
from .queries import follower_data, guild_database, guild_snapshot
from .reserves import OnMission, reserved_feods, spendable_feods

__all__ = [
    "buy_refusal",
    "enlist_refusal",
    "mercenaries_to_heal",
    "form_once",
    "guest_guild_delete",
    "guest_guild_of",
    "guest_guild_played",
    "guest_guild_prepare",
    "guest_guild_snapshot",
    "guest_guilds",
    "is_guest_id",
    "HOLD_CODES",
    "OnMission",
    "mission_hold_bind",
    "mission_hold_guilds",
    "mission_hold_release",
    "mission_hold_sync",
    "mission_holds",
    "reserved_feods",
    "spendable_feods",
    "Preview",
    "Readiness",
    "armory_discount",
    "city_event_answer",
    "city_event_post",
    "city_event_settle",
    "city_events_post",
    "city_news_seen",
    "city_overdue_settle",
    "city_timers_sweep",
    "control_point_transfer",
    "control_points_for_raffle",
    "expedition_cancel",
    "expedition_preview",
    "expedition_settle",
    "expedition_start",
    "income_settle",
    "arcane_code_add",
    "arcane_code_assign",
    "arcane_code_unassign",
    "building_upgrade",
    "daemon_add",
    "daemon_remove",
    "follower_dismiss",
    "follower_enlist",
    "guild_balance_change",
    "guild_create",
    "guild_database",
    "guild_ledger_audit",
    "guild_name_check",
    "follower_data",
    "guild_snapshot",
    "guild_tour_seen",
    "guild_update",
    "mercenary_can_go_on_mission",
    "mercenary_dismiss",
    "mercenary_enlist",
    "mercenary_heal",
    "mercenary_status_set",
    "pantheon_by_kabbalah",
    "set_code_redeem",
    "weapon_buy",
    "weapon_equip",
    "weapon_unequip",
]

"""Guilds: the individual game between sessions (DemLoc rulebook 2.1, 3, 4, 5.1, 5.8, 6.1-6.3).

For other apps (read ``guilds/services/__init__.py`` for the whole list):

- missions: ``services.mercenary_can_go_on_mission(mercenary)`` (a falsy ``Readiness`` with a
  ``code`` when not), ``services.guild_snapshot(guild)`` (JSON of the mercenaries with factors,
  weapons and codes, the guesthouse and the pantheon, for a mission's opening events),
  ``services.pantheon_by_kabbalah(guild)`` (the summoning draw), ``services.mercenary_status_set``
  (on_mission / injured with ``heal_feods`` / dead / active), ``services.guild_balance_change``
  (fame, feods, blood stones with a ledger reason).
- the city (issue 4): ``models.CityArea`` (mercenaries' area of origin; hang control points on
  it), ``models.LimitBonus`` (dormitory limits raised by control), ``Mercenary.Status.EXPLORING``
  via ``mercenary_status_set``, ledger reason ``city``, ``rules.DEFENSE_RATING`` per defenses
  level. Lock the Guild row first (``services._common.lock_guild``) like every service.
"""

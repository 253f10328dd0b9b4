"""Guilds: the individual game between sessions (DemLoc rulebook 2.1, 3, 4, 5.1, 5.8, 6.1-6.3).

For other apps (read ``guilds/services/__init__.py`` for the whole list):

- missions: ``services.mercenary_can_go_on_mission(mercenary)`` (a falsy ``Readiness`` with a
  ``code`` when not), ``services.guild_snapshot(guild)`` (JSON of the mercenaries with factors,
  weapons and codes, the guesthouse and the pantheon, for a mission's opening events),
  ``services.pantheon_by_kabbalah(guild)`` (the summoning draw), ``services.mercenary_status_set``
  (on_mission / injured with ``heal_feods`` / dead / active), ``services.guild_balance_change``
  (fame, feods, blood stones with a ledger reason).
- the city (6.2, ``services/city/``, one module a topic, formulas in ``city_rules.py``, Celery tasks in
  ``tasks.py``): ``models.ControlPoint`` (area, kind, holder, bonuses, income) and for missions
  ``services.control_point_transfer(point_id=, to_guild_id=, reason=, reference=)`` (one
  transaction: bonuses, income timers, news to both Guilds) and
  ``services.control_points_for_raffle(guild_ids=)`` (free points and those of the players).
  Expeditions, income periods and events awaiting an answer are timer rows (``due_at``,
  ``settled_at``): an ETA task after commit, the beat sweeper for whatever is overdue, an
  idempotent settlement under a row lock. Exploring mercenaries are busy
  (``mercenary_can_go_on_mission`` says ``mercenary_absent``).
"""

"""The city of DemLoc: control points, expeditions, income and random events, on timers
(DemLoc rulebook 6.2 "Exploring and conquering the City of DemLoc", "Random events"; docs/architecture.md
"Guilds and timers").

Timers. Every deadline is a row (``Expedition``, ``IncomePeriod``, ``GuildEvent``: ``due_at``,
``settled_at``). After commit, a deadline within ``ETA_HORIZON`` gets a Celery task at its
moment, shared by all deadlines of the same ``ETA_BUCKET`` (250 ms); later ones get theirs from
the sweeper when they come near, so nothing relies on a broker keeping an ETA message for
hours. That task and the beat sweeper (``city_timers_sweep``) settle whatever is due in chunks
(``_settle_expedition_chunk``: ``SELECT ... FOR UPDATE SKIP LOCKED``, bulk writes). Settling locks the timer row and sets
``settled_at``: a second run, from the ETA task, the sweeper, the page or the admin, is a no-op.

Lock order, the same everywhere so two settlements never deadlock: the timer row, then the
control point, then the Guilds by id. Callers that already hold a Guild lock (a mission ending)
may call ``control_point_transfer``; the database breaks the rare deadlock, and a timer task
that loses one is settled by the next sweep.

Where is what, one module a topic: ``common`` (locks in that order, news, known points),
``eta`` (the tasks of deadlines coming near), ``points`` (control points, the interface for
missions), ``expeditions``, ``income``, ``events`` (random events), ``sweep`` (settling due
timers in chunks, the sweeper, a Guild's overdue timers), ``news`` (the digest read). Each
imports only those before it in that list; this package re-exports their public names.
"""

from __future__ import annotations

from .eta import (
    DUE_TASK,
    ETA_BUCKET,
    ETA_HORIZON,
    TASKS,
    _bucket,
    _send_due,
)
from .events import (
    city_event_answer,
    city_event_post,
    city_event_settle,
    city_events_post,
)
from .expeditions import (
    Preview,
    expedition_cancel,
    expedition_preview,
    expedition_settle,
    expedition_start,
)
from .income import (
    income_settle,
)
from .news import (
    city_news_seen,
)
from .points import (
    armory_discount,
    control_point_transfer,
    control_points_for_raffle,
)
from .sweep import (
    SETTLE_BUDGET,
    SETTLE_CHUNK,
    SETTLERS,
    SWEEP_BATCH,
    city_overdue_settle,
    city_timers_settle_due,
    city_timers_sweep,
)

__all__ = [
    "DUE_TASK",
    "ETA_BUCKET",
    "ETA_HORIZON",
    "Preview",
    "SETTLERS",
    "SETTLE_BUDGET",
    "SETTLE_CHUNK",
    "SWEEP_BATCH",
    "TASKS",
    "_bucket",
    "_send_due",
    "armory_discount",
    "city_event_answer",
    "city_event_post",
    "city_event_settle",
    "city_events_post",
    "city_news_seen",
    "city_overdue_settle",
    "city_timers_settle_due",
    "city_timers_sweep",
    "control_point_transfer",
    "control_points_for_raffle",
    "expedition_cancel",
    "expedition_preview",
    "expedition_settle",
    "expedition_start",
    "income_settle",
]

"""Daemon summoning. DemLoc rulebook 5.1.3 (daemons, unique names), 7.2.3.2 (summoning a
daemon), 7.2.3.3 (quitting the daemon's game).
"""

from __future__ import annotations

from tabletop.errors import RuleViolation


def daemon_candidates(pantheon: list[dict], kabbalah: str, level: int) -> tuple[int, list[dict]]:
    """The daemons of ``pantheon`` a summoning of ``kabbalah`` and ``level`` draws from: those of
    that kabbalah and level, or, when there are none, of the highest lower level that has some
    (7.2.3.2: "the extraction will be carried out in the lower hierarchy").
    Returns ``(level drawn from, daemons)``. Raises ``RuleViolation("no_daemon")``."""
    for lvl in range(level, 0, -1):
        found = [d for d in pantheon if d.get("kabbalah") == kabbalah and d.get("level") == lvl]
        if found:
            return lvl, found
    raise RuleViolation(
        "no_daemon", f"The pantheon has no {kabbalah} daemon of level {level} or lower."
    )


def draw_daemon(rng, pantheon: list[dict], kabbalah: str, level: int) -> tuple[int, dict]:
    """Draw one daemon at random (uniform, through ``rng``) from ``daemon_candidates``."""
    lvl, found = daemon_candidates(pantheon, kabbalah, level)
    return lvl, rng.choice(found)


def check_hearts(hearts: int) -> int:
    """The heart tokens a player gives a new daemon: 1..3 (7.2.3.2). Raises ``bad_hearts``."""
    if not isinstance(hearts, int) or isinstance(hearts, bool) or not 1 <= hearts <= 3:
        raise RuleViolation("bad_hearts", "Give the daemon 1 to 3 heart tokens.")
    return hearts

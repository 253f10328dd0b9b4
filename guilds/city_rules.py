"""Pure formulas of the city of DemLoc (DemLoc rulebook 6.2 "Exploring and conquering the City
of DemLoc", "Random events"). No Django import: the services read these, the pages show them.

The rulebook says only that "more mercenaries ... [reduce] the duration of the mission, and
[increase] the probability of success of the acquisition" and that the player "periodically"
collects fame and feods. Every number below is our choice, kept in one place:

- Duration: ``base * 2 / (n + 1)`` minutes, rounded up, for a party of ``n`` (1..MAX_PARTY)
  mercenaries: 1 takes the point's base time, 2 take 2/3, 3 take 1/2, 4 take 2/5.
- Chance of an acquisition (percent): the point's ``base_chance``, plus ``PER_EXTRA_MERCENARY``
  for every mercenary after the first, plus ``PER_LEVEL_ABOVE_ONE`` for every level above 1 in
  the party; a point held by another Guild costs ``HELD_PENALTY`` plus ``PER_DEFENSE`` per point
  of that Guild's defense rating (its "Guild defenses" building). Clamped to 5..95: nothing is
  certain in DemLoc.
- The outcome: a roll 1..100 drawn when the party leaves; success when ``roll <= chance``.
- A failure's consequence comes from a second roll 1..100 (``failure_consequence``).
- Income is paid into the ledger automatically at the end of every period while the point is
  held (our reading of "periodically collect": nothing piles up waiting for a tap, nothing is
  lost while the Master is away); a period cut short by losing the point pays nothing.

Units: minutes (int >= 1), percent (int 0..100), feods (int >= 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.errors import RuleViolation

MAX_PARTY = 4
MIN_CHANCE = 5
MAX_CHANCE = 95
PER_EXTRA_MERCENARY = 12
PER_LEVEL_ABOVE_ONE = 4
HELD_PENALTY = 10
PER_DEFENSE = 5
HEAL_FEODS_PER_LEVEL = 10
FEODS_LOST_BASE = 10
FEODS_LOST_PER_MERCENARY = 5

# Failure consequence bands of the consequence roll (1..100).
INJURY_UP_TO = 40  # 1..40: one mercenary of the party is injured
FEODS_UP_TO = 80  # 41..80: the Guild pays feods (at most what it has); 81..100: driven off

# Random events: each run of the periodic task posts one to a Guild with this probability.
EVENT_CHANCE_PER_RUN = 0.25


def check_party(n: int) -> None:
    """Raise ``RuleViolation`` ``party_empty`` (0 mercenaries) or ``party_too_large`` (more than
    ``MAX_PARTY``)."""
    if n < 1:
        raise RuleViolation("party_empty", "Choose at least one active mercenary to send.")
    if n > MAX_PARTY:
        raise RuleViolation("party_too_large", f"A party has at most {MAX_PARTY} mercenaries.")


def duration_minutes(base_minutes: int, party_size: int) -> int:
    """Minutes a party of ``party_size`` (1..MAX_PARTY) takes where one mercenary takes
    ``base_minutes`` (>= 1): ``ceil(base * 2 / (n + 1))``, at least 1.

    >>> [duration_minutes(120, n) for n in (1, 2, 3, 4)]
    [120, 80, 60, 48]
    """
    check_party(party_size)
    return max(1, math.ceil(base_minutes * 2 / (party_size + 1)))


def acquire_chance(
    base_chance: int, levels: Sequence[int], holder_defense: int | None = None
) -> int:
    """Chance in percent (MIN_CHANCE..MAX_CHANCE) that a party with mercenaries of ``levels``
    (1..5 each) acquires a point of ``base_chance``; ``holder_defense``: the defense rating of
    the Guild holding it (``guilds.rules.DEFENSE_RATING``), None for a free point.

    >>> acquire_chance(50, [1])
    50
    >>> acquire_chance(50, [1, 2, 1])  # two extra mercenaries, one level above 1
    78
    >>> acquire_chance(50, [1], holder_defense=2)  # held, defenses level 2
    30
    """
    check_party(len(levels))
    chance = base_chance + PER_EXTRA_MERCENARY * (len(levels) - 1)
    chance += PER_LEVEL_ABOVE_ONE * sum(max(level - 1, 0) for level in levels)
    if holder_defense is not None:
        chance -= HELD_PENALTY + PER_DEFENSE * holder_defense
    return max(MIN_CHANCE, min(MAX_CHANCE, chance))


def succeeds(roll: int, chance: int) -> bool:
    """An acquisition succeeds when the roll (1..100) is at most the chance (percent)."""
    return roll <= chance


@dataclass(frozen=True)
class Consequence:
    """What a failed acquisition costs. ``kind``: ``injury`` (the party member at index
    ``victim`` is injured, healing costs ``heal_feods``), ``feods`` (the Guild pays ``feods``,
    at most what it has) or ``repelled`` (no loss)."""

    kind: str
    victim: int = 0
    heal_feods: int = 0
    feods: int = 0


def failure_consequence(consequence_roll: int, levels: Sequence[int]) -> Consequence:
    """The consequence of a failed acquisition from ``consequence_roll`` (1..100) and the
    party's ``levels`` (in party order). 1..INJURY_UP_TO: one mercenary injured, picked by the
    roll (``roll % n``), healing ``HEAL_FEODS_PER_LEVEL`` per level; up to FEODS_UP_TO: the
    Guild pays ``FEODS_LOST_BASE + FEODS_LOST_PER_MERCENARY * n`` feods; above: repelled.
    """
    check_party(len(levels))
    if consequence_roll <= INJURY_UP_TO:
        victim = consequence_roll % len(levels)
        return Consequence(
            "injury", victim=victim, heal_feods=HEAL_FEODS_PER_LEVEL * levels[victim]
        )
    if consequence_roll <= FEODS_UP_TO:
        return Consequence("feods", feods=FEODS_LOST_BASE + FEODS_LOST_PER_MERCENARY * len(levels))
    return Consequence("repelled")


def armory_price(price_feods: int, discount_percent: int) -> int:
    """A weapon's price after the armory discount of held control points (percent, capped at
    50), rounded down, at least 1 feod for a priced weapon.

    >>> armory_price(15, 20)
    12
    """
    discount = max(0, min(discount_percent, 50))
    if price_feods <= 0:
        return 0
    return max(1, price_feods * (100 - discount) // 100)

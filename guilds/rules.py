"""Pure rules of the individual game (DemLoc rulebook 5.1, 6.2, 6.3). No Django import.

The rulebook names the Guild's buildings and says that their levels raise what the Guild may
hold (6.1: "enlarging the space of the Dormitory to enlist more mercenaries"; 5.1.1: slots, a
number of mercenaries per type and per level, "changed as you progress"), but prints no numbers.
The tables below are our choice; every number a service checks comes from here, so a test can
cite it and a later balance pass changes it in one place.

Units: feods and blood stones are whole coins (int >= 0); levels are 1..MAX_BUILDING_LEVEL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tabletop.errors import RuleViolation
from tabletop.rules import counted

# --- vocabularies (rulebook names) -------------------------------------------------------------

MERCENARY_TYPES = ("hunter", "belligerent", "sorcerer", "miserable")  # 5.1.1
MERCENARY_LEVELS = (1, 2, 3, 4, 5)
BUILDING_KINDS = ("dormitory", "armory", "library", "guesthouse", "defenses")  # 6.2 item 4
MAX_BUILDING_LEVEL = 5
CURRENCIES = ("fame", "feods", "blood_stones")  # 3, 6.2
# A Guild's name is its Master's seat name at a mission table (6.4 "connect their profiles"):
# one limit for both, the kit's seat name length (tabletop.services.MAX_SEAT_NAME; a test keeps
# them equal), so every Guild can host and join.
GUILD_NAME_MIN, GUILD_NAME_MAX = 2, 60

# A new Guild starts with these balances (6.2, "first access"); our choice.
STARTING_BALANCES: Mapping[str, int] = {"fame": 0, "feods": 150, "blood_stones": 0}


# --- buildings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class UpgradeCost:
    """Price of raising a building to the next level: whole feods and blood stones (>= 0)."""

    feods: int
    blood_stones: int = 0


# Price of reaching level N (index N): level 1 is free, every Guild starts there. Blood stones
# are rare (won in missions and from control points, 6.2), so only the last two levels ask them.
UPGRADE_COSTS: Mapping[str, tuple[UpgradeCost | None, ...]] = {
    kind: (
        None,
        None,
        UpgradeCost(feods=base * 1),
        UpgradeCost(feods=base * 2),
        UpgradeCost(feods=base * 4, blood_stones=1),
        UpgradeCost(feods=base * 8, blood_stones=3),
    )
    for kind, base in {
        "dormitory": 60,
        "armory": 40,
        "library": 50,
        "guesthouse": 40,
        "defenses": 50,
    }.items()
}

# Dormitory (5.1.1): slots, then per mercenary type, then per mercenary level 1..5.
DORMITORY_SLOTS: Mapping[int, int] = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}
DORMITORY_PER_TYPE: Mapping[int, int] = {1: 2, 2: 3, 3: 3, 4: 4, 5: 5}
# Level 1 mercenaries are limited by the slots alone.
DORMITORY_PER_LEVEL = (
    None,
    {2: 2, 3: 1, 4: 0, 5: 0},
    {2: 3, 3: 2, 4: 1, 5: 0},
    {2: 4, 3: 3, 4: 2, 5: 1},
    {2: 5, 3: 4, 4: 3, 5: 2},
    {2: 6, 3: 5, 4: 4, 5: 3},
)
# Fame a Guild needs to enlist a mercenary of each level (6.3: "if his Guild is famous enough").
# Level 1 is always open, whatever the fame (our rule: a new Guild that loses its
# first standard mission falls below 0 fame, and 6.4.1 lets players "return to the individual
# game mode to manage the Guild and prepare for a new collective game": a Guild must always be
# able to rebuild from level-1 mercenaries; the slot, type and level limits of 5.1.1 still apply).
FAME_FOR_LEVEL: Mapping[int, int] = {1: 0, 2: 10, 3: 30, 4: 60, 5: 100}
ALWAYS_OPEN_LEVEL = 1

# By building level 1..5:
ARMORY_CAPACITY: Mapping[int, int] = {1: 8, 2: 12, 3: 16, 4: 24, 5: 32}  # weapon cards held
LIBRARY_CAPACITY: Mapping[int, int] = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}  # arcane code cards held
PANTHEON_CAPACITY: Mapping[int, int] = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}  # daemons, by library level
GUESTHOUSE_CAPACITY: Mapping[int, int] = {1: 2, 2: 3, 3: 4, 4: 6, 5: 8}  # permanent followers
DEFENSE_RATING: Mapping[int, int] = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}  # read by the city (raids, events)


def upgrade_cost(kind: str, current_level: int) -> UpgradeCost:
    """Cost of raising building ``kind`` from ``current_level`` (1..4) to the next level.

    Raises ``RuleViolation("unknown_building")`` and ``RuleViolation("building_max_level")``
    when the building is already at ``MAX_BUILDING_LEVEL`` (DemLoc rulebook 6.2 item 4).
    """
    if kind not in UPGRADE_COSTS:
        raise RuleViolation("unknown_building", f"There is no building called {kind!r}.")
    if current_level >= MAX_BUILDING_LEVEL:
        raise RuleViolation("building_max_level", "This building is already at its top level.")
    cost = UPGRADE_COSTS[kind][current_level + 1]
    assert cost is not None
    return cost


def building_effects(kind: str, level: int) -> dict[str, object]:
    """What a building at ``level`` gives, for pages and the API (keys per kind)."""
    if kind == "dormitory":
        return {
            "slots": DORMITORY_SLOTS[level],
            "per_type": DORMITORY_PER_TYPE[level],
            "per_level": dict(DORMITORY_PER_LEVEL[level]),
        }
    if kind == "armory":
        return {"weapons": ARMORY_CAPACITY[level]}
    if kind == "library":
        return {"arcane_codes": LIBRARY_CAPACITY[level], "pantheon": PANTHEON_CAPACITY[level]}
    if kind == "guesthouse":
        return {"followers": GUESTHOUSE_CAPACITY[level]}
    if kind == "defenses":
        return {"defense": DEFENSE_RATING[level]}
    raise RuleViolation("unknown_building", f"There is no building called {kind!r}.")


# --- dormitory limits (5.1.1) -------------------------------------------------------------------


@dataclass(frozen=True)
class LimitBonus:
    """A raise of a dormitory limit from outside the buildings (city control, 5.1.1).

    ``kind``: "slots", "type" (``key`` a mercenary type) or "level" (``key`` "1".."5");
    ``amount``: whole number, may be negative (a lost control point may take a bonus away).
    """

    kind: str
    amount: int
    key: str = ""


# Home areas (5.1.1: the limits per type and per level depend on "the areas of DemLoc where the
# Guild is based and ... the control it exercises over the different areas of the city"). Our
# rule, the rulebook gives no numbers: a Guild is based in every area where it holds
# at least HOME_AREA_MIN_POINTS control points; at most MAX_HOME_AREAS of them count; each home
# area raises the per-type limit of every mercenary type by HOME_AREA_PER_TYPE and the level-2
# limit by HOME_AREA_LEVEL_2. A new Guild holds no point: no home area, the building's limits.
HOME_AREA_MIN_POINTS = 1
MAX_HOME_AREAS = 2
HOME_AREA_PER_TYPE = 1
HOME_AREA_LEVEL_2 = 1


def home_areas(points_per_area: Mapping[str, int]) -> list[str]:
    """The Guild's home areas from ``{area name: control points held there}``: those with at
    least ``HOME_AREA_MIN_POINTS``, most points first (then by name), at most
    ``MAX_HOME_AREAS`` (5.1.1, our numbers above)."""
    based = [(-n, a) for a, n in points_per_area.items() if n >= HOME_AREA_MIN_POINTS]
    return [a for _, a in sorted(based)][:MAX_HOME_AREAS]


def home_area_bonuses(areas: Iterable[str]) -> list[LimitBonus]:
    """The limit raises given by ``areas`` (the Guild's home areas): per area, +1 per type for
    every type and +1 at level 2 (5.1.1, our numbers above)."""
    out: list[LimitBonus] = []
    for _ in list(areas)[:MAX_HOME_AREAS]:
        out += [LimitBonus("type", HOME_AREA_PER_TYPE, t) for t in MERCENARY_TYPES]
        out.append(LimitBonus("level", HOME_AREA_LEVEL_2, "2"))
    return out


@dataclass(frozen=True)
class DormitoryLimits:
    """How many living mercenaries a Guild may hold: in all, per type, per level (a level
    missing from ``per_level`` is limited by the slots alone)."""

    slots: int
    per_type: Mapping[str, int]
    per_level: Mapping[int, int]
    fame_for_level: Mapping[int, int] = field(default_factory=lambda: dict(FAME_FOR_LEVEL))


def dormitory_limits(level: int, bonuses: Iterable[LimitBonus] = ()) -> DormitoryLimits:
    """Limits of a dormitory at ``level`` (1..5) plus ``bonuses`` (DemLoc rulebook 5.1.1).

    A limit never drops below 0.
    """
    slots = DORMITORY_SLOTS[level]
    per_type = {t: DORMITORY_PER_TYPE[level] for t in MERCENARY_TYPES}
    per_level = dict(DORMITORY_PER_LEVEL[level])
    for bonus in bonuses:
        if bonus.kind == "slots":
            slots += bonus.amount
        elif bonus.kind == "type" and bonus.key in per_type:
            per_type[bonus.key] += bonus.amount
        elif bonus.kind == "level" and bonus.key.isdigit() and int(bonus.key) in per_level:
            per_level[int(bonus.key)] += bonus.amount
    return DormitoryLimits(
        slots=max(slots, 0),
        per_type={t: max(n, 0) for t, n in per_type.items()},
        per_level={lv: max(n, 0) for lv, n in per_level.items()},
    )


@dataclass(frozen=True)
class Enlisted:
    """A mercenary that counts against the dormitory limits: its card's type and level."""

    type: str
    level: int


def check_enlist(
    limits: DormitoryLimits, enlisted: Iterable[Enlisted], new: Enlisted, fame: int
) -> None:
    """Check that a mercenary of ``new`` type and level may join the dormitory (5.1.1, 6.3).

    ``enlisted``: the living mercenaries already there (dead ones stay listed but free their
    slot: they can never be used again, 6.4.1 resolution phase). Level 1 needs no fame at all
    (``ALWAYS_OPEN_LEVEL``: even a Guild of negative fame can rebuild). Raises ``RuleViolation``
    with code ``fame_too_low``, ``slots_full``, ``type_limit_reached`` or ``level_limit_reached``.
    """
    enlisted = list(enlisted)
    needed = limits.fame_for_level.get(new.level, 0)
    if new.level > ALWAYS_OPEN_LEVEL and fame < needed:
        raise RuleViolation(
            "fame_too_low",
            f"A level {new.level} mercenary joins a Guild with at least {needed} fame "
            f"(yours: {fame}).",
        )
    if len(enlisted) >= limits.slots:
        raise RuleViolation(
            "slots_full",
            f"The dormitory is full ({counted(limits.slots, 'slot')}). Upgrade it or dismiss someone.",
        )
    same_type = sum(1 for m in enlisted if m.type == new.type)
    if same_type >= limits.per_type.get(new.type, 0):
        raise RuleViolation(
            "type_limit_reached",
            f"Your Guild may hold {counted(limits.per_type.get(new.type, 0), f'{new.type} mercenary', f'{new.type} mercenaries')}.",
        )
    same_level = sum(1 for m in enlisted if m.level == new.level)
    if new.level in limits.per_level and same_level >= limits.per_level[new.level]:
        raise RuleViolation(
            "level_limit_reached",
            f"Your Guild may hold {counted(limits.per_level.get(new.level, 0), 'mercenary', 'mercenaries')} of "
            f"level {new.level}.",
        )


# --- weapons (5.1.4) ----------------------------------------------------------------------------

PRIMARY = "primary"  # the top space
SECONDARY = "secondary"  # the lower space
SLOTS = (PRIMARY, SECONDARY)


@dataclass(frozen=True)
class Held:
    """A weapon in one of a mercenary's two spaces: ``slot`` and whether it is two-handed."""

    slot: str
    two_handed: bool


def choose_slot(held: Iterable[Held], two_handed: bool, slot: str | None) -> str:
    """The space a new weapon goes to, checking the grip rule (DemLoc rulebook 5.1.4).

    - a two-handed weapon only in the top (primary) space, and only with nothing below;
    - one-handed weapons in either space, two at once; the top one is the primary;
    - nothing goes below a two-handed weapon, and nothing below an empty top space.

    ``slot`` None: the first free space, top first. Raises ``RuleViolation`` with code
    ``bad_slot``, ``slot_occupied``, ``two_handed_needs_top``, ``two_handed_needs_free_hands``,
    ``hands_full`` or ``primary_slot_empty``.
    """
    by_slot = {h.slot: h for h in held}
    if slot is not None and slot not in SLOTS:
        raise RuleViolation("bad_slot", "A weapon goes in the primary or secondary space.")
    if two_handed:
        if slot == SECONDARY:
            raise RuleViolation(
                "two_handed_needs_top", "A two-handed weapon only goes in the top space."
            )
        if by_slot:
            raise RuleViolation(
                "two_handed_needs_free_hands",
                "A two-handed weapon needs both spaces free: unequip the other weapon first.",
            )
        return PRIMARY
    top = by_slot.get(PRIMARY)
    if top is not None and top.two_handed:
        raise RuleViolation(
            "hands_full", "Nothing can be held below a two-handed weapon: unequip it first."
        )
    if slot is None:
        free = [s for s in SLOTS if s not in by_slot]
        if not free:
            raise RuleViolation("hands_full", "Both spaces already hold a weapon.")
        return free[0]
    if slot in by_slot:
        raise RuleViolation("slot_occupied", f"The {slot} space already holds a weapon.")
    if slot == SECONDARY and top is None:
        raise RuleViolation(
            "primary_slot_empty", "Equip the top (primary) space before the lower one."
        )
    return slot


def equip_refusals(held_by: dict[int, list[Held]], candidates: Iterable[int],
                   two_handed: bool) -> dict[int, str]:
    """Who of ``candidates`` (mercenary ids) can take a weapon into the first free space now
    (5.1.4, ``choose_slot`` with no space asked for): ``{id: ""}`` for those who can, ``{id:
    the grip rule's refusal in a few words}`` (``EQUIP_SHORT``) for those who cannot. ``held_by``: the weapons each mercenary
    holds (an id missing: none). The Armory's Equip picker marks the latter and picks the
    first of the former (a new user's picker had a two-handed bow's holder picked for a pike)."""
    out = {}
    for mid in candidates:
        try:
            choose_slot(held_by.get(mid, ()), two_handed, None)
            out[mid] = ""
        except RuleViolation as exc:
            out[mid] = EQUIP_SHORT.get(exc.code, exc.message)
    return out


#: The grip rule's refusals (``choose_slot`` with no space asked for) in the few words an
#: option of the Equip picker has room for.
EQUIP_SHORT = {
    "two_handed_needs_free_hands": "holds a weapon; a two-handed one needs both hands",
    "hands_full": "hands full",
}


# --- arcane codes (5.1.5) -----------------------------------------------------------------------


def arcane_code_capacity(arcane_ability: int) -> int:
    """How many Arcane Code cards one character may hold: its arcane ability (0..n).

    The rulebook (5.1.5, 7.2.3) ties the mana a character can use and the seals it bears to its
    arcane ability but prints no limit on codes; we choose "one code per point of arcane
    ability", so a character with arcane ability 0 holds none.
    """
    return max(arcane_ability, 0)


def summon_beyond_reach(name: str, arcane_ability: int, common: int, dark: int,
                        powers_ok: bool = True) -> str:
    """Words for an Arcane Code whose daemon summoning costs more mana than ``name`` can ever
    hold (5.1.1 Arcane ability: "the number of maximum arcane dice available to that
    character"; 5.1.5 daemon summoning cost), or "" when the summoning can be paid.
    ``powers_ok``: every power of the code can be paid (``powers_beyond_reach``): the words
    then say its powers can be used."""
    total = common + dark
    if not total or total <= arcane_ability:
        return ""
    then = "they can use its powers but never summon with it" if powers_ok else \
        "they never summon with it"
    return f"Its summoning needs {total} mana; {name} holds at most {arcane_ability}: {then}."


def powers_beyond_reach(name: str, arcane_ability: int,
                        powers: Iterable[tuple[str, int, int]]) -> str:
    """Words for the powers of an Arcane Code (``(power name, common, dark)`` mana each, 5.1.5)
    that cost more mana than ``name`` can ever hold (5.1.1 Arcane ability: at most that many
    arcane dice, so at most that much mana at once), or "" when each can be paid (a new user
    bought a codex whose Drowning Hymn costs 3 for a sorcerer holding at most 2, and only its
    summoning was warned of)."""
    dear = [(p, c + d) for p, c, d in powers if c + d > arcane_ability]
    if not dear:
        return ""
    said = ", ".join(f"{p} ({cost} mana)" for p, cost in dear)
    return f"{name} holds at most {arcane_ability} mana: never casts {said}."


def check_code_assign(arcane_ability: int, held: int) -> None:
    """Check a character may take one more Arcane Code card (5.1.5).

    Raises ``RuleViolation("no_arcane_ability")`` for arcane ability 0 and
    ``RuleViolation("codes_full")`` when it already holds ``arcane_code_capacity`` codes.
    """
    if arcane_ability <= 0:
        raise RuleViolation(
            "no_arcane_ability", "Only characters with arcane ability above 0 use Arcane Codes."
        )
    if held >= arcane_code_capacity(arcane_ability):
        raise RuleViolation(
            "codes_full",
            f"A character with arcane ability {arcane_ability} holds at most "
            f"{arcane_code_capacity(arcane_ability)} Arcane Codes.",
        )


# --- set codes ----------------------------------------------------------------------------------

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a printed card


def normalize_code(raw: str) -> str:
    """A code as typed (any case, spaces, dashes) in its stored form ``XXXX-XXXX-XXXX``.

    Returns "" when nothing alphanumeric was typed.
    """
    chars = "".join(c for c in (raw or "").upper() if c.isalnum())
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))

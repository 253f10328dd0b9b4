"""Arcane: mana, powers, broken seals and possession. DemLoc rulebook 6.4.2 ("assign broken
seals", "daemon possessed"), 7.2.3 (arcane sub-phase), 7.2.3.1 (using a power), 7.2.3.5
(arcane test), 8.2 (standard power effects), 8.3 (pentacle effects).
"""

from __future__ import annotations

import copy

from tabletop.errors import RuleViolation

from .cards import parse_feature, possession_limit
from .damage import GENERAL, HIT, add_poison, assign_damage, in_play

#: Table option ``seals``: when the broken seals make a character possessed.
SEALS_EXCEEDED = "exceeded"  # 7.2.3: "when the set limit ... is exceeded" (default)
SEALS_REACHES = "reaches"  # 6.4.2: "if the character reaches the maximum seals"


def is_over_seal_limit(seals: int, arcane: int, rule: str = SEALS_EXCEEDED) -> bool:
    """Whether ``seals`` broken seals possess a character of arcane ability ``arcane``.

    The rulebook says "reaches" in 6.4.2 and "exceeded" in 7.2.3; the table option ``seals``
    chooses, default ``"exceeded"`` (7.2.3 is the chapter that defines the effect and lists the
    limits). Limits: ``possession_limit`` (0/1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4).
    """
    limit = possession_limit(arcane)
    return seals >= limit if rule == SEALS_REACHES else seals > limit


def possess(piece: dict) -> tuple[dict, list[str]]:
    """Give the possessed effect (7.2.3): the character loses control after its mana is spent
    ("after exhausting all the character's mana"), so its mana goes to 0."""
    p = copy.deepcopy(piece)
    if p["possessed"] or not in_play(p):
        return p, []
    p["possessed"] = True
    p["mana"] = {"common": 0, "dark": 0}
    return p, [
        f"{p['name']} has {p['seals']} broken seals (limit {possession_limit(p['arcane'])}): "
        "possessed by a daemon! It acts no more; it moves by the out-of-control card each turn."
    ]


def add_seals(
    piece: dict, count: int, rule: str = SEALS_EXCEEDED, has_effect: bool = True
) -> tuple[dict, list[str]]:
    """Add ``count`` broken seals (negative removes, never below 0; 6.4.2).

    ``has_effect`` False: the seals rolled while channelling in the setup (6.4.1), when a daemon
    leaves (7.2.3.3) or during an arcane test (7.2.3.5) are not counted at all. Crossing the
    limit gives the possessed effect automatically (``is_over_seal_limit``). Removing seals
    never removes the possessed effect (only freeing does, 7.2.3.5).
    """
    p = copy.deepcopy(piece)
    if not has_effect or count == 0 or not in_play(p):
        if not has_effect and count:
            return p, [f"{p['name']}: {count} broken seal(s) rolled, without effect here."]
        return p, []
    before = p["seals"]
    p["seals"] = max(0, before + count)
    lines = [f"{p['name']}: broken seals {before} -> {p['seals']}."] if p["seals"] != before else []
    if count > 0 and is_over_seal_limit(p["seals"], p["arcane"], rule):
        p, more = possess(p)
        lines += more
    return p, lines


def channel(
    piece: dict, common: int, dark: int, seals: int, *, setup: bool, rule: str = SEALS_EXCEEDED
) -> tuple[dict, list[str]]:
    """Channel mana (7.2.3 "Channeling mana"; in the setup 6.4.1): the arcane dice rolled show
    ``common`` white, ``dark`` black and ``seals`` broken seals. The dice rolled are at most the
    arcane ability minus the mana already channelled (each cube is a die kept on the card).
    Outside the setup the movement token must be active and the seals count.
    Raises ``RuleViolation`` ``no_arcane``, ``too_many_dice``, ``not_active``, ``bad_count``.
    """
    if min(common, dark, seals) < 0 or common + dark + seals == 0:
        raise RuleViolation("bad_count", "Enter what the arcane dice show.")
    if piece["arcane"] <= 0:
        raise RuleViolation("no_arcane", f"{piece['name']} has no arcane ability.")
    held = piece["mana"]["common"] + piece["mana"]["dark"]
    free = piece["arcane"] - held
    if common + dark + seals > free:
        raise RuleViolation(
            "too_many_dice", f"{piece['name']} can roll {max(0, free)} arcane dice now."
        )
    if not setup and piece["movement"] != "active":
        raise RuleViolation("not_active", "Channelling needs an active movement token.")
    p = copy.deepcopy(piece)
    p["mana"]["common"] += common
    p["mana"]["dark"] += dark
    lines = [
        f"{p['name']} channels {common} common and {dark} dark mana (now {p['mana']['common']} common, {p['mana']['dark']} dark)."
    ]
    if seals:
        p, more = add_seals(p, seals, rule, has_effect=not setup)
        lines += more
    return p, lines


def pay(piece: dict, cost: dict, extra: dict | None = None) -> tuple[dict, list[str]]:
    """Spend mana: ``cost`` ``{"common", "dark"}`` exactly by colour, plus ``extra`` mana of the
    player's choice when the movement token is exhausted, one per level (7.2.3.1).
    Raises ``RuleViolation`` ``not_enough_mana``, ``bad_extra``."""
    extra = extra or {"common": 0, "dark": 0}
    need_extra = piece["level"] if piece["movement"] == "exhausted" else 0
    if extra.get("common", 0) + extra.get("dark", 0) != need_extra:
        raise RuleViolation(
            "bad_extra",
            f"{piece['name']} is exhausted: pay {need_extra} extra mana (one per level)."
            if need_extra
            else "No extra mana is due.",
        )
    p = copy.deepcopy(piece)
    for colour in ("common", "dark"):
        due = cost.get(colour, 0) + extra.get(colour, 0)
        if p["mana"][colour] < due:
            raise RuleViolation("not_enough_mana", f"{p['name']} lacks {colour} mana.")
        p["mana"][colour] -= due
    spent = f"{cost.get('common', 0) + extra.get('common', 0)} common, {cost.get('dark', 0) + extra.get('dark', 0)} dark"
    return p, [
        f"{p['name']} spends {spent} mana"
        + (f" (including {need_extra} extra: exhausted)" if need_extra else "")
        + "."
    ]


def apply_effect(target: dict, effect: str) -> tuple[dict, list[str]]:
    """Apply one standard arcane effect (8.2) or pentacle strike (8.3) to ``target``:
    ``HIT x`` (armor first), ``ARCANE HIT x`` (hit factor), ``CARE x`` (remove x broken hearts,
    not on a character out of play), ``REPAIR x`` (remove x broken armor tokens), ``POISON x``
    (only if not yet poisoned), ``STUNNING`` (movement token exhausted), ``VIGOR x`` and
    ``WEAKNESS x`` (hand-to-hand +x / -x for this turn). Another name is a unique effect: logged,
    to be applied by hand. Raises ``RuleViolation("bad_feature")`` for a malformed effect."""
    name, x = parse_feature(effect)
    x = 1 if x is None else x
    t = target["name"]
    if not in_play(target):
        return copy.deepcopy(target), [f"{t} is not in play: {effect} has no effect."]
    if name == "HIT":
        p, lines = assign_damage(target, x, GENERAL)
        return p, [f"HIT {x} on {t} (armor first)."] + lines
    if name == "ARCANE HIT":
        p, lines = assign_damage(target, x, HIT)
        return p, [f"ARCANE HIT {x} on {t} (hit factor)."] + lines
    p = copy.deepcopy(target)
    if name == "CARE":
        removed = min(x, p["broken_hearts"])
        p["broken_hearts"] -= removed
        return p, [f"CARE {x}: {t} loses {removed} broken heart token(s)."]
    if name == "REPAIR":
        removed = min(x, p["broken_armor"])
        p["broken_armor"] -= removed
        return p, [f"REPAIR {x}: {t} loses {removed} broken armor token(s)."]
    if name == "POISON":
        return add_poison(p, x)
    if name == "STUNNING":
        p["movement"] = "exhausted"
        return p, [f"STUNNING: {t}'s movement token is exhausted."]
    if name == "VIGOR":
        p["vigor"] += x
        return p, [f"VIGOR {x}: {t} has +{x} hand-to-hand this turn."]
    if name == "WEAKNESS":
        p["weakness"] += x
        return p, [f"WEAKNESS {x}: {t} has -{x} hand-to-hand this turn (at least 1 die)."]
    return p, [f"{effect} on {t}: a unique effect, apply it as the card says."]


#: Table option ``free_possessed``: how the +3 of 7.2.3.5 applies to the arcane test.
FREE_PENALTY = (
    "penalty"  # literal: +3 added to the die, which must still be at or under the ability
)
FREE_BONUS = "bonus"  # reading the +3 as help: the die is compared to the ability + 3


def free_possessed_modifier(rule: str) -> tuple[int, int]:
    """``(added to the roll, added to the ability)`` of the arcane test that frees a possessed
    character (7.2.3.5: "adding +3 to the result obtained by rolling the dice"). Read literally
    (default ``"penalty"``) +3 makes the test harder; ``"bonus"`` reads it as a help."""
    return (3, 0) if rule == FREE_PENALTY else (0, 3)

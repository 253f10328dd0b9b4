"""The shooting calculator. DemLoc rulebook 7.2.1 ("ability test"), 7.2.2 (shooting sub-phase),
7.2.2.3 (modifiers), 7.2.2.4 (hitting), 5.6 (out-of-control card), 8.1 (weapon features).

The dice are physical: players enter what they rolled; these functions do the arithmetic and
return every step as plain words so the phones can show it before the player confirms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.errors import RuleViolation

from .cards import feature_value, has_feature


@dataclass(frozen=True)
class AbilityTest:
    """An ability test (7.2.1): ``roll`` the d6, ``fate`` points spent (each lowers the roll by
    1, never below 1), ``modifier`` added to the lowered roll (7.2.3.5: +3 to free a possessed
    character), ``ability`` the factor tested. Passed when the result is at or under it."""

    roll: int
    fate: int
    modifier: int
    ability: int
    result: int
    passed: bool
    lines: tuple[str, ...] = ()


def ability_test(
    roll: int, ability: int, fate: int = 0, modifier: int = 0, name: str = "ability"
) -> AbilityTest:
    """Resolve an ability test (DemLoc rulebook 7.2.1 "Details about the ability test").

    ``roll``: the d6 rolled, 1..6; ``fate``: fate points spent, >= 0; ``modifier``: added to
    the result after the fate points. Raises ``RuleViolation("bad_roll")`` for a roll outside
    1..6 or negative fate points.
    """
    if not isinstance(roll, int) or not 1 <= roll <= 6:
        raise RuleViolation("bad_roll", "A d6 shows 1 to 6.")
    if fate < 0:
        raise RuleViolation("bad_fate", "Fate points spent cannot be negative.")
    lowered = max(1, roll - fate)
    result = lowered + modifier
    passed = result <= ability
    lines = [f"{name} test: rolled {roll}"]
    if fate:
        lines.append(f"- {fate} fate point(s) -> {lowered} (never below 1)")
    if modifier:
        lines.append(f"{modifier:+d} -> {result}")
    lines.append(f"against {name} {ability}: {'passed' if passed else 'failed'}")
    return AbilityTest(roll, fate, modifier, ability, result, passed, (" ".join(lines),))


OUT_OF_CONTROL_DIRECTIONS = {
    1: "near left (towards you, on your left)",
    2: "near (towards you)",
    3: "near right (towards you, on your right)",
    4: "left",
    6: "right",
    7: "far left (away from you, on your left)",
    8: "far (away from you)",
    9: "far right (away from you, on your right)",
}


def out_of_control(rng) -> dict:
    """Roll the out-of-control d10 (5.6) with ``rng``: 10 is rolled again, 5 means no effect.

    Returns ``{"rolls": [..], "result": 1..9, "direction": words or None}``. The card is laid
    with its marker towards the rolling player; we read the d10 like a phone keypad seen from
    that player (8 = the square beyond the target, 2 = the square on the player's side), which
    the printed card shows as a picture the text does not describe.
    """
    rolls = []
    while True:
        value = rng.d(10)
        rolls.append(value)
        if value != 10:
            break
    result = rolls[-1]
    return {"rolls": rolls, "result": result, "direction": OUT_OF_CONTROL_DIRECTIONS.get(result)}


def shooting_dice(shooter: dict) -> int:
    """Fighting dice rolled to shoot (7.2.2.3): the ranged weapon ability minus 1 for each
    broken heart token, at least 1 (the rulebook is silent on 0; a character that may shoot
    always rolls one die, like WEAKNESS in 8.2)."""
    return max(1, shooter["ranged"] - shooter["broken_hearts"])


def target_shield(target: dict) -> int:
    """SHIELD x of the target's weapons (8.1) plus the SHIELD x of its summoning pentacle while
    its arcane code is in the post-summoning asset (8.3)."""
    shield = sum(feature_value(w["features"], "SHIELD") for w in target.get("weapons", []))
    code = target.get("code")
    if code and code.get("pentacle") and target.get("asset") == "post_summoning":
        shield += feature_value(code["pentacle"]["effects"], "SHIELD")
    return shield


@dataclass(frozen=True)
class ShotResult:
    """The calculator's proposal. ``outcome``: ``"none"``, ``"armor"`` (the weapon damage to the
    armor, general damage) or ``"hit"`` (``damage`` to the hit factor); ``total`` the attack
    total; ``armor`` the armor factor + SHIELD; ``lines`` the arithmetic in words."""

    total: int
    armor: int
    outcome: str
    damage: int
    lines: tuple[str, ...] = field(default_factory=tuple)


def resolve_shot(
    shooter: dict,
    target: dict,
    weapon: dict,
    dice: list[int],
    *,
    positioned: bool = False,
    cover: int = 0,
    extra: int = 0,
) -> ShotResult:
    """Attack total and effect of a shot (DemLoc rulebook 7.2.2.3, 7.2.2.4).

    ``dice``: the fighting dice rolled, as many as ``shooting_dice(shooter)``, each 1..6 except
    the enhanced die of a positioned shot (the last one, 1..12: its faces are not printed in the
    rulebook). ``positioned``: positioned shooting (the shooter's movement token must be active;
    it becomes exhausted). ``cover``: elements partially covering the view (-1 each).
    ``extra``: any other bonus or penalty from a weapon, power or ability.

    Total = sum of dice + ranged bonus + 1 (favourite weapon type) - cover - 1 (the shooter's
    movement token is exhausted and the shot is not positioned; we read "-1 to the value of
    fighting dice" as -1 to the total) + extra.
    Against armor = armor factor + SHIELD: lower, no effect; equal, the weapon damage to the armor
    (with 3 broken armor tokens it counts as greater); greater, (weapon damage + difference) -
    impact resistance to the hit factor, never below 0, the impact resistance ignored for a
    PERFORATING weapon or a target with 3 broken armor tokens.

    Raises ``RuleViolation`` (``bad_dice``, ``not_active``) for malformed input.
    """
    count = shooting_dice(shooter)
    if len(dice) != count:
        raise RuleViolation("bad_dice", f"{shooter['name']} rolls {count} fighting dice to shoot.")
    for i, value in enumerate(dice):
        high = 12 if positioned and i == len(dice) - 1 else 6
        if not isinstance(value, int) or not 1 <= value <= high:
            raise RuleViolation("bad_dice", f"A fighting die shows 1 to {high}.")
    if positioned and shooter["movement"] != "active":
        raise RuleViolation("not_active", "A positioned shot needs an active movement token.")
    lines = [
        f"Dice {' + '.join(map(str, dice))} = {sum(dice)}"
        + (" (last die enhanced: positioned shot)" if positioned else "")
    ]
    total = sum(dice)
    if shooter.get("ranged_bonus"):
        total += shooter["ranged_bonus"]
        lines.append(f"+{shooter['ranged_bonus']} ranged ability bonus -> {total}")
    if shooter.get("favourite") and weapon.get("type") == shooter["favourite"]:
        total += 1
        lines.append(f"+1 favourite weapon -> {total}")
    if cover:
        total -= cover
        lines.append(f"-{cover} partial cover -> {total}")
    if shooter["movement"] == "exhausted" and not positioned:
        total -= 1
        lines.append(f"-1 movement token exhausted -> {total}")
    if extra:
        total += extra
        lines.append(f"{extra:+d} other effects -> {total}")
    shield = target_shield(target)
    armor = target["armor"] + shield
    lines.append(
        f"Attack {total} against armor {target['armor']}"
        + (f" + SHIELD {shield} = {armor}" if shield else "")
    )
    three_broken = target["broken_armor"] >= 3
    damage_value = weapon["damage"]
    if total < armor:
        lines.append("Lower: no effect.")
        return ShotResult(total, armor, "none", 0, tuple(lines))
    if total == armor and not three_broken:
        lines.append(f"Equal: the weapon damage {damage_value} goes to the armor.")
        return ShotResult(total, armor, "armor", damage_value, tuple(lines))
    difference = total - armor
    if total == armor:
        lines.append("Equal, but 3 broken armor tokens: counts as greater.")
    ignore_ir = has_feature(weapon["features"], "PERFORATING") or three_broken
    impact = 0 if ignore_ir else target["impact"]
    damage = max(0, damage_value + difference - impact)
    why = (
        " (PERFORATING: impact resistance ignored)"
        if has_feature(weapon["features"], "PERFORATING")
        else " (3 broken armor tokens: impact resistance ignored)"
        if three_broken
        else ""
    )
    lines.append(
        f"Greater by {difference}: ({damage_value} + {difference}) - {impact} = {damage} to the hit factor{why}."
    )
    return ShotResult(total, armor, "hit", damage, tuple(lines))

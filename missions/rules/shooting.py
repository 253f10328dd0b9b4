"""Shooting: the ability test, the shooting calculator and the command ``demloc.shot.propose``
(its events ``demloc.shot.proposed`` / ``demloc.shot.strayed`` and folds; applying a proposal
is ``missions.rules.calc``). DemLoc rulebook 7.2.1 ("ability test"), 7.2.2 (shooting
sub-phase), 7.2.2.3 (modifiers), 7.2.2.4 (hitting), 5.6 (out-of-control card: a failed test
strays), 8.1 (weapon features).

The dice are physical: players enter what they rolled; these functions do the arithmetic and
return every step as plain words so the phones can show it before the player confirms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, counted

from . import activation
from .abilities import extra_shot_dice
from .cards import feature_value, has_feature
from .common import (
    dice_list,
    fate_amount,
    no_pending,
    not_possessed,
    num,
    own_piece,
    piece,
    piece_name,
    play_command,
    player,
    set_piece,
)
from .damage import ARMOR_ONLY, GENERAL, HIT, assign_damage, weapon_token_words, weapon_tokens
from .possession import OUT_OF_CONTROL_DIRECTIONS, out_of_control, stray_direction
from .state import DemlocState

shooting = Topic("shooting")


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
        lines.append(f"- {counted(fate, 'fate point')} -> {lowered} (never below 1)")
    if modifier:
        lines.append(f"{modifier:+d} -> {result}")
    lines.append(f"against {name} {ability}: {'passed' if passed else 'failed'}")
    return AbilityTest(roll, fate, modifier, ability, result, passed, (" ".join(lines),))


def record_test(test: AbilityTest) -> dict:
    """The numbers of an ability test an event carries (7.2.1): ``{"roll": the d6,
    "modifier": added after the fate points, "ability": the factor tested}`` (the fate points
    are the event's own ``fate``). ``tested_words`` words them again."""
    return {"roll": test.roll, "modifier": test.modifier, "ability": test.ability}


def tested_words(data: dict, name: str) -> tuple[str, ...]:
    """An event's ability test in words (7.2.1): its ``test`` (``record_test``) with its
    ``fate``, the factor called ``name`` ("Ranged weapon", "Arcane", "Hand-to-hand"). An event
    stored before events carried numbers has its words in ``lines``: read as stored."""
    if "lines" in data:
        return tuple(data["lines"])
    test = data["test"]
    return ability_test(
        test["roll"], test["ability"], data["fate"], test.get("modifier", 0), name=name
    ).lines


def shooting_dice(shooter: dict, extra_dice: int = 0) -> int:
    """Fighting dice rolled to shoot (7.2.2.3): the ranged weapon ability minus 1 for each
    broken heart token, at least 1 (the rulebook is silent on 0; a character that may shoot
    always rolls one die, like WEAKNESS in 8.2), plus ``extra_dice``: what the shooter's
    abilities used in this phase add (5.1.1, Steady Aim "Roll one extra fighting die in this
    shooting sub-phase": ``abilities.extra_shot_dice``)."""
    return max(1, shooter["ranged"] - shooter["broken_hearts"]) + extra_dice


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
    total; ``armor`` the armor factor + SHIELD; ``steps`` the numbers it was worked out from
    (``shot_steps``: what the event ``demloc.shot.proposed`` carries); ``lines`` the arithmetic
    in words."""

    total: int
    armor: int
    outcome: str
    damage: int
    lines: tuple[str, ...] = field(default_factory=tuple)
    steps: dict = field(default_factory=dict)


def resolve_shot(
    shooter: dict,
    target: dict,
    weapon: dict,
    dice: list[int],
    *,
    positioned: bool = False,
    cover: int = 0,
    extra: int = 0,
    no_step_back: bool = False,
    extra_dice: int = 0,
) -> ShotResult:
    """Attack total and effect of a shot (DemLoc rulebook 7.2.2.3, 7.2.2.4).

    ``dice``: the fighting dice rolled, as many as ``shooting_dice(shooter)``, each 1..6 except
    the enhanced die of a positioned shot (the last one, 1..12: its faces are not printed in the
    rulebook). ``positioned``: positioned shooting (the shooter's movement token must be active;
    it becomes exhausted). ``cover``: elements partially covering the view (-1 each).
    ``extra_dice``: the fighting dice the shooter's abilities add this phase (5.1.1).
    ``extra``: any other bonus or penalty from a weapon, power or ability.

    The numbers are gathered by ``shot_steps`` and worked out by ``work_shot`` (its docstring
    has the arithmetic). Raises ``RuleViolation`` (``bad_dice``, ``not_active``) for malformed
    input.
    """
    check_shot_dice(shooter, dice, positioned, extra_dice)
    if positioned and shooter["movement"] != "active":
        raise RuleViolation("not_active", "A positioned shot needs an active movement token.")
    steps = shot_steps(
        shooter, target, weapon, dice,
        positioned=positioned, cover=cover, extra=extra, no_step_back=no_step_back,
    )
    return work_shot(steps)


def shot_steps(
    shooter: dict,
    target: dict,
    weapon: dict,
    dice: list[int],
    *,
    positioned: bool,
    cover: int,
    extra: int,
    no_step_back: bool,
) -> dict:
    """Every number a shot is worked out from (7.2.2.3, 7.2.2.4, 8.1, 8.3), as the event
    ``demloc.shot.proposed`` carries them, so its words never depend on the pieces as they are
    later: ``{"dice": [int], "positioned": bool, "bonus": int (ranged ability bonus),
    "favourite": bool (the weapon is of the shooter's favourite type), "cover": int,
    "exhausted": bool (the shooter's movement token is exhausted and the shot not positioned),
    "extra": int, "armor": int (the target's armor factor), "shield": int (SHIELD x,
    ``target_shield``), "broken_armor": int, "weapon_damage": int, "impact": int (the target's
    impact resistance), "perforating": bool, "backstack": bool, "no_step_back": bool}``."""
    features = weapon.get("features", [])
    return {
        "dice": list(dice),
        "positioned": positioned,
        "bonus": shooter.get("ranged_bonus") or 0,
        "favourite": bool(shooter.get("favourite")) and weapon.get("type") == shooter["favourite"],
        "cover": cover,
        "exhausted": shooter["movement"] == "exhausted" and not positioned,
        "extra": extra,
        "armor": target["armor"],
        "shield": target_shield(target),
        "broken_armor": target["broken_armor"],
        "weapon_damage": weapon["damage"],
        "impact": target["impact"],
        "perforating": has_feature(features, "PERFORATING"),
        "backstack": has_feature(features, "BACKSTACK"),
        "no_step_back": no_step_back,
    }


def work_shot(steps: dict) -> ShotResult:
    """Work out a shot from its numbers (``shot_steps``), every step in words.

    Total = sum of dice + ranged bonus + 1 (favourite weapon type) - cover - 1 (the shooter's
    movement token is exhausted and the shot is not positioned; we read "-1 to the value of
    fighting dice" as -1 to the total) + extra.
    Against armor = armor factor + SHIELD: lower, no effect; equal, the weapon damage to the armor
    (with 3 broken armor tokens it counts as greater); greater, (weapon damage + difference) -
    impact resistance to the hit factor, never below 0, the impact resistance ignored for a
    PERFORATING weapon or a target with 3 broken armor tokens.

    BACKSTACK (8.1: "before assigning damages, the target character will have to come back one
    square ... If the character cannot come back he is appointed double damages' amount than
    that he should have received"): a weapon with it doubles the damage when ``no_step_back``
    (the players saw the target has no free square behind it); otherwise a line reminds them to
    step the target back."""
    dice = steps["dice"]
    lines = [
        f"Dice {' + '.join(map(str, dice))} = {sum(dice)}"
        + (" (last die enhanced: positioned shot)" if steps["positioned"] else "")
    ]
    total = sum(dice)
    if steps["bonus"]:
        total += steps["bonus"]
        lines.append(f"+{steps['bonus']} ranged ability bonus -> {total}")
    if steps["favourite"]:
        total += 1
        lines.append(f"+1 favourite weapon -> {total}")
    if steps["cover"]:
        total -= steps["cover"]
        lines.append(f"-{steps['cover']} partial cover -> {total}")
    if steps["exhausted"]:
        total -= 1
        lines.append(f"-1 movement token exhausted -> {total}")
    if steps["extra"]:
        total += steps["extra"]
        lines.append(f"{steps['extra']:+d} other effects -> {total}")
    shield = steps["shield"]
    armor = steps["armor"] + shield
    lines.append(
        f"Attack {total} against armor {steps['armor']}"
        + (f" + SHIELD {shield} = {armor}" if shield else "")
    )
    three_broken = steps["broken_armor"] >= 3
    damage_value = steps["weapon_damage"]
    backstacks = steps["backstack"]
    if total < armor:
        lines.append("Lower: no effect.")
        return ShotResult(total, armor, "none", 0, tuple(lines), steps)
    if total == armor and not three_broken:
        lines.append(f"Equal: the weapon damage {damage_value} goes to the armor.")
        damage_value = backstack(backstacks, damage_value, steps["no_step_back"], lines)
        return ShotResult(total, armor, "armor", damage_value, tuple(lines), steps)
    difference = total - armor
    if total == armor:
        lines.append("Equal, but 3 broken armor tokens: counts as greater.")
    impact = 0 if steps["perforating"] or three_broken else steps["impact"]
    damage = max(0, damage_value + difference - impact)
    why = (
        " (PERFORATING: impact resistance ignored)"
        if steps["perforating"]
        else " (3 broken armor tokens: impact resistance ignored)"
        if three_broken
        else ""
    )
    lines.append(
        f"Greater by {difference}: ({damage_value} + {difference}) - {impact} = {damage} to the hit factor{why}."
    )
    damage = backstack(backstacks, damage, steps["no_step_back"], lines)
    return ShotResult(total, armor, "hit", damage, tuple(lines), steps)


def backstack(backstacks: bool, damage: int, no_step_back: bool, lines: list[str]) -> int:
    """BACKSTACK (8.1) on ``damage`` about to be assigned, when the weapon has it
    (``backstacks``): doubled when the target cannot step back (``no_step_back``), else
    unchanged with a reminder to step it back. Appends the words to ``lines``; without
    BACKSTACK or damage: unchanged."""
    if damage <= 0 or not backstacks:
        return damage
    if no_step_back:
        lines.append(
            f"BACKSTACK: the target cannot step back: damage doubled, {damage} x2 = {damage * 2} (8.1)."
        )
        return damage * 2
    lines.append(
        "BACKSTACK: on the board, the target steps back one square before the damage, to a "
        "square its player chooses (nothing to tap here); if it cannot, Cancel and tick "
        '"cannot step back": double damage (8.1).'
    )
    return damage


#: The first line of a stray shot on its new target: it makes no ability test (5.6).
STRAY_NO_TEST = "Stray shot on a new target: no ability test."


def shot_test_words(data: dict) -> tuple[str, ...]:
    """The ranged weapon ability test of a shot event's ``data`` in words (7.2.1,
    ``tested_words``); a stray shot on its new target has none (``STRAY_NO_TEST``)."""
    if "lines" not in data and not data.get("test"):
        return (STRAY_NO_TEST,)
    return tested_words(data, "Ranged weapon")


def shot_words(data: dict) -> list[str]:
    """The worked-out shot of a ``demloc.shot.proposed`` event's data (or the proposal it left
    in ``state["pending"]``) in words: the test, then each step of ``work_shot``. An event
    stored before events carried numbers has its words in ``lines``: they are read as
    stored."""
    if "lines" in data:
        return list(data["lines"])
    return [*shot_test_words(data), *work_shot(data["steps"]).lines]


def check_shot_dice(shooter: dict, dice: list[int], positioned: bool, extra_dice: int = 0) -> None:
    """``dice`` are the ``shooting_dice(shooter, extra_dice)`` fighting dice, each 1..6 (the
    last 1..12 when ``positioned``: the enhanced die, 7.2.2). Raises
    ``RuleViolation("bad_dice")``."""
    count = shooting_dice(shooter, extra_dice)
    if len(dice) != count:
        raise RuleViolation("bad_dice", f"{shooter['name']} rolls {counted(count, 'fighting die', 'fighting dice')} to shoot.")
    for i, value in enumerate(dice):
        high = 12 if positioned and i == len(dice) - 1 else 6
        if not isinstance(value, int) or not 1 <= value <= high:
            raise RuleViolation("bad_dice", f"A fighting die shows 1 to {high}.")


# ------------------------------------------------------------------------ commands
@play_command(shooting, "demloc.shot.propose")
def shot_propose(d: Decision, data: Data) -> None:
    """``{"shooter": id or "id:weapon", "weapon", "target", "test_roll": 1..6, "fate": 0..6,
    "dice", "positioned", "cover": 0..6, "extra": -6..6, "stray": bool, "no_step_back": bool}``
    (7.2.2; ``no_step_back``: BACKSTACK's target has no square behind it, 8.1). A failed
    ability test strays (``demloc.shot.strayed`` with the out-of-control d10, 5.6); a passed
    one, or a stray shot on its new target (no test, no fate), is proposed for both players to
    confirm. Raises ``calc_pending``, ``possessed``, ``turn_over`` (7.3.2.3), ``already_activated``, ``bad_target``, ``no_weapon``,
    ``not_ranged``, ``not_enough_fate``, ``bad_roll``, ``bad_dice``, ``not_active``."""
    no_pending(d.state)
    raw = dict(data.raw)
    shooter_ref = str(raw.get("shooter") or "")
    if ":" in shooter_ref:  # the page's "character:weapon" choice
        shooter_ref, raw["weapon"] = shooter_ref.split(":", 1)
        raw["shooter"] = shooter_ref
        data = Data(raw)
    shooter = own_piece(d, data, "shooter")
    not_possessed(shooter)
    activation.require_turn_on(d.state, shooter, "shoot")
    stray = data.bool("stray")
    if not stray:  # a stray shot goes on with the activation of the shot that strayed
        activation.require_free(d.state, shooter, "shoot")
        activation.require_no_object(d.state, shooter, "shoot")
    target = piece(d.state, data.get("target"))
    d.require(shooter["id"] != target["id"], "bad_target", "A character cannot shoot itself.")
    d.require(shooter["weapons"], "no_weapon", f"{shooter['name']} has no weapon.")
    w_index = num(data, "weapon", 0, 0, len(shooter["weapons"]) - 1)
    weapon = shooter["weapons"][w_index]
    d.require(weapon.get("range"), "not_ranged", f"{weapon['name']} is not a ranged weapon.")
    # Every field sent is read before the ability test decides which of them matter: dice
    # typed with a shot whose test then fails are still refused when they are no dice.
    positioned = data.bool("positioned")
    dice = dice_list(data, "dice")
    extra_dice = extra_shot_dice(d.state, shooter)
    if dice:
        check_shot_dice(shooter, dice, positioned, extra_dice)
    cover = num(data, "cover", 0, 0, 6)
    extra = num(data, "extra", 0, -6, 6)
    no_step_back = data.bool("no_step_back")
    if stray:
        # A stray shot makes no ability test (5.6): fate points sent with it are never
        # charged, but they, and a test die, must still be numbers in range.
        data.int("fate", lo=0, hi=6, default=0, code="bad_input", message="Fate: 0 to 6.")
        data.int("test_roll", lo=1, hi=6, default=1, code="bad_roll", message="A die shows 1 to 6.")
    fate = 0 if stray else fate_amount(d, data, "fate", shooter["owner"], least=0, most=6)
    test = None
    if not stray:
        test = ability_test(
            num(data, "test_roll", None), shooter["ranged"], fate, name="Ranged weapon"
        )
        if not test.passed:
            d.emit(
                "demloc.shot.strayed",
                {
                    "shooter": shooter["id"],
                    "target": target["id"],
                    "fate": fate,
                    "test": record_test(test),
                    "ooc": out_of_control(d.rng),
                },
            )
            return
    result = resolve_shot(
        shooter,
        target,
        weapon,
        dice,
        positioned=positioned,
        cover=cover,
        extra=extra,
        no_step_back=no_step_back,
        extra_dice=extra_dice,
    )
    d.emit(
        "demloc.shot.proposed",
        {
            "kind": "shot",
            "by": d.seat,
            "shooter": shooter["id"],
            "target": target["id"],
            "weapon": w_index,
            "fate": fate,
            "positioned": positioned,
            "outcome": result.outcome,
            "damage": result.damage,
            "test": record_test(test) if test else None,
            "steps": result.steps,
        },
    )


@shooting.evolver("demloc.shot.proposed", label="worked out a shot")
def shot_proposed(s: DemlocState, e: EventRecord) -> None:
    s["notice"] = None  # a new shot: an earlier stray-shot notice is done with
    s["pending"] = copy_json(e.data)
    say(f"Shot: {piece_name(s, e.data['shooter'])} at {piece_name(s, e.data['target'])}.")
    say(*shot_words(e.data))


@shooting.narrator("demloc.shot.proposed")
def say_shot_proposed(e: EventRecord, s: DemlocState) -> str:
    head = f"Shot: {piece_name(s, e.data['shooter'])} at {piece_name(s, e.data['target'])}."
    return " ".join([head, *shot_words(e.data)])


def stray_text(ooc: dict) -> str:
    """What the table does after a stray shot (5.6, 7.2.2.2): the square next to the target,
    worded by the shooting player (``possession.stray_direction``: the same line on every
    phone)."""
    where = stray_direction(ooc) or "no effect: the shot is lost (5)"
    return (
        f"Stray shot! Out-of-control d10 {'/'.join(map(str, ooc['rolls']))} -> {where}. If a character "
        "stands there, shoot it with 'stray shot' ticked; an empty square: the shot is void."
    )


@shooting.evolver("demloc.shot.strayed", label="shot a stray bullet")
def shot_strayed(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    shooter = s["pieces"][d["shooter"]]
    player(s, shooter["owner"])["fate"] -= d["fate"]
    say(f"Shot: {shooter['name']} at {piece_name(s, d['target'])}.")
    say(*_sentences(shot_test_words(d)))
    say(stray_text(d["ooc"]))
    # What happened and where the shooter's phone lands (the version: a new notice each time).
    s["notice"] = {
        "kind": "stray",
        "ooc": d["ooc"],
        "shooter": shooter["id"],
        "target": d["target"],
        "at": e.version,
    }
    activation.mark(s, shooter["id"])


@shooting.narrator("demloc.shot.strayed")
def say_shot_strayed(e: EventRecord, s: DemlocState) -> str:
    head = f"Shot: {piece_name(s, e.data['shooter'])} at {piece_name(s, e.data['target'])}."
    return " ".join([head, *_sentences(shot_test_words(e.data)), stray_text(e.data["ooc"])])


def _sentences(words: tuple[str, ...]) -> list[str]:
    """Each part a sentence ("...: failed. Stray shot!", not "failed Stray shot!")."""
    return [w if w.endswith((".", "!", "?", ")")) else f"{w}." for w in words]


def apply_shot(s: DemlocState, pending: dict) -> None:
    """A confirmed shot (7.2.2.4): the fate points of its test are paid, a positioned shooter's
    movement token is exhausted, the damage goes to the armor (equal) or the hit factor
    (greater), then the weapon's BLOODING/POISONOUS."""
    shooter = s["pieces"][pending["shooter"]]
    activation.mark(s, shooter["id"])
    shooter = s["pieces"][pending["shooter"]]
    if pending["fate"]:
        player(s, shooter["owner"])["fate"] -= pending["fate"]
        say(
            f"{player(s, shooter['owner'])['name']} spends {counted(pending['fate'], 'fate point')} on the test."
        )
    if pending["positioned"]:
        shooter = {**shooter, "movement": "exhausted"}
        set_piece(
            s, shooter, [f"{shooter['name']}'s movement token: exhausted (positioned shot)."]
        )
    say(f"Shot applied: {shooter['name']} at {piece_name(s, pending['target'])}.")
    if pending["outcome"] == "none" or pending["damage"] <= 0:
        say("No damage.")
        return
    mode = HIT
    if pending["outcome"] == "armor":
        # Option ``equal_shot`` (a table opened before it: ``carry``): "the character's armor
        # absorbed the impact" (7.2.2.4), so by default an equal shot never wounds.
        absorbs = s["options"].get("equal_shot", "carry") == "armor"
        mode = ARMOR_ONLY if absorbs else GENERAL
    t, more = assign_damage(s["pieces"][pending["target"]], pending["damage"], mode)
    set_piece(s, t, more)
    weapon_tokens(s, t["id"], [shooter["weapons"][pending["weapon"]]])


def shot_token_words(s: DemlocState, pending: dict) -> list[str]:
    """The weapon tokens a shot's Apply will add to its target (8.1; ``weapon_tokens`` in the
    apply above, after any damage), in words."""
    if pending["outcome"] == "none" or pending["damage"] <= 0:
        return []
    shooter = s["pieces"][pending["shooter"]]
    weapon = shooter["weapons"][pending["weapon"]]
    return weapon_token_words(s["pieces"][pending["target"]], [weapon])


__all__ = [
    "OUT_OF_CONTROL_DIRECTIONS",
    "RuleViolation",
    "ability_test",
    "out_of_control",
    "resolve_shot",
]

"""Hand-to-hand: the brawl calculator, the command ``demloc.brawl.propose`` (its event and fold;
applying a proposal is ``missions.rules.calc``) and the hand-to-hand effects set by hand
(``demloc.effect.set``: FURY, VIGOR, WEAKNESS). DemLoc rulebook 7.3.2 (hand-to-hand attack sub-phase),
7.3.2.1 (fighting result modifiers), 7.3.2.2 (table of hand-to-hand fight effects), 8.1
(DEFENSIVE, UNSTOPPABLE, HEAVY), 8.2 (VIGOR, WEAKNESS), 8.3 (DEFENSIVE, MONSTROUS pentacles),
8.4 (MONSTROUS, FURY), 7.2.3 (a possessed character fights with hand-to-hand 1).

Both players roll physical dice and enter them; ``resolve_brawl`` returns the totals, the
difference and the effect, with each step in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, counted

from . import activation
from .cards import feature_value, has_feature
from .common import (
    dice_list,
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
from .damage import GENERAL, add_broken_hearts, assign_damage, weapon_token_words, weapon_tokens
from .shooting import backstack
from .state import DemlocState

brawl = Topic("brawl")

#: 7.3.2.2: the winner's difference -> (primary multiplier, secondary multiplier, broken hearts).
#:
#: The difference-4 row follows the *table* (``TABLE_4``), not the bullet above it. The bullet
#: reads: "The winner has a difference of 4 points ... he can inflict on his enemy both damages
#: of his main weapon (doubled) plus the damages of his possible secondary weapon" (secondary
#: x1, the same as difference 3); the "Table of hand-to-hand fight effects" reads: "4 | Primary
#: weapon damage x2; secondary weapon damage x2". We follow the table: with the bullet, rows 3
#: and 4 would be identical while every other row grows, and the 5+ bullet ("secondary weapon
#: (doubled)") keeps the secondary doubled that the table already doubles at 4. Documented in
#: the rules reference (``brawl-effects``).
ATTACK_EFFECTS = {
    0: (0, 0, 0),
    1: (1, 0, 0),
    2: (1, 1, 0),
    3: (2, 1, 0),
    4: (2, 2, 0),
    5: (2, 2, 1),
}


def attack_effect(difference: int) -> tuple[int, int, int]:
    """The attack column of 7.3.2.2 for an attacker winning by ``difference`` (>= 0):
    ``(primary weapon multiplier, secondary weapon multiplier, broken heart tokens)``."""
    return ATTACK_EFFECTS[min(5, max(0, difference))]


def defence_effect(difference: int) -> int:
    """The defence column of 7.3.2.2: a defender winning by ``difference`` deals that many
    general damages, at most 5."""
    return min(5, max(0, difference))


def _pentacle_effects(piece: dict) -> list[str]:
    code = piece.get("code")
    if code and code.get("pentacle") and piece.get("asset") == "post_summoning":
        return code["pentacle"]["effects"]
    return []


def _monstrous(piece: dict) -> int:
    """MONSTROUS x of a piece: its personal ability (8.4) and its active pentacle (8.3)."""
    return feature_value(piece.get("features", []), "MONSTROUS") + feature_value(
        _pentacle_effects(piece), "MONSTROUS"
    )


def h2h_ability(piece: dict) -> int:
    """Hand-to-hand ability this turn: the card's, + VIGOR - WEAKNESS (8.2); 1 while possessed
    (7.2.3)."""
    if piece.get("possessed"):
        return 1
    return piece["h2h"] + piece.get("vigor", 0) - piece.get("weakness", 0)


def brawl_dice(piece: dict, opponent: dict, attacking: bool) -> tuple[int, list[str]]:
    """Fighting dice ``piece`` rolls against ``opponent`` (7.3.2.1 tables): hand-to-hand ability,
    -1 per broken heart token, -HEAVY x when defending with a HEAVY weapon, -MONSTROUS x of the
    opponent unless the piece is MONSTROUS itself (8.4 attack and defence; the pentacle of 8.3
    only against attackers). At least 1 die (8.2 WEAKNESS: "at least one combat die").
    Returns the count and the reasons.

    HEAVY x (8.1) is printed with an x but its text says "If in the hand-to-hand attack
    sub-phase the character receives an attack, the controlling player has to roll one fighting
    die less to defend himself". We read it as x dice less for the character who *carries* the
    weapon (the sentence's "the character" is the weapon's bearer, as in DEFENSIVE x, and "one"
    is HEAVY 1's wording): by the basic rule (ch. 7) the card's x wins over the general text.
    Documented in the rules reference (``weapon-heavy``)."""
    reasons = [f"hand-to-hand {h2h_ability(piece)}"]
    count = h2h_ability(piece)
    if piece["broken_hearts"]:
        count -= piece["broken_hearts"]
        reasons.append(f"-{piece['broken_hearts']} broken hearts")
    if not attacking:
        heavy = sum(feature_value(w["features"], "HEAVY") for w in piece.get("weapons", []))
        if heavy:
            count -= heavy
            reasons.append(f"-{heavy} HEAVY")
    if _monstrous(piece) == 0:
        monstrous = feature_value(opponent.get("features", []), "MONSTROUS")
        if attacking:
            monstrous += feature_value(_pentacle_effects(opponent), "MONSTROUS")
        if monstrous:
            count -= monstrous
            reasons.append(f"-{monstrous} MONSTROUS opponent")
    return max(1, count), reasons


def _check_dice(name: str, dice: list[int], count: int, enhanced: bool, field: str) -> None:
    """The fighting dice entered in the Brawl form's ``field`` ("My dice", "Defender's
    dice"): the refusal names the field, then the rule (7.3.2)."""
    if len(dice) != count:
        raise RuleViolation(
            "bad_dice",
            f"{field}: {name} rolls {counted(count, 'fighting die', 'fighting dice')}"
            + (" plus the enhanced die" if enhanced else "")
            + ".",
        )
    for i, value in enumerate(dice):
        high = 12 if enhanced and i == len(dice) - 1 else 6
        if not isinstance(value, int) or not 1 <= value <= high:
            raise RuleViolation("bad_dice", f"{field}: a fighting die shows 1 to {high}.")


@dataclass(frozen=True)
class BrawlResult:
    """A resolved fight. ``winner``: ``"attacker"``, ``"defender"`` or None (a tie);
    ``difference`` >= 0; ``loser_damage`` general damage for the loser; ``broken_hearts`` for the
    defender at 5+; ``lines`` the arithmetic in words."""

    attack_total: int
    defence_total: int
    winner: str | None
    difference: int
    loser_damage: int
    broken_hearts: int
    lines: tuple[str, ...] = field(default_factory=tuple)
    steps: dict = field(default_factory=dict)


def _total(side: dict, lines: list[str], who: str, name: str, bonuses: tuple[tuple[str, str], ...]) -> int:
    """One side's fight total from its numbers (``brawl_steps``), in words appended to
    ``lines``: dice (doubled with FURY, 8.4), then each bonus that is not 0."""
    dice = side["dice"]
    dice_sum = sum(dice)
    text = f"{who} {name}: dice {' + '.join(map(str, dice))} = {dice_sum}"
    if side["fury"]:
        dice_sum *= 2
        text += f", FURY doubles the dice -> {dice_sum}"
    total = dice_sum
    for key, label in bonuses:
        value = side[key]
        if value:
            total += value
            text += f", {value:+d} {label} -> {total}"
    lines.append(text)
    return total


#: The bonuses of each side's total (7.3.2.1): the key in ``brawl_steps`` and its words.
ATTACK_BONUSES = (
    ("bonus", "hand-to-hand bonus"),
    ("order", "multiple fight"),
    ("behind", "from behind"),
    ("favourite", "favourite weapon"),
    ("unstoppable", "UNSTOPPABLE"),
    ("extra", "other effects"),
)
DEFENCE_BONUSES = (
    ("bonus", "hand-to-hand bonus"),
    ("favourite", "favourite weapon"),
    ("defensive", "DEFENSIVE"),
    ("extra", "other effects"),
)


def _dice_words(count: dict) -> str:
    """Why a side rolls its dice (``brawl_dice``'s reasons), from its numbers."""
    reasons = [f"hand-to-hand {count['h2h']}"]
    if count["hearts"]:
        reasons.append(f"-{count['hearts']} broken hearts")
    if count["heavy"]:
        reasons.append(f"-{count['heavy']} HEAVY")
    if count["monstrous"]:
        reasons.append(f"-{count['monstrous']} MONSTROUS opponent")
    return f"{counted(count['dice'], 'die', 'dice')} ({', '.join(reasons)})"


def _dice_count(piece: dict, opponent: dict, attacking: bool) -> dict:
    """``brawl_dice`` as numbers: ``{"dice", "h2h", "hearts", "heavy", "monstrous"}``."""
    count, _why = brawl_dice(piece, opponent, attacking)
    heavy = 0
    if not attacking:
        heavy = sum(feature_value(w["features"], "HEAVY") for w in piece.get("weapons", []))
    monstrous = 0
    if _monstrous(piece) == 0:
        monstrous = feature_value(opponent.get("features", []), "MONSTROUS")
        if attacking:
            monstrous += feature_value(_pentacle_effects(opponent), "MONSTROUS")
    return {
        "dice": count,
        "h2h": h2h_ability(piece),
        "hearts": piece["broken_hearts"],
        "heavy": heavy,
        "monstrous": monstrous,
    }


def resolve_brawl(
    attacker: dict,
    defender: dict,
    attacker_dice: list[int],
    defender_dice: list[int],
    *,
    attack_order: int = 1,
    from_behind: bool = False,
    charge: bool = False,
    attacker_extra: int = 0,
    defender_extra: int = 0,
    first_impact: bool = False,
    no_step_back: bool = False,
) -> BrawlResult:
    """Resolve one hand-to-hand fight (DemLoc rulebook 7.3.2, 7.3.2.1, 7.3.2.2).

    ``attacker_dice``/``defender_dice``: the fighting dice rolled (``brawl_dice`` of each; with a
    ``charge`` the attacker adds an enhanced die, entered last, 1..12). ``attack_order``: 1 for
    the first attacker of this player against this enemy, 2 for the second (+1), ...
    The numbers are gathered by ``brawl_steps`` and worked out by ``work_brawl`` (its docstring
    has the arithmetic). Raises ``RuleViolation("bad_dice")`` when a count or a value is wrong,
    ``bad_order`` when ``attack_order`` < 1.
    """
    if attack_order < 1:
        raise RuleViolation("bad_order", "The first attacker is number 1.")
    a_count, _ = brawl_dice(attacker, defender, attacking=True)
    d_count, _ = brawl_dice(defender, attacker, attacking=False)
    _check_dice(attacker["name"], attacker_dice, a_count + (1 if charge else 0), charge, "My dice")
    _check_dice(defender["name"], defender_dice, d_count, False, "Defender's dice")
    steps = brawl_steps(
        attacker, defender, attacker_dice, defender_dice, attack_order=attack_order,
        from_behind=from_behind, charge=charge, attacker_extra=attacker_extra,
        defender_extra=defender_extra, first_impact=first_impact, no_step_back=no_step_back,
    )
    return work_brawl(steps, attacker["name"], defender["name"])


def _favourite(piece: dict, weapons: list[dict]) -> int:
    # 7.3.2 "the use of favorite weapons by mercenaries" and the tables' "Use of favorite
    # weapon: +1 to the fighting dice result" (attack and defence): +1 once per fight when
    # the weapon fighting, the primary (5.1.4 "the higher weapon equipped is the primary
    # one"), is of the card's favourite type. Only mercenary cards print the indicator
    # (5.1.1); the secondary weapon's type never adds a second +1. Documented in the rules
    # reference (``brawl-modifiers``).
    return (
        1
        if piece.get("favourite") and weapons and weapons[0]["type"] == piece["favourite"]
        else 0
    )


def brawl_steps(
    attacker: dict,
    defender: dict,
    attacker_dice: list[int],
    defender_dice: list[int],
    *,
    attack_order: int,
    from_behind: bool,
    charge: bool,
    attacker_extra: int,
    defender_extra: int,
    first_impact: bool,
    no_step_back: bool,
) -> dict:
    """Every number a fight is worked out from (7.3.2.1, 7.3.2.2, 8.1, 8.3, 8.4), as the event
    ``demloc.brawl.proposed`` carries them: ``{"attacker": side, "defender": side, "charge",
    "first_impact", "no_step_back": bool, "primary", "secondary": int (the attacker's weapon
    damages; the secondary 0 beside a two-handed primary), "primary_backstack",
    "secondary_backstack": bool}``; a side: ``{"count": _dice_count, "dice": [int], "fury":
    bool, "bonus", "favourite", "extra": int}`` plus the attacker's ``"order"``, ``"behind"``,
    ``"unstoppable"`` and the defender's ``"defensive"``."""
    a_weapons = attacker.get("weapons", [])
    d_weapons = defender.get("weapons", [])
    defensive = sum(feature_value(w["features"], "DEFENSIVE") for w in d_weapons) + feature_value(
        _pentacle_effects(defender), "DEFENSIVE"
    )

    def backstacks(weapon: dict | None) -> bool:
        return weapon is not None and has_feature(weapon.get("features", []), "BACKSTACK")

    return {
        "attacker": {
            "count": _dice_count(attacker, defender, True),
            "dice": list(attacker_dice),
            "fury": attacker.get("fury", 0) > 0,
            "bonus": attacker.get("h2h_bonus", 0) if not attacker.get("possessed") else 0,
            "order": attack_order - 1,
            "behind": 2 if from_behind else 0,
            "favourite": _favourite(attacker, a_weapons),
            "unstoppable": sum(feature_value(w["features"], "UNSTOPPABLE") for w in a_weapons),
            "extra": attacker_extra,
        },
        "defender": {
            "count": _dice_count(defender, attacker, False),
            "dice": list(defender_dice),
            "fury": defender.get("fury", 0) > 0,
            "bonus": defender.get("h2h_bonus", 0) if not defender.get("possessed") else 0,
            "favourite": _favourite(defender, d_weapons),
            "defensive": defensive,
            "extra": defender_extra,
        },
        "charge": charge,
        "first_impact": first_impact,
        "no_step_back": no_step_back,
        "primary": a_weapons[0]["brawl_damage"] if a_weapons else 0,
        "secondary": (
            a_weapons[1]["brawl_damage"]
            if len(a_weapons) > 1 and not a_weapons[0].get("two_handed")
            else 0
        ),
        "primary_backstack": backstacks(a_weapons[0] if a_weapons else None),
        "secondary_backstack": backstacks(a_weapons[1] if len(a_weapons) > 1 else None),
    }


def work_brawl(steps: dict, attacker_name: str, defender_name: str) -> BrawlResult:
    """Work out a fight from its numbers (``brawl_steps``), every step in words; the names
    of the two characters for the words.

    Attack total = dice (doubled with FURY active, 8.4) + hand-to-hand bonus + (order - 1)
    + 2 from behind + 1 favourite weapon (primary weapon of the favourite type) + UNSTOPPABLE x
    + ``attacker_extra``. Defence total = dice (doubled with FURY) + bonus + 1 favourite weapon +
    DEFENSIVE x (weapons and active pentacle) + ``defender_extra``.
    The winner's difference gives the effect of the 7.3.2.2 table: the attacker's primary and
    secondary weapon damages (x1/x2) and at 5+ a broken heart token; the defender's 1-5 general
    damages. Brawl damage always goes to the armor first.
    ``first_impact`` (7.3.1 "First impact zone": "a character who is engaged in the area of
    first impact will not be able to attack but only defend himself (without however assigning
    damage even in case of victory in the fight)"): the defender was engaged in the first
    impact zone of a long-range weapon, so its win deals no damage.
    ``no_step_back``: the defender cannot step back, so a winning attacker's BACKSTACK weapon
    doubles the damage (8.1, ``shooting.backstack``); BACKSTACK counts when the weapon that has
    it deals damage (the primary always, the secondary from a difference of 2)."""
    a, d = steps["attacker"], steps["defender"]
    lines = [
        f"Attacker rolls {_dice_words(a['count'])}"
        + (" + 1 enhanced die (charge)" if steps["charge"] else ""),
        f"Defender rolls {_dice_words(d['count'])}",
    ]
    attack_total = _total(a, lines, "Attacker", attacker_name, ATTACK_BONUSES)
    defence_total = _total(d, lines, "Defender", defender_name, DEFENCE_BONUSES)
    difference = abs(attack_total - defence_total)
    if attack_total == defence_total:
        lines.append(f"{attack_total} against {defence_total}: a tie, nothing happens.")
        return BrawlResult(attack_total, defence_total, None, 0, 0, 0, tuple(lines), steps)
    if attack_total > defence_total:
        primary_x, secondary_x, hearts = attack_effect(difference)
        primary, secondary = steps["primary"], steps["secondary"]
        damage = primary * primary_x + secondary * secondary_x
        parts = [f"primary {primary}" + (" x2" if primary_x == 2 else "")]
        if secondary_x:
            parts.append(f"secondary {secondary}" + (" x2" if secondary_x == 2 else ""))
        lines.append(
            f"Attacker wins by {difference}: {' + '.join(parts)} = {damage} damage to the armor first"
            + (", and 1 broken heart token" if hearts else "")
            + "."
        )
        backstacks = steps["primary_backstack"] or (
            bool(secondary_x) and steps["secondary_backstack"]
        )
        damage = backstack(backstacks, damage, steps["no_step_back"], lines)
        return BrawlResult(
            attack_total, defence_total, "attacker", difference, damage, hearts, tuple(lines), steps
        )
    if steps["first_impact"]:
        lines.append(
            f"Defender wins by {difference}, but it was engaged in the first impact zone: it only "
            "defends and deals no damage (7.3.1)."
        )
        return BrawlResult(
            attack_total, defence_total, "defender", difference, 0, 0, tuple(lines), steps
        )
    damage = defence_effect(difference)
    lines.append(f"Defender wins by {difference}: {damage} general damage to the attacker.")
    return BrawlResult(
        attack_total, defence_total, "defender", difference, damage, 0, tuple(lines), steps
    )


def brawl_words(data: dict, state: DemlocState) -> list[str]:
    """The worked-out fight of a ``demloc.brawl.proposed`` event's data (or the proposal it
    left in ``state["pending"]``) in words, the characters named from ``state``. An event
    stored before events carried numbers has its words in ``lines``: read as stored."""
    if "lines" in data:
        return list(data["lines"])
    return list(
        work_brawl(
            data["steps"], piece_name(state, data["attacker"]), piece_name(state, data["defender"])
        ).lines
    )


def attack_refusal(state: DemlocState, p: dict) -> RuleViolation | None:
    """Why ``p`` may not attack in a hand-to-hand fight now, as the refusal to raise, or None:
    the check of the command ``demloc.brawl.propose`` and of the page, which disables the
    Brawl form's *Work it out* with this reason (``missions.rules.view``). The turn over
    (7.3.2.3: ``turn_over``); already activated
    this phase (7.2, 7.3: "each activated character can ... make one hand-to-hand attack");
    a summoner whose daemon plays (7.2.3.2: it "can not move as long as the daemon is
    playing, but can only apply the effects of the summoning pentacles and defend against any
    attacks in the brawl sub-phase"): it defends, never attacks."""
    over = activation.turn_over_words(state, p, "attack")
    if over:
        return RuleViolation("turn_over", over)
    words = activation.activated_words(state, p, "attack")
    if words:
        return RuleViolation("already_activated", words)
    if p.get("summoning"):
        return RuleViolation(
            "summoner_defends",
            f"{p['name']}'s daemon plays: {p['name']} only defends in a fight, it cannot "
            "attack (7.2.3.2).",
        )
    return None


# ------------------------------------------------------------------------ commands
@play_command(brawl, "demloc.brawl.propose")
def brawl_propose(d: Decision, data: Data) -> None:
    """``{"attacker", "defender", "attacker_dice", "defender_dice", "order": 1..8,
    "from_behind", "charge", "attacker_extra", "defender_extra": -6..6, "first_impact",
    "no_step_back"}`` (7.3.2; 7.3.1 first impact zone; 8.1 BACKSTACK): the proposal both
    players confirm. Raises ``calc_pending``, ``possessed``, ``turn_over`` (7.3.2.3), ``already_activated``,
    ``summoner_defends`` (``attack_refusal``),
    ``bad_target``, ``bad_dice``."""
    no_pending(d.state)
    attacker = own_piece(d, data, "attacker")
    not_possessed(attacker, "A possessed character cannot attack; it only defends with 1 (7.2.3).")
    refusal = attack_refusal(d.state, attacker)
    if refusal is not None:
        raise refusal
    defender = piece(d.state, data.get("defender"))
    d.require(attacker["id"] != defender["id"], "bad_target", "A character cannot fight itself.")
    result = resolve_brawl(
        attacker,
        defender,
        dice_list(data, "attacker_dice"),
        dice_list(data, "defender_dice"),
        # Named by the Brawl form's labels (a new user typed "5 3" in every field and could
        # not tell which one "Order" was).
        attack_order=num(data, "order", 1, 1, 8, "Attacker no. (multiple fights, 7.3.2.1)"),
        from_behind=data.bool("from_behind"),
        charge=data.bool("charge"),
        attacker_extra=num(data, "attacker_extra", 0, -6, 6, "Attack ±"),
        defender_extra=num(data, "defender_extra", 0, -6, 6, "Defence ±"),
        first_impact=data.bool("first_impact"),
        no_step_back=data.bool("no_step_back"),
    )
    d.emit(
        "demloc.brawl.proposed",
        {
            "kind": "brawl",
            "by": d.seat,
            "attacker": attacker["id"],
            "defender": defender["id"],
            "winner": result.winner,
            "difference": result.difference,
            "damage": result.loser_damage,
            "broken_hearts": result.broken_hearts,
            "steps": result.steps,
        },
    )


@brawl.evolver("demloc.brawl.proposed", label="worked out a fight")
def brawl_proposed(s: DemlocState, e: EventRecord) -> None:
    s["pending"] = copy_json(e.data)
    say(
        f"Fight: {piece_name(s, e.data['attacker'])} attacks {piece_name(s, e.data['defender'])}."
    )
    say(*brawl_words(e.data, s))


@brawl.narrator("demloc.brawl.proposed")
def say_brawl_proposed(e: EventRecord, s: DemlocState) -> str:
    head = (
        f"Fight: {piece_name(s, e.data['attacker'])} attacks {piece_name(s, e.data['defender'])}."
    )
    return " ".join([head, *brawl_words(e.data, s)])


def apply_fight(s: DemlocState, pending: dict) -> None:
    """A confirmed fight (7.3.2.2): the attacker is activated (7.3); the loser takes the damage
    (armor first); a winning attacker's weapons add BLOODING/POISONOUS (the primary only at
    difference 1) and at 5+ a broken heart token.

    A winning defender (table option ``defender_weapon``, default ``"primary"``): its damages
    carry its primary weapon's BLOODING/POISONOUS. Our choice, from 8.1 BLOODING x: "Every time
    the player inflicts damages on a character with a weapon with this ability, the character
    receives x bleeding tokens" and 7.3.2: "even if the defender wins the fight he has the
    possibility of injuring his opponent": the defender injures with the weapon in its hand,
    its primary (5.1.4); its 1-5 "general damages" are counted without the weapon's damage
    value, but they are still inflicted with it. ``"none"`` (and tables opened before the
    option): only the attacker's weapons count."""
    activation.mark(s, pending["attacker"])
    attacker, defender = s["pieces"][pending["attacker"]], s["pieces"][pending["defender"]]
    say(f"Fight applied: {attacker['name']} against {defender['name']}.")
    if pending["winner"] is None:
        say("A tie: nothing happens.")
        return
    loser = defender if pending["winner"] == "attacker" else attacker
    t, more = assign_damage(loser, pending["damage"], GENERAL)
    set_piece(s, t, more)
    hit = fight_weapons(s, pending)
    if hit is not None:
        weapon_tokens(s, *hit)
    if pending["winner"] == "attacker" and pending["broken_hearts"]:
        t, more = add_broken_hearts(s["pieces"][defender["id"]], pending["broken_hearts"])
        set_piece(s, t, ["Devastating blow (5+):"] + more)


def fight_weapons(s: DemlocState, pending: dict) -> tuple[str, list[dict]] | None:
    """The character a fight's Apply hurts with weapons and those weapons, whose BLOODING and
    POISONOUS it then adds (8.1; ``apply_fight``), or None: a winning attacker's primary (and
    its secondary from a difference of 2) on the defender; a winning defender's primary on the
    attacker under the table option ``defender_weapon`` ``"primary"``; never without damage."""
    if pending["winner"] is None or pending["damage"] <= 0:
        return None
    attacker, defender = s["pieces"][pending["attacker"]], s["pieces"][pending["defender"]]
    if pending["winner"] == "attacker":
        return defender["id"], attacker["weapons"][: 1 if pending["difference"] == 1 else 2]
    if s["options"].get("defender_weapon", "none") == "primary" and defender["weapons"]:
        return attacker["id"], defender["weapons"][:1]
    return None


def fight_token_words(s: DemlocState, pending: dict) -> list[str]:
    """The weapon tokens a fight's Apply will add (``fight_weapons``), in words."""
    hit = fight_weapons(s, pending)
    return weapon_token_words(s["pieces"][hit[0]], hit[1]) if hit is not None else []


# ------------------------------------------------------------------------ hand-to-hand tests
@play_command(brawl, "demloc.effect.set")
def effect_set(d: Decision, data: Data) -> None:
    """``{"piece", "effect": fury | vigor | weakness, "on": bool (fury), "value": 0..6}``:
    FURY for 2 turns (8.4), VIGOR / WEAKNESS x this turn (8.2). A FURY the card lists as an
    ability with activation is never free (5.1.1, 6.4.2): turned on here it is paid from fate
    exactly as with its ability button (``demloc.ability.used``), and refused with
    ``not_enough_fate`` when its player cannot pay it (the page shows only the ability button).
    Raises ``bad_effect``, ``no_fury``, ``not_enough_fate``, ``possessed``, ``bad_input``."""
    p = own_piece(d, data)
    effect = data.choice(
        "effect", ("fury", "vigor", "weakness"), code="bad_effect", message="Unknown effect."
    )
    if effect == "fury":
        on = data.bool("on")
        d.require(
            not on or has_feature(p["features"], "FURY"), "no_fury", f"{p['name']} has no FURY."
        )
        paid = next(
            (
                i
                for i, a in enumerate(p.get("abilities") or [])
                if a.get("feature") == "FURY" and a["activation"] == "activated"
            ),
            None,
        )
        if on and paid is not None:
            # The same as its ability button (``abilities.ability_use``): paid from fate.
            ability = p["abilities"][paid]
            not_possessed(p)
            fate = player(d.state, p["owner"])["fate"]
            d.require(
                fate >= ability["fate_cost"],
                "not_enough_fate",
                f"{ability['name']} costs {counted(ability['fate_cost'], 'fate point')}; {fate} left "
                "(6.4.2).",
            )
            d.emit(
                "demloc.ability.used",
                {"piece": p["id"], "ability": paid, "fate": ability["fate_cost"],
                 "seat": p["owner"]},
            )
            return
        value = 2 if on else 0
    else:
        value = num(data, "value", None, 0, 6)
    d.emit("demloc.effect.set", {"piece": p["id"], "effect": effect, "value": value})


def _effect_text(name: str, effect: str, value: int) -> str:
    if effect == "fury":
        state = (
            "active for 2 turns (dice doubled, a broken heart at the end of each)."
            if value
            else "ended."
        )
        return f"{name}: FURY {state}"
    return f"{name}: {effect.upper()} {value} this turn."


@brawl.evolver("demloc.effect.set", label="changed an effect")
def effect_changed(s: DemlocState, e: EventRecord) -> None:
    p = {**s["pieces"][e.data["piece"]], e.data["effect"]: e.data["value"]}
    set_piece(s, p, [_effect_text(p["name"], e.data["effect"], e.data["value"])])


@brawl.narrator("demloc.effect.set")
def say_effect_set(e: EventRecord, s: DemlocState) -> str:
    return _effect_text(piece_name(s, e.data["piece"]), e.data["effect"], e.data["value"])

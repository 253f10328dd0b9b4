"""Arcane: mana, powers and pentacles, the arcane test (the commands ``demloc.mana.adjust``,
``demloc.mana.channel``, ``demloc.power.use``, ``demloc.pentacle.strike``,
``demloc.arcane.test``, their events and folds).

DemLoc rulebook 6.4.2 ("assign mana"), 7.2.3 (arcane sub-phase, channelling), 7.2.3.1 (using a
power), 7.2.3.5 (arcane test, freeing a possessed character), 8.2 (standard power effects), 8.3
(pentacle effects). Broken seals and the seal limit are in ``missions.rules.damage``; the
possessed state in ``missions.rules.possession``.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, counted

from . import activation
from .cards import codes_of, parse_feature
from .common import (
    BRAWL,
    beyond_cap_words,
    in_play,
    known,
    not_possessed,
    num,
    own_piece,
    piece,
    piece_name,
    play_command,
    set_piece,
)
from .damage import GENERAL, HIT, SEALS_EXCEEDED, add_poison, add_seals, assign_damage
from .revert import record_power
from .score import credit_kills, statuses
from .state import DemlocState

arcane = Topic("arcane")


def channel(
    piece: dict,
    common: int,
    dark: int,
    seals: int,
    *,
    setup: bool,
    rule: str = SEALS_EXCEEDED,
    remove_seal_dice: bool = False,
) -> tuple[dict, list[str]]:
    """Channel mana (7.2.3 "Channeling mana"; in the setup 6.4.1): the arcane dice rolled show
    ``common`` white, ``dark`` black and ``seals`` broken seals. The dice rolled are at most the
    arcane ability minus the mana already channelled (each cube is a die kept on the card).
    Outside the setup the movement token must be active and the seals count; with
    ``remove_seal_dice`` (table option ``seal_dice``, default ``removed``: 7.2.3 "the player has
    to remove the dice from the game with this result") each die that showed a broken seal is
    lost for the rest of the mission (``piece["lost_dice"]``), so fewer dice can be rolled.
    Raises ``RuleViolation`` ``no_arcane``, ``too_many_dice``, ``not_active``, ``bad_count``.
    """
    if min(common, dark, seals) < 0 or common + dark + seals == 0:
        raise RuleViolation("bad_count", "Enter what the arcane dice show.")
    if piece["arcane"] <= 0:
        raise RuleViolation("no_arcane", f"{piece['name']} has no arcane ability.")
    held = piece["mana"]["common"] + piece["mana"]["dark"]
    free = piece["arcane"] - held - piece.get("lost_dice", 0)
    if common + dark + seals > free:
        raise RuleViolation(
            "too_many_dice", f"{piece['name']} can roll {counted(max(0, free), 'arcane die', 'arcane dice')} now."
        )
    if not setup and piece["movement"] != "active":
        raise RuleViolation("not_active", "Channelling needs an active movement token.")
    p = copy_json(piece)
    p["mana"]["common"] += common
    p["mana"]["dark"] += dark
    lines = [
        f"{p['name']} channels {common} common and {dark} dark mana (now {p['mana']['common']} common, {p['mana']['dark']} dark)."
    ]
    if seals:
        p, more = add_seals(p, seals, rule, has_effect=not setup)
        lines += more
        if remove_seal_dice and not setup:
            p["lost_dice"] = p.get("lost_dice", 0) + seals
            lines.append(
                f"{p['name']}: {counted(seals, 'arcane die', 'arcane dice')} removed for the mission (7.2.3)."
            )
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
    p = copy_json(piece)
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
        return copy_json(target), [f"{t} is not in play: {effect} has no effect."]
    if name == "HIT":
        p, lines = assign_damage(target, x, GENERAL)
        return p, [f"HIT {x} on {t} (armor first)."] + lines
    if name == "ARCANE HIT":
        p, lines = assign_damage(target, x, HIT)
        return p, [f"ARCANE HIT {x} on {t} (hit factor)."] + lines
    p = copy_json(target)
    if name == "CARE":
        removed = min(x, p["broken_hearts"])
        p["broken_hearts"] -= removed
        return p, [f"CARE {x}: {t} loses {counted(removed, 'broken heart token')}."]
    if name == "REPAIR":
        removed = min(x, p["broken_armor"])
        p["broken_armor"] -= removed
        return p, [f"REPAIR {x}: {t} loses {counted(removed, 'broken armor token')}."]
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



#: Why a standard effect (8.2) would change nothing on its target, by its name.
_NOTHING_TO_DO = {
    "CARE": "no broken heart token to remove",
    "REPAIR": "no broken armor token to remove",
    "POISON": "already poisoned",
    "STUNNING": "movement token already exhausted",
}


def no_effect_words(power: dict, target: dict) -> str:
    """The refusal of using ``power`` on ``target`` when it would change nothing
    (``no_effect_reason``), or ""."""
    why = no_effect_reason(power, target)
    return f"No effect on {target['name']}: {why} (8.2)." if why else ""


def no_effect_reason(power: dict, target: dict) -> str:
    """Why using ``power`` on ``target`` would change nothing, or "" when one of its effects
    does (``apply_effect`` on a copy: the page and the command ask the same thing). 8.2 CARE x
    removes broken heart tokens, REPAIR x broken armor tokens: on a character with none they
    do nothing; POISON x gives none to a poisoned character; STUNNING exhausts a token that may
    be exhausted already. The rulebook does not forbid such a use; our choice (docs/playing.md
    "A DemLoc mission at the table (one phone a player, one hand)"): the command refuses it
    (``no_effect``) and the page says it on the target beforehand, so no mana is spent for
    nothing (found by a new user:
    Mend on a character with armor damage only cost a common mana and said "no effect" only
    after). A unique effect (the card's own words) is applied by hand: never said to do
    nothing."""
    reasons = []
    for effect in power.get("effects") or []:
        name = parse_feature(effect)[0]
        if name not in _NOTHING_TO_DO or not in_play(target):
            return ""
        after, _lines = apply_effect(target, effect)
        if after != target:
            return ""
        reasons.append(f"{name} {_NOTHING_TO_DO[name]}" if len(power["effects"]) > 1 else _NOTHING_TO_DO[name])
    return "; ".join(reasons)


# ------------------------------------------------------------------------ defend and cancel
#: Standard effects that stay on a character as an "arcane effect token" (7.2.3.5 "Cancel the
#: effect of arcane powers: ... 1 arcane effect token can be removed"): VIGOR and WEAKNESS are
#: mana tokens placed on the hand-to-hand ability for the turn (8.2), POISON the poison tokens.
LASTING = {"VIGOR": "vigor", "WEAKNESS": "weakness", "POISON": "poison"}


def lasting(s: DemlocState, target: dict, effect: str, caster: str, power: str, version: int) -> None:
    """Record a lasting standard effect (``LASTING``) on ``target`` as an arcane effect token
    ``{"effect", "key", "amount", "by", "power", "turn", "version"}`` (what "cancel" removes)."""
    name, x = parse_feature(effect)
    key = LASTING.get(name)
    if key is None:
        return
    amount = 1 if x is None else x
    t = s["pieces"][target["id"]]
    t.setdefault("arcane_effects", []).append(
        {
            "effect": effect,
            "key": key,
            "amount": amount,
            "by": caster,
            "power": power,
            "turn": s["turn"],
            "version": version,
        }
    )


# ------------------------------------------------------------------------ commands
@play_command(arcane, "demloc.mana.adjust")
def mana_adjust(d: Decision, data: Data) -> None:
    """``{"piece", "colour": common | dark, "delta": -6..6 not 0}``: cubes by hand (6.4.2), at
    most the arcane ability held. Raises ``bad_input``, ``nothing_to_remove``, ``too_many_dice``."""
    p = own_piece(d, data)
    colour = data.choice(
        "colour",
        ("common", "dark"),
        code="bad_input",
        message="Mana is common (white) or dark (black).",
    )
    delta = num(data, "delta", None, -6, 6)
    d.require(delta != 0, "bad_input", "Add or remove at least one cube.")
    d.require(p["mana"][colour] + delta >= 0, "nothing_to_remove", "No such cube to remove.")
    if delta > 0:
        held = p["mana"]["common"] + p["mana"]["dark"]
        d.require(
            held + delta <= p["arcane"],
            "too_many_dice",
            f"{p['name']} holds at most {p['arcane']} mana.",
        )
    d.emit("demloc.mana.adjusted", {"piece": p["id"], "colour": colour, "delta": delta})


@arcane.evolver("demloc.mana.adjusted", label="changed mana cubes")
def mana_adjusted(s: DemlocState, e: EventRecord) -> None:
    p = s["pieces"][e.data["piece"]]
    colour = e.data["colour"]
    p["mana"][colour] += e.data["delta"]
    say(f"{p['name']}: {e.data['delta']:+d} {colour} mana (now {p['mana'][colour]}).")


@arcane.narrator("demloc.mana.adjusted")
def say_mana_adjusted(e: EventRecord, s: DemlocState) -> str:
    return f"{piece_name(s, e.data['piece'])}: {e.data['delta']:+d} {e.data['colour']} mana."


@play_command(arcane, "demloc.mana.channel")
def mana_channel(d: Decision, data: Data) -> None:
    """``{"piece", "common", "dark", "seals": 0..6, "setup": bool, "daemon_left": bool}``: what
    the arcane dice show (7.2.3; in the setup 6.4.1 and when a daemon leaves 7.2.3.3 the seals
    have no effect). Channelling in play is the character's activation of the phase (7.2,
    ``activation``). Raises ``possessed``, ``not_setup``, ``turn_over`` (7.3.2.3), ``already_activated``, ``bad_count``,
    ``no_arcane``, ``too_many_dice``, ``not_active``."""
    p = own_piece(d, data)
    not_possessed(p)
    setup = data.bool("setup")
    daemon_left = data.bool("daemon_left")
    if setup:
        d.require(
            d.state["turn"] == 1 and d.state["phase"] == "strategic",
            "not_setup",
            "Setup channelling happens before the first turn is played.",
        )
    if not (setup or daemon_left):
        activation.require_turn_on(d.state, p, "channel mana")
        activation.require_free(d.state, p, "channel mana")
    counts = {k: num(data, k, 0, 0, 6) for k in ("common", "dark", "seals")}
    channel(
        p,
        counts["common"],
        counts["dark"],
        counts["seals"],
        setup=setup or daemon_left,
        rule=d.state["options"]["seals"],
        remove_seal_dice=d.state["options"].get("seal_dice") == "removed",
    )  # checks only: the fold applies it
    d.emit(
        "demloc.mana.channelled",
        {"piece": p["id"], **counts, "setup": setup, "daemon_left": daemon_left},
    )


@arcane.evolver("demloc.mana.channelled", label="channelled mana")
def mana_channelled(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p, more = channel(
        s["pieces"][d["piece"]],
        d["common"],
        d["dark"],
        d["seals"],
        setup=d["setup"] or d.get("daemon_left", False),
        rule=s["options"]["seals"],
        remove_seal_dice=s["options"].get("seal_dice") == "removed",
    )
    intro = (
        ["Setup channelling (6.4.1):"]
        if d["setup"]
        else ["Dice rolled as the daemon left (7.2.3.3):"]
        if d.get("daemon_left")
        else []
    )
    set_piece(s, p, intro + more)
    if not (d["setup"] or d.get("daemon_left")):
        activation.mark(s, p["id"])


@arcane.narrator("demloc.mana.channelled")
def say_mana_channelled(e: EventRecord, s: DemlocState) -> str:
    d = e.data
    seals = f", {counted(d['seals'], 'broken seal')}" if d["seals"] else ""
    return f"{piece_name(s, d['piece'])} channels {d['common']} common and {d['dark']} dark mana{seals}."


def power_refusal(
    state: DemlocState, p: dict, code_index: int, power_index: int
) -> RuleViolation | None:
    """The first rule that using power ``power_index`` of ``p``'s code ``code_index`` breaks
    now (7.2.3.1), as the refusal to raise (its code and message), or None when it may be used: the check of the
    command ``demloc.power.use`` and of the page, which disables "Use <power>" with this
    reason beside it (``missions.rules.view``), so the two never disagree. As for a summon
    (``missions.rules.summoning.summon_refusal``), what no later moment changes comes first:
    possessed (7.2.3), no power in the standard asset (5.1.5), a cost above what ``p`` can
    ever hold (5.1.1; the extra of an exhausted caster is this moment's); then this moment's:
    the turn over (7.3.2.3, ``turn_over``), already activated this phase (7.2), an object
    picked up this turn (7.2.1), not enough mana held (an exhausted caster pays one more per
    level, 7.2.3.1). The split of that extra between the colours is the form's, checked by
    ``pay``."""
    if p["possessed"]:
        return RuleViolation("possessed", "A possessed character cannot act (7.2.3).")
    codes = codes_of(p)
    if not codes or p["asset"] != "standard":
        return RuleViolation("no_power", f"{p['name']} has no arcane power to use now.")
    code = codes[code_index] if 0 <= code_index < len(codes) else codes[0]
    powers = code.get("powers") or []
    if not 0 <= power_index < len(powers):
        return RuleViolation("no_power", f"{code['name']} has no arcane power.")
    power = powers[power_index]
    cost = power.get("cost") or {}
    common, dark = int(cost.get("common", 0)), int(cost.get("dark", 0))
    due = p["level"] if p["movement"] == "exhausted" else 0
    if common + dark > int(p.get("arcane") or 0):  # the extra of an exhausted caster passes
        return RuleViolation("not_enough_mana", beyond_cap_words(p, common + dark))
    over = activation.turn_over_words(state, p, "use an arcane power")
    if over:
        return RuleViolation("turn_over", over)
    activated = activation.activated_words(state, p, "use an arcane power")
    if activated:
        return RuleViolation("already_activated", activated)
    carried = activation.object_words(state, p, "use an arcane power")
    if carried:
        return RuleViolation("object_taken", carried)
    held = p["mana"]
    left_common, left_dark = held["common"] - common, held["dark"] - dark
    if left_common < 0 or left_dark < 0 or left_common + left_dark < due:
        extra = f" + {due} extra (exhausted: one per level)" if due else ""
        return RuleViolation("not_enough_mana", (
            f"Not enough mana: {p['name']} holds {held['common']} common, {held['dark']} dark; "
            f"{power['name']} costs {common} common, {dark} dark{extra}: "
            f"{activation.channel_first_words(state)}."))
    return None


@play_command(arcane, "demloc.power.use")
def power_use(d: Decision, data: Data) -> None:
    """``{"piece", "code": index (default 0), "power": index, "target", "extra_common",
    "extra_dark"}``: a power of any of the character's Arcane Codes (5.1.5; 7.2.3.1: an
    exhausted caster pays one extra mana per level). It activates the caster (7.2) and is
    remembered with what it changed, for the target's "defend" test (7.2.3.5,
    ``record_power``); its VIGOR/WEAKNESS/POISON become arcane effect tokens a "cancel" test
    removes (``lasting``). An enemy it kills is the caster's player's kill
    (``missions.rules.score.credit_kills``). Raises ``bad_input``, then the refusal of
    ``power_refusal`` (``possessed``, ``no_power``, ``not_enough_mana``, ``turn_over``,
    ``already_activated``, ``object_taken``), then ``no_effect`` (``no_effect_words``: nothing it would change on
    that target), then ``bad_extra``, ``not_enough_mana`` (``pay``: the extra's split)."""
    p = own_piece(d, data)
    codes = codes_of(p)
    code_index = num(data, "code", 0, 0, max(0, len(codes) - 1))
    powers = (codes[code_index].get("powers") or []) if codes else []
    index = num(data, "power", 0, 0, max(0, len(powers) - 1))
    refusal = power_refusal(d.state, p, code_index, index)
    if refusal is not None:
        raise refusal
    code = codes[code_index]
    target = piece(d.state, data.get("target"))
    useless = no_effect_words(code["powers"][index], target)
    if useless:
        raise RuleViolation("no_effect", useless)
    extra = {"common": num(data, "extra_common", 0, 0, 9), "dark": num(data, "extra_dark", 0, 0, 9)}
    pay(p, code["powers"][index]["cost"], extra)
    before = statuses(d.state)
    d.emit(
        "demloc.power.used",
        {
            "piece": p["id"],
            "code": code_index,
            "power": index,
            "target": target["id"],
            "extra": extra,
        },
    )
    credit_kills(d, before, p["id"])


def _power(caster: dict, data: dict) -> dict | None:
    codes = codes_of(caster)
    ci, pi = data.get("code", 0), data["power"]
    if ci >= len(codes) or pi >= len(codes[ci]["powers"]):
        return None
    return codes[ci]["powers"][pi]


@arcane.evolver("demloc.power.used", label="used an arcane power")
def power_used(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    power = _power(p, d) or {}
    p, more = pay(p, power["cost"], d["extra"])
    set_piece(
        s,
        p,
        [f"{p['name']} uses {power['name']} on {s['pieces'][d['target']]['name']}."] + more,
    )
    activation.mark(s, p["id"])
    before = copy_json(s["pieces"][d["target"]])
    for effect in power["effects"]:
        t, more = apply_effect(s["pieces"][d["target"]], effect)
        set_piece(s, t, more)
        lasting(s, t, effect, p["id"], power["name"], e.version)
    after = s["pieces"][d["target"]]
    record_power(s, before, after, p["id"], power["name"], e.version)
    # A kill that reached beyond the target (a daemon's hearts to its summoner, a summoner's
    # daemon leaving the game, 7.2.3.3) cannot be taken back by the target's defend test.
    known(s["last_power"])["cascade"] = not in_play(after) and (
        after["kind"] == "daemon" or bool(before.get("summoning"))
    )


@arcane.narrator("demloc.power.used")
def say_power_used(e: EventRecord, s: DemlocState) -> str:
    caster = s["pieces"].get(e.data["piece"]) or {}
    power = (_power(caster, e.data) or {}).get("name", "a power") if caster else "a power"
    return f"{caster.get('name', '?')} uses {power} on {piece_name(s, e.data['target'])}."


def strikes_of(p: dict) -> list[str]:
    """The HIT / ARCANE HIT effects of ``p``'s active summoning pentacle (8.3), [] without."""
    if p.get("asset") != "post_summoning":
        return []
    pentacle = (p.get("code") or {}).get("pentacle") or {}
    return [x for x in pentacle.get("effects", []) if parse_feature(x)[0] in ("HIT", "ARCANE HIT")]


def can_strike(state: DemlocState, p: dict) -> bool:
    """Whether ``p``'s pentacle may strike now (``pentacle_strike``): a striking pentacle, the
    brawl phase (8.3 "In this hand-to-hand attack sub-phase"), not yet struck in it."""
    return (
        bool(strikes_of(p))
        and state["phase"] == BRAWL
        and p.get("struck") != activation.phase_key(state)
    )


@play_command(arcane, "demloc.pentacle.strike")
def pentacle_strike(d: Decision, data: Data) -> None:
    """``{"piece", "targets": [ids] or "a,b"}``: the HIT / ARCANE HIT of an active summoning
    pentacle on every character in contact (8.3); the enemies it kills are the summoner's
    player's kills (``missions.rules.score.credit_kills``). 8.3: "In this hand-to-hand attack
    sub-phase, x arcane damages are inflicted": only in the brawl phase (7.3.2, its hand-to-hand
    attack sub-phase), once per summoner in that sub-phase (``struck`` keeps the phase it struck
    in, ``activation.phase_key``). Raises ``no_pentacle``, ``wrong_phase``, ``already_struck``,
    ``bad_input``."""
    p = own_piece(d, data)
    pentacle = (p.get("code") or {}).get("pentacle") or {}
    d.require(
        p["asset"] == "post_summoning" and pentacle,
        "no_pentacle",
        "No summoning pentacle is active.",
    )
    strikes = [x for x in pentacle["effects"] if parse_feature(x)[0] in ("HIT", "ARCANE HIT")]
    d.require(strikes, "no_pentacle", "This pentacle strikes nobody (8.3).")
    d.require(
        d.state["phase"] == BRAWL,
        "wrong_phase",
        "A pentacle's HIT and ARCANE HIT strike in the hand-to-hand attack sub-phase of the "
        "brawl phase (8.3).",
    )
    d.require(
        p.get("struck") != activation.phase_key(d.state),
        "already_struck",
        f"{p['name']}'s pentacle has struck in this hand-to-hand attack sub-phase already (8.3).",
    )
    targets = data.get("targets") or []
    if isinstance(targets, str):
        targets = [t for t in targets.split(",") if t]
    targets = Data({"t": targets}).list("t", max_items=20, default=[])
    d.require(targets, "bad_input", "Choose the characters in contact.")
    ids = [piece(d.state, t)["id"] for t in targets]
    before = statuses(d.state)
    d.emit("demloc.pentacle.struck", {"piece": p["id"], "targets": ids, "effects": strikes})
    credit_kills(d, before, p["id"])


@arcane.evolver("demloc.pentacle.struck", label="struck with a pentacle")
def pentacle_struck(s: DemlocState, e: EventRecord) -> None:
    s["pieces"][e.data["piece"]]["struck"] = activation.phase_key(s)
    say(f"{s['pieces'][e.data['piece']]['name']}'s pentacle strikes everyone in contact.")
    for tid in e.data["targets"]:
        for effect in e.data["effects"]:
            t, more = apply_effect(s["pieces"][tid], effect)
            set_piece(s, t, more)


@arcane.narrator("demloc.pentacle.struck")
def say_pentacle_struck(e: EventRecord, s: DemlocState) -> str:
    names = ", ".join(piece_name(s, t) for t in e.data["targets"])
    return f"{piece_name(s, e.data['piece'])}'s pentacle strikes {names}: {', '.join(e.data['effects'])}."


__all__ = ["RuleViolation", "apply_effect", "channel", "codes_of", "in_play", "pay"]

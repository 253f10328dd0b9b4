"""The arcane test (the command ``demloc.arcane.test``, its event and fold): defending from a
power (a passed test reverts it), cancelling an arcane effect token, freeing a possessed
character. DemLoc rulebook 7.2.3.5 ("Arcane test"), 8.2 (VIGOR, WEAKNESS, POISON as lasting
effects). Mana, channelling, powers and pentacles are ``missions.rules.arcane``; what a power
changed and its revert, ``missions.rules.revert``.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord

from . import possession
from .common import (
    control,
    fate_amount,
    in_play,
    not_possessed,
    num,
    own_piece,
    piece,
    play_command,
    player,
    set_piece,
)
from .revert import defendable, revert_power
from .score import statuses, uncredit_kills
from .shooting import ability_test, record_test, tested_words
from .state import DemlocState

arcane_test_topic = Topic("arcane_test")


def live_effects(s: DemlocState, p: dict) -> list[dict]:
    """The arcane effect tokens still on ``p``: VIGOR/WEAKNESS of this turn (they expire at its
    end, 8.2), POISON while the piece is poisoned."""
    out = []
    for eff in p.get("arcane_effects", []):
        if eff["key"] == "poison":
            if p["poison"] > 0:
                out.append(eff)
        elif eff["turn"] == s["turn"] and p[eff["key"]] > 0:
            out.append(eff)
    return out


def cancel_effect(s: DemlocState, target: dict, eff: dict) -> None:
    """A passed "cancel" test (7.2.3.5): one arcane effect token ``eff`` leaves ``target``, and
    what it added goes (VIGOR/WEAKNESS x, the poison tokens of POISON x; never below 0)."""
    t = copy_json(target)
    before = t[eff["key"]]
    t[eff["key"]] = max(0, before - eff["amount"])
    t["arcane_effects"] = [
        x for x in t.get("arcane_effects", []) if x["version"] != eff["version"] or x != eff
    ]
    set_piece(
        s,
        t,
        [
            f"{eff['effect']} ({eff['power']}) is cancelled on {t['name']}: "
            f"{eff['key']} {before} -> {t[eff['key']]} (7.2.3.5)."
        ],
    )


def arcane_test_refusal(p: dict) -> RuleViolation | None:
    """The first rule that an arcane test by ``p`` breaks whatever its purpose (7.2.3.5), as
    the refusal to raise, or None when it may test: the check of the command
    ``demloc.arcane.test`` and of the page, which disables "Test" with this reason beside it
    (``missions.rules.view``), as ``power_refusal`` does for "Use". No arcane ability; possessed
    (7.2.3); no arcane die in the mana pool (7.2.3 "by using any arcane die from their mana
    pool", 7.2.3.5). ``p`` is the character as the test judges it (a defend against a
    possession: as it was before it)."""
    if p["arcane"] <= 0:
        return RuleViolation("no_arcane", f"{p['name']} has no arcane ability.")
    if p["possessed"]:
        return RuleViolation("possessed", "A possessed character cannot act (7.2.3).")
    if not any(p["mana"][c] > 0 for c in ("common", "dark")):
        return RuleViolation(
            "no_mana",
            f"{p['name']} needs an arcane die in its mana pool for the test (7.2.3): "
            "channel first.",
        )
    return None


@play_command(arcane_test_topic, "demloc.arcane.test")
def arcane_test(d: Decision, data: Data) -> None:
    """``{"piece", "roll": 1..6, "fate": 0..6, "purpose": free | defend | cancel | other,
    "target", "effect": index, "die": common | dark}`` (7.2.3.5): an ability test on the arcane
    ability, for one of the purposes the rulebook lists:

    - ``defend`` ("Defend against arcane attacks: if the test is passed the arcane power the
      character was targeting has no effect"): the tester is the target of the last power used
      this phase (``defendable``); passed, the power is reverted (``revert_power``), and a kill
      the app counted for it is taken back (``missions.rules.score.uncredit_kills``). Once per
      power ("not to solve the same situation"). A character the power killed may still make
      the test: it answers the power.
    - ``cancel`` ("1 arcane effect token can be removed from one of the characters in the
      control zone of the character who performed the test, or from the same character"):
      ``target`` a character with an arcane effect token (``live_effects``), ``effect`` which
      one (default the newest); passed, ``cancel_effect``. The control zone is the board's:
      the players check it.
    - ``free``: frees the possessed ``target`` when passed (the +3 as the table option
      ``free_possessed`` reads it).

    Raises ``no_arcane``, ``possessed``, ``not_enough_fate``, ``not_possessed``, ``bad_target``,
    ``bad_roll``, ``no_mana``, ``nothing_to_defend``, ``no_arcane_effect``.

    The test uses one arcane die from the character's mana pool (7.2.3 "by using any arcane
    die from their mana pool"; 7.2.3.5): ``"die": common | dark`` (default: common if it holds
    one); the cube goes back to the reserve whatever the result. Broken seals rolled in the
    test have no effect (7.2.3.5), so there is nothing to enter for them."""
    purpose = data.choice(
        "purpose",
        ("free", "defend", "cancel", "other"),
        default="free" if data.has("target") else "other",
        code="bad_input",
        message="Unknown purpose.",
    )
    last: dict | None = None
    if purpose == "defend":
        # The power may have killed the tester: it still answers it (7.2.3.5).
        p = piece(d.state, data.get("piece"), alive=False)
        control(d.state, p, d.seat)
        last = defendable(d.state, p["id"])
        d.require(
            last is not None,
            "nothing_to_defend",
            f"No arcane power targeted {p['name']} this phase (or it was already tested).",
        )
        assert last is not None
        if not in_play(p):
            d.require(
                last["changes"].get("status", [None])[0] == "in_play",
                "not_in_play",
                f"{p['name']} is no longer in play.",
            )
            d.require(
                not last.get("cascade"),
                "cannot_revert",
                f"The power's kill reached beyond {p['name']} (a daemon and its summoner, "
                "7.2.3.3): it stands, no defend test.",
            )
        if last["changes"].get("possessed") == [False, True]:
            # The test answers the possession itself: judged as the character was before it.
            p = {**p, "possessed": False, "mana": copy_json(last["changes"]["mana"][0])}
    else:
        p = own_piece(d, data)
    d.require(p["arcane"] > 0, "no_arcane", f"{p['name']} has no arcane ability.")
    not_possessed(p)
    fate = fate_amount(d, data, "fate", p["owner"], least=0, most=6)
    roll_mod, ability_mod = (0, 0)
    target = None
    effect_index = None
    if purpose == "free":
        target = piece(d.state, data.get("target"))
        d.require(target["possessed"], "not_possessed", f"{target['name']} is not possessed.")
        d.require(target["id"] != p["id"], "bad_target", "A character cannot free itself.")
        roll_mod, ability_mod = possession.free_possessed_modifier(
            d.state["options"]["free_possessed"]
        )
    elif purpose == "cancel":
        target = piece(d.state, data.get("target") or p["id"])
        effects = live_effects(d.state, target)
        d.require(
            bool(effects),
            "no_arcane_effect",
            f"{target['name']} carries no arcane effect token to cancel (7.2.3.5).",
        )
        effect_index = num(data, "effect", len(effects) - 1, 0, len(effects) - 1)
    # The page's check (no arcane, possessed, no mana): the first two passed above, before
    # the purpose's own refusals, as the error codes have always come.
    refusal = arcane_test_refusal(p)
    if refusal is not None:
        raise refusal
    held = [c for c in ("common", "dark") if p["mana"][c] > 0]
    die = data.choice(
        "die",
        held,
        default=held[0],
        code="no_mana",
        message=f"{p['name']} holds no such mana cube.",
    )
    test = ability_test(
        num(data, "roll", None), p["arcane"] + ability_mod, fate, roll_mod, name="Arcane"
    )
    payload = {
        "die": die,
        "piece": p["id"],
        "target": target["id"] if target else None,
        "purpose": purpose,
        "fate": fate,
        "passed": test.passed,
        "test": record_test(test),
    }
    if effect_index is not None:
        payload["effect"] = effect_index
    before = statuses(d.state)
    caster = last["caster"] if last is not None else None
    d.emit("demloc.arcane.tested", payload)
    if caster and test.passed:
        uncredit_kills(d, before, caster)


def record_last_test(s: DemlocState, e: EventRecord, last: dict | None) -> None:
    """Remember the arcane test just made (``s["last_test"]``), for its result line at the
    tester's Test form (``missions.rules.view.test_result``; 7.2.3.5): who tested, at which
    version, in which phase, the test in words, and what it was for (the power defended
    against, the character to free, the effect to cancel). Called before the fold changes
    anything, so the names are those the player chose."""
    d = e.data
    target = s["pieces"].get(d.get("target") or "")
    effect = None
    if d["purpose"] == "cancel" and target is not None:
        effects = live_effects(s, target)
        if effects:
            eff = effects[min(d.get("effect", -1), len(effects) - 1)]
            effect = f"{eff['effect']} ({eff['power']})"
    s["last_test"] = {
        "piece": d["piece"],
        "version": e.version,
        "turn": s["turn"],
        "phase": s["phase"],
        "purpose": d["purpose"],
        "passed": bool(d["passed"]),
        "lines": list(tested_words(d, "Arcane")),
        "target": target["name"] if target is not None else None,
        "power": last["power"] if last else None,
        "effect": effect,
    }


@arcane_test_topic.evolver("demloc.arcane.tested", label="made an arcane test")
def arcane_tested(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    if d["fate"]:
        player(s, p["owner"])["fate"] -= d["fate"]
    after: list[str] = []
    last = s.get("last_power") if d["purpose"] == "defend" else None
    record_last_test(s, e, last)
    if last:
        last["tested"] = True
        if d["passed"]:  # first undo the power (a possession gives its mana back), then pay
            after.append(revert_power(s, last))
            p = s["pieces"][d["piece"]]
        else:
            after.append(f"{p['name']} fails to resist {last['power']}.")
    if d.get("die") and p["mana"][d["die"]] > 0:  # older events spent no die
        p["mana"][d["die"]] -= 1
        say(f"{p['name']} uses a {d['die']} arcane die for the test.")
    say(*tested_words(d, "Arcane"))
    say(*after)
    if d["purpose"] == "free":
        possession.free(s, p, s["pieces"][d["target"]], d["passed"])
    elif d["purpose"] == "cancel":
        target = s["pieces"][d["target"]]
        effects = live_effects(s, target)
        if d["passed"] and effects:
            cancel_effect(s, target, effects[min(d.get("effect", -1), len(effects) - 1)])
        elif not d["passed"]:
            say(f"The arcane effect on {target['name']} stays.")


@arcane_test_topic.narrator("demloc.arcane.tested")
def say_arcane_tested(e: EventRecord, s: DemlocState) -> str:
    return " ".join(tested_words(e.data, "Arcane"))

"""What the last arcane power changed, so that a passed "defend" arcane test can take it back
(DemLoc rulebook 7.2.3.5 "Defend against arcane attacks: if the test is passed the arcane power
the character was targeting has no effect"). Pure helpers used by ``missions.rules.arcane``
(powers, the test) and ``missions.rules.possession`` (a possession by an arcane card effect).
"""

from __future__ import annotations

from tabletop.decider import copy_json

from .state import DemlocState

#: The live fields of a piece an arcane power can change (7.2.3.5: what "no effect" undoes).
POWER_FIELDS = (
    "armor_damage",
    "hit_damage",
    "broken_armor",
    "broken_hearts",
    "bleeding",
    "poison",
    "seals",
    "movement",
    "vigor",
    "weakness",
    "possessed",
    "mana",
    "status",
)


def record_power(
    s: DemlocState, before: dict, after: dict, caster: str, power: str, version: int, kind: str = "power"
) -> None:
    """Remember the last arcane power used (``s["last_power"]``) and exactly what it changed on
    its target (``changes``: field -> [before, after]), so that a passed "defend" arcane test of
    the target in the same phase can revert it (7.2.3.5)."""
    changes = {
        k: [before.get(k), after.get(k)] for k in POWER_FIELDS if before.get(k) != after.get(k)
    }
    s["last_power"] = {
        "caster": caster,
        "target": after["id"],
        "power": power,
        "kind": kind,
        "version": version,
        "turn": s["turn"],
        "phase": s["phase"],
        "changes": changes,
        "tested": False,
    }


def defendable(s: DemlocState, pid: str) -> dict | None:
    """The last power used on ``pid`` this phase, not yet defended against, or None."""
    last = s.get("last_power")
    if (
        last
        and last["target"] == pid
        and last["turn"] == s["turn"]
        and last["phase"] == s["phase"]
        and not last["tested"]
    ):
        return last
    return None


def revert_power(s: DemlocState, last: dict) -> str:
    """A passed "defend" test (7.2.3.5 "the arcane power the character was targeting has no
    effect"): each field the power changed goes back to what it was; a field changed since by
    something else keeps that change (its difference is taken back, never below 0). Returns
    what happened in words, for the arcane test's fold to say after the test itself."""
    t = copy_json(s["pieces"][last["target"]])
    said = []
    for key, (before, after) in last["changes"].items():
        now = t.get(key)
        if now == after or not isinstance(now, int) or isinstance(now, bool):
            t[key] = copy_json(before)
        else:
            t[key] = max(0, now - (after - before))
        if key == "mana":
            said.append(f"mana {t['mana']['common']} common, {t['mana']['dark']} dark")
        else:
            said.append(f"{key.replace('_', ' ')} {now} -> {t[key]}")
    t["arcane_effects"] = [
        eff for eff in t.get("arcane_effects", []) if eff["version"] != last["version"]
    ]
    if "poisoned_by" in t and t.get("poison", 0) <= 0:  # as ``common.set_piece``: forgotten
        del t["poisoned_by"]
    s["pieces"][t["id"]] = t
    return f"{t['name']} resists {last['power']}: it has no effect (7.2.3.5)" + (
        f"; reverted: {', '.join(said)}." if said else "."
    )

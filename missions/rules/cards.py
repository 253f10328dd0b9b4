"""Character cards as data: the factors printed on mercenary, follower and daemon cards.

DemLoc rulebook 5.1.1 (mercenaries), 5.1.2 (followers), 5.1.3 (daemons), 5.1.4 (weapons),
5.1.5 (arcane codes). A mission's opening event carries every card as a plain dict (JSON), so a
replay never reads the catalog. ``card_from_data`` checks and normalizes one such dict.

A character card dict::

    {"id": "m1", "name": "Rook", "kind": "mercenary" | "follower" | "daemon", "level": 1..5,
     "armor": 0..12, "impact": 0..6, "hit": 1..12, "movement": 0..12,
     "h2h": 0..8, "h2h_bonus": 0..6, "ranged": 0..8, "ranged_bonus": 0..6, "arcane": 0..6,
     "favourite": "swords" | ... | None,
     "weapons": [weapon, ...]            # 0..2: primary first, then secondary
     "features": ["MONSTROUS 1", "FURY"],  # standard personal abilities (8.4)
     "abilities": [ability, ...],           # every personal ability, with its fate cost
     "codes": [arcane code, ...],           # every Arcane Code the character holds (5.1.5)
     "code": the code in hand (the first; the summoning code once it summoned) or None,
     "kabbalah": str | None (daemons)}

An ability dict (5.1.1 "personal ability fate points cost", 8.4): ``{"name", "feature": "FURY"
| "FLY 2" | None (unique), "activation": "passive" | "activated", "fate_cost": 0..9, "text"}``.

A weapon dict: ``{"name", "type", "damage": int (shooting damage for ranged weapons, brawl damage
otherwise), "brawl_damage": int (ranged weapons' second value, defaults to damage),
"range": int | None (ranged weapons only), "features": ["PERFORATING", "SHIELD 1", ...]}``.

An arcane code dict: ``{"name", "kabbalah", "powers": [{"name", "cost": {"common": n, "dark": n},
"effects": ["HIT 2"]}], "summon_cost": {"common": n, "dark": n} | None, "pentacle": {"name",
"effects": ["SHIELD 1"]} | None}``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tabletop.errors import RuleViolation

KINDS = ("mercenary", "follower", "daemon")
WEAPON_TYPES = (
    "bows",
    "gunpowder",
    "swords",
    "axes",
    "naked_hands",
    "knife",
    "hammers",
    "shields",
    "spears",
)
#: The weapon types in words (5.1.4), as the Guild pages say them (``guilds.WeaponType``).
WEAPON_TYPE_WORDS = {
    "bows": "Bows and crossbows",
    "gunpowder": "Gunpowder weapons",
    "swords": "Swords",
    "axes": "Axes",
    "naked_hands": "Naked hands",
    "knife": "Knife",
    "hammers": "Hammers",
    "shields": "Shields",
    "spears": "Spears and pikes",
}
FEATURE_RE = re.compile(r"^([A-Z][A-Z ]*?[A-Z])(?: (\d+))?$")

_INT_FACTORS = {
    "level": (0, 9, 1),
    "armor": (0, 12, 0),
    "impact": (0, 6, 0),
    "hit": (1, 12, None),
    "movement": (0, 12, 0),
    "h2h": (0, 8, 0),
    "h2h_bonus": (0, 6, 0),
    "ranged": (0, 8, 0),
    "ranged_bonus": (0, 6, 0),
    "arcane": (0, 6, 0),
}


def parse_feature(text: str) -> tuple[str, int | None]:
    """``"SHIELD 2"`` -> ``("SHIELD", 2)``; ``"PERFORATING"`` -> ``("PERFORATING", None)``.

    Names are upper case (as printed on the cards, 8.1-8.4); the rulebook spells the personal
    ability MONSTRUOUS and the pentacle MONSTROUS: both are read as ``"MONSTROUS"``.
    Raises ``RuleViolation("bad_feature")`` for anything else.
    """
    return _parsed(str(text))


@lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[str, int | None]:
    """``parse_feature`` of one text, worked out once per process (a view reads every feature
    of every card: tens of thousands of calls a second at an evening's pace; a refusal is not
    kept)."""
    match = FEATURE_RE.match(text.strip().upper())
    if not match:
        raise RuleViolation("bad_feature", f"{text!r} is not a feature like 'SHIELD 1'.")
    name = match.group(1)
    if name == "MONSTRUOUS":
        name = "MONSTROUS"
    return name, (int(match.group(2)) if match.group(2) else None)


def feature_value(features: list[str], name: str) -> int:
    """The sum of ``x`` over every ``NAME x`` in ``features`` (a feature without x counts 1)."""
    total = 0
    for text in features or ():
        fname, x = parse_feature(text)
        if fname == name:
            total += 1 if x is None else x
    return total


def has_feature(features: list[str], name: str) -> bool:
    """True when ``NAME`` (with or without x) is among ``features``."""
    return any(parse_feature(t)[0] == name for t in features or ())


def _int(data: dict, key: str, low: int, high: int, default: int | None) -> int:
    value = data.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation("bad_card", f"{data.get('name', '?')}: {key} must be a whole number.")
    if not low <= value <= high:
        raise RuleViolation("bad_card", f"{data.get('name', '?')}: {key} must be {low}..{high}.")
    return value


def _cost(value: dict | None) -> dict:
    value = value or {}
    return {
        "common": int(value.get("common", 0)),
        "dark": int(value.get("dark", 0)),
    }


def weapon_from_data(data: dict) -> dict:
    """A checked weapon dict (see the module docstring). Raises ``RuleViolation("bad_card")``."""
    if not isinstance(data, dict) or not data.get("name"):
        raise RuleViolation("bad_card", "A weapon needs a name.")
    damage = _int(data, "damage", 0, 12, None)
    features = [str(f).upper() for f in data.get("features", [])]
    for f in features:
        parse_feature(f)
    return {
        "name": str(data["name"]),
        "type": data.get("type") or "swords",
        "damage": damage,
        "brawl_damage": _int(data, "brawl_damage", 0, 12, damage),
        "range": data.get("range"),
        "two_handed": bool(data.get("two_handed", False)),
        "features": features,
    }


def code_from_data(data: dict | None) -> dict | None:
    """A checked arcane code dict or None (5.1.5)."""
    if not data:
        return None
    powers = []
    for p in data.get("powers", []):
        effects = [str(e).upper() for e in p.get("effects", [])]
        for e in effects:
            parse_feature(e)
        powers.append({"name": str(p["name"]), "cost": _cost(p.get("cost")), "effects": effects})
    pentacle = data.get("pentacle")
    if pentacle:
        pentacle = {
            "name": str(pentacle.get("name", "Pentacle")),
            "effects": [str(e).upper() for e in pentacle.get("effects", [])],
        }
        for e in pentacle["effects"]:
            parse_feature(e)
    return {
        "name": str(data.get("name", "Arcane code")),
        "kabbalah": data.get("kabbalah"),
        "powers": powers,
        "summon_cost": _cost(data["summon_cost"]) if data.get("summon_cost") else None,
        "pentacle": pentacle or None,
    }


def ability_from_data(data: dict) -> dict:
    """A checked ability dict (module docstring; 5.1.1, 8.4): a standard one carries its
    ``feature`` (``"FLY 2"``), a unique one its ``name`` and ``text``; an activated ability is
    paid ``fate_cost`` fate points when used (6.4.2). Raises ``RuleViolation("bad_card")``."""
    if not isinstance(data, dict):
        raise RuleViolation("bad_card", "An ability is a name, a cost and a text.")
    feature = data.get("feature")
    if feature:
        feature = str(feature).upper()
        parse_feature(feature)
    activation = data.get("activation") or "passive"
    if activation not in ("passive", "activated"):
        raise RuleViolation("bad_card", f"Unknown ability activation {activation!r}.")
    name = str(data.get("name") or feature or "").strip()
    if not name:
        raise RuleViolation("bad_card", "A unique ability needs a name.")
    return {
        "name": name[:80],
        "feature": feature or None,
        "activation": activation,
        "fate_cost": _int(data, "fate_cost", 0, 9, 0),
        "text": str(data.get("text") or "")[:600],
    }


def card_from_data(data: dict) -> dict:
    """A checked, normalized character card (module docstring). Unknown keys are dropped.

    Raises ``RuleViolation("bad_card", ...)`` for a missing name, an unknown kind, a factor
    outside its range, more than two weapons or a malformed feature.
    """
    if not isinstance(data, dict) or not data.get("name") or not data.get("id"):
        raise RuleViolation("bad_card", "A character needs an id and a name.")
    kind = data.get("kind", "mercenary")
    if kind not in KINDS:
        raise RuleViolation("bad_card", f"{data['name']}: unknown kind {kind!r}.")
    card = {"id": str(data["id"]), "name": str(data["name"]), "kind": kind}
    for key, (low, high, default) in _INT_FACTORS.items():
        card[key] = _int(data, key, low, high, default)
    weapons = [weapon_from_data(w) for w in data.get("weapons", [])]
    if len(weapons) > 2:
        raise RuleViolation(
            "bad_card", f"{data['name']}: at most a primary and a secondary weapon."
        )
    card["weapons"] = weapons
    card["favourite"] = data.get("favourite")
    card["features"] = [str(f).upper() for f in data.get("features", [])]
    for f in card["features"]:
        parse_feature(f)
    codes = [code_from_data(c) for c in data.get("codes") or [] if c]
    if not codes and data.get("code"):
        codes = [code_from_data(data["code"])]
    card["codes"] = [c for c in codes if c]
    card["code"] = card["codes"][0] if card["codes"] else None
    card["abilities"] = [ability_from_data(a) for a in data.get("abilities") or []]
    card["kabbalah"] = data.get("kabbalah")
    if is_dignitary(data):
        card["dignitary"] = True
    return card


def is_dignitary(data: dict) -> bool:
    """Whether a card is a dignitary (7.2.1 "All characters (dignitaries excluded) could escape
    from the game set"): a card marked ``"dignitary": true``, with the feature ``DIGNITARY``, or
    named "Dignitary" (the follower card of the base set, which prints no separate mark)."""
    if data.get("dignitary"):
        return True
    if any(str(f).upper().strip() == "DIGNITARY" for f in data.get("features", []) or ()):
        return True
    return str(data.get("name", "")).strip().lower() == "dignitary"


def codes_of(piece: dict) -> list[dict]:
    """Every Arcane Code a character holds (5.1.5; a piece stored before the codes list:
    its one code)."""
    return piece.get("codes") or ([piece["code"]] if piece.get("code") else [])


def possession_limit(arcane: int) -> int:
    """Broken seals a character bears (DemLoc rulebook 7.2.3, "daemon possessed"):
    arcane ability 0 or 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4 (and above 4, the ability itself)."""
    return max(1, arcane)

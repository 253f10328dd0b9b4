"""From a Guild's snapshot (``guilds.services.guild_snapshot``) to the mission's roster of
character cards (``missions.rules.cards``). Pure: the snapshot is plain JSON.

DemLoc rulebook 6.4.1 (characters choice: "equipped mercenaries in good health and not on a
mission in the individual game" and the guesthouse followers), 5.1.1-5.1.5 (the cards).
"""

from __future__ import annotations

from .cards import FEATURE_RE, WEAPON_TYPES

RANGED = ("bows", "gunpowder")
#: 5.2: "followers have miniatures that faithfully represent the image of the relevant card".
FOLLOWER_MINIATURE = "its own miniature (its name is under the base)"


def _feature(standard: str, x) -> str | None:
    """``("blooding", 1)`` -> ``"BLOODING 1"``; a unique (text-only) feature -> None."""
    if not standard or standard == "unique":
        return None
    text = standard.replace("_", " ").upper()
    if text == "MONSTRUOUS":
        text = "MONSTROUS"
    text = f"{text} {x}" if x else text
    return text if FEATURE_RE.match(text) else None


def _features(items) -> list[str]:
    out = []
    for item in items or []:
        f = _feature(item.get("standard", ""), item.get("x"))
        if f:
            out.append(f)
    return out


def abilities_card(items) -> list[dict]:
    """Every personal ability of a snapshot card as mission ability dicts (``cards``; 5.1.1:
    "personal ability fate points cost", 8.4: standard or unique, passive or with
    activation): ``[{"name", "feature", "activation", "fate_cost", "text"}]``."""
    out = []
    for item in items or []:
        feature = _feature(item.get("standard", ""), item.get("x"))
        name = feature or (item.get("name") or "").strip() or "Unique ability"
        out.append(
            {
                "name": name[:80],
                "feature": feature,
                "activation": "activated" if item.get("activation") == "activated" else "passive",
                "fate_cost": _clamp(item.get("fate_cost"), 0, 9),
                "text": str(item.get("text") or "")[:600],
            }
        )
    return out


def _clamp(value, low: int, high: int) -> int:
    return max(low, min(high, int(value or 0)))


def _factors(c: dict) -> dict:
    h2h = c.get("hand_to_hand") or [0, 0]
    ranged = c.get("ranged") or [0, 0]
    return {
        "level": _clamp(c.get("level", 1), 0, 9),
        "armor": _clamp(c.get("armor"), 0, 12),
        "impact": _clamp(c.get("impact_resistance"), 0, 6),
        "hit": _clamp(c.get("hit_factor", 3), 1, 12),
        "movement": _clamp(c.get("movement"), 0, 12),
        "h2h": _clamp(h2h[0], 0, 8),
        "h2h_bonus": _clamp(h2h[1], 0, 6),
        "ranged": _clamp(ranged[0], 0, 8),
        "ranged_bonus": _clamp(ranged[1], 0, 6),
        "arcane": _clamp(c.get("arcane_ability"), 0, 6),
        "features": _features(c.get("abilities")),
        "abilities": abilities_card(c.get("abilities")),
    }


def weapon_card(w: dict) -> dict:
    """An armory weapon of the snapshot as a mission weapon dict."""
    wtype = w.get("type") if w.get("type") in WEAPON_TYPES else "swords"
    ranged = wtype in RANGED
    damage = _clamp(w.get("damage"), 0, 12)
    out = {
        "name": w.get("name") or "Weapon",
        "type": wtype,
        "damage": damage,
        "brawl_damage": _clamp(w.get("melee_damage") if ranged else damage, 0, 12),
        "range": w.get("range") if ranged else None,
        "two_handed": w.get("grip") == "two",
        "features": _features(w.get("features")),
    }
    return out


def _fixed_weapon(value) -> dict | None:
    """A follower's or daemon's printed weapon ``[name, type, damage, "FEATURE x, ...",
    melee_damage, range]`` (the last two for ranged weapons, 5.1.2, 5.1.4: a ranged weapon's
    shooting and hand-to-hand damages and its range; an older snapshot without them: the
    shooting damage in the brawl too, range 6)."""
    if not value or not value[0]:
        return None
    name, wtype, damage, features, melee, reach = (list(value) + [None] * 6)[:6]
    wtype = wtype if wtype in WEAPON_TYPES else "swords"
    ranged = wtype in RANGED
    texts = [t.strip().upper() for t in str(features or "").split(",") if t.strip()]
    return {
        "name": name,
        "type": wtype,
        "damage": _clamp(damage, 0, 12),
        "brawl_damage": _clamp(melee if ranged and melee is not None else damage, 0, 12),
        "range": (_clamp(reach, 1, 24) if reach else 6) if ranged else None,
        "features": [t for t in texts if FEATURE_RE.match(t)],
    }


def code_card(code: dict) -> dict:
    """An Arcane Code of the snapshot as a mission code dict (5.1.5)."""
    summoning = code.get("summoning") or {}
    pentacle = code.get("pentacle") or {}
    return {
        "name": code.get("name", "Arcane code"),
        "kabbalah": code.get("kabbalah"),
        "powers": [
            {
                "name": p.get("name", "Power"),
                "cost": {"common": int(p.get("white", 0)), "dark": int(p.get("black", 0))},
                "effects": _features(p.get("effects")),
            }
            for p in code.get("powers", [])
        ],
        "summon_cost": {
            "common": int(summoning.get("white", 0)),
            "dark": int(summoning.get("black", 0)),
        },
        "pentacle": {
            "name": pentacle.get("name") or "Pentacle",
            "effects": _features(pentacle.get("effects")),
        }
        if pentacle.get("effects")
        else None,
    }


def mercenary_entry(m: dict) -> dict:
    """A mercenary of the snapshot as a roster entry: ``{"id": "m<pk>", "source": "mercenary",
    "ref": pk, "name", "ready", "not_ready_code", "why", "card"}``."""
    weapons = sorted(m.get("weapons", []), key=lambda w: w.get("slot") or "")
    codes = m.get("codes") or []
    why = {
        "mercenary_dead": "dead",
        "mercenary_injured": "injured: heal first",
        "mercenary_absent": "away from the Guild",
        "no_weapon": "no weapon equipped",
    }.get(m.get("not_ready_code") or "", "")
    return {
        "id": f"m{m['id']}",
        "source": "mercenary",
        "ref": m["id"],
        "name": m["name"],
        "ready": bool(m.get("ready")),
        # 5.2: the miniature must be of the mercenary's type (the symbol under its base).
        "miniature": f"a {m['type']} miniature" if m.get("type") else "",
        "not_ready_code": m.get("not_ready_code") or "",
        "why": f"{m['name']}: {why}." if why else "",
        "card": {
            "id": f"m{m['id']}",
            "name": m["name"],
            "kind": "mercenary",
            **_factors(m),
            "favourite": m.get("favourite_weapon") or None,
            "weapons": [weapon_card(w) for w in weapons[:2]],
            # 5.1.5: every Arcane Code of the Arcane Library assigned to the mercenary.
            "codes": [code_card(c) for c in codes],
            "code": code_card(codes[0]) if codes else None,  # the code in hand (cards.py)
        },
    }


def follower_card(f: dict, card_id: str) -> dict:
    """A follower (guesthouse or mission pool) as a mission card."""
    weapons = [
        w
        for w in (_fixed_weapon(f.get("primary_weapon")), _fixed_weapon(f.get("secondary_weapon")))
        if w
    ]
    codes = f.get("codes") or []
    card = {
        "id": card_id,
        "name": f["name"],
        "kind": "follower",
        **_factors(f),
        "weapons": weapons,
    }
    if codes and card["arcane"] > 0:
        # 5.1.2: the arcane reference code(s) of the card, assigned for the game; followers
        # never summon daemons, so a code comes without its summoning.
        card["codes"] = [{**code_card(c), "summon_cost": None, "pentacle": None} for c in codes]
        card["code"] = card["codes"][0]
    return card


def guest_entry(g: dict) -> dict:
    """A guesthouse follower as a roster entry (free for every mission, 5.1.2)."""
    return {
        "id": f"g{g['id']}",
        "source": "guest",
        "ref": g["id"],
        "name": g["name"],
        "ready": True,
        "miniature": FOLLOWER_MINIATURE,
        "card": follower_card(g, f"g{g['id']}"),
    }


def daemon_card(d: dict) -> dict:
    """A pantheon daemon as a mission daemon card (5.1.3)."""
    return {
        **follower_card(d, f"d{d['id']}"),
        "kind": "daemon",
        "kabbalah": d.get("kabbalah"),
    }


def roster_from_snapshot(snapshot: dict) -> dict:
    """``{"roster": [entry], "pantheon": [daemon card]}`` of a Guild snapshot; the dead are
    left out, the others shown with whether they can go (``ready``)."""
    roster = [
        mercenary_entry(m) for m in snapshot.get("mercenaries", []) if m.get("status") != "dead"
    ]
    roster += [guest_entry(g) for g in snapshot.get("guests", [])]
    return {"roster": roster, "pantheon": [daemon_card(d) for d in snapshot.get("pantheon", [])]}

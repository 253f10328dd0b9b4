"""Demo content: the Rise of Guilds box (DemLoc rulebook section 4).

The rulebook names the sets and the characters of the box but prints no factors, weapons or
codes: every number and every name not in section 4 below is our invention, and every row is
marked ``is_demo`` so the admin can tell it from real card data.

``load_demo_content()`` is idempotent and never overwrites a row that exists (an admin's edit of
a demo card survives ``make run``); it only tops up unused codes to ``CODES_PER_SET``.
"""

from __future__ import annotations

import secrets

from django.db import transaction

from . import rules
from .models import (
    AccountCode,
    ArcaneCodeCard,
    ArcaneEffect,
    ArcanePower,
    CardSet,
    CharacterAbility,
    CityArea,
    CityEvent,
    CityEventOption,
    ControlPoint,
    ControlPointBonus,
    DaemonCard,
    FollowerCard,
    Guild,
    Kabbalah,
    MercenaryCard,
    PentacleEffect,
    SetCard,
    SetCode,
    WeaponCard,
    WeaponFeature,
)

CODES_PER_SET = 3
BOX = "Rise of Guilds"

AREAS = [
    ("Hochmauer", "crown", "The walled upper city of the old families."),
    ("Ashen Market", "scales", "Stalls, forges and taverns under the smoke."),
    ("Drowned Docks", "anchor", "Wharves on the black canal."),
    ("Cathedral Ward", "bell", "The broken cathedral and its cemeteries."),
    ("The Pits", "skull", "Tunnels and slums beneath the city."),
]
KABBALAHS = [("Black Mirror", "mirror"), ("Ember Crown", "flame"), ("Drowned Choir", "wave")]

# (name, type, area, level, armor, impact, hit, move, h2h, h2h+, ranged, ranged+, arcane,
#  favourite, couplings, abilities)
# ability: (activation, fate_cost, standard, x, name, text)
MERC = tuple
SETS_OF_MERCENARIES = {
    "Basic Guild Set: Rise of Guilds 1": [
        (
            "Brann the Trapper",
            "hunter",
            "Drowned Docks",
            1,
            3,
            1,
            3,
            5,
            2,
            0,
            3,
            0,
            0,
            "bows",
            ("string", "blade"),
            [
                (
                    "activated",
                    1,
                    "unique",
                    None,
                    "Snare",
                    "Place a snare on a square in range 3: the first enemy entering "
                    "it ends its movement.",
                )
            ],
        ),
        (
            "Okka Ironjaw",
            "belligerent",
            "Ashen Market",
            1,
            5,
            1,
            4,
            4,
            3,
            0,
            1,
            0,
            0,
            "axes",
            ("haft", "blade"),
            [("passive", 0, "monstruous", 1, "", "")],
        ),
        (
            "Malve of the Ash",
            "sorcerer",
            "Cathedral Ward",
            1,
            2,
            0,
            3,
            4,
            1,
            0,
            1,
            0,
            2,
            "knife",
            ("blade", ""),
            [
                (
                    "activated",
                    1,
                    "unique",
                    None,
                    "Ash Veil",
                    "Until the end of the turn enemies shoot at Malve with -1.",
                )
            ],
        ),
        (
            "Tibbs Gutterhand",
            "miserable",
            "The Pits",
            1,
            2,
            0,
            3,
            6,
            2,
            0,
            1,
            0,
            0,
            "knife",
            ("blade", "blade"),
            [
                (
                    "passive",
                    0,
                    "unique",
                    None,
                    "Slippery",
                    "Leaving an enemy control zone costs Tibbs no extra movement.",
                )
            ],
        ),
    ],
    "Basic Guild Set: Rise of Guilds 2": [
        (
            "Sieg Longshot",
            "hunter",
            "Hochmauer",
            1,
            3,
            1,
            3,
            5,
            1,
            0,
            3,
            1,
            0,
            "gunpowder",
            ("string", ""),
            [
                (
                    "activated",
                    1,
                    "unique",
                    None,
                    "Steady Aim",
                    "Roll one extra fighting die in this shooting sub-phase.",
                )
            ],
        ),
        (
            "Haldra the Wall",
            "belligerent",
            "Hochmauer",
            1,
            5,
            2,
            4,
            3,
            3,
            0,
            0,
            0,
            0,
            "shields",
            ("haft", "fist"),
            [
                (
                    "passive",
                    0,
                    "unique",
                    None,
                    "Bulwark",
                    "Allies in contact with Haldra add +1 to their armor factor.",
                )
            ],
        ),
        (
            "Quell Inkfinger",
            "sorcerer",
            "Ashen Market",
            1,
            2,
            0,
            3,
            4,
            1,
            0,
            1,
            0,
            2,
            "swords",
            ("blade", ""),
            [
                (
                    "activated",
                    2,
                    "unique",
                    None,
                    "Ink Ward",
                    "Cancel one arcane power aimed at Quell.",
                )
            ],
        ),
        (
            "Nib the Rat",
            "miserable",
            "The Pits",
            1,
            1,
            0,
            3,
            6,
            2,
            0,
            1,
            0,
            0,
            "naked_hands",
            ("fist", "fist"),
            [
                (
                    "activated",
                    1,
                    "unique",
                    None,
                    "Play Dead",
                    "Nib cannot be targeted until his next activation.",
                )
            ],
        ),
    ],
    "Mercenaries Set: Sons of Loch": [
        (
            "Wechi",
            "hunter",
            "Drowned Docks",
            1,
            3,
            1,
            3,
            5,
            2,
            0,
            3,
            1,
            0,
            "spears",
            ("haft", ""),
            [
                (
                    "passive",
                    0,
                    "unique",
                    None,
                    "Canal Runner",
                    "Wechi ignores partially walkable terrain.",
                )
            ],
        ),
        (
            "Altai",
            "belligerent",
            "Ashen Market",
            2,
            6,
            2,
            4,
            4,
            4,
            1,
            1,
            0,
            0,
            "hammers",
            ("haft", ""),
            [("passive", 0, "monstruous", 1, "", "")],
        ),
        (
            "Jadis",
            "sorcerer",
            "Cathedral Ward",
            2,
            3,
            1,
            3,
            4,
            2,
            0,
            1,
            0,
            3,
            "knife",
            ("blade", ""),
            [("activated", 1, "fly", 3, "", "")],
        ),
        (
            "Alith",
            "miserable",
            "The Pits",
            1,
            2,
            0,
            3,
            6,
            2,
            1,
            2,
            0,
            1,
            "knife",
            ("blade", "blade"),
            [
                (
                    "activated",
                    2,
                    "unique",
                    None,
                    "Cut Purse",
                    "After a won fight, steal 2 feods from the loser's Guild.",
                )
            ],
        ),
    ],
}

# (name, quantity, level, armor, impact, hit, move, h2h, h2h+, ranged, ranged+, arcane,
#  (primary, type, dmg, features), (secondary, type, dmg, features), per mission, permanent?,
#  permanent feods, ability text)
FOLLOWERS = [
    (
        "Purification Daemon",
        4,
        2,
        3,
        1,
        3,
        5,
        2,
        1,
        0,
        0,
        1,
        ("Purging Claws", "naked_hands", 2, "BLOODING 1"),
        ("", "", 0, ""),
        12,
        False,
        0,
        "Removes one poison token from an ally.",
    ),
    (
        "Elemental Daemon",
        4,
        2,
        4,
        2,
        3,
        4,
        2,
        0,
        2,
        0,
        1,
        ("Fire Lash", "naked_hands", 2, ""),
        ("Ember Bolt", "bows", 2, ""),
        12,
        False,
        0,
        "",
    ),
    (
        "City Guard",
        4,
        1,
        4,
        1,
        3,
        4,
        2,
        0,
        1,
        0,
        0,
        ("Halberd", "spears", 3, "UNSTOPPABLE 1"),
        ("", "", 0, ""),
        6,
        True,
        30,
        "",
    ),
    (
        "Hunting Mastiff",
        4,
        1,
        2,
        0,
        2,
        6,
        2,
        1,
        0,
        0,
        0,
        ("Jaws", "naked_hands", 2, "BLOODING 1"),
        ("", "", 0, ""),
        4,
        True,
        20,
        "",
    ),
    (
        "Pathfinder",
        4,
        1,
        2,
        0,
        3,
        6,
        1,
        0,
        2,
        0,
        0,
        ("Sling", "bows", 1, ""),
        ("Knife", "knife", 1, ""),
        5,
        True,
        25,
        "Reveals one hidden scene element.",
    ),
    (
        "Surgeon",
        2,
        1,
        1,
        0,
        3,
        4,
        1,
        0,
        0,
        0,
        0,
        ("Bone Saw", "knife", 1, ""),
        ("", "", 0, ""),
        8,
        True,
        40,
        "Removes one broken heart token from a character in contact.",
    ),
    (
        "Cultist",
        2,
        1,
        2,
        0,
        3,
        4,
        1,
        0,
        0,
        0,
        2,
        ("Ritual Knife", "knife", 1, "POISONOUS 1"),
        ("", "", 0, ""),
        7,
        False,
        0,
        "",
    ),
    (
        "Dignitary",
        1,
        1,
        1,
        0,
        2,
        3,
        1,
        0,
        0,
        0,
        0,
        ("Cane", "naked_hands", 1, ""),
        ("", "", 0, ""),
        3,
        False,
        0,
        "Cannot escape (7.2.1); worth fame when escorted.",
    ),
]

# (name, kabbalah, level, armor, impact, hit, move, h2h, h2h+, ranged, ranged+, arcane,
#  (primary...), (secondary...), abilities)
DAEMONS = [
    (
        "Glass Imp",
        "Black Mirror",
        1,
        2,
        0,
        2,
        5,
        2,
        0,
        0,
        0,
        1,
        ("Shards", "knife", 1, ""),
        ("", "", 0, ""),
        [],
    ),
    (
        "Mirror Stalker",
        "Black Mirror",
        2,
        3,
        1,
        3,
        5,
        3,
        0,
        0,
        0,
        1,
        ("Reflected Claws", "naked_hands", 2, "BLOODING 1"),
        ("", "", 0, ""),
        [],
    ),
    (
        "Lord of Silvered Eyes",
        "Black Mirror",
        3,
        4,
        2,
        4,
        4,
        4,
        1,
        2,
        0,
        2,
        ("Glass Scythe", "spears", 3, ""),
        ("Gaze", "bows", 2, "PERFORATING"),
        [("passive", 0, "monstruous", 1, "", "")],
    ),
    (
        "Cinder Wretch",
        "Ember Crown",
        1,
        2,
        0,
        2,
        4,
        2,
        1,
        0,
        0,
        0,
        ("Burning Hands", "naked_hands", 1, ""),
        ("", "", 0, ""),
        [],
    ),
    (
        "Ember Hound",
        "Ember Crown",
        2,
        3,
        1,
        3,
        6,
        3,
        0,
        0,
        0,
        0,
        ("Molten Fangs", "naked_hands", 2, ""),
        ("", "", 0, ""),
        [],
    ),
    (
        "Crowned Pyre",
        "Ember Crown",
        3,
        5,
        2,
        4,
        3,
        4,
        0,
        2,
        1,
        2,
        ("Flame Hammer", "hammers", 3, "BACKSTACK"),
        ("Fire Spit", "gunpowder", 2, ""),
        [("activated", 0, "fly", 2, "", "")],
    ),
    (
        "Drowned Chorister",
        "Drowned Choir",
        1,
        2,
        0,
        3,
        4,
        2,
        0,
        0,
        0,
        1,
        ("Hook", "knife", 1, ""),
        ("", "", 0, ""),
        [],
    ),
    (
        "Tide Warden",
        "Drowned Choir",
        2,
        4,
        1,
        3,
        4,
        3,
        0,
        0,
        0,
        1,
        ("Anchor Chain", "hammers", 2, "HEAVY 1"),
        ("", "", 0, ""),
        [],
    ),
]

# (name, type, characteristic, grip, damage, melee damage, range, coupling, price, quantity,
#  features [(standard, x, text)])
WEAPONS = [
    ("Hunting Bow", "bows", "normal", "two", 2, 1, 6, "string", 15, 3, []),
    (
        "Heavy Crossbow",
        "bows",
        "valuable",
        "two",
        3,
        1,
        8,
        "string",
        35,
        2,
        [("perforating", None, "")],
    ),
    ("Flintlock Pistol", "gunpowder", "normal", "one", 3, 1, 4, "string", 20, 3, []),
    (
        "Arquebus",
        "gunpowder",
        "valuable",
        "two",
        4,
        1,
        7,
        "string",
        45,
        2,
        [("perforating", None, "")],
    ),
    (
        "Short Sword",
        "swords",
        "normal",
        "one",
        2,
        None,
        None,
        "blade",
        12,
        3,
        [("defensive", 1, "")],
    ),
    ("Bastard Sword", "swords", "valuable", "two", 4, None, None, "blade", 40, 2, []),
    (
        "Soulreaver",
        "swords",
        "arcane",
        "one",
        3,
        None,
        None,
        "blade",
        70,
        1,
        [
            ("blooding", 1, ""),
            (
                "unique",
                None,
                "When its wielder kills a character, remove one broken seal from him.",
            ),
        ],
    ),
    ("Hatchet", "axes", "normal", "one", 2, None, None, "haft", 10, 3, []),
    (
        "Executioner's Axe",
        "axes",
        "valuable",
        "two",
        4,
        None,
        None,
        "haft",
        38,
        2,
        [("heavy", 1, ""), ("unstoppable", 2, "")],
    ),
    ("Knuckle Dusters", "naked_hands", "normal", "one", 1, None, None, "fist", 5, 3, []),
    ("Dagger", "knife", "normal", "one", 1, None, None, "blade", 6, 4, []),
    (
        "Venom Stiletto",
        "knife",
        "arcane",
        "one",
        2,
        None,
        None,
        "blade",
        60,
        1,
        [("poisonous", 1, "")],
    ),
    (
        "War Hammer",
        "hammers",
        "normal",
        "two",
        3,
        None,
        None,
        "haft",
        18,
        3,
        [("backstack", None, "")],
    ),
    (
        "Buckler",
        "shields",
        "normal",
        "one",
        1,
        None,
        None,
        "fist",
        10,
        3,
        [("shield", 1, ""), ("defensive", 1, "")],
    ),
    (
        "Tower Shield",
        "shields",
        "valuable",
        "one",
        1,
        None,
        None,
        "fist",
        30,
        2,
        [("shield", 2, "")],
    ),
    ("Pike", "spears", "normal", "two", 3, None, None, "haft", 14, 3, [("unstoppable", 1, "")]),
]

# (name, kabbalah, summoning white, black, pentacle name, pentacle effects, price, quantity,
#  [power: (name, range, white, black, effects [(standard, x, text)])])
CODES = [
    (
        "Codex of Shards",
        "Black Mirror",
        1,
        2,
        "Pentacle of Reflection",
        [("shield", 1, "")],
        15,
        2,
        [
            ("Shard Glance", 4, 1, 0, [("hit", 1, "")]),
            ("Mirror Rend", 3, 0, 2, [("arcane_hit", 2, "")]),
        ],
    ),
    (
        "Codex of the Hollow Gaze",
        "Black Mirror",
        2,
        1,
        "Pentacle of Cold Glass",
        [("monstrous", 1, "")],
        20,
        2,
        [
            ("Frozen Stare", 3, 1, 0, [("stunning", None, "")]),
            ("Steal the Image", 2, 1, 1, [("weakness", 2, "")]),
        ],
    ),
    (
        "Codex of Embers",
        "Ember Crown",
        1,
        2,
        "Pentacle of the Pyre",
        [("hit", 1, "")],
        15,
        2,
        [
            ("Spark", 5, 1, 0, [("hit", 1, "")]),
            ("Crown of Fire", 3, 1, 2, [("hit", 2, ""), ("arcane_hit", 1, "")]),
        ],
    ),
    (
        "Codex of the Hearth",
        "Ember Crown",
        2,
        0,
        "Pentacle of Warmth",
        [("defensive", 1, "")],
        15,
        2,
        [
            ("Mend", 3, 1, 0, [("care", 1, "")]),
            ("Tempered Skin", 3, 2, 0, [("repair", 2, ""), ("vigor", 1, "")]),
        ],
    ),
    (
        "Codex of the Undertow",
        "Drowned Choir",
        1,
        1,
        "Pentacle of the Deep",
        [("unique", None, "Enemies in contact lose 1 movement point.")],
        20,
        2,
        [
            ("Brackish Touch", 2, 0, 1, [("poison", 1, "")]),
            ("Drowning Hymn", 4, 1, 2, [("arcane_hit", 1, ""), ("stunning", None, "")]),
        ],
    ),
]


def _character(kind_defaults: dict, row: tuple, offset: int) -> dict:
    level, armor, impact, hit, move, h2h, h2h_mod, ranged, ranged_mod, arcane = row[
        offset : offset + 10
    ]
    return {
        **kind_defaults,
        "level": level,
        "armor": armor,
        "impact_resistance": impact,
        "hit_factor": hit,
        "movement": move,
        "hand_to_hand_dice": h2h,
        "hand_to_hand_modifier": h2h_mod,
        "ranged_dice": ranged,
        "ranged_modifier": ranged_mod,
        "arcane_ability": arcane,
    }


def _fixed(primary: tuple, secondary: tuple) -> dict:
    """Printed weapons ``(name, type, damage, features[, melee damage, range])``; a ranged one
    without the last two gets 1 hand-to-hand damage and range 6 (5.1.2, 5.1.4)."""
    out = {}
    for which, spec in (("primary", primary), ("secondary", secondary)):
        ranged = spec[1] in ("bows", "gunpowder")
        out.update(
            {
                f"{which}_weapon": spec[0],
                f"{which}_weapon_type": spec[1],
                f"{which}_damage": spec[2],
                f"{which}_features": spec[3],
                f"{which}_melee_damage": (spec[4] if len(spec) > 4 else 1) if ranged else None,
                f"{which}_range": (spec[5] if len(spec) > 5 else 6) if ranged else None,
            }
        )
    return out


def _abilities(card, abilities) -> None:
    for activation, fate, standard, x, name, text in abilities:
        CharacterAbility.objects.create(
            card=card,
            activation=activation,
            fate_cost=fate,
            standard=standard,
            x=x,
            name=name,
            text=text,
        )


def new_code(model) -> str:
    """A fresh random code ``XXXX-XXXX-XXXX`` unused by ``model`` (12 characters of a
    32-letter alphabet: 60 bits, not guessable)."""
    while True:
        raw = "".join(secrets.choice(rules.CODE_ALPHABET) for _ in range(12))
        code = rules.normalize_code(raw)
        if not model.objects.filter(code=code).exists():
            return code


def _set(name: str, slug: str, kind: str, description: str) -> CardSet:
    card_set, _ = CardSet.objects.get_or_create(
        name=name,
        defaults={
            "slug": slug,
            "kind": kind,
            "box": BOX,
            "description": description,
            "is_demo": True,
        },
    )
    return card_set


def _put(card_set: CardSet, card, quantity: int = 1) -> None:
    SetCard.objects.get_or_create(card_set=card_set, card=card, defaults={"quantity": quantity})


@transaction.atomic
def load_demo_content() -> list[CardSet]:
    """Create the demo catalog if missing and top up codes. Returns the demo sets."""
    areas = {}
    for order, (name, symbol, description) in enumerate(AREAS):
        areas[name], _ = CityArea.objects.get_or_create(
            name=name,
            defaults={
                "symbol": symbol,
                "order": order,
                "description": description,
                "is_demo": True,
            },
        )
    kabbalahs = {}
    for name, symbol in KABBALAHS:
        kabbalahs[name], _ = Kabbalah.objects.get_or_create(
            name=name, defaults={"symbol": symbol, "is_demo": True}
        )

    sets = []
    for index, (set_name, mercenaries) in enumerate(SETS_OF_MERCENARIES.items()):
        basic = set_name.startswith("Basic")
        card_set = _set(
            set_name,
            f"rg{index + 1}" if basic else "sons-of-loch",
            CardSet.Kind.BASIC_GUILD if basic else CardSet.Kind.MERCENARIES,
            "4 mercenaries and a player account card." if basic else "4 mercenaries.",
        )
        sets.append(card_set)
        for row in mercenaries:
            name, mtype, area = row[0], row[1], row[2]
            favourite, couplings, abilities = row[13], row[14], row[15]
            card, created = MercenaryCard.objects.get_or_create(
                name=name,
                defaults=_character(
                    {
                        "type": mtype,
                        "area": areas[area],
                        "favourite_weapon": favourite,
                        "primary_coupling": couplings[0],
                        "secondary_coupling": couplings[1],
                        "is_demo": True,
                    },
                    row,
                    3,
                ),
            )
            if created:
                _abilities(card, abilities)
            _put(card_set, card)

    followers = _set(
        "Followers Set: Rise of the Guilds",
        "rise-followers",
        CardSet.Kind.FOLLOWERS,
        "25 follower cards, and the daemon cards of the box.",
    )
    sets.append(followers)
    for row in FOLLOWERS:
        name, quantity = row[0], row[1]
        primary, secondary, per_mission, permanent, permanent_feods, text = row[12:18]
        card, _ = FollowerCard.objects.get_or_create(
            name=name,
            defaults=_character(
                {
                    **_fixed(primary, secondary),
                    "feods_per_mission": per_mission,
                    "can_enlist_permanently": permanent,
                    "permanent_feods": permanent_feods,
                    "text": text,
                    "is_demo": True,
                },
                row,
                2,
            ),
        )
        _put(followers, card, quantity)
    for row in DAEMONS:
        name, kabbalah = row[0], row[1]
        primary, secondary, abilities = row[12], row[13], row[14]
        card, created = DaemonCard.objects.get_or_create(
            name=name,
            defaults=_character(
                {**_fixed(primary, secondary), "kabbalah": kabbalahs[kabbalah], "is_demo": True},
                row,
                2,
            ),
        )
        if created:
            _abilities(card, abilities)
        _put(followers, card)

    core = _set(
        "Rise of Guilds: Weapons and Arcane Codes",
        "rise-core",
        CardSet.Kind.EQUIPMENT,
        "The Standard Weapon and Arcane Code cards of the box.",
    )
    sets.append(core)
    for (
        name,
        wtype,
        characteristic,
        grip,
        damage,
        melee,
        wrange,
        coupling,
        price,
        quantity,
        features,
    ) in WEAPONS:
        card, created = WeaponCard.objects.get_or_create(
            name=name,
            defaults={
                "type": wtype,
                "characteristic": characteristic,
                "grip": grip,
                "damage": damage,
                "melee_damage": melee,
                "range": wrange,
                "coupling": coupling,
                "price_feods": price,
                "is_demo": True,
            },
        )
        if created:
            for standard, x, text in features:
                WeaponFeature.objects.create(weapon=card, standard=standard, x=x, text=text)
        _put(core, card, quantity)
    for name, kabbalah, white, black, pentacle, pentacle_effects, price, quantity, powers in CODES:
        card, created = ArcaneCodeCard.objects.get_or_create(
            name=name,
            defaults={
                "kabbalah": kabbalahs[kabbalah],
                "summoning_white": white,
                "summoning_black": black,
                "pentacle_name": pentacle,
                "price_feods": price,
                "is_demo": True,
            },
        )
        if created:
            for standard, x, text in pentacle_effects:
                PentacleEffect.objects.create(code=card, standard=standard, x=x, text=text)
            for position, (pname, prange, pwhite, pblack, effects) in enumerate(powers, start=1):
                power = ArcanePower.objects.create(
                    code=card,
                    position=position,
                    name=pname,
                    range=prange,
                    white_mana=pwhite,
                    black_mana=pblack,
                )
                for standard, x, text in effects:
                    ArcaneEffect.objects.create(power=power, standard=standard, x=x, text=text)
        _put(core, card, quantity)

    for card_set in sets:
        unused = SetCode.objects.filter(card_set=card_set, redeemed_by__isnull=True).count()
        for _ in range(CODES_PER_SET - unused):
            SetCode.objects.create(card_set=card_set, code=new_code(SetCode))
        if card_set.kind == CardSet.Kind.BASIC_GUILD:
            free = AccountCode.objects.filter(card_set=card_set, guild__isnull=True).count()
            for _ in range(CODES_PER_SET - free):
                AccountCode.objects.create(card_set=card_set, code=new_code(AccountCode))
    load_demo_city(areas)
    return sets


# --- the city of DemLoc (6.2): control points and random events, our invention ----------------

# (area, name, kind, description, explore min, acquire min, base chance %, income
#  (fame, feods, blood stones) per period, period min, bonuses [(kind, key, amount)])
CONTROL_POINTS = [
    (
        "Hochmauer",
        "The Gilded Quill",
        "tavern",
        "Where the old families' servants sell secrets.",
        20,
        90,
        45,
        (1, 8, 0),
        240,
        [("slots", "", 1)],
    ),
    (
        "Hochmauer",
        "Watchtower of Saint Ulm",
        "barracks",
        "A tower over the walls; its captain trains whoever pays.",
        30,
        150,
        35,
        (2, 5, 0),
        360,
        [("level", "3", 1)],
    ),
    (
        "Ashen Market",
        "The Tarred Tankard",
        "tavern",
        "A smoky tavern full of idle blades.",
        10,
        60,
        55,
        (0, 12, 0),
        180,
        [("type", "belligerent", 1)],
    ),
    (
        "Ashen Market",
        "Brandt's Forge",
        "forge",
        "The smith sells cheaper to his friends.",
        15,
        90,
        50,
        (0, 6, 0),
        240,
        [("armory_discount", "", 20)],
    ),
    (
        "Ashen Market",
        "Stall of Weights",
        "market",
        "Scales that never lie, owners that always do.",
        10,
        60,
        60,
        (0, 10, 0),
        120,
        [],
    ),
    (
        "Drowned Docks",
        "Lantern Wharf",
        "market",
        "Smugglers unload here at the black hour.",
        20,
        120,
        45,
        (0, 15, 0),
        360,
        [],
    ),
    (
        "Drowned Docks",
        "The Hulk",
        "hideout",
        "A sunken ship that hides a dry cellar.",
        30,
        120,
        40,
        (1, 4, 0),
        360,
        [("type", "hunter", 1)],
    ),
    (
        "Cathedral Ward",
        "Ossuary of the Nameless",
        "arcane_place",
        "Bones arranged in pentacles; mana pools in the dark.",
        30,
        180,
        35,
        (2, 0, 1),
        480,
        [("type", "sorcerer", 1)],
    ),
    (
        "Cathedral Ward",
        "Broken Chapel",
        "shrine",
        "Pilgrims still leave coins at the altar.",
        20,
        120,
        50,
        (3, 3, 0),
        360,
        [],
    ),
    (
        "The Pits",
        "Blood Stone Seam",
        "arcane_place",
        "A tunnel where the walls weep red stones.",
        45,
        240,
        30,
        (0, 0, 1),
        720,
        [],
    ),
    (
        "The Pits",
        "The Rat King's Court",
        "hideout",
        "The miserable answer to one king only.",
        20,
        120,
        45,
        (0, 5, 0),
        240,
        [("type", "miserable", 1), ("slots", "", 1)],
    ),
]

# (title, scope, text, answer minutes, weight, options
#  [(label, outcome, fame, feods, blood stones, injure, lose point, default)])
CITY_EVENTS = [
    (
        "Fog over the black canal",
        "news",
        "A fog so thick rolls in that the Docks fall silent "
        "for a night. The watch counts fewer boats at dawn.",
        0,
        3,
        [],
    ),
    (
        "A bell rings in the Cathedral Ward",
        "news",
        "The broken cathedral's bell, silent for a century, rang thirteen times at midnight.",
        0,
        2,
        [],
    ),
    (
        "Protection money",
        "control_point",
        "The Ash Brothers want a cut of what {point} earns.",
        240,
        2,
        [
            ("Pay them", "They leave with their cut.", 0, -15, 0, False, False, False),
            (
                "Send them away",
                "They swear revenge and set fire to the door.",
                2,
                0,
                0,
                True,
                False,
                False,
            ),
            ("Ignore them", "They take {point} by night.", 0, 0, 0, False, True, True),
        ],
    ),
    (
        "A duel is offered",
        "guild",
        "A famous swordsman challenges your best mercenary in the Ashen Market.",
        180,
        2,
        [
            (
                "Accept",
                "A fine fight: the crowd cheers your name, and your champion needs care.",
                4,
                0,
                0,
                True,
                False,
                False,
            ),
            ("Decline", "The market laughs at your Guild.", -2, 0, 0, False, False, True),
        ],
    ),
    (
        "A merchant asks for an escort",
        "guild",
        "A merchant from Hochmauer pays well for safe passage to the Docks.",
        180,
        2,
        [
            ("Escort him", "He pays as promised.", 1, 20, 0, False, False, False),
            ("Refuse", "He finds another Guild.", 0, 0, 0, False, False, True),
        ],
    ),
]


def load_demo_city(areas: dict[str, CityArea]) -> None:
    """The demo control points (two or three per area) and random events (6.2). Idempotent:
    existing rows are kept as they are."""
    for order, row in enumerate(CONTROL_POINTS):
        area, name, kind, text, explore, acquire, chance, income, period, bonuses = row
        point, created = ControlPoint.objects.get_or_create(
            name=name,
            defaults={
                "area": areas[area],
                "kind": kind,
                "description": text,
                "order": order,
                "explore_minutes": explore,
                "acquire_minutes": acquire,
                "base_chance": chance,
                "income_fame": income[0],
                "income_feods": income[1],
                "income_blood_stones": income[2],
                "income_period_minutes": period,
                "is_demo": True,
            },
        )
        if created:
            for bonus_kind, key, amount in bonuses:
                ControlPointBonus.objects.create(
                    point=point, kind=bonus_kind, key=key, amount=amount
                )
    for title, scope, text, minutes, weight, options in CITY_EVENTS:
        event, created = CityEvent.objects.get_or_create(
            title=title,
            defaults={
                "scope": scope,
                "text": text,
                "answer_minutes": minutes or 60,
                "weight": weight,
                "is_demo": True,
            },
        )
        if created:
            for order, (label, outcome, fame, feods, stones, injure, lose, default) in enumerate(
                options
            ):
                CityEventOption.objects.create(
                    event=event,
                    order=order,
                    label=label,
                    outcome=outcome,
                    fame=fame,
                    feods=feods,
                    blood_stones=stones,
                    injure_mercenary=injure,
                    lose_point=lose,
                    is_default=default,
                )


def unused_codes(card_set: CardSet) -> tuple[list[str], list[str]]:
    """``(set codes, account codes)`` of ``card_set`` nobody has used yet."""
    codes = list(
        SetCode.objects.filter(card_set=card_set, redeemed_by__isnull=True).values_list(
            "code", flat=True
        )
    )
    used_accounts = Guild.objects.values_list("account_code_id", flat=True)
    accounts = list(
        AccountCode.objects.filter(card_set=card_set)
        .exclude(pk__in=used_accounts)
        .values_list("code", flat=True)
    )
    return codes, accounts

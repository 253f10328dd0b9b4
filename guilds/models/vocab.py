"""The Guild data's vocabularies (DemLoc rulebook 5.1, 8): the choices the card catalogue and the
records use (mercenary types, weapon types and features, arcane and pentacle effects, abilities,
grips, couplings). ``guilds.models`` re-exports them.
"""

from __future__ import annotations

from django.db import models


class MercenaryType(models.TextChoices):
    HUNTER = "hunter", "Hunter"
    BELLIGERENT = "belligerent", "Belligerent"
    SORCERER = "sorcerer", "Sorcerer"
    MISERABLE = "miserable", "Miserable"


class WeaponType(models.TextChoices):
    """The nine weapon types of DemLoc rulebook 5.1.4."""

    BOWS = "bows", "Bows and crossbows"
    GUNPOWDER = "gunpowder", "Gunpowder weapons"
    SWORDS = "swords", "Swords"
    AXES = "axes", "Axes"
    NAKED_HANDS = "naked_hands", "Naked hands"
    KNIFE = "knife", "Knife"
    HAMMERS = "hammers", "Hammers"
    SHIELDS = "shields", "Shields"
    SPEARS = "spears", "Spears and pikes"


RANGED_WEAPON_TYPES = (WeaponType.BOWS, WeaponType.GUNPOWDER)


class WeaponCharacteristic(models.TextChoices):
    NORMAL = "normal", "Normal"
    VALUABLE = "valuable", "Valuable"
    ARCANE = "arcane", "Arcane"


class Grip(models.TextChoices):
    ONE_HANDED = "one", "One-handed"
    TWO_HANDED = "two", "Two-handed"


class WeaponFeatureKind(models.TextChoices):
    """Standard personal weapon features of 8.1 (``UNIQUE``: text on the card)."""

    UNIQUE = "unique", "Unique (text)"
    BACKSTACK = "backstack", "BACKSTACK"
    DEFENSIVE = "defensive", "DEFENSIVE x"
    UNSTOPPABLE = "unstoppable", "UNSTOPPABLE x"
    PERFORATING = "perforating", "PERFORATING"
    HEAVY = "heavy", "HEAVY x"
    BLOODING = "blooding", "BLOODING x"
    SHIELD = "shield", "SHIELD x"
    POISONOUS = "poisonous", "POISONOUS x"


class ArcaneEffectKind(models.TextChoices):
    """Standard arcane power effects of 8.2."""

    UNIQUE = "unique", "Unique (text)"
    CARE = "care", "CARE x"
    HIT = "hit", "HIT x"
    ARCANE_HIT = "arcane_hit", "ARCANE HIT x"
    STUNNING = "stunning", "STUNNING"
    REPAIR = "repair", "REPAIR x"
    POISON = "poison", "POISON x"
    VIGOR = "vigor", "VIGOR x"
    WEAKNESS = "weakness", "WEAKNESS x"


class PentacleEffectKind(models.TextChoices):
    """Standard summoning pentacle effects of 8.3."""

    UNIQUE = "unique", "Unique (text)"
    SHIELD = "shield", "SHIELD x"
    DEFENSIVE = "defensive", "DEFENSIVE x"
    MONSTROUS = "monstrous", "MONSTROUS x"
    ARCANE_HIT = "arcane_hit", "ARCANE HIT x"
    HIT = "hit", "HIT x"


class AbilityKind(models.TextChoices):
    """Standard personal abilities of 8.4."""

    UNIQUE = "unique", "Unique (text)"
    MONSTRUOUS = "monstruous", "MONSTRUOUS x"
    FLY = "fly", "FLY x"
    FURY = "fury", "FURY"


class Activation(models.TextChoices):
    PASSIVE = "passive", "Passive (p)"
    ACTIVATED = "activated", "With activation (a)"


class Coupling(models.TextChoices):
    """The coupling symbol printed at a card edge so the weapon card sits under the right space
    of the mercenary card in the binder (5.1.1, 5.1.4). The rulebook gives no rule for it beyond
    the printing, so the app stores and prints it and does not refuse an equip on it."""

    NONE = "", "None"
    BLADE = "blade", "Blade"
    HAFT = "haft", "Haft"
    STRING = "string", "String"
    FIST = "fist", "Fist"

"""The card catalogue (content, edited in the admin; DemLoc rulebook 5.1, 6.2): the city's areas,
the kabbalahs, ``CardSet`` with its ``SetCard`` contents and its ``SetCode``/``AccountCode``
codes; the cards ``MercenaryCard``, ``FollowerCard``, ``DaemonCard``, ``WeaponCard``,
``ArcaneCodeCard`` (multi-table children of ``Card``) with their standard or unique abilities,
weapon features, arcane powers and pentacle effects. ``guilds.models`` re-exports them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from .. import rules
from .vocab import (
    RANGED_WEAPON_TYPES,
    AbilityKind,
    Activation,
    ArcaneEffectKind,
    Coupling,
    Grip,
    MercenaryType,
    PentacleEffectKind,
    WeaponCharacteristic,
    WeaponFeatureKind,
    WeaponType,
)


class CityArea(models.Model):
    """One of the five areas of the city of DemLoc (5.1.1 area symbol). The city issue hangs
    control points on it."""

    name = models.CharField(max_length=60, unique=True)
    symbol = models.CharField(max_length=40, blank=True, help_text="Name of the area symbol.")
    order = models.PositiveSmallIntegerField(default=0)
    description = models.TextField(blank=True)
    is_demo = models.BooleanField(default=False, help_text="Demo content chosen by the app.")

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name


class Kabbalah(models.Model):
    """A daemonic cult (5.1.3, 5.1.5): daemons and arcane codes belong to one."""

    name = models.CharField(max_length=60, unique=True)
    symbol = models.CharField(max_length=40, blank=True)
    is_demo = models.BooleanField(default=False)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "kabbalahs"

    def __str__(self) -> str:
        return self.name


class CardSet(models.Model):
    """A boxed DemLoc set (section 4): its cards, and the codes that add them to a Guild."""

    class Kind(models.TextChoices):
        BASIC_GUILD = "basic_guild", "Basic Guild Set"
        MERCENARIES = "mercenaries", "Mercenaries Set"
        FOLLOWERS = "followers", "Followers Set"
        EQUIPMENT = "equipment", "Weapons and Arcane Codes"
        DAEMONS = "daemons", "Daemons"

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=40, unique=True, help_text="Prefix of its codes.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    box = models.CharField(max_length=80, blank=True, help_text="e.g. Rise of Guilds")
    description = models.TextField(blank=True)
    is_demo = models.BooleanField(default=False)

    class Meta:
        ordering = ["box", "name"]

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    """Any card of the catalog; the kind-specific fields live in the child model."""

    class Kind(models.TextChoices):
        MERCENARY = "mercenary", "Mercenary"
        FOLLOWER = "follower", "Follower"
        DAEMON = "daemon", "Daemon"
        WEAPON = "weapon", "Weapon"
        ARCANE_CODE = "arcane_code", "Arcane Code"

    kind = models.CharField(max_length=20, choices=Kind.choices, editable=False)
    name = models.CharField(max_length=80)
    text = models.TextField(blank=True, help_text="Flavour or rules text printed on the card.")
    is_demo = models.BooleanField(default=False, help_text="Demo content chosen by the app.")

    class Meta:
        ordering = ["kind", "name"]
        constraints = [models.UniqueConstraint(fields=["kind", "name"], name="card_kind_name")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.kind:
            self.kind = self.KIND
        super().save(*args, **kwargs)


class SetCard(models.Model):
    """``quantity`` copies of ``card`` in ``card_set`` (e.g. 4x City Guard, section 4)."""

    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="contents")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="set_entries")
    quantity = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["card_set", "card__kind", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "card"], name="setcard_once"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="setcard_quantity_pos"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity}x {self.card} in {self.card_set}"


class CharacterStats(models.Model):
    """Factors shared by mercenaries, followers and daemons (5.1.1-5.1.3)."""

    level = models.PositiveSmallIntegerField(default=1)
    armor = models.PositiveSmallIntegerField("armor factor", default=3)
    impact_resistance = models.PositiveSmallIntegerField("impact resistance", default=0)
    hit_factor = models.PositiveSmallIntegerField(default=3)
    movement = models.PositiveSmallIntegerField("movement factor", default=4)
    hand_to_hand_dice = models.PositiveSmallIntegerField(default=2)
    hand_to_hand_modifier = models.SmallIntegerField(default=0)
    ranged_dice = models.PositiveSmallIntegerField(default=1)
    ranged_modifier = models.SmallIntegerField(default=0)
    arcane_ability = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True


class FixedWeapons(models.Model):
    """The weapons printed on a follower or daemon card (5.1.2: they cannot be equipped). A
    ranged one (bows, gunpowder) has, like a weapon card (5.1.4), a shooting damage
    (``*_damage``), a hand-to-hand damage (``*_melee_damage``) and a range (``*_range``)."""

    primary_weapon = models.CharField(max_length=60, blank=True)
    primary_weapon_type = models.CharField(max_length=20, choices=WeaponType.choices, blank=True)
    primary_damage = models.PositiveSmallIntegerField(default=0)
    primary_melee_damage = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Ranged weapons only: hand-to-hand damage."
    )
    primary_range = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Ranged weapons only."
    )
    primary_features = models.CharField(max_length=120, blank=True)
    secondary_weapon = models.CharField(max_length=60, blank=True)
    secondary_weapon_type = models.CharField(max_length=20, choices=WeaponType.choices, blank=True)
    secondary_damage = models.PositiveSmallIntegerField(default=0)
    secondary_melee_damage = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Ranged weapons only: hand-to-hand damage."
    )
    secondary_range = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Ranged weapons only."
    )
    secondary_features = models.CharField(max_length=120, blank=True)

    class Meta:
        abstract = True

    def clean(self):
        """5.1.4 for printed weapons: a ranged one has a range and a hand-to-hand damage,
        another has neither."""
        errors = {}
        for which in ("primary", "secondary"):
            if not getattr(self, f"{which}_weapon"):
                continue
            ranged = getattr(self, f"{which}_weapon_type") in RANGED_WEAPON_TYPES
            melee = getattr(self, f"{which}_melee_damage")
            reach = getattr(self, f"{which}_range")
            if ranged and (melee is None or reach is None):
                errors[f"{which}_range"] = "A ranged weapon needs a range and a hand-to-hand damage."
            if not ranged and (melee is not None or reach is not None):
                errors[f"{which}_range"] = "Only bows and gunpowder weapons have a range."
        if errors:
            raise ValidationError(errors)


class MercenaryCard(Card, CharacterStats):
    """A mercenary card (DemLoc rulebook 5.1.1)."""

    KIND = Card.Kind.MERCENARY

    type = models.CharField(max_length=20, choices=MercenaryType.choices)
    area = models.ForeignKey(
        CityArea,
        on_delete=models.PROTECT,
        related_name="mercenaries",
        verbose_name="area of origin",
    )
    favourite_weapon = models.CharField(max_length=20, choices=WeaponType.choices, blank=True)
    primary_coupling = models.CharField(max_length=10, choices=Coupling.choices, blank=True)
    secondary_coupling = models.CharField(max_length=10, choices=Coupling.choices, blank=True)

    class Meta:
        ordering = ["name"]


class FollowerCard(Card, CharacterStats, FixedWeapons):
    """A follower card (5.1.2): fixed weapons, a feod cost per mission, maybe permanent."""

    KIND = Card.Kind.FOLLOWER

    feods_per_mission = models.PositiveSmallIntegerField(default=5)
    arcane_code = models.ForeignKey(
        "ArcaneCodeCard",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="5.1.2, 6.4.1: the arcane reference code of a follower with arcane ability.",
    )
    can_enlist_permanently = models.BooleanField(default=False)
    permanent_feods = models.PositiveSmallIntegerField(
        "feods to enlist permanently", default=0, help_text="Paid once at the Guesthouse."
    )

    class Meta:
        ordering = ["name"]


class DaemonCard(Card, CharacterStats, FixedWeapons):
    """A daemon card (5.1.3): kabbalah and level decide the summoning draw."""

    KIND = Card.Kind.DAEMON

    kabbalah = models.ForeignKey(Kabbalah, on_delete=models.PROTECT, related_name="daemons")

    class Meta:
        ordering = ["kabbalah__name", "level", "name"]


class WeaponCard(Card):
    """A weapon card (5.1.4). Ranged weapons (bows, gunpowder) have a range, a shooting damage
    (``damage``) and a hand-to-hand damage (``melee_damage``)."""

    KIND = Card.Kind.WEAPON

    type = models.CharField(max_length=20, choices=WeaponType.choices)
    characteristic = models.CharField(
        max_length=10, choices=WeaponCharacteristic.choices, default=WeaponCharacteristic.NORMAL
    )
    grip = models.CharField(max_length=3, choices=Grip.choices, default=Grip.ONE_HANDED)
    damage = models.PositiveSmallIntegerField(help_text="Shooting damage for ranged weapons.")
    melee_damage = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Ranged weapons only: hand-to-hand damage."
    )
    range = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Ranged only.")
    coupling = models.CharField(max_length=10, choices=Coupling.choices, blank=True)
    price_feods = models.PositiveIntegerField(default=10)

    class Meta:
        ordering = ["type", "name"]

    @property
    def is_ranged(self) -> bool:
        return self.type in RANGED_WEAPON_TYPES

    def clean(self):
        """5.1.4: ranged weapons have a range and two damages; others neither."""
        if self.is_ranged and (self.range is None or self.melee_damage is None):
            raise ValidationError("A ranged weapon needs a range and a hand-to-hand damage.")
        if not self.is_ranged and (self.range is not None or self.melee_damage is not None):
            raise ValidationError("Only bows and gunpowder weapons have a range and two damages.")

    @property
    def two_handed(self) -> bool:
        return self.grip == Grip.TWO_HANDED


class ArcaneCodeCard(Card):
    """An Arcane Code card (5.1.5): two powers (``powers``), a daemon summoning cost and the
    summoning pentacle (name and ``pentacle_effects``)."""

    KIND = Card.Kind.ARCANE_CODE

    kabbalah = models.ForeignKey(Kabbalah, on_delete=models.PROTECT, related_name="codes")
    summoning_white = models.PositiveSmallIntegerField("summoning cost, common mana", default=0)
    summoning_black = models.PositiveSmallIntegerField("summoning cost, dark mana", default=0)
    pentacle_name = models.CharField(max_length=80, blank=True)
    price_feods = models.PositiveIntegerField(default=15)

    class Meta:
        ordering = ["kabbalah__name", "name"]


class CharacterAbility(models.Model):
    """A personal ability of a mercenary, follower or daemon (5.1.1, 8.4)."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="abilities")
    activation = models.CharField(
        max_length=10, choices=Activation.choices, default=Activation.PASSIVE
    )
    fate_cost = models.PositiveSmallIntegerField(default=0, help_text="Fate points to activate.")
    standard = models.CharField(
        max_length=20, choices=AbilityKind.choices, default=AbilityKind.UNIQUE
    )
    x = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=80, blank=True, help_text="Unique abilities: its name.")
    text = models.TextField(blank=True, help_text="Unique abilities: the text on the card.")

    class Meta:
        verbose_name_plural = "character abilities"
        constraints = [
            models.CheckConstraint(
                condition=~Q(standard="unique") | ~Q(text=""), name="ability_unique_has_text"
            )
        ]

    def __str__(self) -> str:
        return feature_label(self.standard, self.x, self.name, AbilityKind)

    def clean(self):
        check_feature(self.standard, self.x, self.text, AbilityKind)


class WeaponFeature(models.Model):
    """A personal weapon feature (8.1): standard with its x, or unique text."""

    weapon = models.ForeignKey(WeaponCard, on_delete=models.CASCADE, related_name="features")
    standard = models.CharField(max_length=20, choices=WeaponFeatureKind.choices)
    x = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)

    def __str__(self) -> str:
        return feature_label(self.standard, self.x, self.text, WeaponFeatureKind)

    def clean(self):
        check_feature(self.standard, self.x, self.text, WeaponFeatureKind)


class ArcanePower(models.Model):
    """One of the two powers of an Arcane Code's standard asset (5.1.5)."""

    code = models.ForeignKey(ArcaneCodeCard, on_delete=models.CASCADE, related_name="powers")
    position = models.PositiveSmallIntegerField(default=1, help_text="1 (upper) or 2 (lower)")
    name = models.CharField(max_length=80)
    range = models.PositiveSmallIntegerField(default=1)
    white_mana = models.PositiveSmallIntegerField("common (white) mana", default=0)
    black_mana = models.PositiveSmallIntegerField("dark (black) mana", default=0)

    class Meta:
        ordering = ["code", "position"]
        constraints = [
            models.UniqueConstraint(fields=["code", "position"], name="arcane_power_position"),
            models.CheckConstraint(
                condition=Q(position__in=[1, 2]), name="arcane_power_position_1_2"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ArcaneEffect(models.Model):
    """An effect of an arcane power (8.2)."""

    power = models.ForeignKey(ArcanePower, on_delete=models.CASCADE, related_name="effects")
    standard = models.CharField(max_length=20, choices=ArcaneEffectKind.choices)
    x = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)

    def __str__(self) -> str:
        return feature_label(self.standard, self.x, self.text, ArcaneEffectKind)

    def clean(self):
        check_feature(self.standard, self.x, self.text, ArcaneEffectKind)


class PentacleEffect(models.Model):
    """An effect of a summoning pentacle (8.3)."""

    code = models.ForeignKey(
        ArcaneCodeCard, on_delete=models.CASCADE, related_name="pentacle_effects"
    )
    standard = models.CharField(max_length=20, choices=PentacleEffectKind.choices)
    x = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)

    def __str__(self) -> str:
        return feature_label(self.standard, self.x, self.text, PentacleEffectKind)

    def clean(self):
        check_feature(self.standard, self.x, self.text, PentacleEffectKind)


def check_feature(standard: str, x: int | None, text: str, choices) -> None:
    """Admin validation of a standard feature: "x" kinds need x, others none; unique needs
    text (8.1-8.4)."""
    if standard == "unique":
        if not text.strip():
            raise ValidationError("A unique feature needs its text.")
        return
    needs_x = choices(standard).label.endswith(" x")
    if needs_x and x is None:
        raise ValidationError(f"{choices(standard).label} needs its x.")
    if not needs_x and x is not None:
        raise ValidationError(f"{choices(standard).label} has no x.")


def feature_label(standard: str, x: int | None, text: str, choices) -> str:
    """``"DEFENSIVE 2"``, ``"PERFORATING"`` or the unique text, as printed on a card."""
    if standard == "unique":
        return text
    label = choices(standard).label.replace(" x", "")
    return f"{label} {x}" if x is not None else label


class AccountCode(models.Model):
    """The "card for app player account" of a Basic Guild Set (section 4): creates one Guild
    (6.2, first access)."""

    code = models.CharField(max_length=20, unique=True)
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="account_codes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.code

    def save(self, *args, **kwargs):
        self.code = rules.normalize_code(self.code)
        super().save(*args, **kwargs)


class SetCode(models.Model):
    """A code printed in a set's box. Redeemed once at the City Gate (6.2 item 1)."""

    code = models.CharField(max_length=20, unique=True)
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="codes")
    redeemed_by = models.ForeignKey(
        "Guild", null=True, blank=True, on_delete=models.SET_NULL, related_name="redeemed_codes"
    )
    redeemed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card_set", "code"]
        constraints = [
            models.CheckConstraint(
                condition=Q(redeemed_by__isnull=True, redeemed_at__isnull=True)
                | Q(redeemed_by__isnull=False, redeemed_at__isnull=False),
                name="setcode_redeemed_pair",
            )
        ]

    def __str__(self) -> str:
        return self.code

    def save(self, *args, **kwargs):
        self.code = rules.normalize_code(self.code)
        super().save(*args, **kwargs)

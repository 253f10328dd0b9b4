"""Guild data: the card catalog (content) and each Guild's records (DemLoc rulebook 5.1, 6.2).

Catalog (edited in the admin): ``CardSet`` with its ``SetCode``/``AccountCode`` codes and its
``SetCard`` contents; the cards ``MercenaryCard``, ``FollowerCard``, ``DaemonCard``,
``WeaponCard``, ``ArcaneCodeCard`` (multi-table children of ``Card``) with their standard or
unique abilities, weapon features, arcane powers and pentacle effects.

Guild records (changed only by ``guilds.services``): ``Guild`` with its ``LedgerEntry`` rows
(fame, feods, blood stones), ``Building`` levels, ``Mercenary`` (dormitory), ``ArmoryWeapon``,
``LibraryCode``, ``GuestFollower`` (guesthouse), ``PantheonDaemon`` and ``LimitBonus``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from . import rules

# --- vocabularies -------------------------------------------------------------------------------


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


# --- content ------------------------------------------------------------------------------------


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


# --- guild records ------------------------------------------------------------------------------


class GuildColour(models.TextChoices):
    """Colour of the miniatures' sub-bases (section 4: red, blue, yellow, green bases)."""

    RED = "red", "Red"
    BLUE = "blue", "Blue"
    YELLOW = "yellow", "Yellow"
    GREEN = "green", "Green"


class Guild(models.Model):
    """A Guild Master's Guild (6.2). ``fame``, ``feods`` and ``blood_stones`` are kept equal to
    the sum of the Guild's ``LedgerEntry`` rows by ``guilds.services.ledger``; never write them
    directly."""

    master = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guild"
    )
    account_code = models.OneToOneField(AccountCode, on_delete=models.PROTECT, related_name="guild")
    name = models.CharField(max_length=rules.GUILD_NAME_MAX, unique=True)
    colour = models.CharField(max_length=10, choices=GuildColour.choices)
    fame = models.IntegerField(default=0)
    feods = models.IntegerField(default=0)
    blood_stones = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    tour_seen = models.BooleanField(
        default=False, help_text="The first-access tour (6.2) was finished or skipped."
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(feods__gte=0), name="guild_feods_not_negative"),
            models.CheckConstraint(
                condition=Q(blood_stones__gte=0), name="guild_blood_stones_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class LedgerEntry(models.Model):
    """One change of fame, feods or blood stones, with its reason (docs/architecture.md, guilds)."""

    class Currency(models.TextChoices):
        FAME = "fame", "Fame"
        FEODS = "feods", "Feods"
        BLOOD_STONES = "blood_stones", "Blood stones"

    class Reason(models.TextChoices):
        FOUNDED = "founded", "Guild founded"
        WEAPON_BOUGHT = "weapon_bought", "Weapon bought"
        CODE_BOUGHT = "code_bought", "Arcane Code bought"
        FOLLOWER_ENLISTED = "follower_enlisted", "Follower enlisted"
        BUILDING_UPGRADED = "building_upgraded", "Building upgraded"
        MERCENARY_HEALED = "mercenary_healed", "Mercenary healed"
        MISSION = "mission", "Mission result"
        CITY = "city", "City (control points, income)"
        EVENT = "event", "Random event"
        ADJUSTMENT = "adjustment", "Adjustment by staff"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="ledger")
    currency = models.CharField(max_length=15, choices=Currency.choices)
    amount = models.IntegerField(help_text="Signed change.")
    balance_after = models.IntegerField()
    reason = models.CharField(max_length=30, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    reference = models.CharField(
        max_length=80, blank=True, db_index=True, help_text='The cause, e.g. "mission:12".'
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["guild", "currency"])]
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_nonzero")]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.currency} ({self.reason})"


class Building(models.Model):
    """A Guild building and its level (6.2 item 4); ``guilds.rules`` says what a level gives."""

    class Kind(models.TextChoices):
        DORMITORY = "dormitory", "Dormitory"
        ARMORY = "armory", "Armory"
        LIBRARY = "library", "Arcane Library"
        GUESTHOUSE = "guesthouse", "Guesthouse"
        DEFENSES = "defenses", "Guild defenses"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="buildings")
    kind = models.CharField(max_length=15, choices=Kind.choices)
    level = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["guild", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["guild", "kind"], name="building_once"),
            models.CheckConstraint(
                condition=Q(level__gte=1, level__lte=rules.MAX_BUILDING_LEVEL),
                name="building_level_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.level}"


class LimitBonus(models.Model):
    """A raise of a dormitory limit from outside the buildings (5.1.1: city control). The city
    issue creates and deletes these when a control point is won or lost (``source``)."""

    class Kind(models.TextChoices):
        SLOTS = "slots", "Slots"
        TYPE = "type", "Per mercenary type"
        LEVEL = "level", "Per mercenary level"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="limit_bonuses")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=20, blank=True, help_text="Type name or level 1..5.")
    amount = models.SmallIntegerField()
    source = models.CharField(max_length=100, help_text="e.g. control point name.")

    class Meta:
        verbose_name_plural = "limit bonuses"

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.kind} {self.key} ({self.source})"


class GuestGuild(models.Model):
    """A pre-assembled Guild a Guild Master prepares from their own card database for a friend
    who has no account (DemLoc rulebook 4: "generate pre-assembled guild combinations (using the
    app) to share the game even with people who do not have DemLoc"). Made and changed only by
    ``guilds.services.guests``. ``roster``: ``[{"card": mercenary card id, "weapons": [weapon
    card ids], "codes": [arcane code card ids]}]``; ``pantheon``: daemon card ids. It is never a
    Guild: a mission writes nothing into it or into its owner's Guild but ``played`` and
    ``won``."""

    owner = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="guest_guilds")
    name = models.CharField(max_length=rules.GUILD_NAME_MAX)
    colour = models.CharField(max_length=10, choices=GuildColour.choices)
    roster = models.JSONField(default=list)
    pantheon = models.JSONField(default=list, blank=True)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["owner", "name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="guest_guild_name_once")
        ]

    def __str__(self) -> str:
        return f"{self.name} (guest of {self.owner})"


class MissionHold(models.Model):
    """A Guild bound to a mission still running at a table (DemLoc rulebook 6.4: "only after
    disconnecting from the app ... it will be possible to modify their structure").

    Written only by ``guilds.services.holds`` (the missions app calls it when a Guild is
    brought to a mission, when its choices change, and when the mission is closed). While the
    row exists, the Guild's chosen mercenaries are ``on_mission`` (their ``hold`` points here)
    and ``feods`` (what the mission will charge: followers enlisted, offers for contested
    mercenaries) cannot be spent. ``reference`` is ``"mission:<id>"``; ``title`` and ``url``
    name and link the mission in every refusal."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="mission_holds")
    reference = models.CharField(max_length=80)
    title = models.CharField(max_length=120)
    url = models.CharField(max_length=200)
    feods = models.PositiveIntegerField(default=0, help_text="Reserved for the mission's costs.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["guild", "reference"], name="mission_hold_once")
        ]

    def __str__(self) -> str:
        return f"{self.guild} at {self.title}"


class Mercenary(models.Model):
    """A mercenary enlisted in the Guild's dormitory (5.1.1, 6.2 item 2)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        INJURED = "injured", "Injured"
        DEAD = "dead", "Dead"
        EXPLORING = "exploring", "Exploring the city"
        ON_MISSION = "on_mission", "On a mission"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="mercenaries")
    card = models.ForeignKey(MercenaryCard, on_delete=models.PROTECT, related_name="enlisted")
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.ACTIVE)
    heal_feods = models.PositiveIntegerField(
        default=0, help_text="Injured: feods to pay to make it active again."
    )
    status_note = models.CharField(
        max_length=200, blank=True, help_text="What happened, what it needs to be active again."
    )
    enlisted_at = models.DateTimeField(auto_now_add=True)
    status_changed_at = models.DateTimeField(auto_now_add=True)
    hold = models.ForeignKey(
        MissionHold,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="mercenaries",
        help_text="The running mission this mercenary was chosen for (status on_mission).",
    )

    class Meta:
        ordering = ["enlisted_at", "id"]
        verbose_name_plural = "mercenaries"
        indexes = [models.Index(fields=["guild", "status"])]

    def __str__(self) -> str:
        return self.card.name

    @property
    def is_dead(self) -> bool:
        return self.status == self.Status.DEAD

    @property
    def is_away(self) -> bool:
        return self.status in (self.Status.EXPLORING, self.Status.ON_MISSION)


class ArmoryWeapon(models.Model):
    """A weapon card bought into the Guild's armory (5.1.4); equipped when ``mercenary`` is set.
    One weapon is never held by two mercenaries: the FK is single-valued."""

    class Slot(models.TextChoices):
        PRIMARY = rules.PRIMARY, "Primary (top)"
        SECONDARY = rules.SECONDARY, "Secondary (lower)"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="weapons")
    card = models.ForeignKey(WeaponCard, on_delete=models.PROTECT, related_name="owned")
    mercenary = models.ForeignKey(
        Mercenary, null=True, blank=True, on_delete=models.SET_NULL, related_name="weapons"
    )
    slot = models.CharField(max_length=10, choices=Slot.choices, blank=True)
    price_paid = models.PositiveIntegerField(default=0)
    bought_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card__type", "card__name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["mercenary", "slot"],
                condition=Q(mercenary__isnull=False),
                name="weapon_one_per_space",
            ),
            models.CheckConstraint(
                condition=Q(mercenary__isnull=True, slot="")
                | Q(mercenary__isnull=False, slot__in=[rules.PRIMARY, rules.SECONDARY]),
                name="weapon_slot_iff_equipped",
            ),
        ]

    def __str__(self) -> str:
        return self.card.name


class LibraryCode(models.Model):
    """An Arcane Code card in the Guild's Arcane Library (5.1.5); held by ``mercenary``."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="codes")
    card = models.ForeignKey(ArcaneCodeCard, on_delete=models.PROTECT, related_name="owned")
    mercenary = models.ForeignKey(
        Mercenary, null=True, blank=True, on_delete=models.SET_NULL, related_name="codes"
    )
    price_paid = models.PositiveIntegerField(default=0)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card__kabbalah__name", "card__name", "id"]

    def __str__(self) -> str:
        return self.card.name


class GuestFollower(models.Model):
    """A follower permanently enlisted in the Guesthouse (5.1.2)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="guests")
    card = models.ForeignKey(FollowerCard, on_delete=models.PROTECT, related_name="guests")
    price_paid = models.PositiveIntegerField(default=0)
    enlisted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card__name", "id"]

    def __str__(self) -> str:
        return self.card.name


class PantheonDaemon(models.Model):
    """A daemon chosen for the Guild's daemonic pantheon (5.1.3); the summoning draw
    (7.2.3.2) picks from these by kabbalah and level. A name at most once (5.1.3 uniqueness)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="pantheon")
    card = models.ForeignKey(DaemonCard, on_delete=models.PROTECT, related_name="pantheons")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card__kabbalah__name", "card__level", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["guild", "card"], name="pantheon_daemon_once")
        ]

    def __str__(self) -> str:
        return self.card.name


# --- the city of DemLoc (6.2 "Exploring and conquering the City of DemLoc", "Random events") ---


class ControlPoint(models.Model):
    """A control point (point of interest) of an area of the city (6.2): what it gives while
    held (``bonuses``, income per period) and who holds it (``holder``; None: free). Content is
    edited in the admin; ``holder`` changes only through ``services.control_point_transfer``.
    Formulas that use ``explore_minutes``, ``acquire_minutes`` and ``base_chance``: see
    ``guilds.city_rules``."""

    class Kind(models.TextChoices):
        TAVERN = "tavern", "Tavern"
        FORGE = "forge", "Forge"
        ARCANE_PLACE = "arcane_place", "Arcane place"
        MARKET = "market", "Market"
        BARRACKS = "barracks", "Barracks"
        SHRINE = "shrine", "Shrine"
        HIDEOUT = "hideout", "Hideout"

    name = models.CharField(max_length=80, unique=True)
    area = models.ForeignKey(CityArea, on_delete=models.PROTECT, related_name="control_points")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    description = models.TextField(blank=True, help_text="Told to a Guild once it is known.")
    order = models.PositiveSmallIntegerField(default=0)
    explore_minutes = models.PositiveIntegerField(
        default=30, help_text="Exploration by one mercenary; more mercenaries take less."
    )
    acquire_minutes = models.PositiveIntegerField(
        default=120, help_text="Acquisition by one mercenary; more mercenaries take less."
    )
    base_chance = models.PositiveSmallIntegerField(
        default=50, help_text="Chance in percent that one level-1 mercenary acquires it (5-95)."
    )
    income_fame = models.PositiveSmallIntegerField(default=0)
    income_feods = models.PositiveSmallIntegerField(default=0)
    income_blood_stones = models.PositiveSmallIntegerField(default=0)
    income_period_minutes = models.PositiveIntegerField(
        default=360, help_text="The income is paid at the end of each period while held."
    )
    holder = models.ForeignKey(
        Guild, null=True, blank=True, on_delete=models.SET_NULL, related_name="control_points"
    )
    held_since = models.DateTimeField(null=True, blank=True)
    is_demo = models.BooleanField(default=False, help_text="Demo content chosen by the app.")

    class Meta:
        ordering = ["area__order", "order", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(base_chance__gte=5, base_chance__lte=95),
                name="control_point_chance_range",
            ),
            models.CheckConstraint(
                condition=Q(explore_minutes__gte=1, acquire_minutes__gte=1),
                name="control_point_minutes_pos",
            ),
            models.CheckConstraint(
                condition=Q(income_period_minutes__gte=1), name="control_point_period_pos"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def has_income(self) -> bool:
        return bool(self.income_fame or self.income_feods or self.income_blood_stones)


class ControlPointBonus(models.Model):
    """What holding a point gives besides income (6.2: "any bonuses deriving from that point of
    interest ... will also be immediately applied"). ``slots``/``type``/``level`` raise a
    dormitory limit (a ``LimitBonus`` row while held); ``armory_discount`` takes ``amount``
    percent off every weapon bought (discounts of several points add up, at most 50)."""

    class Kind(models.TextChoices):
        SLOTS = "slots", "Dormitory slots"
        TYPE = "type", "Mercenaries of a type"
        LEVEL = "level", "Mercenaries of a level"
        ARMORY_DISCOUNT = "armory_discount", "Cheaper armory (percent)"

    point = models.ForeignKey(ControlPoint, on_delete=models.CASCADE, related_name="bonuses")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=20, blank=True, help_text="Type name or level 1..5.")
    amount = models.PositiveSmallIntegerField(default=1)

    class Meta:
        verbose_name_plural = "control point bonuses"

    def __str__(self) -> str:
        if self.kind == self.Kind.ARMORY_DISCOUNT:
            return f"weapons {self.amount}% cheaper"
        if self.kind == self.Kind.SLOTS:
            return f"+{self.amount} dormitory slot{'s' if self.amount != 1 else ''}"
        if self.kind == self.Kind.TYPE:
            return f"+{self.amount} {self.key} mercenar{'ies' if self.amount != 1 else 'y'}"
        return f"+{self.amount} level {self.key} mercenar{'ies' if self.amount != 1 else 'y'}"

    def clean(self):
        if self.kind == self.Kind.TYPE and self.key not in rules.MERCENARY_TYPES:
            raise ValidationError(
                f"The key is a mercenary type: {', '.join(rules.MERCENARY_TYPES)}."
            )
        if self.kind == self.Kind.LEVEL and self.key not in {"2", "3", "4", "5"}:
            raise ValidationError("The key is a mercenary level 2..5.")
        if self.kind in (self.Kind.SLOTS, self.Kind.ARMORY_DISCOUNT) and self.key:
            raise ValidationError("This bonus has no key.")
        if self.kind == self.Kind.ARMORY_DISCOUNT and not 1 <= self.amount <= 50:
            raise ValidationError("A discount is 1 to 50 percent.")


class KnownPoint(models.Model):
    """A control point a Guild knows (explored, or held once): unknown points show no name."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="known_points")
    point = models.ForeignKey(ControlPoint, on_delete=models.CASCADE, related_name="known_by")
    known_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["guild", "point"], name="known_point_once")]

    def __str__(self) -> str:
        return f"{self.point} known by {self.guild}"


class Timer(models.Model):
    """A deadline kept in the database (docs/architecture.md "Guilds and timers"): ``due_at`` is when it
    settles, ``settled_at`` when it did (set once, under a row lock: a second settlement is a
    no-op), ``eta_sent_at`` when a Celery task with that ETA was handed to the broker."""

    due_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)
    eta_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_settled(self) -> bool:
        return self.settled_at is not None


class Expedition(Timer):
    """Mercenaries sent from the Master's office to a control point (6.2): Explore an unknown
    point or Acquire a known one. ``chance`` (percent) and the two rolls (1..100) are fixed when
    the party leaves, so a settlement that runs twice (or after a crash) draws nothing new."""

    class Action(models.TextChoices):
        EXPLORE = "explore", "Explore"
        ACQUIRE = "acquire", "Acquire"

    class Outcome(models.TextChoices):
        PENDING = "", "Under way"
        EXPLORED = "explored", "Explored"
        SUCCESS = "success", "Acquired"
        FAILURE = "failure", "Failed"
        NOTHING = "nothing", "Nothing to do"
        CANCELLED = "cancelled", "Called back"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="expeditions")
    point = models.ForeignKey(ControlPoint, on_delete=models.CASCADE, related_name="expeditions")
    action = models.CharField(max_length=10, choices=Action.choices)
    mercenaries = models.ManyToManyField(Mercenary, related_name="expeditions")
    party_size = models.PositiveSmallIntegerField()
    chance = models.PositiveSmallIntegerField(help_text="Percent; 100 for an exploration.")
    roll = models.PositiveSmallIntegerField(help_text="1..100; success when roll <= chance.")
    consequence_roll = models.PositiveSmallIntegerField(help_text="1..100; on a failure.")
    started_at = models.DateTimeField()
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    report = models.TextField(blank=True)
    seen_at = models.DateTimeField(null=True, blank=True, help_text="The Master read the report.")

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["guild", "point"],
                condition=Q(settled_at__isnull=True),
                name="expedition_one_open_per_point",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(settled_at__isnull=True), name="expedition_open_due"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.point} ({self.guild})"


class IncomePeriod(Timer):
    """One income period of a held control point (6.2: "timers ... for the collection of fame,
    feods or Blood stones"). The amounts are copied from the point when the period starts; at
    ``due_at`` they are paid into the ledger and the next period starts. A period cut short by
    the loss of the point pays nothing (``stopped``)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="income_periods")
    point = models.ForeignKey(ControlPoint, on_delete=models.CASCADE, related_name="income_periods")
    started_at = models.DateTimeField()
    fame = models.PositiveSmallIntegerField(default=0)
    feods = models.PositiveSmallIntegerField(default=0)
    blood_stones = models.PositiveSmallIntegerField(default=0)
    stopped = models.BooleanField(default=False, help_text="Ended early: the point was lost.")

    class Meta:
        ordering = ["-due_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["point"],
                condition=Q(settled_at__isnull=True),
                name="income_one_open_per_point",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(settled_at__isnull=True), name="income_open_due"
            )
        ]

    def __str__(self) -> str:
        return f"Income of {self.point} for {self.guild}"


class CityEvent(models.Model):
    """A random event of the city (6.2 "Random events"), edited in the admin. ``news``: only
    told; ``guild``: concerns the Guild; ``control_point``: concerns one point the Guild holds
    (drawn only for Guilds holding one). An event with options needs an answer within
    ``answer_minutes``; unanswered, the default option applies."""

    class Scope(models.TextChoices):
        NEWS = "news", "News"
        GUILD = "guild", "Concerns the Guild"
        CONTROL_POINT = "control_point", "Concerns a held control point"

    title = models.CharField(max_length=100, unique=True)
    text = models.TextField(help_text="{point} is replaced by the control point's name.")
    scope = models.CharField(max_length=20, choices=Scope.choices, default=Scope.NEWS)
    weight = models.PositiveSmallIntegerField(default=1, help_text="Relative frequency.")
    answer_minutes = models.PositiveIntegerField(default=240)
    is_active = models.BooleanField(default=True)
    is_demo = models.BooleanField(default=False)

    class Meta:
        ordering = ["scope", "title"]

    def __str__(self) -> str:
        return self.title


class CityEventOption(models.Model):
    """An answer to a ``CityEvent`` and its consequence. Feods or blood stones taken are at most
    what the Guild has; ``injure_mercenary`` injures one mercenary in the dormitory (healing: 10
    feods per level); ``lose_point`` frees the control point of the event."""

    event = models.ForeignKey(CityEvent, on_delete=models.CASCADE, related_name="options")
    order = models.PositiveSmallIntegerField(default=0)
    label = models.CharField(max_length=80)
    outcome = models.CharField(max_length=200, blank=True, help_text="Told after the answer.")
    fame = models.SmallIntegerField(default=0)
    feods = models.SmallIntegerField(default=0)
    blood_stones = models.SmallIntegerField(default=0)
    injure_mercenary = models.BooleanField(default=False)
    lose_point = models.BooleanField(default=False)
    is_default = models.BooleanField(default=False, help_text="Applies if nobody answers.")

    class Meta:
        ordering = ["event", "order", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(is_default=True), name="city_event_one_default"
            )
        ]

    def __str__(self) -> str:
        return self.label


class GuildEvent(Timer):
    """A ``CityEvent`` posted to one Guild. Texts are copied when posted. News is settled when
    posted; an event with options is open until answered or ``due_at`` (then the default)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="city_events")
    event = models.ForeignKey(CityEvent, on_delete=models.PROTECT, related_name="posted")
    point = models.ForeignKey(
        ControlPoint, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    title = models.CharField(max_length=100)
    text = models.TextField()
    posted_at = models.DateTimeField()
    chosen = models.ForeignKey(
        CityEventOption, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_by_default = models.BooleanField(default=False)
    outcome = models.TextField(blank=True)

    class Meta:
        ordering = ["-posted_at", "-id"]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(settled_at__isnull=True), name="guild_event_open_due"
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.guild})"


class CityNews(models.Model):
    """One line of the Guild's city digest ("what happened while you were away"): returns,
    income, control points won or lost, events. ``seen_at`` set when the Master reads it."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="city_news")
    created_at = models.DateTimeField()
    headline = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    reference = models.CharField(max_length=80, blank=True, db_index=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "city news"
        indexes = [models.Index(fields=["guild", "seen_at"])]

    def __str__(self) -> str:
        return self.headline

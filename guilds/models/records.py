"""Each Guild's records (changed only by ``guilds.services``; DemLoc rulebook 5.1, 6.2, 6.4):
``Guild`` with its ``LedgerEntry`` rows (fame, feods, blood stones), ``Building`` levels,
``LimitBonus``, guest Guilds, the mission holds, ``Mercenary`` (dormitory), ``ArmoryWeapon``,
``LibraryCode``, ``GuestFollower`` (guesthouse) and ``PantheonDaemon``. ``guilds.models``
re-exports them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .. import rules
from .content import (
    AccountCode,
    ArcaneCodeCard,
    DaemonCard,
    FollowerCard,
    MercenaryCard,
    WeaponCard,
)


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
    """One change of fame, feods or blood stones, with its reason (docs/architecture.md "Guilds and timers")."""

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
        # A change is never 0, but for a mission's record row: a mission that changed nothing
        # (a draw) still has its row, naming it (``guild_mission_result_post``).
        constraints = [
            models.CheckConstraint(
                condition=~Q(amount=0) | Q(reason="mission"), name="ledger_amount_nonzero"
            )
        ]

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


class FormUse(models.Model):
    """A Guild page form that has been sent once: its one-time key (the hidden ``once`` field
    each form carries), so that a second tap on the same form changes nothing
    (``guilds.services.once``; docs/architecture.md "Guilds and timers")."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="form_uses")
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guild", "key"], name="form_use_once_per_guild")
        ]

    def __str__(self) -> str:
        return f"{self.guild_id}:{self.key}"

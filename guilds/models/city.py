"""The city of DemLoc (DemLoc rulebook 6.2 "Exploring and conquering the City of DemLoc", "Random
events"): control points and their bonuses, the points a Guild knows, the timers (expeditions,
income periods, a Guild's events), the city's events and their options, the news.
``guilds.models`` re-exports them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from .. import rules
from .content import CityArea
from .records import Guild, Mercenary


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

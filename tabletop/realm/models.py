"""Admin-editable Realm content: demons, pacts and afflictions (the rulebook does not print
them). A table copies the rows in use into its opening event (``content_db.gather``, at table start), so
editing a row never changes a game already started."""

from django.core.exceptions import ValidationError
from django.db import models

from .rules import cards as C

CORNER_CHOICES = [(s, C.SUIT_NAMES[s]) for s in C.SUITS] + [(r, r) for r in C.NUMERIC_RANKS]


class Demon(models.Model):
    """A Demon Card: the front's four corner requirements and the back's name, title, lore and
    curse. ``effects``: the curse as machine-readable effects (``tabletop.realm.rules.cards``,
    ``LASTING_OPS`` when ``lasting``, ``ONE_TIME_OPS`` otherwise); empty for curses the
    players follow by hand."""

    code = models.SlugField(max_length=20, unique=True, help_text="Stable id used in games.")
    name = models.CharField(max_length=60)
    title = models.CharField(max_length=100, blank=True)
    lore = models.TextField(blank=True)
    curse = models.TextField(help_text="Read aloud when the Demon is bound.")
    lasting = models.BooleanField(default=False, help_text="Lasts while the Demon is bound.")
    corner_1 = models.CharField(max_length=2, choices=CORNER_CHOICES)
    corner_2 = models.CharField(max_length=2, choices=CORNER_CHOICES)
    corner_3 = models.CharField(max_length=2, choices=CORNER_CHOICES)
    corner_4 = models.CharField(max_length=2, choices=CORNER_CHOICES)
    effects = models.JSONField(default=list, blank=True)
    affliction_only = models.BooleanField(
        default=False,
        help_text="The curse relates only to Affliction Cards (plague doctor symbol): left out "
        "when a table plays without Afflictions, unless the host keeps them.",
    )
    in_use = models.BooleanField(default=True, help_text="Shuffled into new games.")
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["order", "code"]

    def __str__(self):
        return f"{self.name} ({self.code})"

    def clean(self):
        try:
            C.validate_demon(self.as_content())
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc

    def as_content(self) -> dict:
        return {
            "id": self.code,
            "name": self.name,
            "title": self.title,
            "lore": self.lore,
            "curse": self.curse,
            "lasting": self.lasting,
            "corners": [self.corner_1, self.corner_2, self.corner_3, self.corner_4],
            "effects": list(self.effects or []),
            "affliction_only": self.affliction_only,
        }


class Pact(models.Model):
    """A Pact card: a secret win condition, or one side of the shared Acolyte Pact
    (``acolyte`` with ``side`` A or B; its code must be ``acolyte-a``/``acolyte-b``).
    ``conditions``: clauses of ``tabletop.realm.rules.cards.CONDITION_KINDS``, all must hold."""

    code = models.SlugField(max_length=20, unique=True)
    name = models.CharField(max_length=60)
    text = models.TextField()
    conditions = models.JSONField(default=list)
    acolyte = models.BooleanField(default=False)
    side = models.CharField(max_length=1, blank=True)
    in_use = models.BooleanField(default=True)

    class Meta:
        ordering = ["-acolyte", "code"]

    def __str__(self):
        return f"{self.name}{' ' + self.side if self.side else ''}"

    def clean(self):
        try:
            C.validate_conditions(self.conditions or [])
        except ValueError as exc:
            raise ValidationError({"conditions": str(exc)}) from exc

    def as_content(self) -> dict:
        return {
            "id": self.code,
            "name": self.name,
            "text": self.text,
            "side": self.side,
            "acolyte": self.acolyte,
            "conditions": list(self.conditions or []),
        }


class Affliction(models.Model):
    """An Affliction card (optional variant, rulebook "Afflictions")."""

    code = models.SlugField(max_length=20, unique=True)
    name = models.CharField(max_length=60)
    text = models.TextField()
    in_use = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]

    def __str__(self):
        return self.name

    def as_content(self) -> dict:
        return {"id": self.code, "name": self.name, "text": self.text}

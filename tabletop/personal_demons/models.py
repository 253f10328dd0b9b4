"""Card faces of Personal Demons, editable in the admin (content as data).

A game copies the active faces into its opening event, so an edit changes only games started
after it (docs/architecture.md, "The event-sourced table").
"""

from django.core.exceptions import ValidationError
from django.db import models

from tabletop.errors import RuleViolation

from .rules.content import validate_card


class CardFace(models.Model):
    """One printed card: a demon of a Round deck, a Royal, a Fragment, a Knight, a Fear, a
    Courage card or a hefty/colossal Personal Demon."""

    class Deck(models.TextChoices):
        ROUND1 = "round1", "Round I"
        ROUND2 = "round2", "Round II"
        ROUND3 = "round3", "Round III"
        ROYAL = "royal", "Royal deck"
        FRAGMENT = "fragment", "Fragment deck"
        FEAR = "fear", "Fear"
        COURAGE = "courage", "Courage"
        HEFTY = "hefty", "Hefty"
        COLOSSAL = "colossal", "Colossal"

    class Size(models.TextChoices):
        REGULAR = "regular", "Regular"
        SMALL = "small", "Small"
        HEFTY = "hefty", "Hefty"
        COLOSSAL = "colossal", "Colossal"

    class Sigil(models.TextChoices):
        NONE = "", "none"
        BLUE = "blue", "Abyssal (blue)"
        RED = "red", "Infernal (red)"
        YELLOW = "yellow", "Liminal (yellow)"
        PURPLE = "purple", "Pandemonial (purple, wild)"

    class Sin(models.TextChoices):
        NONE = "", "none"
        GLUT = "glut", "Glut"
        HATE = "hate", "Hate"
        WANT = "want", "Want"
        HELL = "hell", "of Hell"

    card_id = models.CharField(max_length=12, unique=True, help_text="Stable id, e.g. I-01.")
    deck = models.CharField(max_length=10, choices=Deck.choices)
    size = models.CharField(max_length=10, choices=Size.choices, default=Size.REGULAR)
    name = models.CharField(max_length=80)
    types = models.JSONField(
        default=list, blank=True, help_text='One or two of the eight types, e.g. ["Imp"].'
    )
    value = models.PositiveSmallIntegerField(default=0)
    sigil_tl = models.CharField("top-left sigil", max_length=6, choices=Sigil.choices, blank=True)
    sigil_tr = models.CharField("top-right sigil", max_length=6, choices=Sigil.choices, blank=True)
    sigil_bl = models.CharField(
        "bottom-left sigil", max_length=6, choices=Sigil.choices, blank=True
    )
    sigil_br = models.CharField(
        "bottom-right sigil", max_length=6, choices=Sigil.choices, blank=True
    )
    sin = models.CharField(max_length=4, choices=Sin.choices, blank=True)
    sin_amount = models.PositiveSmallIntegerField(default=0)
    requirements = models.JSONField(
        default=list,
        blank=True,
        help_text='Seals required: "blue", "red", "yellow" or "any" (Pandemonial).',
    )
    extra = models.JSONField(
        default=dict,
        blank=True,
        help_text="Fear tiers, Courage effect and text, Personal Demon cost, ability, shape, advanced.",
    )
    active = models.BooleanField(
        default=True, help_text="Inactive cards are left out of new games."
    )

    class Meta:
        ordering = ["deck", "card_id"]

    def __str__(self) -> str:
        return f"{self.card_id} {self.name}"

    def clean(self) -> None:
        try:
            validate_card(self.as_card())
        except RuleViolation as exc:
            raise ValidationError(exc.message) from exc

    def as_card(self) -> dict:
        """The card as the rules read it (see ``rules.board``)."""
        sigils = [self.sigil_tl, self.sigil_tr, self.sigil_bl, self.sigil_br]
        return {
            **(self.extra or {}),
            "id": self.card_id,
            "deck": self.deck,
            "size": self.size,
            "name": self.name,
            "types": list(self.types or []),
            "value": self.value,
            "sigils": [s or None for s in sigils],
            "sin": self.sin or None,
            "sin_amount": self.sin_amount,
            "requirements": list(self.requirements or []),
        }

    @classmethod
    def from_card(cls, card: dict) -> "CardFace":
        core = {
            "id",
            "deck",
            "size",
            "name",
            "types",
            "value",
            "sigils",
            "sin",
            "sin_amount",
            "requirements",
        }
        tl, tr, bl, br = [s or "" for s in card["sigils"]]
        return cls(
            card_id=card["id"],
            deck=card["deck"],
            size=card["size"],
            name=card["name"],
            types=card.get("types", []),
            value=card["value"],
            sigil_tl=tl,
            sigil_tr=tr,
            sigil_bl=bl,
            sigil_br=br,
            sin=card.get("sin") or "",
            sin_amount=card.get("sin_amount", 0),
            requirements=card.get("requirements", []),
            extra={k: v for k, v in card.items() if k not in core},
        )

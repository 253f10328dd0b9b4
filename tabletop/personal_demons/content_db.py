"""The card content a new game uses, gathered from the database by the kit when a table starts
(the content provider registered in ``apps.PersonalDemonsConfig.ready``; the pure ``setup``
reads no database): the active admin-edited faces, or the demo set while the table of faces is
empty."""

from .models import CardFace
from .rules.content import default_geometry, demo_cards


def active_cards() -> list[dict]:
    """Every active ``CardFace`` as a card dict; the demo set when there is none."""
    cards = [face.as_card() for face in CardFace.objects.filter(active=True)]
    return cards or demo_cards()


def gather(options: dict) -> dict:
    """The setup content of a new table: ``{"cards": [card, ...], "geometry": {...}}``
    (``options`` unused: Advanced cards are filtered by the rules). Stored in ``Table.setup``."""
    return {"cards": active_cards(), "geometry": default_geometry()}

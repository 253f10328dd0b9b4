"""The card content a new game uses: the active admin-edited faces, or the demo set while the
table of faces is empty."""

from .rules.content import demo_cards


def active_cards() -> list[dict]:
    """Every active ``CardFace`` as a card dict; the demo set when there is none."""
    from .models import CardFace

    cards = [face.as_card() for face in CardFace.objects.filter(active=True)]
    return cards or demo_cards()

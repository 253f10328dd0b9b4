"""Demo content for Pixel Demon's Realm: 21 demons (2 of them Affliction-only), the Acolyte Pact
(two sides), 7 secret pacts and 12 afflictions (pure data, no Django), in
``data/demo_content.json`` beside this module.

The rulebook does not print the demon cards, pacts or afflictions; these are our own, written so
that every curse or pact the app can check carries machine-readable ``effects``/``conditions``
(see ``tabletop.realm.rules.cards``). The admin edits the same shapes in the database
(``tabletop.realm.models``); a table copies the content into its opening event, so a later edit
never changes a game already started.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@cache
def _demo() -> str:
    return (DATA / "demo_content.json").read_text()


def demo_content() -> dict:
    """A fresh copy of the demo content: ``{"demons": [...], "pacts": [...],
    "afflictions": [...]}`` (lists of dicts in the shapes of ``tabletop.realm.rules.cards``)."""
    data = json.loads(_demo())
    return {key: data[key] for key in ("demons", "pacts", "afflictions")}

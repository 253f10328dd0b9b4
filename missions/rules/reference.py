"""The rules reference players consult at the table (DemLoc rulebook 6.4.2 "Consulting the
rules and the appendix": "they can consult the updated rulebook and search its rules also
through the use of keywords"): every chapter of the rulebook (2 to 8) in our own words, with
what the app does for each rule and the readings it chose where the rulebook is unclear. Pure
data: the texts are in ``reference.toml`` beside this module (read once at import); the page
``/missions/reference/`` searches them in the browser (works with no network once loaded),
``search`` is the same search in Python.

Each entry: ``{"key": "weapon-shield", "title": "SHIELD x", "group": ..., "section": "8.1",
"text": ...}``; ``section`` lists the rulebook sections it explains, comma-separated.
``reference_key(kind, feature)`` gives the key a character panel links to.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from .cards import parse_feature

GAME = "The game and the app (2-4, 6.1-6.3)"
COMPONENTS = "Components (5)"
MISSION = "A mission with the app (6.4)"
TURN = "The turn (7, 7.1)"
STRATEGIC = "Strategic phase (7.2)"
ARCANE_PHASE = "Arcane sub-phase (7.2.3)"
BRAWL = "Brawl phase (7.3)"
WEAPON = "Weapon features (8.1)"
ARCANE = "Arcane power effects (8.2)"
PENTACLE = "Summoning pentacles (8.3)"
ABILITY = "Personal abilities (8.4)"
READINGS = "Where the rulebook is unclear: the app's readings"

#: The groups in the order the page shows them.
GROUPS = (
    GAME,
    COMPONENTS,
    MISSION,
    TURN,
    STRATEGIC,
    ARCANE_PHASE,
    BRAWL,
    WEAPON,
    ARCANE,
    PENTACLE,
    ABILITY,
    READINGS,
)


def _load() -> list[dict]:
    """The entries of ``reference.toml`` (beside this module), in page order, each with its
    group's title; a ``group`` that names no ``GROUPS`` constant fails at import."""
    titles = {name: globals()[name] for name in _GROUP_NAMES}
    with (Path(__file__).with_name("reference.toml")).open("rb") as f:
        raw = tomllib.load(f)["entry"]
    return [
        {
            "key": e["key"],
            "title": e["title"],
            "group": titles[e["group"]],
            "section": e["section"],
            "text": e["text"],
        }
        for e in raw
    ]


_GROUP_NAMES = (
    "GAME",
    "COMPONENTS",
    "MISSION",
    "TURN",
    "STRATEGIC",
    "ARCANE_PHASE",
    "BRAWL",
    "WEAPON",
    "ARCANE",
    "PENTACLE",
    "ABILITY",
    "READINGS",
)

#: Every entry, in page order (``reference.toml``).
ENTRIES: list[dict] = _load()

_BY_KEY = {e["key"]: e for e in ENTRIES}


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def reference_key(kind: str, feature: str) -> str | None:
    """The reference entry for ``feature`` (e.g. ``"SHIELD 1"``) of a ``kind``: ``"weapon"``,
    ``"arcane"``, ``"pentacle"`` or ``"ability"``; None for a unique feature. Raises
    ``RuleViolation("bad_feature")`` as ``parse_feature``."""
    return _reference_key(str(kind), str(feature))


@lru_cache(maxsize=4096)
def _reference_key(kind: str, feature: str) -> str | None:
    """``reference_key``, worked out once per kind and feature in this process (every view
    links every feature of every card)."""
    name, _ = parse_feature(feature)
    key = f"{kind}-{slug(name)}"
    return key if key in _BY_KEY else None


def search_text(entry: dict) -> str:
    """What the search looks in (lower case): the title, the section numbers and the text; the
    page puts the same string in each entry's ``data-search``."""
    return f"{entry['title']} {entry['section']} {entry['text']}".lower()


def search(query: str) -> list[dict]:
    """Entries whose title, sections or text contain every word of ``query``
    (case-insensitive), in page order; every entry for an empty query."""
    words = query.lower().split()
    return [e for e in ENTRIES if all(w in search_text(e) for w in words)]


def grouped() -> list[tuple[str, list[dict]]]:
    """``[(group, [entry, ...]), ...]`` in the page's order (``GROUPS``)."""
    return [(g, [e for e in ENTRIES if e["group"] == g]) for g in GROUPS]

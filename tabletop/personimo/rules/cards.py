"""The Decktet card list for Personimo: 36 base cards and the 9 extended ones.

Data: the published Decktet card list (suits in printed order, top to bottom; see
``decktet-sources.md``), copied here so the rules need no file at run time; a test checks the
copy against the CSV. Pure Python, no Django import.

Card instances in a game are strings ``"<key>/<copy>"`` (``"pact/1"``, ``"pact/2"`` in a double
Decktet); ``card(instance)`` resolves one.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache

#: Natural suit order (Personimo rules, "The Market": Moons, Suns, Waves, Leaves, Wyrms, Knots).
SUITS: tuple[str, ...] = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")

#: Order values of the ranks for sorting the market: Ace low, Crown high; Pawns above 9, Courts
#: above Pawns (decktet-sources.md); the Excuse between the 7s and the 8s (Excuses Wild).
RANK_ORDER: dict[str, float] = {
    "Ace": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "Excuse": 7.5,
    "8": 8,
    "9": 9,
    "Pawn": 10,
    "Court": 11,
    "Crown": 12,
}

CARD_CSV = """\
name,rank,suits,kind,deck
Ace of Moons,Ace,Moons,,base
Ace of Suns,Ace,Suns,,base
Ace of Waves,Ace,Waves,,base
Ace of Leaves,Ace,Leaves,,base
Ace of Wyrms,Ace,Wyrms,,base
Ace of Knots,Ace,Knots,,base
the Author,2,Moons|Knots,personality,base
the Desert,2,Suns|Wyrms,location,base
the Origin,2,Waves|Leaves,location|event,base
the Journey,3,Moons|Waves,event,base
the Painter,3,Suns|Knots,personality,base
the Savage,3,Leaves|Wyrms,personality,base
the Mountain,4,Moons|Suns,location,base
the Sailor,4,Waves|Leaves,personality,base
the Battle,4,Wyrms|Knots,event,base
the Forest,5,Moons|Leaves,location,base
the Discovery,5,Suns|Waves,event,base
the Soldier,5,Wyrms|Knots,personality,base
the Lunatic,6,Moons|Waves,personality,base
the Penitent,6,Suns|Wyrms,personality,base
the Market,6,Leaves|Knots,location|event,base
the Chance Meeting,7,Moons|Leaves,event,base
the Castle,7,Suns|Knots,location,base
the Cave,7,Waves|Wyrms,location,base
the Diplomat,8,Moons|Suns,personality,base
the Mill,8,Waves|Leaves,location,base
the Betrayal,8,Wyrms|Knots,event,base
the Pact,9,Moons|Suns,event,base
the Darkness,9,Waves|Wyrms,location,base
the Merchant,9,Leaves|Knots,personality,base
the Huntress,Crown,Moons,personality,base
the Bard,Crown,Suns,personality,base
the Sea,Crown,Waves,location,base
the End,Crown,Leaves,location|event,base
the Calamity,Crown,Wyrms,event,base
the Windfall,Crown,Knots,event,base
the Excuse,Excuse,,,extended
the Harvest,Pawn,Moons|Suns|Leaves,event,extended
the Watchman,Pawn,Moons|Wyrms|Knots,personality,extended
the Light Keeper,Pawn,Suns|Waves|Knots,personality,extended
the Borderland,Pawn,Waves|Leaves|Wyrms,location,extended
the Consul,Court,Moons|Waves|Knots,personality,extended
the Rite,Court,Moons|Leaves|Wyrms,event,extended
the Island,Court,Suns|Waves|Wyrms,location,extended
the Window,Court,Suns|Leaves|Knots,location,extended
"""


@dataclass(frozen=True)
class Card:
    """One Decktet card. ``suits``: printed order top to bottom (0 to 3 suits); ``kinds``:
    subset of {"personality", "location", "event"}; ``deck``: "base" or "extended"."""

    key: str
    name: str
    rank: str
    suits: tuple[str, ...]
    kinds: frozenset[str]
    deck: str

    @property
    def order(self) -> float:
        """Rank order value (``RANK_ORDER``), 1 (Ace) .. 12 (Crown)."""
        return RANK_ORDER[self.rank]

    @property
    def personality(self) -> bool:
        return "personality" in self.kinds

    @property
    def event(self) -> bool:
        return "event" in self.kinds

    @property
    def bottom_suit(self) -> str | None:
        """The posher, bottom suit: the last of the printed index (Personimo "Scoring")."""
        return self.suits[-1] if self.suits else None

    def rank_number(self) -> int | None:
        """Ace 1, numerals 2..9, Crown 10; None for Pawns, Courts and the Excuse."""
        if self.rank == "Ace":
            return 1
        if self.rank == "Crown":
            return 10
        return int(self.rank) if self.rank.isdigit() else None


def _key(name: str) -> str:
    name = name.removeprefix("the ")
    return name.lower().replace(" ", "-")


@cache
def all_cards() -> dict[str, Card]:
    """Every card by key (``"author"``, ``"ace-of-moons"``, ``"light-keeper"``), in CSV order."""
    result: dict[str, Card] = {}
    for row in csv.DictReader(io.StringIO(CARD_CSV)):
        key = _key(row["name"])
        result[key] = Card(
            key=key,
            name=row["name"],
            rank=row["rank"],
            suits=tuple(s for s in row["suits"].split("|") if s),
            kinds=frozenset(k for k in row["kind"].split("|") if k),
            deck=row["deck"],
        )
    return result


@cache
def card(instance: str) -> Card:
    """The card of an instance id ``"<key>/<copy>"`` (or a bare key). KeyError if unknown.
    Cached: scoring asks for the same few hundred instances very often."""
    return all_cards()[instance.split("/", 1)[0]]


def base_keys() -> list[str]:
    """Keys of the 36 base cards in CSV order."""
    return [c.key for c in all_cards().values() if c.deck == "base"]

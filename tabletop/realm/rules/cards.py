"""Pixel Demon's Realm components, the binding check, curses and pacts (pure, no Django).

Card ids (strings, stable, used in every event):

- Ritual Cards (52 + 2 Mimics, rulebook "Components", "Ritual Cards"): rank then suit letter,
  ``"AD"``, ``"2D"`` .. ``"10D"``, ``"ED"`` (Eater), ``"SD"`` (Seeker), ``"KD"`` (Keeper) for the
  suits ``D`` Daggers, ``V`` Virgins, ``S`` Skulls, ``C`` Candles; ``"mimic-1"``, ``"mimic-2"``.
- Vessels (8): ``"vessel-1"`` .. ``"vessel-8"``; identical, no suit or rank in hand.

Demons (content) have ``corners``: four requirements, each a suit letter or a numeric rank
``"2"``..``"10"``. Curses carry ``effects``, a list of machine-readable dicts (see
``LASTING_OPS`` and ``ONE_TIME_OPS``); pacts carry ``conditions`` (see ``CONDITION_KINDS``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from tabletop.errors import RuleViolation

SUITS = ("D", "V", "S", "C")
SUIT_NAMES = {"D": "Daggers", "V": "Virgins", "S": "Skulls", "C": "Candles"}
SUIT_SYMBOLS = {"D": "†", "V": "♀", "S": "☠", "C": "♨"}  # in DejaVu Sans, no emoji font
NUMERIC_RANKS = tuple(str(n) for n in range(2, 11))
WARDEN_RANKS = {"E": "Eater", "S": "Seeker", "K": "Keeper"}
RANKS = ("A", *NUMERIC_RANKS, *WARDEN_RANKS)
MIMICS = ("mimic-1", "mimic-2")
VESSELS = tuple(f"vessel-{n}" for n in range(1, 9))
RITUAL_DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS) + MIMICS

#: Lasting curse effects that change the binder's cards during a binding ritual
#: (rulebook "Curses", FAQ "Curse Combinations").
LASTING_OPS = {
    "suit_as_rank": ("suit", "rank"),  # "Your Skulls are all 8s"
    "rank_as_rank": ("from", "to"),  # "Your 8s are all 3s"
    "suit_as_suit": ("from", "to"),  # "Your Candles are all Daggers"
    "cannot_play_rank": ("rank",),  # "You cannot play 3s"
    "cannot_play_suit": ("suit",),  # "You cannot play Virgins"
    "hand_size": ("size",),  # "Reset your hand to 4 cards, not 5"
}
#: One-time curse effects, applied when the demon is bound.
ONE_TIME_OPS = {
    "draw": ("count",),  # the binder draws N
    "opponents_draw": ("count",),  # each opponent draws N
    "discard_random": ("count",),  # the binder discards N random cards from hand
    "return_vessels": (),  # the binder returns every Vessel in hand to the stack
}
#: Pact condition clauses; a pact is met when all its clauses hold over the seat's bound demons
#: (rulebook "How to Win", FAQ "Pact Demands": exceeding a demand counts).
CONDITION_KINDS = {
    "demons": ("at_least",),  # bound demons
    "suit": ("suit", "at_least"),  # corners of that suit among bound demons
    "rank": ("rank", "at_least"),  # corners of that rank among bound demons
    "distinct_suits": ("at_least",),  # different suits among the corners of bound demons
    "personal": ("at_least",),  # bound demons that were one's Personal Demon
    "lasting": ("at_least",),  # bound demons with a lasting curse
    "rank_sum": ("at_least",),  # sum of the numeric corners of bound demons
    "parity": ("parity", "at_least"),  # numeric corners that are odd/even
}


def is_vessel(card: str) -> bool:
    return card.startswith("vessel-")


def is_mimic(card: str) -> bool:
    return card.startswith("mimic-")


def printed(card: str) -> tuple[str | None, str | None]:
    """The printed ``(suit, rank)`` of a card; ``(None, None)`` for Vessels and Mimics (they have
    no suit or rank in hand, rulebook "Vessels", "The Mimics"). Raises KeyError if unknown."""
    if is_vessel(card) or is_mimic(card):
        if card not in VESSELS and card not in MIMICS:
            raise KeyError(card)
        return None, None
    suit, rank = card[-1], card[:-1]
    if suit not in SUITS or rank not in RANKS:
        raise KeyError(card)
    return suit, rank


def card_label(card: str) -> str:
    """A human name: ``"7 of Daggers"``, ``"Eater of Skulls"``, ``"Vessel"``, ``"Mimic"``."""
    if is_vessel(card):
        return "Vessel"
    if is_mimic(card):
        return "Mimic"
    suit, rank = printed(card)
    assert suit is not None and rank is not None  # a Ritual Card
    name = WARDEN_RANKS.get(rank) or ("Ace" if rank == "A" else rank)
    return f"{name} of {SUIT_NAMES[suit]}"


def card_info(card: str) -> dict:
    """The public face of a card for views: ``{id, suit, rank, label, kind}``; ``kind`` is
    ``"ritual"``, ``"warden"``, ``"ace"``, ``"vessel"`` or ``"mimic"``."""
    suit, rank = printed(card)
    if is_vessel(card):
        kind = "vessel"
    elif is_mimic(card):
        kind = "mimic"
    elif rank in WARDEN_RANKS:
        kind = "warden"
    elif rank == "A":
        kind = "ace"
    else:
        kind = "ritual"
    short = "V" if kind == "vessel" else "M" if kind == "mimic" else rank
    return {
        "id": card,
        "suit": suit,
        "rank": rank,
        "label": card_label(card),
        "kind": kind,
        "short": short,
        "symbol": SUIT_SYMBOLS.get(suit or "", ""),
        "suit_name": SUIT_NAMES.get(suit or "", ""),
    }


def parity(card: str) -> str | None:
    """``"odd"``/``"even"`` of a numeric printed rank; None for Wardens, Aces, Mimics and Vessels
    (rulebook FAQ "Even or Odd")."""
    _suit, rank = printed(card)
    if rank not in NUMERIC_RANKS:
        return None
    return "even" if int(rank) % 2 == 0 else "odd"


def corner_label(corner: str) -> str:
    return SUIT_NAMES.get(corner, corner)


# --- validation of content --------------------------------------------------------------


def validate_corner(corner: str) -> None:
    """A corner is a suit letter or a numeric rank. Raises ValueError."""
    if corner not in SUITS and corner not in NUMERIC_RANKS:
        raise ValueError(f"corner {corner!r} is neither a suit (D V S C) nor a rank 2-10")


def validate_effects(effects: Iterable[dict]) -> None:
    """Check a curse's effects list (shape of ``LASTING_OPS``/``ONE_TIME_OPS``). ValueError."""
    for effect in effects:
        if not isinstance(effect, dict) or "op" not in effect:
            raise ValueError(f"effect {effect!r} needs an 'op'")
        op = effect["op"]
        keys = LASTING_OPS.get(op, ONE_TIME_OPS.get(op))
        if keys is None:
            raise ValueError(f"unknown effect op {op!r}")
        for key in keys:
            if key not in effect:
                raise ValueError(f"effect {op!r} needs {key!r}")
        for key in ("suit",) if "suit" in keys else ():
            if effect[key] not in SUITS:
                raise ValueError(f"effect {op!r}: bad suit {effect[key]!r}")
        if op == "suit_as_suit" and (effect["from"] not in SUITS or effect["to"] not in SUITS):
            raise ValueError("suit_as_suit needs two suits")
        if op in ("rank_as_rank",) and not {effect["from"], effect["to"]} <= set(RANKS):
            raise ValueError("rank_as_rank needs two ranks")
        if op in ("suit_as_rank", "cannot_play_rank") and effect["rank"] not in RANKS:
            raise ValueError(f"effect {op!r}: bad rank")
        for key in ("count", "size"):
            if key in keys and not (isinstance(effect[key], int) and 0 <= effect[key] <= 10):
                raise ValueError(f"effect {op!r}: {key} must be an int 0..10")


def validate_conditions(conditions: Iterable[dict]) -> None:
    """Check a pact's condition clauses (shape of ``CONDITION_KINDS``). ValueError."""
    conditions = list(conditions)
    if not conditions:
        raise ValueError("a pact needs at least one condition")
    for clause in conditions:
        kind = clause.get("kind") if isinstance(clause, dict) else None
        if kind not in CONDITION_KINDS:
            raise ValueError(f"unknown condition kind {kind!r}")
        for key in CONDITION_KINDS[kind]:
            if key not in clause:
                raise ValueError(f"condition {kind!r} needs {key!r}")
        if not isinstance(clause["at_least"], int) or clause["at_least"] < 0:
            raise ValueError("at_least must be an int >= 0")
        if kind == "suit" and clause["suit"] not in SUITS:
            raise ValueError("bad suit")
        if kind == "rank" and clause["rank"] not in NUMERIC_RANKS:
            raise ValueError("bad rank")
        if kind == "parity" and clause["parity"] not in ("odd", "even"):
            raise ValueError("parity is odd or even")


def validate_demon(demon: dict) -> None:
    """Check one demon content dict: ``{id, name, title, lore, curse, lasting, corners[4],
    effects[], affliction_only}`` (``affliction_only``: the curse relates only to Affliction
    Cards, the plague doctor symbol of rulebook "Afflictions"). Raises ValueError."""
    for key in ("id", "name", "curse", "corners"):
        if not demon.get(key):
            raise ValueError(f"demon needs {key!r}")
    if len(demon["corners"]) != 4:
        raise ValueError("a demon has exactly four corners")
    for corner in demon["corners"]:
        validate_corner(corner)
    validate_effects(demon.get("effects", []))
    if not isinstance(demon.get("affliction_only", False), bool):
        raise ValueError("affliction_only is true or false")
    ops = {e["op"] for e in demon.get("effects", [])}
    if demon.get("lasting") and ops & set(ONE_TIME_OPS):
        raise ValueError("a lasting curse cannot carry one-time effects")
    if not demon.get("lasting") and ops & set(LASTING_OPS):
        raise ValueError("a one-time curse cannot carry lasting effects")


# --- curses: resolving chains (FAQ "Curse Combinations") --------------------------------


def lasting_effects(demons: Sequence[dict]) -> list[dict]:
    """The lasting effects in force for a seat: those of its bound demons with lasting curses,
    in binding order."""
    return [e for d in demons if d.get("lasting") for e in d.get("effects", [])]


def transform(
    suit: str | None, rank: str | None, effects: Sequence[dict]
) -> tuple[str | None, str | None]:
    """Apply the transforming curses to one card's ``(suit, rank)``; return the final pair.

    Each curse applies at most once per card, repeatedly in binding order until none fires, so
    chains resolve as in the rulebook FAQ: Skulls are 8s, 8s are 3s -> a Skull is a 3 (and a cycle
    of curses cannot loop)."""
    used: set[int] = set()
    changed = True
    while changed:
        changed = False
        for index, effect in enumerate(effects):
            if index in used:
                continue
            op = effect["op"]
            if op == "suit_as_rank" and suit == effect["suit"]:
                rank = effect["rank"]
            elif op == "rank_as_rank" and rank == effect["from"]:
                rank = effect["to"]
            elif op == "suit_as_suit" and suit == effect["from"]:
                suit = effect["to"]
            else:
                continue
            used.add(index)
            changed = True
    return suit, rank


def forbidden(suit: str | None, rank: str | None, effects: Sequence[dict]) -> bool:
    """True when a curse forbids playing a card of this final ``(suit, rank)``."""
    for effect in effects:
        if effect["op"] == "cannot_play_rank" and rank == effect["rank"]:
            return True
        if effect["op"] == "cannot_play_suit" and suit == effect["suit"]:
            return True
    return False


def face(card: str, effects: Sequence[dict]) -> tuple[str | None, str | None]:
    """The ``(suit, rank)`` a card counts as for its owner outside a ritual: its printed pair
    after the transforming curses (FAQ "Curse Combinations"). Vessels and Mimics have none."""
    return transform(*printed(card), effects)


def banned(card: str, effects: Sequence[dict]) -> bool:
    """True when the owner's curses forbid playing ``card`` anywhere (FAQ "Curse Combinations":
    "Your Skulls are all 3's, therefore, you may not play Skulls"): its face after the
    transforming curses has a forbidden suit or rank. Used for every card played (a binding
    ritual, feeding an Eater, attaching an Eater, a Seeker/Keeper, summoning a Vessel,
    exorcising a Vessel); a Vessel in a ritual is checked as its declared face instead
    (``card_options``). Discarding is not playing: a banned card can always be discarded."""
    return forbidden(*face(card, effects), effects)


def hand_size(effects: Sequence[dict]) -> int:
    """The Reset hand size: 5 (rulebook "Reset"), or the smallest ``hand_size`` curse in force."""
    sizes = [e["size"] for e in effects if e["op"] == "hand_size"]
    return min(sizes) if sizes else 5


# --- the binding check (rulebook "Performing the Binding Ritual", "Aces", "Vessels") -----


def card_options(card: str, declared: dict | None, effects: Sequence[dict]) -> list[tuple]:
    """Every ``(suit, rank)`` a card may count as in a ritual, after curses, minus forbidden ones.

    - numeric card: its printed pair; Warden: its suit and a non-numeric rank (meets suit
      corners only); Ace: its suit with any rank 2-10 (one, or ``declared["rank"]``);
    - Vessel: exactly ``declared`` ``{"suit", "rank"}`` (required); Mimic: nothing.
    """
    if is_mimic(card):
        return []
    suit, rank = printed(card)
    if is_vessel(card):
        assert declared is not None, "a Vessel in a ritual is declared (check_declarations)"
        bases = [(declared["suit"], declared["rank"])]
    elif rank == "A":
        ranks = [declared["rank"]] if declared and declared.get("rank") else NUMERIC_RANKS
        bases = [(suit, r) for r in ranks]
    else:
        bases = [(suit, rank)]
    options = []
    for base in bases:
        final = transform(*base, effects)
        if not forbidden(*final, effects) and final not in options:
            options.append(final)
    return options


def check_declarations(cards: Sequence[str], declared: dict) -> dict:
    """Normalise the declarations of a ritual: every Vessel needs ``{"suit": D|V|S|C,
    "rank": "2".."10"}``; an Ace may name ``{"rank"}``. Returns ``{card: {...}}`` for the cards
    played. Raises RuleViolation ``vessel_undeclared`` / ``bad_declaration``."""
    result = {}
    for card in cards:
        decl = declared.get(card) or {}
        if not isinstance(decl, dict):
            raise RuleViolation("bad_declaration", "Declare a suit and a rank.")
        if is_vessel(card):
            suit, rank = decl.get("suit"), str(decl.get("rank", ""))
            if not suit and not decl.get("rank"):
                raise RuleViolation(
                    "vessel_undeclared", "Declare a suit and a rank for each Vessel."
                )
            if suit not in SUITS or rank not in NUMERIC_RANKS:
                raise RuleViolation(
                    "bad_declaration", "A Vessel becomes one suit and one rank from 2 to 10."
                )
            result[card] = {"suit": suit, "rank": rank}
        elif decl.get("rank") and printed(card)[1] == "A":
            rank = str(decl["rank"])
            if rank not in NUMERIC_RANKS:
                raise RuleViolation("bad_declaration", "An Ace becomes a rank from 2 to 10.")
            result[card] = {"rank": rank}
    return result


def solve_binding(
    corners: Sequence[str],
    cards: Sequence[str],
    declared: dict | None = None,
    effects: Sequence[dict] = (),
) -> list[dict] | None:
    """Whether ``cards`` meet all four ``corners``, and how.

    Each card meets at most one suit corner and at most one rank corner (rulebook "Performing
    the Binding Ritual": "a single suit, a single rank, or both"), every corner is met, and every
    card played meets at least one corner (a card that meets nothing is not part of the ritual).
    ``declared``: ``{card: {"suit", "rank"}}`` for Vessels, optional ``{"rank"}`` for Aces.
    ``effects``: the binder's lasting curse effects.

    Returns a list, one per corner in order, of ``{"corner", "card", "suit", "rank"}`` (the pair
    the card counts as), or None when no assignment exists. At most 4 cards: the search tries
    every corner-to-card mapping (<= 256) and is exact.
    """
    declared = declared or {}
    cards = list(cards)
    if not cards or len(cards) > len(corners):
        return None
    options = {card: card_options(card, declared.get(card), effects) for card in cards}

    def meets(option, corner):
        return option[0] == corner if corner in SUITS else option[1] == corner

    # quick rejections: a corner nobody meets, a card that meets no corner
    for corner in corners:
        if not any(meets(o, corner) for card in cards for o in options[card]):
            return None
    for card in cards:
        if not any(meets(o, corner) for corner in corners for o in options[card]):
            return None
    for mapping in itertools.product(range(len(cards)), repeat=len(corners)):
        if set(mapping) != set(range(len(cards))):
            continue  # every card must meet something
        chosen = {}
        for index, card in enumerate(cards):
            mine = [corners[c] for c, who in enumerate(mapping) if who == index]
            suits = [c for c in mine if c in SUITS]
            ranks = [c for c in mine if c not in SUITS]
            if len(suits) > 1 or len(ranks) > 1:
                break
            fit = [
                o
                for o in options[card]
                if (not suits or o[0] == suits[0]) and (not ranks or o[1] == ranks[0])
            ]
            if not fit:
                break
            chosen[card] = fit[0]
        else:
            return [
                {
                    "corner": corner,
                    "card": cards[mapping[c]],
                    "suit": chosen[cards[mapping[c]]][0],
                    "rank": chosen[cards[mapping[c]]][1],
                }
                for c, corner in enumerate(corners)
            ]
    return None


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def explain_failure(
    corners: Sequence[str],
    cards: Sequence[str],
    declared: dict | None = None,
    effects: Sequence[dict] = (),
) -> str:
    """One sentence saying why ``solve_binding`` found nothing: the corners no card can meet,
    the cards that meet no corner, or that no card may meet two suits or two ranks."""
    declared = declared or {}
    options = {card: card_options(card, declared.get(card), effects) for card in cards}

    def meets(option, corner):
        return option[0] == corner if corner in SUITS else option[1] == corner

    unmet = [
        corner_label(c)
        for c in corners
        if not any(meets(o, c) for card in cards for o in options[card])
    ]
    useless = [
        card_label(card)
        for card in cards
        if not any(meets(o, c) for c in corners for o in options[card])
    ]
    if len(cards) > len(corners):
        return f"A ritual uses at most {len(corners)} cards."
    if unmet:
        # Said as what is still missing (rulebook "Performing the Binding Ritual": a card
        # matching each corner, all played on the same turn), not as "none of your cards count".
        return (
            "Still missing for this ritual: a card for "
            + _and(unmet)
            + ". Binding needs every ritual requirement on the Demon's corners met this turn."
        )
    if useless:
        return "These cards meet no requirement: " + ", ".join(useless) + "."
    return "The cards cannot meet all four at once: each card meets at most one suit and one rank."


# --- pacts (rulebook "How to Win") -------------------------------------------------------


def pact_progress(conditions: Sequence[dict], bound: Sequence[dict]) -> list[dict]:
    """Each clause with its current count: ``[{"clause", "have", "need", "met"}]``.

    ``bound``: the seat's bound demons as dicts with ``corners``, ``lasting`` and ``personal``
    (True when it was bound as that seat's Personal Demon)."""
    corners = [c for d in bound for c in d["corners"]]
    result = []
    for clause in conditions:
        kind = clause["kind"]
        if kind == "demons":
            have = len(bound)
        elif kind == "suit":
            have = corners.count(clause["suit"])
        elif kind == "rank":
            have = corners.count(clause["rank"])
        elif kind == "distinct_suits":
            have = len({c for c in corners if c in SUITS})
        elif kind == "personal":
            have = sum(1 for d in bound if d.get("personal"))
        elif kind == "lasting":
            have = sum(1 for d in bound if d.get("lasting"))
        elif kind == "rank_sum":
            have = sum(int(c) for c in corners if c in NUMERIC_RANKS)
        elif kind == "parity":
            want = 0 if clause["parity"] == "even" else 1
            have = sum(1 for c in corners if c in NUMERIC_RANKS and int(c) % 2 == want)
        else:  # pragma: no cover - validated content
            raise ValueError(kind)
        need = clause["at_least"]
        result.append({"clause": clause, "have": have, "need": need, "met": have >= need})
    return result


def pact_met(conditions: Sequence[dict], bound: Sequence[dict]) -> bool:
    """True when every clause holds (exceeding a demand counts, FAQ "Pact Demands")."""
    return all(p["met"] for p in pact_progress(conditions, bound))

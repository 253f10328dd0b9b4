"""A character in play and the damage it takes.

DemLoc rulebook 5.1.1 (armor and hit factors), 6.4.2 ("assign damages"), 7.2.2.4 and 7.3.2.2
(where damage goes), 7.2.3 (possession), 8.1-8.2 (bleeding, poison).

A *piece* is a character card (``missions.rules.cards``) plus its live state, one JSON dict::

    {**card, "move": the card's movement factor, "owner": seat, "armor_damage": 0.., "hit_damage": 0.., "broken_armor": 0..3,
     "broken_hearts": 0..heart_limit, "heart_limit": 3 (a daemon: the 1..3 heart tokens it got),
     "seals": 0.., "bleeding": 0.., "poison": 0.., "movement": "active" | "exhausted",
     "vigor": 0.., "weakness": 0.., "mana": {"common": n, "dark": n},
     "possessed": bool, "fury": 0..2 (turns left), "summoning": daemon id | None,
     "summoner": id | None (daemons), "asset": "standard" | "post_summoning",
     "status": "in_play" | "killed" | "escaped" | "dismissed"}

Every function here is pure: it returns a new piece and the plain-words lines explaining what
happened, and never mutates its argument.
"""

from __future__ import annotations

import copy

MAX_BROKEN_ARMOR = 3
MAX_BROKEN_HEARTS = 3

GENERAL = "general"  # armor first (6.4.2 "assign generic damages")
HIT = "hit"  # straight to the hit factor (6.4.2 "hit (directly to his life)")


def new_piece(card: dict, owner: int, heart_limit: int = MAX_BROKEN_HEARTS) -> dict:
    """A fresh piece for ``card`` controlled by seat ``owner``: no damage, movement token
    active (6.4.1 "unless otherwise specified ... active"), no mana."""
    return {
        **copy.deepcopy(card),
        # The card's movement factor; "movement" is the movement token from here on.
        "move": card.get("movement", 0),
        "owner": owner,
        "armor_damage": 0,
        "hit_damage": 0,
        "broken_armor": 0,
        "broken_hearts": 0,
        "heart_limit": heart_limit,
        "seals": 0,
        "bleeding": 0,
        "poison": 0,
        "movement": "active",
        "vigor": 0,
        "weakness": 0,
        "mana": {"common": 0, "dark": 0},
        "possessed": False,
        "fury": 0,
        "summoning": None,
        "summoner": None,
        "asset": "standard",
        "status": "in_play",
    }


def in_play(piece: dict) -> bool:
    return piece["status"] == "in_play"


def is_fatally_wounded(piece: dict) -> bool:
    """Whether the piece's tokens kill it.

    Not possessed: as many broken hearts as its heart limit (3; a daemon: its heart tokens;
    5.1.1, 7.2.3.2). Possessed (7.2.3 "daemon possessed"): the daemon keeps the body going, so
    the piece dies only with all its broken hearts *and* 3 broken armor tokens. Poison tokens
    above the hit factor kill in both cases (6.4.2).
    """
    if piece["poison"] > piece["hit"]:
        return True
    hearts_full = piece["broken_hearts"] >= piece["heart_limit"]
    if piece["possessed"]:
        return hearts_full and piece["broken_armor"] >= MAX_BROKEN_ARMOR
    return hearts_full


def _kill_if_fatal(p: dict, lines: list[str]) -> None:
    if in_play(p) and is_fatally_wounded(p):
        p["status"] = "killed"
        lines.append(f"{p['name']} is killed.")


def assign_damage(piece: dict, amount: int, mode: str = GENERAL) -> tuple[dict, list[str]]:
    """Assign ``amount`` (>= 0) damage to ``piece``: ``mode`` ``"general"`` (armor first) or
    ``"hit"`` (straight to the hit factor). DemLoc rulebook 5.1.1, 6.4.2, 7.3.2.2.

    Damage fills the current step: while the piece has fewer than 3 broken armor tokens, general
    damage is added to the damage on the armor; each time it reaches the armor factor a broken
    armor token is placed, the armor damage goes back to 0 and the rest of the damage *carries
    over* into the next armor step (and, after the third token, into the hit factor). On the hit
    factor the same happens with broken heart tokens. Damage left over once the piece is killed
    is lost. An armor factor of 0 absorbs nothing (general damage goes to the hit factor).
    Once a piece has all its broken hearts (only possible when possessed), further hit damage is
    lost. A piece not in play is returned unchanged.
    """
    if amount < 0:
        raise ValueError("damage is >= 0")
    p = copy.deepcopy(piece)
    lines: list[str] = []
    if not in_play(p) or amount == 0:
        return p, lines
    left = amount
    if mode == GENERAL and p["armor"] > 0:
        while left > 0 and p["broken_armor"] < MAX_BROKEN_ARMOR:
            room = p["armor"] - p["armor_damage"]
            if left >= room:
                left -= room
                p["armor_damage"] = 0
                p["broken_armor"] += 1
                lines.append(
                    f"{p['name']}: damage reaches the armor factor {p['armor']}: "
                    f"broken armor token {p['broken_armor']}/3."
                )
            else:
                p["armor_damage"] += left
                lines.append(
                    f"{p['name']}: {left} damage on the armor ({p['armor_damage']}/{p['armor']})."
                )
                left = 0
        if p["broken_armor"] >= MAX_BROKEN_ARMOR and p["possessed"]:
            _kill_if_fatal(p, lines)
    while left > 0 and in_play(p) and p["broken_hearts"] < p["heart_limit"]:
        room = p["hit"] - p["hit_damage"]
        if left >= room:
            left -= room
            p["hit_damage"] = 0
            p["broken_hearts"] += 1
            lines.append(
                f"{p['name']}: damage reaches the hit factor {p['hit']}: "
                f"broken heart token {p['broken_hearts']}/{p['heart_limit']}."
            )
            _kill_if_fatal(p, lines)
        else:
            p["hit_damage"] += left
            lines.append(
                f"{p['name']}: {left} damage on the hit factor ({p['hit_damage']}/{p['hit']})."
            )
            left = 0
    return p, lines


def remove_damage(piece: dict, amount: int, step: str) -> tuple[dict, list[str]]:
    """Remove up to ``amount`` damage from the current ``step`` (``"armor"`` or ``"hit"``),
    never below 0 (6.4.2: "only remove damages already assigned until you reach 0").
    Tokens already placed stay (they go with CARE/REPAIR or the token counters).
    Returns the new piece and lines; removing from an empty step changes nothing."""
    p = copy.deepcopy(piece)
    key = "armor_damage" if step == "armor" else "hit_damage"
    removed = min(amount, p[key])
    p[key] -= removed
    lines = [f"{p['name']}: {removed} damage removed from the {step} step."] if removed else []
    return p, lines


def add_broken_hearts(piece: dict, count: int) -> tuple[dict, list[str]]:
    """Place ``count`` broken heart tokens directly (the 5+ brawl result 7.3.2.2, a daemon's
    hearts 7.2.3.3, FURY 8.4), up to the heart limit; the piece is killed when fatal."""
    p = copy.deepcopy(piece)
    lines: list[str] = []
    if not in_play(p) or count <= 0:
        return p, lines
    placed = min(count, p["heart_limit"] - p["broken_hearts"])
    p["broken_hearts"] += placed
    if placed:
        lines.append(
            f"{p['name']}: {placed} broken heart token(s), now {p['broken_hearts']}/{p['heart_limit']}."
        )
    _kill_if_fatal(p, lines)
    return p, lines


def adjust_tokens(piece: dict, token: str, delta: int) -> tuple[dict, list[str]]:
    """Add or remove counters by hand (6.4.2 "assign ..."): ``token`` one of ``broken_armor``
    (0..3), ``broken_hearts`` (0..heart limit), ``bleeding``, ``poison`` (>= 0), clamped to
    their range: removing only what was assigned ("the last reachable result is 0").
    Seals are handled by ``missions.rules.arcane.add_seals``. A fatal result kills the piece."""
    p = copy.deepcopy(piece)
    high = {
        "broken_armor": MAX_BROKEN_ARMOR,
        "broken_hearts": p["heart_limit"],
    }.get(token, 10**6)
    before = p[token]
    p[token] = max(0, min(high, before + delta))
    lines: list[str] = []
    if p[token] != before:
        label = token.replace("_", " ")
        lines.append(f"{p['name']}: {label} {before} -> {p[token]}.")
    _kill_if_fatal(p, lines)
    return p, lines


def bleed(piece: dict) -> tuple[dict, list[str]]:
    """Bleeding (6.4.2, 8.1 BLOODING): as many hits (straight to the hit factor) as bleeding
    tokens. The timing (end or start of the turn) is the ``bleeding`` table option."""
    if not in_play(piece) or piece["bleeding"] <= 0:
        return copy.deepcopy(piece), []
    p, lines = assign_damage(piece, piece["bleeding"], HIT)
    return p, [f"{piece['name']} bleeds: {piece['bleeding']} hit(s)."] + lines


def poison_tick(piece: dict) -> tuple[dict, list[str]]:
    """Poison (6.4.2, 8.1 POISONOUS, 8.2 POISON): a poisoned piece (>= 1 token) gains one
    token; it is killed when its tokens exceed its hit factor. The timing is the ``poison``
    table option."""
    p = copy.deepcopy(piece)
    if not in_play(p) or p["poison"] <= 0:
        return p, []
    p["poison"] += 1
    lines = [f"{p['name']} is poisoned: poison token {p['poison']} (hit factor {p['hit']})."]
    _kill_if_fatal(p, lines)
    return p, lines


def add_poison(piece: dict, count: int, exception: bool = False) -> tuple[dict, list[str]]:
    """Poison from a weapon (POISONOUS x), a power (POISON x) or an ability: ``count`` tokens,
    only if the piece has none yet (8.1, 8.2), unless ``exception`` (a card that says so)."""
    p = copy.deepcopy(piece)
    if not in_play(p) or count <= 0:
        return p, []
    if p["poison"] > 0 and not exception:
        return p, [f"{p['name']} is already poisoned: no new poison tokens."]
    p["poison"] += count
    lines = [f"{p['name']} receives {count} poison token(s), now {p['poison']}."]
    _kill_if_fatal(p, lines)
    return p, lines


def possession_tick(piece: dict) -> tuple[dict, list[str]]:
    """One turn of daemonic possession (7.2.3): a broken heart token; once all broken hearts are
    placed (those from before the possession count), a broken armor token instead; with 3 broken
    armor tokens too the piece dies."""
    p = copy.deepcopy(piece)
    if not in_play(p) or not p["possessed"]:
        return p, []
    if p["broken_hearts"] < p["heart_limit"]:
        p["broken_hearts"] += 1
        lines = [
            f"{p['name']} (possessed): broken heart token {p['broken_hearts']}/{p['heart_limit']}."
        ]
    else:
        p["broken_armor"] = min(MAX_BROKEN_ARMOR, p["broken_armor"] + 1)
        lines = [f"{p['name']} (possessed): broken armor token {p['broken_armor']}/3."]
    _kill_if_fatal(p, lines)
    return p, lines

"""Damage and tokens: where damage goes, broken armor and hearts, bleeding, poison and broken
seals (the commands ``demloc.damage.assign``, ``demloc.damage.remove``,
``demloc.tokens.adjust``, their events and folds, and the bleeding/poison ticks of a turn).

DemLoc rulebook 5.1.1 (armor and hit factors), 6.4.2 ("assign damages", "assign broken
seals"), 7.2.2.4 and 7.3.2.2 (where damage goes), 7.2.3 (seal limit, possession), 8.1-8.2
(bleeding, poison, BLOODING, POISONOUS).

A *piece* is a character card (``missions.rules.cards``) plus its live state, one JSON dict::

    {**card, "move": the card's movement factor, "owner": seat, "armor_damage": 0.., "hit_damage": 0.., "broken_armor": 0..3,
     "broken_hearts": 0..heart_limit, "heart_limit": 3 (a daemon: the 1..3 heart tokens it got),
     "seals": 0.., "bleeding": 0.., "poison": 0.., "movement": "active" | "exhausted",
     "vigor": 0.., "weakness": 0.., "mana": {"common": n, "dark": n},
     "possessed": bool, "fury": 0..2 (turns left), "summoning": daemon id | None,
     "summoner": id | None (daemons), "asset": "standard" | "post_summoning",
     "status": "in_play" | "killed" | "escaped" | "dismissed"}

The calculators (``assign_damage``...) are pure: each returns a new piece and the plain-words
lines explaining what happened, and never mutates its argument (``copy_json`` of one piece).
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, copy_json
from tabletop.rules import EventRecord, counted

from .cards import feature_value, possession_limit
from .common import in_play, num, own_piece, piece_name, play_command, set_piece
from .state import DemlocState

damage = Topic("damage")

MAX_BROKEN_ARMOR = 3
MAX_BROKEN_HEARTS = 3

GENERAL = "general"  # armor first (6.4.2 "assign generic damages")
#: Damage of an "equal" shot (7.2.2.4 "the character's armor absorbed the impact", table option
#: ``equal_shot`` = ``armor``): armor first like ``GENERAL``, but what is left once the third
#: broken armor token is placed is absorbed, never carried over to the hit factor.
ARMOR_ONLY = "armor_only"
HIT = "hit"  # straight to the hit factor (6.4.2 "hit (directly to his life)")


def new_piece(card: dict, owner: int, heart_limit: int = MAX_BROKEN_HEARTS) -> dict:
    """A fresh piece for ``card`` controlled by seat ``owner``: no damage, movement token
    active (6.4.1 "unless otherwise specified ... active"), no mana."""
    return {
        **copy_json(card),
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
        "lost_dice": 0,  # arcane dice removed for the mission (a broken seal, 7.2.3)
        "asset": "standard",
        "status": "in_play",
    }


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


def tracks(piece: dict) -> dict[str, dict]:
    """The two damage tracks of a piece as its card shows them, one projection for the bar,
    its figure and the token circles (5.1.1): ``{"armor": track, "hit": track}``, each
    ``{"factor", "tokens", "limit", "step", "taken", "capacity", "words"}``.

    5.1.1: the armor factor is "how many damages the character will receive before assigning a
    broken armor token", 3 such tokens at most (then "all damages go directly to the hit
    factor"); the hit factor is how many before a broken heart token, 3 of them (a daemon: its
    heart tokens, 7.2.3.3) kill. So a track holds ``limit`` tokens of ``factor`` damage each:
    ``taken`` = ``tokens * factor + step`` of ``capacity`` = ``limit * factor``, where ``step``
    is the damage toward the next token (6.4.2: the only damage "−1" removes). An armor factor
    of 0 absorbs nothing: capacity 0.
    """
    out: dict[str, dict] = {}
    for key, factor, tokens, limit, step, token_words in (
        ("armor", piece["armor"], piece["broken_armor"], MAX_BROKEN_ARMOR,
         piece["armor_damage"], "broken armor token"),
        ("hit", piece["hit"], piece["broken_hearts"], piece["heart_limit"],
         piece["hit_damage"], "broken heart"),
    ):
        factor = max(0, int(factor))
        capacity = limit * factor
        taken = min(capacity, tokens * factor + step)
        if capacity == 0:
            words = f"{key.capitalize()} factor 0: it absorbs no damage."
        elif tokens >= limit:
            words = f"{key.capitalize()} {factor}: all {limit} {token_words}s placed ({taken}/{capacity})."
        else:
            words = (
                f"{key.capitalize()} {factor}: {tokens} of {limit} {token_words}s, "
                f"{step}/{factor} damage toward the next ({taken}/{capacity})."
            )
        out[key] = {
            "factor": factor,
            "tokens": tokens,
            "limit": limit,
            "step": step,
            "taken": taken,
            "capacity": capacity,
            "words": words,
        }
    return out


def _kill_if_fatal(p: dict, lines: list[str]) -> None:
    if in_play(p) and is_fatally_wounded(p):
        p["status"] = "killed"
        lines.append(f"{p['name']} is killed.")


def assign_damage(piece: dict, amount: int, mode: str = GENERAL) -> tuple[dict, list[str]]:
    """Assign ``amount`` (>= 0) damage to ``piece``: ``mode`` ``"general"`` (armor first),
    ``"hit"`` (straight to the hit factor) or ``ARMOR_ONLY`` (armor steps only, the rest
    absorbed: an equal shot, 7.2.2.4). DemLoc rulebook 5.1.1, 6.4.2, 7.3.2.2.

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
    p = copy_json(piece)
    lines: list[str] = []
    if not in_play(p) or amount == 0:
        return p, lines
    left = amount
    if mode in (GENERAL, ARMOR_ONLY) and p["armor"] > 0:
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
    if mode == ARMOR_ONLY:
        if left > 0:
            lines.append(f"{p['name']}: the armor absorbs the other {left} damage (7.2.2.4).")
        return p, lines
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
    p = copy_json(piece)
    key = "armor_damage" if step == "armor" else "hit_damage"
    removed = min(amount, p[key])
    p[key] -= removed
    lines = [f"{p['name']}: {removed} damage removed from the {step} step."] if removed else []
    return p, lines


def add_broken_hearts(piece: dict, count: int) -> tuple[dict, list[str]]:
    """Place ``count`` broken heart tokens directly (the 5+ brawl result 7.3.2.2, a daemon's
    hearts 7.2.3.3, FURY 8.4), up to the heart limit; the piece is killed when fatal."""
    p = copy_json(piece)
    lines: list[str] = []
    if not in_play(p) or count <= 0:
        return p, lines
    placed = min(count, p["heart_limit"] - p["broken_hearts"])
    p["broken_hearts"] += placed
    if placed:
        lines.append(
            f"{p['name']}: {counted(placed, 'broken heart token')}, now {p['broken_hearts']}/{p['heart_limit']}."
        )
    _kill_if_fatal(p, lines)
    return p, lines


def adjust_tokens(piece: dict, token: str, delta: int) -> tuple[dict, list[str]]:
    """Add or remove counters by hand (6.4.2 "assign ..."): ``token`` one of ``broken_armor``
    (0..3), ``broken_hearts`` (0..heart limit), ``bleeding``, ``poison`` (>= 0), clamped to
    their range: removing only what was assigned ("the last reachable result is 0").
    Seals are handled by ``missions.rules.arcane.add_seals``. A fatal result kills the piece."""
    p = copy_json(piece)
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
        return copy_json(piece), []
    p, lines = assign_damage(piece, piece["bleeding"], HIT)
    return p, [f"{piece['name']} bleeds: {counted(piece['bleeding'], 'hit')}."] + lines


def poison_tick(piece: dict) -> tuple[dict, list[str]]:
    """Poison (6.4.2, 8.1 POISONOUS, 8.2 POISON): a poisoned piece (>= 1 token) gains one
    token; it is killed when its tokens exceed its hit factor. The timing is the ``poison``
    table option."""
    p = copy_json(piece)
    if not in_play(p) or p["poison"] <= 0:
        return p, []
    p["poison"] += 1
    lines = [f"{p['name']} is poisoned: poison token {p['poison']} (hit factor {p['hit']})."]
    _kill_if_fatal(p, lines)
    return p, lines


def add_poison(piece: dict, count: int, exception: bool = False) -> tuple[dict, list[str]]:
    """Poison from a weapon (POISONOUS x), a power (POISON x) or an ability: ``count`` tokens,
    only if the piece has none yet (8.1, 8.2), unless ``exception`` (a card that says so)."""
    p = copy_json(piece)
    if not in_play(p) or count <= 0:
        return p, []
    if p["poison"] > 0 and not exception:
        return p, [f"{p['name']} is already poisoned: no new poison tokens."]
    p["poison"] += count
    lines = [f"{p['name']} receives {counted(count, 'poison token')}, now {p['poison']}."]
    _kill_if_fatal(p, lines)
    return p, lines


def possession_tick(piece: dict) -> tuple[dict, list[str]]:
    """One turn of daemonic possession (7.2.3): a broken heart token; once all broken hearts are
    placed (those from before the possession count), a broken armor token instead; with 3 broken
    armor tokens too the piece dies."""
    p = copy_json(piece)
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


# ------------------------------------------------------------------------ broken seals
#: Table option ``seals``: when the broken seals make a character possessed.
SEALS_EXCEEDED = "exceeded"  # 7.2.3: "when the set limit ... is exceeded" (default)
SEALS_REACHES = "reaches"  # 6.4.2: "if the character reaches the maximum seals"


def is_over_seal_limit(seals: int, arcane: int, rule: str = SEALS_EXCEEDED) -> bool:
    """Whether ``seals`` broken seals possess a character of arcane ability ``arcane``.

    The rulebook says "reaches" in 6.4.2 and "exceeded" in 7.2.3; the table option ``seals``
    chooses, default ``"exceeded"`` (7.2.3 is the chapter that defines the effect and lists the
    limits). Limits: ``possession_limit`` (0/1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4).
    """
    limit = possession_limit(arcane)
    return seals >= limit if rule == SEALS_REACHES else seals > limit


def possess(piece: dict) -> tuple[dict, list[str]]:
    """Give the possessed effect (7.2.3): the character loses control after its mana is spent
    ("after exhausting all the character's mana"), so its mana goes to 0."""
    p = copy_json(piece)
    if p["possessed"] or not in_play(p):
        return p, []
    p["possessed"] = True
    p["mana"] = {"common": 0, "dark": 0}
    return p, [
        f"{p['name']} has {p['seals']} broken seals (limit {possession_limit(p['arcane'])}): "
        "possessed by a daemon! It acts no more; it moves by the out-of-control card each turn."
    ]


def add_seals(
    piece: dict, count: int, rule: str = SEALS_EXCEEDED, has_effect: bool = True
) -> tuple[dict, list[str]]:
    """Add ``count`` broken seals (negative removes, never below 0; 6.4.2).

    ``has_effect`` False: the seals rolled while channelling in the setup (6.4.1), when a daemon
    leaves (7.2.3.3) or during an arcane test (7.2.3.5) are not counted at all. Crossing the
    limit gives the possessed effect automatically (``is_over_seal_limit``). Removing seals
    never removes the possessed effect (only freeing does, 7.2.3.5).
    """
    p = copy_json(piece)
    if not has_effect or count == 0 or not in_play(p):
        if not has_effect and count:
            return p, [f"{p['name']}: {counted(count, 'broken seal')} rolled, without effect here."]
        return p, []
    before = p["seals"]
    p["seals"] = max(0, before + count)
    lines = [f"{p['name']}: broken seals {before} -> {p['seals']}."] if p["seals"] != before else []
    if count > 0 and is_over_seal_limit(p["seals"], p["arcane"], rule):
        p, more = possess(p)
        lines += more
    return p, lines


# ------------------------------------------------------------------------ turn ticks
def tick(s: DemlocState, moment: str) -> None:
    """Bleeding and poison at ``moment`` (``"start"``/``"end"`` of the turn), in card order,
    as the table options ``bleeding`` and ``poison`` say (6.4.2; 8.1, 8.2)."""
    opts = s["options"]
    for pid in s["order"]:
        p = s["pieces"][pid]
        if opts["bleeding"] == moment and in_play(p):
            p, more = bleed(p)
            set_piece(s, p, more)
        if opts["poison"] == moment and in_play(p):
            p, more = poison_tick(p)
            set_piece(s, p, more)


def weapon_tokens(
    s: DemlocState, target_id: str, weapons: list[dict]
) -> None:
    """BLOODING x and POISONOUS x of the weapons that hit ``target_id`` (8.1)."""
    for w in weapons:
        bleeding = feature_value(w["features"], "BLOODING")
        if bleeding:
            t, _ = adjust_tokens(s["pieces"][target_id], "bleeding", bleeding)
            set_piece(
                s,
                t,
                [
                    f"{w['name']} is BLOODING {bleeding}: {t['name']} bleeding tokens {t['bleeding']}."
                ],
            )
        poison = feature_value(w["features"], "POISONOUS")
        if poison:
            t, more = add_poison(s["pieces"][target_id], poison)
            set_piece(s, t, [f"{w['name']} is POISONOUS {poison}."] + more)


def weapon_token_words(target: dict, weapons: list[dict]) -> list[str]:
    """What ``weapon_tokens`` will do to ``target`` (8.1), in words, before it is done: the
    lines a worked-out shot or fight lists above its Apply, so Apply adds nothing unsaid.
    POISONOUS gives no new tokens to a poisoned character (``add_poison``, 8.1)."""
    lines = []
    poisoned = target.get("poison", 0) > 0
    for w in weapons:
        bleeding = feature_value(w["features"], "BLOODING")
        if bleeding:
            lines.append(
                f"{w['name']} is BLOODING {bleeding}: +{bleeding} bleeding on {target['name']} (8.1)."
            )
        poison = feature_value(w["features"], "POISONOUS")
        if poison:
            lines.append(
                f"{w['name']} is POISONOUS {poison}: {target['name']} is already poisoned, "
                "no new poison tokens (8.1)."
                if poisoned
                else f"{w['name']} is POISONOUS {poison}: +{poison} poison on {target['name']} (8.1)."
            )
            poisoned = True
    return lines


# ------------------------------------------------------------------------ commands
TOKENS = ("broken_armor", "broken_hearts", "bleeding", "poison", "seals")


@play_command(damage, "demloc.damage.assign")
def damage_assign(d: Decision, data: Data) -> None:
    """``{"piece", "amount": 1..30 (default 1), "mode": "general" | "hit"}`` (6.4.2).
    Raises ``RuleViolation`` ``bad_input``, ``bad_mode``, ``not_your_character``..."""
    p = own_piece(d, data)
    amount = num(data, "amount", 1, 1, 30)
    mode = data.choice(
        "mode",
        (GENERAL, HIT),
        default=GENERAL,
        code="bad_mode",
        message="Damage is general (armor first) or a hit.",
    )
    d.emit("demloc.damage.assigned", {"piece": p["id"], "amount": amount, "mode": mode})


@damage.evolver("demloc.damage.assigned", label="assigned damage")
def damage_assigned(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    what = (
        counted(d["amount"], "hit") + " to the hit factor"
        if d["mode"] == HIT
        else f"{d['amount']} damage (armor first)"
    )
    p, more = assign_damage(p, d["amount"], d["mode"])
    # One line per tap, saying where the damage went (the armor, the hit factor, a token);
    # the generic "(armor first)" only when it went nowhere (a piece out of play).
    set_piece(s, p, more or [f"{p['name']}: {what}."])


@damage.narrator("demloc.damage.assigned")
def say_damage_assigned(e: EventRecord, s: DemlocState) -> str:
    n = e.data["amount"]
    what = counted(n, "hit") + " to the hit factor" if e.data["mode"] == HIT else f"{n} damage (armor first)"
    return f"{piece_name(s, e.data['piece'])}: {what}."


@play_command(damage, "demloc.damage.remove")
def damage_remove(d: Decision, data: Data) -> None:
    """``{"piece", "amount": 1..30, "step": "armor" | "hit"}``: only damage already assigned
    (6.4.2). Raises ``bad_step``, ``nothing_to_remove``."""
    p = own_piece(d, data)
    amount = num(data, "amount", 1, 1, 30)
    step = data.choice(
        "step",
        ("armor", "hit"),
        default="armor",
        code="bad_step",
        message="Remove damage from the armor or the hit step.",
    )
    key = "armor_damage" if step == "armor" else "hit_damage"
    d.require(p[key] > 0, "nothing_to_remove", "Only damage already assigned can be removed.")
    d.emit("demloc.damage.removed", {"piece": p["id"], "amount": amount, "step": step})


@damage.evolver("demloc.damage.removed", label="removed damage")
def damage_removed(s: DemlocState, e: EventRecord) -> None:
    p, more = remove_damage(s["pieces"][e.data["piece"]], e.data["amount"], e.data["step"])
    set_piece(s, p, more)


@damage.narrator("demloc.damage.removed")
def say_damage_removed(e: EventRecord, s: DemlocState) -> str:
    return f"{piece_name(s, e.data['piece'])}: damage removed from the {e.data['step']} step."


@play_command(damage, "demloc.tokens.adjust")
def tokens_adjust(d: Decision, data: Data) -> None:
    """``{"piece", "token": broken_armor | broken_hearts | bleeding | poison | seals,
    "delta": -10..10 not 0, "exception": bool}`` (6.4.2: never below 0; a poisoned character
    takes no new poison unless a card says so). Raises ``bad_token``, ``bad_input``,
    ``nothing_to_remove``, ``already_poisoned``, ``at_most_three``."""
    p = own_piece(d, data)
    token = data.choice("token", TOKENS, code="bad_token", message="Unknown token.")
    delta = num(data, "delta", None, -10, 10)
    d.require(delta != 0, "bad_input", "Add or remove at least one token.")
    if delta < 0:
        d.require(
            p[token] > 0,
            "nothing_to_remove",
            "Only tokens already assigned can be removed (never below 0).",
        )
    if token == "poison" and delta > 0 and p["poison"] > 0:
        d.require(
            data.bool("exception"),
            "already_poisoned",
            f"{p['name']} is already poisoned: no new poison tokens (6.4.2).",
        )
    if token == "broken_armor" and delta > 0:
        d.require(p["broken_armor"] < 3, "at_most_three", "At most 3 broken armor tokens.")
    d.emit("demloc.tokens.adjusted", {"piece": p["id"], "token": token, "delta": delta})


@damage.evolver("demloc.tokens.adjusted", label="changed tokens")
def tokens_adjusted(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    if d["token"] == "seals":
        p, more = add_seals(p, d["delta"], s["options"]["seals"])
    else:
        p, more = adjust_tokens(p, d["token"], d["delta"])
    set_piece(s, p, more)


@damage.narrator("demloc.tokens.adjusted")
def say_tokens_adjusted(e: EventRecord, s: DemlocState) -> str:
    label = e.data["token"].replace("_", " ")
    return f"{piece_name(s, e.data['piece'])}: {e.data['delta']:+d} {label}."

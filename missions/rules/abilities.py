"""Personal abilities at the table: the command ``demloc.ability.use``, its event and fold.

DemLoc rulebook 5.1.1 ("personal ability fate points cost"; "abilities with activation: they
must be activated by spending Fate points on the app. There is no limit to the abilities that
can be activated in each turn"), 6.4.2 ("use of fate points ... If the number of fate points
reaches 0, the player will no longer be able to use abilities that require fate points to be
activated"), 8.4 (standard or unique, passive (p) or with activation (a)).

Every ability of a card reaches the table (``cards.ability_from_data``); a passive one is shown
and needs no command; an activated one is used with ``demloc.ability.use``, which charges its
fate-point cost to the player who controls the character (fate points belong to the player,
6.4.2). The app does not apply a unique ability's text (the players do, as the card says); an
activated FURY also starts the FURY effect (two turns, ``brawl.effect_set``).

Once per phase (table option ``ability_uses``, default ``phase``): 5.1.1 sets no limit to the
*different* abilities activated in a turn "however, always take into consideration the
information of the specific personal abilities shown on the card", and a card's effect lasts the
phase it is used in ("Roll one extra fighting die in this shooting sub-phase"): one ability is
used once per game phase (7.2, 7.3: the phase a character's activation belongs to), a second
payment in the same phase buys nothing and is refused (``ability_used``). A table that reads
"no limit" literally (``free``) pays an ability again in its phase, each use counting
(``uses_this_phase``). An ability whose card text adds fighting dice to the character's shot
(``shot_dice_of``) is applied: the shot of that phase takes the extra dice, once a use
(``extra_shot_dice``, ``missions.rules.shooting``), and it is refused when no shot can follow
in the phase (not the strategic phase, 7.2.2; the character already activated, 7.2; no ranged
weapon). ``ability_refusal`` is the one check of the command and of the page's button.
"""

from __future__ import annotations

import re

from tabletop.decider import Data, Decision, Topic, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, counted

from . import activation
from .common import STRATEGIC, num, own_piece, piece_name, play_command, player
from .state import DemlocState

abilities = Topic("abilities")

#: Why a possessed character's activated ability is not offered (7.2.3, Details about daemon
#: possessed effect: "A daemon possessed character cannot perform any other actions").
POSSESSED_BLOCK = "not while possessed: a possessed character acts no more (7.2.3)"

#: 8.4 FURY lasts two turns (the same effect as ``demloc.effect.set`` with FURY on).
FURY_TURNS = 2


#: A card text that adds fighting dice to the character's shot ("Roll one extra fighting die in
#: this shooting sub-phase"): the number of dice, a word or a digit.
_SHOT_DICE = re.compile(
    r"\b(one|two|three|[1-9]) extra fighting di(?:e|ce)\b[^.]*\bshoot", re.IGNORECASE
)
_NUMBERS = {"one": 1, "two": 2, "three": 3}


def shot_dice_of(ability: dict) -> int:
    """The fighting dice an activated ability adds to its character's shot in the phase it is
    used (its card text, 5.1.1; ``_SHOT_DICE``), 0 for any other ability."""
    if ability.get("activation") != "activated":
        return 0
    found = _SHOT_DICE.search(ability.get("text") or "")
    if not found:
        return 0
    word = found.group(1).lower()
    return _NUMBERS.get(word) or int(word)


def once_per_phase(state: DemlocState) -> bool:
    """Whether the table uses an ability once per phase (option ``ability_uses``, 5.1.1; a
    table opened before the option: yes)."""
    return state["options"].get("ability_uses", "phase") == "phase"


def used_this_phase(state: DemlocState, p: dict, index: int) -> bool:
    """Whether ability ``index`` of ``p`` was used in the current game phase."""
    return (p.get("abilities_used") or {}).get(str(index)) == activation.phase_key(state)


def uses_this_phase(state: DemlocState, p: dict, index: int) -> int:
    """How many times ability ``index`` of ``p`` was used in the current game phase: 0 or 1,
    more only on a table whose option ``ability_uses`` is ``free`` (``abilities_again``: the
    phase and the uses after the first)."""
    if not used_this_phase(state, p, index):
        return 0
    again = (p.get("abilities_again") or {}).get(str(index))
    return 1 + (again[1] if again and again[0] == activation.phase_key(state) else 0)


def extra_shot_dice(state: DemlocState, p: dict) -> int:
    """The fighting dice ``p``'s abilities used in this phase add to its shot (Steady Aim:
    "Roll one extra fighting die in this shooting sub-phase", each use):
    ``shooting.shooting_dice``."""
    return sum(
        shot_dice_of(a) * uses_this_phase(state, p, i)
        for i, a in enumerate(p.get("abilities") or [])
    )


def ability_refusal(state: DemlocState, p: dict, index: int) -> RuleViolation | None:
    """The first rule that using ability ``index`` of ``p`` breaks now, as the refusal to raise,
    or None: the check of ``demloc.ability.use`` and of the sheet, which disables the button
    with this reason beside it (``ability_view``), so the two never disagree. Passive (5.1.1),
    possessed (7.2.3), the turn over (7.3.2.3, ``turn_over``), already used this phase (module docstring; option ``ability_uses``), a shot's extra dice with no
    shot to come in this phase (7.2.2, 7.2), too few fate points (6.4.2)."""
    ability = (p.get("abilities") or [])[index]
    name = ability["name"]
    if ability["activation"] != "activated":
        return RuleViolation("passive_ability", f"{name} is passive: it needs no activation (5.1.1).")
    if p.get("possessed"):
        return RuleViolation("possessed", POSSESSED_BLOCK)
    over = activation.turn_over_words(state, p, f"use {name}")
    if over:
        return RuleViolation("turn_over", over)
    if once_per_phase(state) and used_this_phase(state, p, index):
        return RuleViolation(
            "ability_used",
            f"{name} was already used this phase: once per phase, its effect lasts the phase "
            "(5.1.1, 7.2).",
        )
    if shot_dice_of(ability):
        if state["phase"] != STRATEGIC:
            return RuleViolation(
                "no_shot_now",
                f"{name} adds dice to a shot: only in the shooting sub-phase of the strategic "
                "phase (7.2.2).",
            )
        if not any(w.get("range") for w in p.get("weapons") or []):
            return RuleViolation("not_ranged", f"{name} adds dice to a shot: {p['name']} has no ranged weapon.")
        blocked = activation.activated_words(state, p, "shoot") or activation.object_words(state, p, "shoot")
        if blocked:
            return RuleViolation("no_shot_now", f"{name} adds dice to a shot, and {blocked}")
    fate = player(state, p["owner"])["fate"]
    if fate < ability["fate_cost"]:
        return RuleViolation(
            "not_enough_fate",
            f"{name} costs {counted(ability['fate_cost'], 'fate point')}; {fate} left (6.4.2).",
        )
    return None


def ability_view(state: DemlocState, p: dict) -> list[dict]:
    """The abilities of piece ``p`` for its sheet: each ability dict (``cards``) with its
    ``index``, whether it is ``activated`` and, for an activated one, whether its player's
    fate points pay it now (``can_pay``), the fate left after (``fate_after``), the button's
    label and accessible name and the command data (``data``, JSON). A possessed character's
    activated ability carries ``blocked``, the reason it cannot be used (DemLoc 7.2.3: "A daemon
    possessed character cannot perform any other actions in the turn"; ``ability_use`` refuses
    it with ``possessed``), so the sheet says why instead of offering the button."""
    fate = next((pl["fate"] for pl in state["players"] if pl["seat"] == p["owner"]), 0)
    out = []
    for i, a in enumerate(p.get("abilities") or []):
        activated = a["activation"] == "activated"
        refusal = ability_refusal(state, p, i) if activated else None
        out.append(
            {
                **a,
                "index": i,
                "activated": activated,
                "can_pay": activated and fate >= a["fate_cost"],
                "blocked": refusal.message if refusal else "",
                "fate_after": fate - a["fate_cost"],
                "button": f"Use {a['name']} ({a['fate_cost']} fate)",
                # WCAG 2.5.3: the accessible name starts with the visible label.
                "aria": f"Use {a['name']} ({a['fate_cost']} fate) for {p['name']}",
                "data": f'{{"ability": {i}}}',
            }
        )
    return out


@play_command(abilities, "demloc.ability.use")
def ability_use(d: Decision, data: Data) -> None:
    """``{"piece", "ability": index}``: use an ability with activation of the character,
    paid with its fate-point cost from its player's fate points (5.1.1, 6.4.2). Raises
    ``no_ability``, ``bad_input``, then the refusal of ``ability_refusal``
    (``passive_ability``, ``possessed``, ``ability_used``, ``no_shot_now``, ``not_ranged``,
    ``not_enough_fate``)."""
    p = own_piece(d, data)
    listed = p.get("abilities") or []
    d.require(bool(listed), "no_ability", f"{p['name']} has no personal ability.")
    index = num(data, "ability", None, 0, len(listed) - 1)
    refusal = ability_refusal(d.state, p, index)
    if refusal is not None:
        raise refusal
    d.emit(
        "demloc.ability.used",
        {
            "piece": p["id"],
            "ability": index,
            "fate": listed[index]["fate_cost"],
            "seat": p["owner"],
            # The phase it is used in (once per phase; ``extra_shot_dice``).
            "phase": activation.phase_key(d.state),
        },
    )


def _used_text(s: DemlocState, data: dict) -> str:
    p = s["pieces"].get(data["piece"]) or {}
    listed = p.get("abilities") or []
    name = listed[data["ability"]]["name"] if data["ability"] < len(listed) else "an ability"
    return f"{p.get('name', '?')} uses {name} ({counted(data['fate'], 'fate point')})."


@abilities.evolver("demloc.ability.used", label="used an ability")
def ability_used(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    ability = p["abilities"][d["ability"]]
    owner = player(s, d["seat"])
    owner["fate"] -= d["fate"]
    key, phase = str(d["ability"]), d.get("phase")
    if phase:  # an event stored before the once-per-phase rule marks nothing
        used = p.setdefault("abilities_used", {})
        if used.get(key) == phase:  # used again in its phase (option ``ability_uses``: free)
            again = p.setdefault("abilities_again", {})
            before = again[key][1] if key in again and again[key][0] == phase else 0
            again[key] = [phase, before + 1]
        else:
            used[key] = phase
    say(f"{_used_text(s, d)} {owner['name']} has {counted(owner['fate'], 'fate point')} left.")
    if ability.get("feature") == "FURY":
        p["fury"] = FURY_TURNS
        say(f"{p['name']}: FURY active for {FURY_TURNS} turns (8.4).")
    elif ability.get("text"):
        say(f"{ability['name']}: {ability['text']}")
    if shot_dice_of(ability):
        say(f"{p['name']} shoots with {counted(extra_shot_dice(s, p), 'extra fighting die', 'extra fighting dice')} this phase.")


@abilities.narrator("demloc.ability.used")
def say_ability_used(e: EventRecord, s: DemlocState) -> str:
    return _used_text(s, e.data)


__all__ = [
    "FURY_TURNS",
    "POSSESSED_BLOCK",
    "abilities",
    "ability_refusal",
    "ability_view",
    "extra_shot_dice",
    "once_per_phase",
    "piece_name",
    "shot_dice_of",
    "uses_this_phase",
]

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
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, say
from tabletop.rules import EventRecord, counted

from .common import not_possessed, num, own_piece, piece_name, play_command, player
from .state import DemlocState

abilities = Topic("abilities")

#: Why a possessed character's activated ability is not offered (7.2.3, Details about daemon
#: possessed effect: "A daemon possessed character cannot perform any other actions").
POSSESSED_BLOCK = "not while possessed: a possessed character acts no more (7.2.3)"

#: 8.4 FURY lasts two turns (the same effect as ``demloc.effect.set`` with FURY on).
FURY_TURNS = 2


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
        out.append(
            {
                **a,
                "index": i,
                "activated": activated,
                "can_pay": activated and fate >= a["fate_cost"],
                "blocked": POSSESSED_BLOCK if activated and p.get("possessed") else "",
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
    ``no_ability``, ``bad_input``, ``passive_ability``, ``possessed``, ``not_enough_fate``."""
    p = own_piece(d, data)
    listed = p.get("abilities") or []
    d.require(bool(listed), "no_ability", f"{p['name']} has no personal ability.")
    index = num(data, "ability", None, 0, len(listed) - 1)
    ability = listed[index]
    d.require(
        ability["activation"] == "activated",
        "passive_ability",
        f"{ability['name']} is passive: it needs no activation (5.1.1).",
    )
    not_possessed(p)
    fate = player(d.state, p["owner"])["fate"]
    d.require(
        fate >= ability["fate_cost"],
        "not_enough_fate",
        f"{ability['name']} costs {counted(ability['fate_cost'], 'fate point')}; {fate} left (6.4.2).",
    )
    d.emit(
        "demloc.ability.used",
        {
            "piece": p["id"],
            "ability": index,
            "fate": ability["fate_cost"],
            "seat": p["owner"],
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
    say(f"{_used_text(s, d)} {owner['name']} has {counted(owner['fate'], 'fate point')} left.")
    if ability.get("feature") == "FURY":
        p["fury"] = FURY_TURNS
        say(f"{p['name']}: FURY active for {FURY_TURNS} turns (8.4).")
    elif ability.get("text"):
        say(f"{ability['name']}: {ability['text']}")


@abilities.narrator("demloc.ability.used")
def say_ability_used(e: EventRecord, s: DemlocState) -> str:
    return _used_text(s, e.data)


__all__ = ["FURY_TURNS", "POSSESSED_BLOCK", "abilities", "ability_view", "piece_name"]

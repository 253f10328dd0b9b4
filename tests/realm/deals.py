"""Scripted deals for Realm rule tests: a table whose opening event holds chosen hands, deck top,
demons and options, played through the kit's one pure driver ``tabletop.testing.Sim`` (the
same ``tabletop.log.step`` as ``run_command``). Only the shuffle is replaced; every command,
fold and undo is the real one."""

from __future__ import annotations

import json

from tabletop.decider import Decision
from tabletop.realm.content import demo_content
from tabletop.realm.rules import OPENED, RealmRuleset
from tabletop.realm.rules import cards as C
from tabletop.realm.rules.prelude import maybe_begin
from tabletop.testing import Sim
from tests.kit import sim_table

R = RealmRuleset()
CONTENT = demo_content()
DEMONS = {d["id"]: d for d in CONTENT["demons"]}


def demon_with(corners, id="t01", curse="Nothing happens.", effects=(), lasting=False, **kw):
    """A test demon with the given corners and curse effects."""
    return dict(
        id=id,
        name=kw.get("name", f"Test {id}"),
        title="Tester",
        lore="Lore.",
        curse=curse,
        lasting=lasting,
        corners=list(corners),
        effects=list(effects),
    )


class _Dealt(RealmRuleset):
    """Realm whose setup deals ``opening`` instead of shuffling (rulebook "Setup" otherwise)."""

    def __init__(self, opening: dict) -> None:
        self.opening = opening

    def setup(self, options, seats, rng, content=None):
        d = Decision(self, self.initial_state(), None, rng)
        d.emit(OPENED, json.loads(json.dumps(self.opening)), final=True)
        maybe_begin(d)
        return d.events


def deal(
    hands,
    deck_top=(),
    active="d04",
    personal=None,
    demons=(),
    first=0,
    pacts="acolyte-a",
    afflictions="off",
    auto_pass="off",
    below=None,
    seed=7,
    names=None,
    pact_slots=None,
    affliction_deck=None,
    affliction_drawer=None,
    deck_size=None,
    vessels=None,
) -> Sim:
    """A started ``Sim`` whose opening holds ``hands`` (card ids per seat), ``deck_top`` (then
    the rest of the 54 in sorted order; ``deck_size`` cuts the deck, the rest is the discard
    pile), the ``active`` and ``personal`` demons, ``below`` the Portal, extra ``demons``; the
    options ``pacts``, ``afflictions``, ``auto_pass``."""
    n = len(hands)
    all_demons = dict(DEMONS)
    for d in demons:
        all_demons[d["id"]] = d
    personal = personal or ["d05", "d06", "d07", "d08"][:n]
    used = {c for h in hands for c in h} | set(deck_top)
    rest = [c for c in sorted(C.RITUAL_DECK) if c not in used]
    vessels_out = [c for c in used if C.is_vessel(c)]
    deck = list(deck_top) + [c for c in rest if not C.is_vessel(c)]
    discard = []
    if deck_size is not None:
        deck, discard = deck[:deck_size], deck[deck_size:]
    if below is None:
        below = [d for d in sorted(all_demons) if d != active and d not in personal]
    pacts_content = {p["id"]: p for p in CONTENT["pacts"]}
    if pacts != "secret":
        pacts_content = {pacts: pacts_content[pacts]}
    else:
        pacts_content = {k: v for k, v in pacts_content.items() if not v["acolyte"]}
    affl = {a["id"]: a for a in CONTENT["afflictions"]} if afflictions == "on" else {}
    if afflictions == "on" and affliction_drawer is None:
        affliction_drawer = 0
    options = {"pacts": pacts, "afflictions": afflictions, "auto_pass": auto_pass, "affliction_demons": "keep"}
    opening = {
        "names": names or ["Ann", "Bob", "Cat", "Dan"][:n],
        "options": options,
        "content": {"demons": all_demons, "pacts": pacts_content, "afflictions": affl},
        "active": active,
        "demon_deck": below,
        "personal": personal,
        "deck": deck,
        "discard": discard,
        "hands": [list(h) for h in hands],
        "vessels": vessels if vessels is not None else [v for v in C.VESSELS if v not in vessels_out],
        "first": first,
        "acolyte": None if pacts == "secret" else pacts,
        "pact_slots": pact_slots if pact_slots is not None else (sorted(pacts_content) if pacts == "secret" else []),
        "affliction_deck": affliction_deck if affliction_deck is not None else sorted(affl),
        "affliction_drawer": affliction_drawer if afflictions == "on" else None,
    }
    return Sim(_Dealt(opening), names or ["Ann", "Bob", "Cat", "Dan"][:n], options=options, seed=seed)


def refused(sim: Sim, seat, type_: str, data: dict | None = None) -> str | None:
    """The error code of a refused command (None when it landed); a refused command must leave
    the table unchanged (asserted)."""
    before = sim_table(sim)
    code = sim.try_send(seat, type_, data)
    if code is not None:
        assert sim_table(sim) == before, f"the refused {type_} ({code}) changed the table"
    return code


def hand(sim: Sim, seat: int) -> list[str]:
    return sim.state["players"][seat]["hand"]


def end(sim: Sim, seat: int, discard=()) -> None:
    """Reset and end ``seat``'s turn discarding ``discard`` (rulebook "Step 3 - End Your Turn")."""
    sim.send(seat, "realm.turn.end", {"discard": list(discard)})

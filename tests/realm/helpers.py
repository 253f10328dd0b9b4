"""A scripted Realm table for rule tests (no database): a hand-built opening event, commands
through ``decide``, and a check that the folded log equals the incremental state."""

from __future__ import annotations

import pytest

from tabletop.dice import make_dice
from tabletop.errors import RuleViolation
from tabletop.realm import cards as C
from tabletop.realm.content import demo_content
from tabletop.realm.rules import OPENED, RealmRuleset
from tabletop.rules import Command, EventRecord

R = RealmRuleset()
DEMONS = {d["id"]: d for d in demo_content()["demons"]}


def demon_with(corners, id="t01", curse="Nothing happens.", effects=(), lasting=False, **kw):
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


class Game:
    """A table opened with chosen hands, deck top, demons and options.

    ``hands``: list of hands (card ids) per seat; ``deck_top``: cards on top of the Ritual Deck
    (the rest of the 54 follow in sorted order); ``active``/``personal``: demon ids; extra test
    demons via ``demons``; ``first``: the first player; ``pacts``, ``afflictions``, ``auto_pass``:
    the table options."""

    def __init__(
        self,
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
    ):
        n = len(hands)
        content = demo_content()
        all_demons = {d["id"]: d for d in content["demons"]}
        for d in demons:
            all_demons[d["id"]] = d
        personal = personal or ["d05", "d06", "d07", "d08"][:n]
        used = {c for h in hands for c in h} | set(deck_top)
        rest = [c for c in sorted(C.RITUAL_DECK) if c not in used]
        vessels_out = [c for c in used if C.is_vessel(c)]
        deck = [c for c in deck_top] + [c for c in rest if not C.is_vessel(c)]
        discard = []
        if deck_size is not None:
            deck, discard = deck[:deck_size], deck[deck_size:]
        if below is None:
            below = [d for d in sorted(all_demons) if d != active and d not in personal]
        pacts_content = {p["id"]: p for p in content["pacts"]}
        if pacts != "secret":
            pacts_content = {pacts: pacts_content[pacts]}
        else:
            pacts_content = {k: v for k, v in pacts_content.items() if not v["acolyte"]}
        affl = {a["id"]: a for a in content["afflictions"]} if afflictions == "on" else {}
        data = {
            "names": names or ["Ann", "Bob", "Cat", "Dan"][:n],
            "options": {"pacts": pacts, "afflictions": afflictions, "auto_pass": auto_pass},
            "content": {"demons": all_demons, "pacts": pacts_content, "afflictions": affl},
            "active": active,
            "demon_deck": below,
            "personal": personal,
            "deck": deck,
            "discard": discard,
            "hands": [list(h) for h in hands],
            "vessels": [v for v in C.VESSELS if v not in vessels_out],
            "first": first,
            "acolyte": None if pacts == "secret" else pacts,
            "pact_slots": pact_slots
            if pact_slots is not None
            else (sorted(pacts_content) if pacts == "secret" else []),
            "affliction_deck": affliction_deck if affliction_deck is not None else sorted(affl),
            "affliction_drawer": affliction_drawer if afflictions == "on" else None,
        }
        if afflictions == "on" and affliction_drawer is None:
            data["affliction_drawer"] = 0
        self.rng = make_dice(seed)
        self.records: list[EventRecord] = []
        self.state = R.initial_state()
        self._append([(OPENED, data, True)])
        from tabletop.realm.rules import _Emitter

        em = _Emitter(R, self.state)
        R._maybe_begin(em, self.rng)
        self._append([(e.type, e.data, e.final) for e in em.events])

    def _append(self, events):
        for type_, data, _final in events:
            record = EventRecord(type_, data, data.get("seat"), len(self.records) + 1)
            self.records.append(record)
            self.state = R.evolve(self.state, record)

    def do(self, seat, type_, **data):
        """Run a command; return the list of new event types."""
        events = R.decide(self.state, Command(type_, data), seat, self.rng)
        self._append([(e.type, e.data, e.final) for e in events])
        return events

    def fails(self, seat, type_, code, **data):
        """Assert the command is refused with ``code`` and changes nothing."""
        before = self.state
        snapshot = repr(before)
        with pytest.raises(RuleViolation) as info:
            R.decide(self.state, Command(type_, data), seat, self.rng)
        assert info.value.code == code, info.value.message
        assert repr(self.state) == snapshot

    def hand(self, seat):
        return self.state["players"][seat]["hand"]

    def view(self, seat):
        return R.view(self.state, seat)

    def end(self, seat, discard=()):
        return self.do(seat, "realm.turn.end", discard=list(discard))

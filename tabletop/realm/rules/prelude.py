"""Opening the Realm and the prelude before the first turn: secret Pacts chosen face down and
Afflictions given (rulebook "Setup", "Pact Cards", "Afflictions")."""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord

from .common import name, seat_of
from .state import OPENED, RealmState
from .turns import start_turn

prelude = Topic("prelude")


@prelude.evolver(OPENED, label="opened the Realm")
def _opened(st: RealmState, event: EventRecord) -> None:
    d = event.data
    n = len(d["names"])
    opened: RealmState = {
        "n": n,
        "names": list(d["names"]),
        "options": dict(d["options"]),
        "content": d["content"],
        "active": d["active"],
        "demon_deck": list(d["demon_deck"]),
        "deck": list(d["deck"]),
        "discard": list(d.get("discard", [])),
        "vessels": list(d["vessels"]),
        "eaters": {},
        "players": [
            {
                "hand": list(d["hands"][k]),
                "personal": d["personal"][k],
                "bound": [],
                "pact": None,
                "affliction": None,
            }
            for k in range(n)
        ],
        "first": d["first"],
        "turn": None,
        "turn_no": 0,
        "phase": "prelude",
        "acted": False,
        "must_end": False,
        "ritual": None,
        "take": None,
        "glimpse": [None] * n,
        "acolyte": d["acolyte"],
        "pact_slots": list(d["pact_slots"]),
        "afflictions": {
            "deck": list(d["affliction_deck"][2:]),
            "drawer": d["affliction_drawer"],
            "offer": list(d["affliction_deck"][:2]) if d["affliction_drawer"] is not None else [],
        },
        "winner": None,
        "last_curse": None,
    }
    st.update(opened)


@prelude.narrator(OPENED)
def _say_opened(event: EventRecord, st: RealmState) -> str:
    return f"The Realm opens for {len(event.data['names'])} players."


def maybe_begin(d: Decision) -> None:
    """Start the first turn once every Pact is chosen and every Affliction given."""
    st = d.state
    if st["phase"] != "prelude":
        return
    if any(p["pact"] is None for p in st["players"]) and st["acolyte"] is None:
        return
    if st["afflictions"]["drawer"] is not None:
        return
    start_turn(d, st["first"])


@prelude.command("realm.pact.choose", reveals=True)
def choose_pact(d: Decision, data: Data) -> None:
    """``{"slot": i}``: take the i-th face-down Pact card (secret Pacts, rulebook "Pact
    Cards"). Codes ``not_now``, ``already_chosen``, ``bad_slot``."""
    seat = seat_of(d)
    st = d.state
    d.require(st["phase"] == "prelude" and st["acolyte"] is None, "not_now", "No Pact to pick.")
    d.require(st["players"][seat]["pact"] is None, "already_chosen", "You have your Pact.")
    slot = data.int("slot", lo=0, hi=len(st["pact_slots"]) - 1, code="bad_slot", message="Pick a card.")
    d.emit("realm.pact.chosen", {"seat": seat, "pact": st["pact_slots"][slot]}, final=True)
    maybe_begin(d)


@prelude.evolver("realm.pact.chosen", label="chose a Pact")
def _pact_chosen(st: RealmState, event: EventRecord) -> None:
    st["pact_slots"].remove(event.data["pact"])
    st["players"][event.data["seat"]]["pact"] = event.data["pact"]


@prelude.narrator("realm.pact.chosen")
def _say_pact_chosen(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} chose a Pact."


@prelude.command("realm.affliction.give", reveals=True)
def give_affliction(d: Decision, data: Data) -> None:
    """``{"card": id, "to": seat}``: give one of the two drawn Affliction cards to another
    player without one; the other is discarded (rulebook "Afflictions"). Codes ``not_now``,
    ``bad_card``, ``bad_target``."""
    seat = seat_of(d)
    st = d.state
    aff = st["afflictions"]
    d.require(st["phase"] == "prelude" and aff["drawer"] == seat, "not_now", "Not your draw.")
    card = data.get("card")
    d.require(isinstance(card, str) and card in aff["offer"], "bad_card", "Give one of the two you drew.")
    message = "Give it to another player who has no Affliction."
    to = data.seat("to", players=st["n"], code="bad_target", message=message)
    d.require(to != seat and st["players"][to]["affliction"] is None, "bad_target", message)
    other = [a for a in aff["offer"] if a != card]
    d.emit("realm.affliction.given", {"seat": seat, "to": to, "card": card, "discarded": other}, final=True)
    maybe_begin(d)


@prelude.evolver("realm.affliction.given", label="gave an Affliction")
def _affliction_given(st: RealmState, event: EventRecord) -> None:
    d = event.data
    aff = st["afflictions"]
    st["players"][d["to"]]["affliction"] = d["card"]
    aff["offer"] = []
    if any(p["affliction"] is None for p in st["players"]):
        aff["drawer"] = d["to"]
        aff["offer"], aff["deck"] = aff["deck"][:2], aff["deck"][2:]
    else:
        aff["drawer"] = None


@prelude.narrator("realm.affliction.given")
def _say_affliction_given(event: EventRecord, st: RealmState) -> str:
    d = event.data
    card = st["content"]["afflictions"][d["card"]]["name"]
    return f"{name(st, d['seat'])} gave {card} to {name(st, d['to'])}."

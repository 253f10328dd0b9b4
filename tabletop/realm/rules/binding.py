"""Binding a Demon: the ritual, its disruption (exorcising a Vessel, Eaters) and the curse that
follows (rulebook "Binding a Demon", "Performing the Binding Ritual", "Aces", "Vessels",
"Disrupting a Binding", "Curses"; FAQ "Curse Combinations").

Where a binding is checked: ``bind`` (the cards against the four corners, with the binder's
curses, ``cards.solve_binding``). The disruption steps run clockwise from the binder's left:
``exorcise`` (only with a Vessel), then ``eater`` (each opponent in turn, ``feed`` after each
Eater), then the demon is ``bound``. A card a curse bans cannot be played in any of them.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic
from tabletop.rules import EventRecord, counted

from . import cards as C
from .common import (
    acting,
    effects,
    feedable,
    hand_card,
    hand_cards,
    name,
    phase_message,
    playable,
    require_playable,
    ritual_of,
    seat_of,
    slot_of,
)
from .deck import draw, from_hand, to_discard
from .state import RealmState

binding = Topic("binding")


def _declarations(data: Data, cards: list[str]) -> dict:
    """The Vessel (and Ace) declarations: ``data["declare"]`` ``{card: {"suit", "rank"}}`` plus
    the form fields ``vs:<vessel>`` / ``vr:<vessel>``. Codes ``bad_declaration``,
    ``vessel_undeclared``."""
    declare = data.get("declare") or {}
    Decision.require(isinstance(declare, dict), "bad_declaration", "Bad declaration.")
    declare = {k: (dict(v) if isinstance(v, dict) else v) for k, v in declare.items()}
    for key, value in data.raw.items():
        if isinstance(key, str) and key[:3] in ("vs:", "vr:") and value not in ("", None):
            entry = declare.setdefault(key[3:], {})
            Decision.require(isinstance(entry, dict), "bad_declaration", "Bad declaration.")
            entry["suit" if key[:3] == "vs:" else "rank"] = str(value)
    return C.check_declarations(cards, declare)


@binding.command("realm.demon.bind", reveals=True)
def bind(d: Decision, data: Data) -> None:
    """``{"target": "active"|"personal", "cards": [ids], "declare": {vessel: {"suit",
    "rank"}, ace: {"rank"}}}``: reveal a binding ritual. The cards must meet all four corners
    (``cards.solve_binding``, with the binder's curses); no Eater may be attached. Then the
    disruption steps run (rulebook "Disrupting a Binding"). Codes ``bad_target``, ``no_demon``,
    ``eater_attached``, ``ritual_fails``, ``vessel_undeclared``, ``bad_declaration``."""
    st, seat = d.state, seat_of(d)
    acting(st, seat)
    target = data.choice("target", ("active", "personal"), code="bad_target", message="Bind the Active or your Demon.")
    slot = "active" if target == "active" else slot_of(seat)
    demon = st["active"] if target == "active" else st["players"][seat]["personal"]
    d.require(demon is not None, "no_demon", "There is no Demon there to bind.")
    d.require(not st["eaters"].get(slot), "eater_attached", "An Eater is attached to this Demon: feed it first.")
    cards = hand_cards(st, seat, data, "cards")
    d.require(1 <= len(cards) <= 4, "ritual_fails", "Play 1 to 4 cards that meet the corners.")
    declared = _declarations(data, cards)
    corners = st["content"]["demons"][demon]["corners"]
    curses = effects(st, seat)
    assignment = C.solve_binding(corners, cards, declared, curses)
    d.require(
        assignment is not None,
        "ritual_fails",
        C.explain_failure(corners, cards, declared, curses) + (" Your curses apply." if curses else ""),
    )
    d.emit(
        "realm.ritual.begun",
        {"seat": seat, "slot": slot, "demon": demon, "cards": cards, "declared": declared, "assignment": assignment},
    )
    advance(d)


@binding.evolver("realm.ritual.begun", label="began a binding ritual")
def _begun(st: RealmState, event: EventRecord) -> None:
    d = event.data
    from_hand(st, d["seat"], d["cards"])
    has_vessel = any(C.is_vessel(c) for c in d["cards"])
    st["ritual"] = {
        "binder": d["seat"],
        "slot": d["slot"],
        "demon": d["demon"],
        "cards": list(d["cards"]),
        "declared": d["declared"],
        "assignment": d["assignment"],
        "step": "exorcise" if has_vessel else "eater",
        "responder": (d["seat"] + 1) % st["n"],
        "eater": None,
    }
    st.update({"phase": "ritual", "acted": True})


@binding.narrator("realm.ritual.begun")
def _say_begun(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} began a binding ritual with {counted(len(event.data['cards']), 'card')}."


def exorcisers(st: RealmState, seat: int) -> list[tuple[str, str]]:
    """``(vessel, card)`` pairs ``seat`` may exorcise with now: a card of ``seat``'s hand whose
    printed rank is a Vessel's declared rank, not banned by ``seat``'s curses (rulebook
    "Exorcising a Vessel")."""
    ritual = st["ritual"]
    if ritual is None:
        return []
    return [
        (v, c)
        for v, decl in ritual["declared"].items()
        if C.is_vessel(v)
        for c in st["players"][seat]["hand"]
        if C.printed(c)[1] == decl["rank"] and playable(st, seat, c)
    ]


def eaters_in_hand(st: RealmState, seat: int) -> list[str]:
    """The Eaters ``seat`` may play (printed rank E, not banned by its curses)."""
    return [c for c in st["players"][seat]["hand"] if C.printed(c)[1] == "E" and playable(st, seat, c)]


def _usable(st: RealmState, seat: int) -> bool:
    """Whether ``seat`` holds a card for the current disruption step (for ``auto_pass``)."""
    if ritual_of(st)["step"] == "exorcise":
        return bool(exorcisers(st, seat))
    return bool(eaters_in_hand(st, seat))


def advance(d: Decision) -> None:
    """Run the automatic parts of a ritual: skipped prompts (``auto_pass``), a binder who
    cannot feed, and the binding itself once every opponent passed."""
    while True:
        st = d.state
        ritual = st["ritual"]
        if ritual is None:
            return
        if ritual["step"] == "bound":
            _bind(d)
            return
        if ritual["step"] == "feed":
            if not feedable(st, ritual["binder"], ritual["eater"]):
                d.emit("realm.ritual.disrupted", {"seat": ritual["binder"], "eater": ritual["eater"], "auto": True})
            return
        if st["options"].get("auto_pass") == "on" and not _usable(st, ritual["responder"]):
            d.emit("realm.ritual.passed", {"seat": ritual["responder"], "step": ritual["step"], "auto": True})
            continue
        return


def _bind(d: Decision) -> None:
    """The demon is bound; a one-time curse takes effect at once (rulebook "Curses")."""
    st = d.state
    ritual = ritual_of(st)
    seat = ritual["binder"]
    demon = st["content"]["demons"][ritual["demon"]]
    d.emit(
        "realm.demon.bound",
        {
            "seat": seat,
            "slot": ritual["slot"],
            "demon": ritual["demon"],
            "cards": ritual["cards"],
            "personal": ritual["slot"] == slot_of(seat),
        },
        final=True,
    )
    if demon.get("lasting"):
        return
    n = st["n"]
    for effect in demon.get("effects", []):
        op = effect["op"]
        if op == "draw":
            draw(d, seat, effect["count"], "curse")
        elif op == "opponents_draw":
            for k in range(1, n):
                draw(d, (seat + k) % n, effect["count"], "curse")
        elif op == "discard_random":
            hand = d.state["players"][seat]["hand"]
            lost = d.rng.sample(hand, min(effect["count"], len(hand))) if hand else []
            if lost:
                d.emit("realm.cards.discarded", {"seat": seat, "cards": lost, "why": "curse"})
        elif op == "return_vessels":
            vessels = [c for c in d.state["players"][seat]["hand"] if C.is_vessel(c)]
            if vessels:
                d.emit("realm.cards.discarded", {"seat": seat, "cards": vessels, "why": "curse"})


@binding.evolver("realm.demon.bound", label="saw a Demon bound")
def _bound(st: RealmState, event: EventRecord) -> None:
    d = event.data
    seat = d["seat"]
    to_discard(st, d["cards"])
    st["players"][seat]["bound"].append({"demon": d["demon"], "personal": d["personal"]})
    if d["slot"] == "active":
        st["active"] = None
    else:
        st["players"][int(d["slot"][1:])]["personal"] = None
    st["ritual"] = None
    st["phase"] = "act"
    demon = st["content"]["demons"][d["demon"]]
    st["last_curse"] = {
        "seat": seat,
        "name": demon["name"],
        "curse": demon["curse"],
        "lasting": demon.get("lasting", False),
    }


@binding.narrator("realm.demon.bound")
def _say_bound(event: EventRecord, st: RealmState) -> str:
    demon = st["content"]["demons"][event.data["demon"]]
    return f'{name(st, event.data["seat"])} bound {demon["name"]}: "{demon["curse"]}"'


def _responder(st: RealmState, seat: int | None, step: str) -> None:
    Decision.require(st["phase"] == "ritual", "not_now", "No ritual is being performed.")
    Decision.require(ritual_of(st)["step"] == step, "not_now", phase_message(st))
    Decision.require(ritual_of(st)["responder"] == seat, "not_your_prompt", "Another player must answer.")


@binding.command("realm.ritual.pass", reveals=True)
def pass_(d: Decision, data: Data) -> None:
    """``{}``: the prompted opponent lets the ritual proceed (no exorcism / no Eater)."""
    seat = seat_of(d)
    st = d.state
    d.require(st["phase"] == "ritual", "not_now", "No ritual is being performed.")
    step = ritual_of(st)["step"]
    d.require(step in ("exorcise", "eater"), "not_now", phase_message(st))
    _responder(st, seat, step)
    d.emit("realm.ritual.passed", {"seat": seat, "step": step, "auto": False})
    advance(d)


@binding.evolver("realm.ritual.passed", label="let the ritual proceed")
def _passed(st: RealmState, event: EventRecord) -> None:
    r = ritual_of(st)
    if r["step"] == "exorcise":
        r["step"] = "eater"
        r["responder"] = (r["binder"] + 1) % st["n"]
    else:
        assert r["responder"] is not None  # the Eater step always waits on someone
        nxt = (r["responder"] + 1) % st["n"]
        if nxt == r["binder"]:
            r["step"], r["responder"] = "bound", None
        else:
            r["responder"] = nxt


@binding.narrator("realm.ritual.passed")
def _say_passed(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} passed."


@binding.command("realm.ritual.exorcise", reveals=True)
def exorcise(d: Decision, data: Data) -> None:
    """``{"vessel": id, "card": id}``: the player on the binder's left exorcises one Vessel
    with a card whose printed rank is the Vessel's declared rank: the ritual fails, the
    Vessel returns to its stack, the other cards to the binder's hand, whose turn ends
    (rulebook "Exorcising a Vessel"). Codes ``bad_vessel``, ``rank_mismatch``,
    ``card_banned``."""
    seat = seat_of(d)
    st = d.state
    _responder(st, seat, "exorcise")
    ritual = ritual_of(st)
    vessel = data.get("vessel")
    d.require(
        isinstance(vessel, str) and vessel in ritual["declared"] and C.is_vessel(vessel),
        "bad_vessel",
        "Choose a Vessel of this ritual.",
    )
    card = hand_card(st, seat, data)
    rank = ritual["declared"][vessel]["rank"]
    d.require(C.printed(card)[1] == rank, "rank_mismatch", f"Exorcise it with a {rank} from your hand.")
    require_playable(st, seat, [card])
    d.emit("realm.vessel.exorcised", {"seat": seat, "binder": ritual["binder"], "vessel": vessel, "card": card})


def _end_ritual(st: RealmState, back_to_hand: list[str]) -> None:
    r = ritual_of(st)
    st["players"][r["binder"]]["hand"] += back_to_hand
    st.update({"ritual": None, "phase": "act", "must_end": True})


@binding.evolver("realm.vessel.exorcised", label="exorcised a Vessel")
def _exorcised(st: RealmState, event: EventRecord) -> None:
    d = event.data
    r = ritual_of(st)
    from_hand(st, d["seat"], [d["card"]])
    st["discard"].append(d["card"])
    st["vessels"].append(d["vessel"])
    _end_ritual(st, [c for c in r["cards"] if c != d["vessel"]])


@binding.narrator("realm.vessel.exorcised")
def _say_exorcised(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} exorcised a Vessel: the ritual fails."


@binding.command("realm.ritual.eater", reveals=True)
def play_eater(d: Decision, data: Data) -> None:
    """``{"card": id}``: the prompted opponent plays an Eater onto the demon being bound;
    the binder must feed it at once (rulebook "Eater Disruption"). Codes ``not_eater``,
    ``card_banned``."""
    seat = seat_of(d)
    st = d.state
    _responder(st, seat, "eater")
    card = hand_card(st, seat, data)
    d.require(C.printed(card)[1] == "E", "not_eater", "Play an Eater.")
    require_playable(st, seat, [card])
    d.emit("realm.ritual.eater_played", {"seat": seat, "card": card})
    advance(d)


@binding.evolver("realm.ritual.eater_played", label="played an Eater on the ritual")
def _eater_played(st: RealmState, event: EventRecord) -> None:
    from_hand(st, event.data["seat"], [event.data["card"]])
    ritual_of(st).update({"step": "feed", "eater": event.data["card"]})


@binding.narrator("realm.ritual.eater_played")
def _say_eater_played(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} played the {C.card_label(event.data['card'])} on the ritual."


def _feeding(st: RealmState, seat: int | None) -> None:
    Decision.require(st["phase"] == "ritual" and ritual_of(st)["step"] == "feed", "not_now", phase_message(st))
    Decision.require(ritual_of(st)["binder"] == seat, "not_your_prompt", "Only the binder feeds.")


@binding.command("realm.ritual.feed", reveals=True)
def feed(d: Decision, data: Data) -> None:
    """``{"card": id}``: the binder feeds the Eater a Ritual Card of its suit; the same
    opponent may then play another Eater (rulebook "Eater Disruption"). Codes
    ``suit_mismatch``, ``card_banned``."""
    seat = seat_of(d)
    st = d.state
    _feeding(st, seat)
    eater = ritual_of(st)["eater"]
    assert eater is not None  # the feed step waits on an Eater
    card = hand_card(st, seat, data)
    d.require(C.printed(card)[0] == C.printed(eater)[0], "suit_mismatch", "Feed the Eater a card of its suit.")
    require_playable(st, seat, [card])
    d.emit("realm.ritual.fed", {"seat": seat, "eater": eater, "card": card})
    advance(d)


@binding.evolver("realm.ritual.fed", label="fed the Eater")
def _fed(st: RealmState, event: EventRecord) -> None:
    r = ritual_of(st)
    from_hand(st, event.data["seat"], [event.data["card"]])
    st["discard"] += [event.data["eater"], event.data["card"]]
    r.update({"step": "eater", "eater": None})


@binding.narrator("realm.ritual.fed")
def _say_fed(event: EventRecord, st: RealmState) -> str:
    return f"{name(st, event.data['seat'])} fed the Eater."


@binding.command("realm.ritual.yield", reveals=True)
def give_up(d: Decision, data: Data) -> None:
    """``{}``: the binder does not feed the Eater: the binding is disrupted, the Eater stays
    on the demon, the ritual cards return to hand and the turn ends."""
    seat = seat_of(d)
    _feeding(d.state, seat)
    d.emit("realm.ritual.disrupted", {"seat": seat, "eater": d.state["ritual"]["eater"], "auto": False})


@binding.evolver("realm.ritual.disrupted", label="saw the binding disrupted")
def _disrupted(st: RealmState, event: EventRecord) -> None:
    r = ritual_of(st)
    st["eaters"].setdefault(r["slot"], []).append(event.data["eater"])
    _end_ritual(st, list(r["cards"]))


@binding.narrator("realm.ritual.disrupted")
def _say_disrupted(event: EventRecord, st: RealmState) -> str:
    return f"The Eater disrupted {name(st, event.data['seat'])}'s binding."

"""Personal Demons as a Ruleset: setup A-L, the summoning phase in unison, bonus actions,
scoring, end phase, solo meditation (Personal Demons rulebook).

State is one JSON-able dict (see ``initial_state``). ``decide`` works on a scratch copy: each
event it emits is folded into the copy at once (``_Turn.emit``), so later rules see its effect,
and the list of events is what the kit stores. ``evolve`` only applies facts; every outcome
(cards drawn, seals formed, points) is written in the events.

Choices where the rulebook is silent (documented here and in the docstrings below):

- The Leader (step L) is drawn at random by the app.
- A card left face down on top of other cards removes the seals touching it, like a revealed
  one, so the FAQ's "replace the seal on the back of the original face-down card" works.
- The seals touching any newly placed card are removed and the sigils re-checked, also when it
  went into an empty space (the sigil there changed).
- Facing a Fear removes the seals that touched it, then sigils are re-checked.
- Cards summoned as a bonus action do not give sin (the Sin step counts the card placed in the
  Place step).
- A card drawn from the Royal deck obeys its requirements; if it has no legal place it is
  discarded (``pd.drawn.discard``).
- Courage type scoring counts the face-up cards on top of the circle; Knights score wherever
  they are in the circle ("always score all of your Knights").
- Abyss, Inferno, Limbo and Pan-Demonium count as seals for requirements and Fears.
- The bonus step runs in order from the Leader; a player who declined may still act while no
  later player has acted.
"""

from __future__ import annotations

from collections import Counter

from tabletop.errors import RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo

from . import board as B
from . import physical
from .content import SINS, build_catalog, default_geometry, demo_cards

PROMPTS = {
    "setup": "Place your Fear and keep two of your four Personal Demons.",
    "place": "Pick a card and place it face down in your circle.",
    "reveal": "Reveal your card, or leave it face down with a cracked seal and one sin.",
    "bonus": "Anyone for ONE bonus action? Leader first, then clockwise.",
    "end": "End phase: Knights and Fragments go, take Courage, keep three.",
    "over": "The ritual is over. Everyone wins in therapy.",
}
DIFFICULTIES = {"angelic": 3, "human": 2, "devilish": 1}
RATINGS = (
    (75, "Lacking focus"),
    (100, "Fine"),
    (125, "Good"),
    (150, "Great"),
    (175, "Amazing"),
    (201, "God-like"),
)
BONUS_COST = {"fragment": 2, "royal": 4, "personal": 6}


def solo_rating(score: int) -> str:
    """The solo meditation rating (rulebook "Final scores"). The table's ranges share their
    ends; read as: below 75, 75-99, 100-124, 125-149, 150-174, 175-200, above 200; exactly 66 is
    "Demonic"."""
    if score == 66:
        return "Demonic"
    for limit, label in RATINGS:
        if score < limit:
            return label
    return "Surely impossible?"


def new_player(name: str) -> dict:
    """A player before setup: empty circle, sins 0, score 0 (rulebook "Setup" D-F)."""
    return {
        "name": name,
        "hand": [],
        "candidates": [],
        "personal": [],
        "courage": [],
        "board": B.empty_board(),
        "sins": {s: 0 for s in SINS},
        "score": 0,
        "setup_done": False,
        "placed": None,
        "reveal": None,
        "bonus": None,
        "drawn": None,
        "keeper": None,
        "scoring": [],
    }


class _Turn:
    """A scratch copy of the state plus the events emitted so far (used by ``decide``)."""

    def __init__(self, ruleset: PersonalDemonsRuleset, state: dict, rng) -> None:
        self.rs = ruleset
        self.state = state
        self.rng = rng
        self.events: list[NewEvent] = []

    def emit(self, type_: str, data: dict, final: bool = False) -> None:
        event = NewEvent(type_, data, final)
        self.events.append(event)
        self.state = self.rs.evolve(self.state, EventRecord(type_, data, data.get("seat")))

    # -- shortcuts -------------------------------------------------------------------------
    @property
    def cards(self) -> dict:
        return self.state["catalog"]

    def player(self, seat: int) -> dict:
        return self.state["players"][seat]

    def draw(self, seat: int | None, deck: str, count: int = 1) -> list[str]:
        """Draw ``count`` cards from ``deck`` at random, reshuffling its discard pile in when the
        draw pile is empty (rulebook "Discarding"); fewer if both are empty. The caller emits
        the event that moves them."""
        drawn: list[str] = []
        for _ in range(count):
            pile = [c for c in self.state["decks"][deck] if c not in drawn]
            if not pile:
                if not self.state["discards"].get(deck):
                    break
                self.emit("pd.deck.reshuffled", {"deck": deck})
                pile = [c for c in self.state["decks"][deck] if c not in drawn]
                if not pile:
                    break
            drawn.append(self.rng.choice(sorted(pile)))
        return drawn


class PersonalDemonsRuleset(BaseRuleset):
    """Personal Demons for 1-4 players (solo meditation with one seat).

    ``content``: a callable returning the list of card dicts to play with (the demo set by
    default; the Django app passes the admin-edited cards). ``geometry``: a callable returning
    the circle geometry.
    """

    name = "personal_demons"
    title = "Personal Demons"
    min_seats = 1
    max_seats = 4
    template = "personal_demons/live.html"
    # Everyone places and chooses in unison: undo is each player's own (kit, undo_own_only).
    undo_own_only = True
    stylesheet = "personal_demons/personal_demons.css"
    #: Commands that show hidden cards (reveals, draws). Others may end a step and deal cards
    #: too; those events are final all the same, so undo stops at them.
    final_commands = frozenset(
        {"pd.card.reveal", "pd.bonus.fragment", "pd.bonus.royal", "pd.bonus.personal"}
    )
    options_schema = {
        "table": {
            "label": "Cards",
            "choices": [
                ["app", "On the phones: the app deals and referees"],
                ["physical", "Real cards: the app keeps cadence, sins, Courage, score"],
            ],
            "default": "app",
            "help": "With real cards each player lays out their own circle at the table.",
        },
        "difficulty": {
            "label": "Solo difficulty",
            "choices": [
                ["angelic", "Angelic (draw 3)"],
                ["human", "Human (draw 2)"],
                ["devilish", "Devilish (draw 1)"],
            ],
            "default": "human",
            "help": "Only for a game with one player (solo meditation).",
        },
        "advanced": {
            "label": "Advanced colossal cards",
            "choices": [["no", "Leave them out"], ["yes", "Include them"]],
            "default": "no",
            "help": "Colossal cards marked Advanced are not recommended for a first game.",
        },
    }
    event_labels = {
        "pd.game.started": "began the ritual",
        "pd.cards.dealt": "was dealt cards",
        "pd.setup.done": "placed a Fear and chose Personal Demons",
        "pd.step.changed": "moved the ritual on",
        "pd.card.placed": "placed a card face down",
        "pd.reveal.chosen": "is ready to reveal",
        "pd.card.revealed": "revealed a demon",
        "pd.card.kept_face_down": "left a card face down",
        "pd.seal.formed": "formed a seal",
        "pd.seal.removed": "lost seals under a new card",
        "pd.sin.changed": "changed sin",
        "pd.score.gained": "scored",
        "pd.bonus.declined": "declined a bonus action",
        "pd.fear.faced": "faced their Fear",
        "pd.card.drawn": "drew a card",
        "pd.drawn.placed": "placed a summoned card",
        "pd.drawn.discarded": "discarded a card with no place",
        "pd.personal.summoned": "summoned a Personal Demon",
        "pd.courage.taken": "took Courage",
        "pd.courage.discarded": "discarded Courage",
        "pd.deck.reshuffled": "reshuffled a discard pile",
        "pd.hands.passed": "passed hands clockwise",
        "pd.seal.scored": "scored a seal",
        "pd.cards.discarded": "discarded cards",
        "pd.keeper.kept": "chose what to keep",
        "pd.hand.discarded": "discarded the rest of the hand",
        "pd.game.ended": "ended the ritual",
        "pd.phys.started": "began the ritual with real cards",
        "pd.phys.readied": "is ready",
        "pd.phys.advanced": "moved the ritual on",
        "pd.phys.sin_set": "changed a sin gauge",
        "pd.phys.courage_set": "changed Courage",
        "pd.phys.seal_scored": "scored a seal",
        "pd.phys.points_added": "scored points",
        "pd.bonus.taken": "took a bonus action",
        "pd.keeper.pending": "may keep Knights and Fragments",
        "pd.round.scoring": "began the scoring phase",
    }

    def __init__(self, content=demo_cards, geometry=default_geometry) -> None:
        self._content = content
        self._geometry = geometry

    # -- setup -------------------------------------------------------------------------------
    def initial_state(self) -> dict:
        return {"phase": "new"}

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng) -> list[NewEvent]:
        """Setup A-L (rulebook "Setup"; solo: "Solo Meditation", A-J). Raises
        ``RuleViolation("bad_seats")`` outside 1-4 seats."""
        if not 1 <= len(seats) <= 4:
            raise RuleViolation("bad_seats", "Personal Demons is for 1 to 4 players.")
        options = {k: (options or {}).get(k, v["default"]) for k, v in self.options_schema.items()}
        if options["difficulty"] not in DIFFICULTIES:
            raise RuleViolation("bad_option", "Unknown difficulty.")
        if options["table"] == "physical":
            names = [s.name for s in sorted(seats, key=lambda s: s.number)]
            leader = rng.randbelow(len(seats)) if len(seats) > 1 else 0
            return [NewEvent("pd.phys.started", {"seats": names, "leader": leader})]
        cards = [
            c for c in self._content() if options["advanced"] == "yes" or not c.get("advanced")
        ]
        catalog = build_catalog(cards)
        turn = _Turn(self, self.initial_state(), rng)
        solo = len(seats) == 1
        turn.emit(
            "pd.game.started",
            {
                "catalog": catalog,
                "geometry": self._geometry(),
                "options": options,
                "seats": [s.name for s in sorted(seats, key=lambda s: s.number)],
                "solo": solo,
                "leader": 0 if solo else rng.randbelow(len(seats)),
            },
        )
        for seat in range(len(seats)):
            # G. Take Courage; H. Acknowledge Fears; J. Identify Personal Demons.
            turn.emit(
                "pd.cards.dealt",
                {"seat": seat, "to": "courage", "cards": turn.draw(seat, "courage")},
                True,
            )
            turn.emit(
                "pd.cards.dealt",
                {"seat": seat, "to": "fear", "cards": turn.draw(seat, "fear")},
                True,
            )
            big = turn.draw(seat, "hefty", 2) + turn.draw(seat, "colossal", 2)
            turn.emit("pd.cards.dealt", {"seat": seat, "to": "candidates", "cards": big}, True)
            if not solo:
                # K. Deal the Demons.
                turn.emit(
                    "pd.cards.dealt",
                    {"seat": seat, "to": "hand", "cards": turn.draw(seat, "round1", 6)},
                    True,
                )
        return turn.events

    # -- evolve ------------------------------------------------------------------------------
    def evolve(self, state: dict, event: EventRecord) -> dict:
        """Fold one event into a new state (the input is never mutated)."""
        if event.type.startswith("pd.phys."):
            if event.type == "pd.phys.started":
                return physical.started(event.data["seats"], event.data["leader"])
            new = _clone(state)
            physical.evolve(new, event.type, event.data)
            return new
        new = dict(state)
        if "players" in state:
            seat = event.data.get("seat")
            new["players"] = [
                _clone(p) if seat is None or i == seat else p
                for i, p in enumerate(state["players"])
            ]
            new["decks"] = {k: list(v) for k, v in state["decks"].items()}
            new["discards"] = {k: list(v) for k, v in state["discards"].items()}
            new["bonus_order"] = list(state["bonus_order"])
            new["winners"] = list(state["winners"])
        handler = _EVOLVERS.get(event.type)
        if handler is None:
            raise ValueError(f"unknown event {event.type}")
        handler(new, event.data)
        return new

    # -- decide ------------------------------------------------------------------------------
    def decide(self, state: dict, command: Command, seat: int | None, rng) -> list[NewEvent]:
        """Check ``command`` from ``seat`` and return its events; raises ``RuleViolation``."""
        if (
            seat is None
            or not isinstance(seat, int)
            or not 0 <= seat < len(state.get("players", []))
        ):
            raise RuleViolation("not_seated", "Only a player at the table can do that.")
        handler = _COMMANDS.get(command.type)
        if handler is None and state.get("mode") != "physical":
            raise RuleViolation("unknown_command", "Unknown command.")
        data = command.data if isinstance(command.data, dict) else {}
        if state.get("mode") == "physical":
            return [NewEvent(t, d) for t, d in physical.decide(state, command.type, seat, data)]
        turn = _Turn(self, state, rng)
        handler(turn, seat, data)
        _advance(turn)
        return turn.events

    def is_finished(self, state: dict) -> bool:
        """True once the third round is scored (rulebook "End of Game")."""
        return state.get("phase") == "over"

    # -- view --------------------------------------------------------------------------------
    def view(self, state: dict, seat: int | None) -> dict:
        """Everything ``seat`` may see (None: a spectator). Hands, face-down cards, Personal
        Demon candidates and kept cards, and unrevealed reveal choices of other seats never
        appear."""
        if state.get("mode") == "physical":
            return physical.view(state, seat)
        from .views import build_view

        return build_view(state, seat)


# ---------------------------------------------------------------------------------------------
# evolve handlers: each mutates the fresh copy ``s`` in place. ``evolve`` copies the acting
# seat's player (every player for an event without a seat), the decks and the discard piles;
# a handler touches nothing else (the catalog and the geometry are never changed).
# ---------------------------------------------------------------------------------------------
def _clone(value):
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than ``copy.deepcopy``."""
    if type(value) is dict:
        return {k: _clone(v) for k, v in value.items()}
    if type(value) is list:
        return [_clone(v) for v in value]
    return value


_EVOLVERS: dict = {}


def _on(type_: str):
    def register(fn):
        _EVOLVERS[type_] = fn
        return fn

    return register


@_on("pd.game.started")
def _ev_started(s: dict, d: dict) -> None:
    catalog = d["catalog"]
    s.clear()
    s.update(
        {
            "phase": "setup",
            "catalog": catalog,
            "geometry": d["geometry"],
            "options": d["options"],
            "solo": d["solo"],
            "leader": d["leader"],
            "round": 1,
            "turn": 0,
            "step": "setup",
            "bonus_order": [],
            "players": [new_player(name) for name in d["seats"]],
            "decks": {
                deck: sorted(cid for cid, c in catalog.items() if c["deck"] == deck)
                for deck in (
                    "round1",
                    "round2",
                    "round3",
                    "royal",
                    "fragment",
                    "fear",
                    "courage",
                    "hefty",
                    "colossal",
                )
            },
            "discards": {"royal": [], "fragment": [], "courage": []},
            "winners": [],
            "rating": None,
        }
    )


@_on("pd.cards.dealt")
def _ev_dealt(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    for cid in d["cards"]:
        deck = s["catalog"][cid]["deck"]
        s["decks"][deck].remove(cid)
    if d["to"] == "fear":
        p["fear_card"] = d["cards"][0] if d["cards"] else None
    else:
        p[d["to"]] = p[d["to"]] + d["cards"]


@_on("pd.deck.reshuffled")
def _ev_reshuffled(s: dict, d: dict) -> None:
    s["decks"][d["deck"]] = sorted(s["decks"][d["deck"]] + s["discards"][d["deck"]])
    s["discards"][d["deck"]] = []


@_on("pd.setup.done")
def _ev_setup_done(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    p["personal"] = list(d["keep"])
    p["candidates"] = []
    p["setup_done"] = True
    fear = p.pop("fear_card", None)
    if fear is not None:
        _put(p["board"], fear, "regular", [d["fear_space"]], None, True, fear=True)


def _put(board: dict, card: str, size: str, spaces, half, face_up: bool, fear: bool = False) -> str:
    pid = f"p{board['next']}"
    board["next"] += 1
    board["placements"].append(
        {
            "pid": pid,
            "card": card,
            "size": size,
            "spaces": [list(x) for x in spaces],
            "half": half,
            "face_up": face_up,
            "fear": fear,
        }
    )
    return pid


@_on("pd.step.changed")
def _ev_step(s: dict, d: dict) -> None:
    for key in ("phase", "step", "round", "turn", "leader", "bonus_order"):
        if key in d:
            s[key] = d[key]
    if d.get("step") == "bonus":
        for p in s["players"]:
            p["bonus"] = None
    if d.get("step") in ("place", "draw"):
        for p in s["players"]:
            p["placed"] = None
            p["reveal"] = None


@_on("pd.card.placed")
def _ev_placed(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    p["hand"].remove(d["card"])
    p["placed"] = _put(p["board"], d["card"], "regular", [d["space"]], None, False)


@_on("pd.reveal.chosen")
def _ev_reveal_chosen(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["reveal"] = {k: v for k, v in d.items() if k != "seat"}


@_on("pd.card.revealed")
def _ev_revealed(s: dict, d: dict) -> None:
    B.placement_by_pid(s["players"][d["seat"]]["board"], d["pid"])["face_up"] = True


@_on("pd.card.kept_face_down")
def _ev_face_down(s: dict, d: dict) -> None:
    pass  # a fact for the log; the back seal and the sin follow as their own events


@_on("pd.seal.removed")
def _ev_seal_removed(s: dict, d: dict) -> None:
    b = s["players"][d["seat"]]["board"]
    b["seals"] = [x for x in b["seals"] if x["sid"] not in d["sids"]]


@_on("pd.seal.formed")
def _ev_seal_formed(s: dict, d: dict) -> None:
    b = s["players"][d["seat"]]["board"]
    b["seals"].append(
        {
            "sid": d["sid"],
            "colour": d["colour"],
            "active": d["active"],
            "point": d.get("point"),
            "on": d.get("on"),
        }
    )
    b["next_sid"] = max(b.get("next_sid", 1), d["sid"] + 1)


@_on("pd.sin.changed")
def _ev_sin(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["sins"][d["sin"]] = d["value"]


@_on("pd.score.gained")
def _ev_score(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    p["score"] += d["points"]
    if d.get("scoring"):
        p["scoring"] = p["scoring"] + [{"reason": d["reason"], "points": d["points"]}]


@_on("pd.seal.scored")
def _ev_seal_scored(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    for seal in p["board"]["seals"]:
        if seal["sid"] == d["sid"]:
            seal["active"] = False
    p["score"] += d["points"]
    p["scoring"] = p["scoring"] + [
        {
            "reason": f"seal at {d['point'][0]},{d['point'][1]}",
            "points": d["points"],
            "card_values": d["values"],
        }
    ]


@_on("pd.bonus.declined")
def _ev_declined(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["bonus"] = "declined"


@_on("pd.bonus.taken")
def _ev_bonus_taken(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["bonus"] = "acted"


@_on("pd.fear.faced")
def _ev_fear(s: dict, d: dict) -> None:
    b = s["players"][d["seat"]]["board"]
    b["placements"] = [x for x in b["placements"] if x["pid"] != d["pid"]]
    s["players"][d["seat"]]["score"] += d["points"]


@_on("pd.card.drawn")
def _ev_drawn(s: dict, d: dict) -> None:
    s["decks"][d["deck"]].remove(d["card"])
    s["players"][d["seat"]]["drawn"] = d["card"]


@_on("pd.drawn.placed")
def _ev_drawn_placed(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    card = s["catalog"][d["card"]]
    _put(p["board"], d["card"], card["size"], d["spaces"], d.get("half"), True)
    p["drawn"] = None


@_on("pd.drawn.discarded")
def _ev_drawn_discarded(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    s["discards"][s["catalog"][d["card"]]["deck"]].append(d["card"])
    p["drawn"] = None


@_on("pd.personal.summoned")
def _ev_personal(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    card = s["catalog"][d["card"]]
    p["personal"].remove(d["card"])
    _put(p["board"], d["card"], card["size"], d["spaces"], None, True)


@_on("pd.courage.taken")
def _ev_courage_taken(s: dict, d: dict) -> None:
    s["decks"]["courage"].remove(d["card"])
    p = s["players"][d["seat"]]
    p["courage"] = p["courage"] + [d["card"]]


@_on("pd.courage.discarded")
def _ev_courage_discarded(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    p["courage"] = [c for c in p["courage"] if c not in d["cards"]]
    s["discards"]["courage"] = s["discards"]["courage"] + list(d["cards"])


@_on("pd.hands.passed")
def _ev_passed(s: dict, d: dict) -> None:
    hands = [p["hand"] for p in s["players"]]
    n = len(hands)
    for i, p in enumerate(s["players"]):
        p["hand"] = hands[(i - 1) % n]  # clockwise: each hand goes to the next seat
    s["leader"] = (s["leader"] + 1) % n


@_on("pd.hand.discarded")
def _ev_hand_discarded(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["hand"] = []


@_on("pd.cards.discarded")
def _ev_cards_discarded(s: dict, d: dict) -> None:
    p = s["players"][d["seat"]]
    b = p["board"]
    gone = set(d["pids"])
    for x in b["placements"]:
        if x["pid"] in gone:
            deck = s["catalog"][x["card"]]["deck"]
            if deck in s["discards"]:
                s["discards"][deck].append(x["card"])
    b["placements"] = [x for x in b["placements"] if x["pid"] not in gone]
    b["seals"] = [x for x in b["seals"] if x["sid"] not in d.get("sids", [])]
    p["keeper"] = None


@_on("pd.keeper.pending")
def _ev_keeper_pending(s: dict, d: dict) -> None:
    s["players"][d["seat"]]["keeper"] = list(d["pids"])


@_on("pd.round.scoring")
def _ev_round_scoring(s: dict, d: dict) -> None:
    for p in s["players"]:
        p["scoring"] = []
    s["phase"] = "scoring"
    s["step"] = "scoring"


@_on("pd.game.ended")
def _ev_ended(s: dict, d: dict) -> None:
    s["phase"] = "over"
    s["step"] = "over"
    s["winners"] = d["winners"]
    s["rating"] = d.get("rating")


# ---------------------------------------------------------------------------------------------
# rules helpers
# ---------------------------------------------------------------------------------------------
def _courage_effects(t: _Turn, seat: int, kind: str) -> list[dict]:
    return [
        t.cards[c]["effect"]
        for c in t.player(seat)["courage"]
        if t.cards[c]["effect"]["kind"] == kind
    ]


def seal_pool(state: dict, seat: int) -> tuple[Counter, int]:
    """``(colours, wild)``: the seals of ``seat`` for requirements and Fears, in any state,
    plus Abyss/Inferno/Limbo (one seal of their colour) and Pan-Demonium (``wild``, one seal of
    any colour) (rulebook "Requirements", Courage clarification)."""
    p = state["players"][seat]
    colours = B.seal_colours(p["board"])
    wild = 0
    for cid in p["courage"]:
        effect = state["catalog"][cid]["effect"]
        if effect["kind"] == "counts_as_seal":
            colours[effect["colour"]] += 1
        elif effect["kind"] == "pan_demonium":
            wild += 1
    return colours, wild


def can_summon(state: dict, seat: int, card_id: str) -> bool:
    """Whether ``seat`` meets the requirements of ``card_id`` now."""
    colours, wild = seal_pool(state, seat)
    return B.meets(state["catalog"][card_id].get("requirements", []), colours, wild)


def _gain_sin(t: _Turn, seat: int, sin: str, amount: int, why: str) -> None:
    """Raise one gauge by ``amount``, capped at 6 (rulebook "Sin"); More Sins adds one when the
    gain is a single sin at one time."""
    if amount == 1 and _courage_effects(t, seat, "more_sins"):
        amount = 2
    value = min(6, t.player(seat)["sins"][sin] + amount)
    t.emit(
        "pd.sin.changed", {"seat": seat, "sin": sin, "delta": amount, "value": value, "why": why}
    )


def _pay(t: _Turn, seat: int, sin, amount: int, named: str | None = None) -> None:
    """Spend ``amount`` from one gauge (rulebook "Bonus Actions"); raises ``RuleViolation``."""
    if sin not in SINS:
        raise RuleViolation("bad_sin", "Choose one sin gauge to pay from: glut, hate or want.")
    if named and sin != named:
        raise RuleViolation("wrong_sin", f"This card must be paid with {named}.")
    have = t.player(seat)["sins"][sin]
    if have < amount:
        raise RuleViolation("not_enough_sin", f"You need {amount} {sin}; you have {have}.")
    t.emit(
        "pd.sin.changed",
        {"seat": seat, "sin": sin, "delta": -amount, "value": have - amount, "why": "cost"},
    )


def _next_sid(t: _Turn, seat: int) -> int:
    return t.player(seat)["board"].get("next_sid", 1)


def _form_seals(t: _Turn, seat: int, wild_colour) -> None:
    """Place active seals on every complete valid sigil without one (rulebook "Forming
    Seals"); an all-purple sigil takes ``wild_colour``. Seal-creating Courage scores."""
    for point, colour in B.formable_seals(t.player(seat)["board"], t.cards, t.state["geometry"]):
        if colour == "purple":
            if wild_colour not in B.COLOURS:
                raise RuleViolation(
                    "wild_colour_needed", "Choose the colour of your all-purple seal."
                )
            colour = wild_colour
        t.emit(
            "pd.seal.formed",
            {
                "seat": seat,
                "sid": _next_sid(t, seat),
                "colour": colour,
                "active": True,
                "point": list(point),
            },
        )
        for effect in _courage_effects(t, seat, "seal_score"):
            if effect.get("colour") in (None, colour):
                t.emit(
                    "pd.score.gained",
                    {"seat": seat, "points": effect["points"], "reason": "seal created"},
                )


def _clear_under(t: _Turn, seat: int, pid: str) -> None:
    """A card was just placed (revealed, left face down or summoned): remove the seals it
    touches and score Pile Up once if it covers other cards (rulebook "Playing on top of other
    cards"; Courage clarification "Pile Up")."""
    board = t.player(seat)["board"]
    placement = B.placement_by_pid(board, pid)
    sids = B.seals_removed_by(board, placement)
    if sids:
        t.emit("pd.seal.removed", {"seat": seat, "sids": sids})
    if B.covered_by(board, placement):
        for effect in _courage_effects(t, seat, "pile_up"):
            t.emit(
                "pd.score.gained", {"seat": seat, "points": effect["points"], "reason": "Pile Up"}
            )


def _settle(t: _Turn, seat: int, pid: str, wild_colour) -> None:
    """A card came face up as a bonus action: clear under it, then form new seals."""
    _clear_under(t, seat, pid)
    _form_seals(t, seat, wild_colour)


def _resolve_reveal(t: _Turn, seat: int) -> None:
    """Reveal, Sin and Seal steps for one seat (rulebook "Summoning Phase" 2-4)."""
    p = t.player(seat)
    choice = p["reveal"]
    pid = p["placed"]
    card = t.cards[B.placement_by_pid(p["board"], pid)["card"]]
    if choice["face_up"]:
        t.emit("pd.card.revealed", {"seat": seat, "pid": pid, "card": card["id"]}, True)
        _clear_under(t, seat, pid)
        if card["sin"] == "hell":
            for sin in SINS:
                value = min(6, t.player(seat)["sins"][sin] + 1)
                t.emit(
                    "pd.sin.changed",
                    {"seat": seat, "sin": sin, "delta": 1, "value": value, "why": "of Hell"},
                )
        elif card.get("sin"):
            _gain_sin(t, seat, card["sin"], card["sin_amount"], "revealed")
        _form_seals(t, seat, choice.get("wild_colour"))
    else:
        t.emit("pd.card.kept_face_down", {"seat": seat, "pid": pid})
        _clear_under(t, seat, pid)
        t.emit(
            "pd.seal.formed",
            {
                "seat": seat,
                "sid": _next_sid(t, seat),
                "colour": choice["seal_colour"],
                "active": False,
                "point": None,
                "on": pid,
            },
        )
        _gain_sin(t, seat, choice["sin"], 1, "face down")


def _draw_courage(t: _Turn, seat: int) -> None:
    cards = t.draw(seat, "courage")
    for cid in cards:
        t.emit("pd.courage.taken", {"seat": seat, "card": cid}, True)


# ---------------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------------
_COMMANDS: dict = {}


def _cmd(type_: str):
    def register(fn):
        _COMMANDS[type_] = fn
        return fn

    return register


def _space(data: dict, key: str = "space") -> list[int]:
    value = data.get(key)
    if isinstance(value, str) and "," in value:
        try:
            value = [int(x) for x in value.split(",")]
        except ValueError:
            value = None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value)):
        raise RuleViolation("bad_space", "Choose a space of the circle.")
    return value


def _need(t: _Turn, phase: str, step: str | None = None) -> None:
    if t.state["phase"] != phase or (step and t.state["step"] != step):
        raise RuleViolation("wrong_step", "That is not possible at this step of the ritual.")


@_cmd("pd.setup.choose")
def _c_setup(t: _Turn, seat: int, data: dict) -> None:
    """Steps H and J: ``{"fear_space": [r, c], "keep": [id, id]}``."""
    _need(t, "setup")
    p = t.player(seat)
    if p["setup_done"]:
        raise RuleViolation("already_done", "You have already set up your circle.")
    keep = data.get("keep")
    if not (
        isinstance(keep, list)
        and len(keep) == 2
        and len(set(keep)) == 2
        and all(k in p["candidates"] for k in keep)
    ):
        raise RuleViolation("keep_two", "Keep exactly two of your four hefty/colossal cards.")
    space = _space(data, "fear_space")
    if not (0 <= space[0] < 4 and 0 <= space[1] < 4):
        raise RuleViolation("off_circle", "The Fear goes in one of the 16 spaces.")
    t.emit("pd.setup.done", {"seat": seat, "fear_space": space, "keep": keep})


@_cmd("pd.card.place")
def _c_place(t: _Turn, seat: int, data: dict) -> None:
    """Place step: ``{"card": id, "space": [r, c]}``, face down (rulebook "1. Place")."""
    _need(t, "summoning", "place")
    p = t.player(seat)
    if p["placed"] is not None:
        raise RuleViolation("already_placed", "You have already placed a card this turn.")
    card_id = data.get("card")
    if card_id not in p["hand"]:
        raise RuleViolation("not_in_hand", "That card is not in your hand.")
    space = _space(data)
    B.check_placement(p["board"], t.cards, t.cards[card_id], space, face_up=False)
    t.emit("pd.card.placed", {"seat": seat, "card": card_id, "space": space})


@_cmd("pd.card.reveal")
def _c_reveal(t: _Turn, seat: int, data: dict) -> None:
    """Reveal step: ``{"face_up": true, "wild_colour"?}`` or ``{"face_up": false,
    "seal_colour": colour, "sin": sin}`` (rulebook "2. Reveal"). Revealing needs the card's
    requirements, counting the seals it would remove (``requirements_unmet``)."""
    _need(t, "summoning", "reveal")
    p = t.player(seat)
    if p["reveal"] is not None:
        raise RuleViolation("already_chosen", "You have already chosen.")
    face_up = data.get("face_up") in (True, 1, "1", "true", "yes")
    choice = {"seat": seat, "face_up": face_up}
    if face_up:
        card_id = B.placement_by_pid(p["board"], p["placed"])["card"]
        if not can_summon(t.state, seat, card_id):
            raise RuleViolation(
                "requirements_unmet", "You lack the seals this demon requires: leave it face down."
            )
        if data.get("wild_colour") in B.COLOURS:
            choice["wild_colour"] = data["wild_colour"]
    else:
        if data.get("seal_colour") not in B.COLOURS:
            raise RuleViolation(
                "bad_colour", "Choose the colour of the cracked seal: blue, red or yellow."
            )
        if data.get("sin") not in SINS:
            raise RuleViolation("bad_sin", "Choose the sin to raise by one: glut, hate or want.")
        choice.update({"seal_colour": data["seal_colour"], "sin": data["sin"]})
    t.emit("pd.reveal.chosen", choice)
    # Check now that the reveal resolves (e.g. an all-purple sigil needs its colour).
    scratch = _Turn(t.rs, t.state, t.rng)
    _resolve_reveal(scratch, seat)


def _bonus_turn_ok(t: _Turn, seat: int) -> None:
    """Raise unless ``seat`` may take its bonus action now (rulebook "5. Bonus")."""
    _need(t, "summoning", "bonus")
    order = t.state["bonus_order"]
    status = {s: t.player(s)["bonus"] for s in order}
    if status[seat] == "acted":
        raise RuleViolation("bonus_taken", "Only ONE bonus action per turn.")
    index = order.index(seat)
    if any(status[s] is None for s in order[:index]):
        raise RuleViolation("not_your_bonus", "Wait: bonus actions go from the Leader clockwise.")
    if any(status[s] == "acted" for s in order[index + 1 :]):
        raise RuleViolation("too_late", "You declined and a later player has acted.")
    if any(t.player(s)["drawn"] for s in order):
        raise RuleViolation("wait_placement", "Wait until the drawn card is placed.")


@_cmd("pd.bonus.decline")
def _c_decline(t: _Turn, seat: int, data: dict) -> None:
    _bonus_turn_ok(t, seat)
    if t.player(seat)["bonus"] == "declined":
        raise RuleViolation("already_declined", "You have already declined.")
    t.emit("pd.bonus.declined", {"seat": seat})


def fear_points(state: dict, seat: int) -> int:
    """Points facing the Fear would score now: the highest tier met by all the seals of
    ``seat`` in any state (rulebook "Face Fear"); 0 without a Fear or below the lowest tier."""
    fears = [x for x in state["players"][seat]["board"]["placements"] if x["fear"]]
    if not fears:
        return 0
    colours, wild = seal_pool(state, seat)
    met = [
        t["points"]
        for t in state["catalog"][fears[0]["card"]]["tiers"]
        if B.meets(t["requirements"], colours, wild)
    ]
    return max(met, default=0)


@_cmd("pd.bonus.face_fear")
def _c_face_fear(t: _Turn, seat: int, data: dict) -> None:
    """Face Fear: discard it and score the highest tier met by all seals (rulebook "Face Fear")."""
    _bonus_turn_ok(t, seat)
    board = t.player(seat)["board"]
    fears = [x for x in board["placements"] if x["fear"]]
    if not fears:
        raise RuleViolation("no_fear", "You have no Fear left to face.")
    fear = fears[0]
    colours, wild = seal_pool(t.state, seat)
    tiers = t.cards[fear["card"]]["tiers"]
    points, tier = 0, None
    for i, entry in enumerate(tiers):
        if B.meets(entry["requirements"], colours, wild) and entry["points"] >= points:
            points, tier = entry["points"], i + 1
    t.emit("pd.bonus.taken", {"seat": seat, "action": "face_fear"})
    sids = [
        s["sid"]
        for s in board["seals"]
        if s["point"] is not None and tuple(s["point"]) in B.placement_points(fear)
    ]
    if sids:
        t.emit("pd.seal.removed", {"seat": seat, "sids": sids})
    t.emit(
        "pd.fear.faced",
        {"seat": seat, "pid": fear["pid"], "card": fear["card"], "tier": tier, "points": points},
    )
    _form_seals(t, seat, data.get("wild_colour"))


@_cmd("pd.bonus.fragment")
def _c_fragment(t: _Turn, seat: int, data: dict) -> None:
    """Summon Fragment: 2 of one sin, needs an empty space or half-space (rulebook)."""
    _bonus_turn_ok(t, seat)
    probe = {"id": "?", "size": "small", "sigils": [None] * 4}
    if not B.legal_anchors(t.player(seat)["board"], t.cards, probe, face_up=True):
        raise RuleViolation(
            "no_room", "You need an empty space or half-space to summon a Fragment."
        )
    _bonus_draw(t, seat, data, "fragment")


@_cmd("pd.bonus.royal")
def _c_royal(t: _Turn, seat: int, data: dict) -> None:
    """Summon Royal: 4 of one sin (rulebook)."""
    _bonus_turn_ok(t, seat)
    _bonus_draw(t, seat, data, "royal")


def _bonus_draw(t: _Turn, seat: int, data: dict, deck: str) -> None:
    if not t.state["decks"][deck] and not t.state["discards"][deck]:
        raise RuleViolation("deck_empty", "Both piles of that deck are empty.")
    _pay(t, seat, data.get("sin"), BONUS_COST[deck])
    t.emit("pd.bonus.taken", {"seat": seat, "action": deck})
    card = t.draw(seat, deck)[0]
    t.emit("pd.card.drawn", {"seat": seat, "deck": deck, "card": card}, True)


def _drawn_options(state: dict, seat: int) -> list:
    p = state["players"][seat]
    card = state["catalog"][p["drawn"]]
    if not can_summon(state, seat, card["id"]):
        return []
    return B.legal_anchors(p["board"], state["catalog"], card, face_up=True)


@_cmd("pd.drawn.place")
def _c_drawn_place(t: _Turn, seat: int, data: dict) -> None:
    """Place the drawn Fragment-deck or Royal-deck card face up: ``{"space": [r, c],
    "half"?: "top"|"bottom", "wild_colour"?}``."""
    p = t.player(seat)
    if not p["drawn"]:
        raise RuleViolation("nothing_drawn", "You have no summoned card to place.")
    card = t.cards[p["drawn"]]
    if not can_summon(t.state, seat, card["id"]):
        raise RuleViolation("requirements_unmet", "You lack the seals this card requires.")
    if isinstance(data.get("spot"), str):  # "r,c" or "r,c,half" from a form
        parts = data["spot"].split(",")
        data = {**data, "space": ",".join(parts[:2]), "half": parts[2] if len(parts) > 2 else None}
    space = _space(data)
    half = data.get("half") if card["size"] == "small" else None
    spaces = B.check_placement(p["board"], t.cards, card, space, face_up=True, half=half)
    t.emit("pd.drawn.placed", {"seat": seat, "card": card["id"], "spaces": spaces, "half": half})
    board = t.player(seat)["board"]
    _settle(t, seat, board["placements"][-1]["pid"], data.get("wild_colour"))


@_cmd("pd.drawn.discard")
def _c_drawn_discard(t: _Turn, seat: int, data: dict) -> None:
    """Discard a drawn card that has no legal place (requirements unmet or no room)."""
    p = t.player(seat)
    if not p["drawn"]:
        raise RuleViolation("nothing_drawn", "You have no summoned card to place.")
    if _drawn_options(t.state, seat):
        raise RuleViolation("can_place", "This card has a legal place: place it.")
    t.emit("pd.drawn.discarded", {"seat": seat, "card": p["drawn"]})


@_cmd("pd.bonus.personal")
def _c_personal(t: _Turn, seat: int, data: dict) -> None:
    """Summon Personal Demon: ``{"card": id, "space": [r, c] (top-left), "sin"?,
    "wild_colour"?}``; 6 of one sin (colossal: its named sin), requirements, placement over
    exactly 2 (hefty) or 4 (colossal) face-up regular demons; then the ability (rulebook)."""
    _bonus_turn_ok(t, seat)
    p = t.player(seat)
    card_id = data.get("card")
    if card_id not in p["personal"]:
        raise RuleViolation("not_yours", "That is not one of your Personal Demons.")
    card = t.cards[card_id]
    if not can_summon(t.state, seat, card_id):
        raise RuleViolation(
            "requirements_unmet", "You lack the seals this Personal Demon requires."
        )
    spaces = B.check_placement(p["board"], t.cards, card, _space(data), face_up=True)
    named = card["cost"]["sin"] if card["deck"] == "colossal" else None
    _pay(t, seat, data.get("sin") or named, 6, named)
    t.emit("pd.bonus.taken", {"seat": seat, "action": "personal"})
    t.emit("pd.personal.summoned", {"seat": seat, "card": card_id, "spaces": spaces}, True)
    _settle(t, seat, t.player(seat)["board"]["placements"][-1]["pid"], data.get("wild_colour"))
    ability = card.get("ability") or {}
    seats = range(len(t.state["players"]))
    kind = ability.get("kind")
    if kind == "all_courage":
        for s in seats:
            _draw_courage(t, s)
    elif kind == "others_courage":
        for s in seats:
            if s != seat:
                _draw_courage(t, s)
    elif kind == "others_score":
        for s in seats:
            if s != seat:
                t.emit(
                    "pd.score.gained",
                    {"seat": s, "points": ability["points"], "reason": card["name"]},
                )
    elif kind == "others_sin":
        for s in seats:
            if s != seat:
                for sin in SINS:
                    value = min(6, t.player(s)["sins"][sin] + ability.get("amount", 1))
                    t.emit(
                        "pd.sin.changed",
                        {
                            "seat": s,
                            "sin": sin,
                            "delta": ability.get("amount", 1),
                            "value": value,
                            "why": card["name"],
                        },
                    )


@_cmd("pd.courage.discard")
def _c_courage_discard(t: _Turn, seat: int, data: dict) -> None:
    """Discard Courage cards while holding more than three: ``{"cards": [id, ...]}``; at least
    three stay (rulebook "Three Courage maximum"). A player who took two cards before
    discarding may discard them in one go or one by one."""
    p = t.player(seat)
    cards = data.get("cards")
    if isinstance(cards, str):
        cards = [cards]
    if len(p["courage"]) <= 3:
        raise RuleViolation("no_discard", "You hold three Courage cards or fewer: keep them.")
    if not isinstance(cards, list) or not cards or any(c not in p["courage"] for c in cards):
        raise RuleViolation("bad_cards", "Choose Courage cards you hold.")
    if len(p["courage"]) - len(set(cards)) < 3:
        raise RuleViolation("keep_three", "Keep three Courage cards.")
    t.emit("pd.courage.discarded", {"seat": seat, "cards": sorted(set(cards))})


@_cmd("pd.keeper.keep")
def _c_keeper(t: _Turn, seat: int, data: dict) -> None:
    """Keeper: ``{"keep": [pid, ...]}``: the Knights and Fragments not listed are discarded."""
    p = t.player(seat)
    if p["keeper"] is None:
        raise RuleViolation("no_choice", "Nothing to keep now.")
    keep = data.get("keep") or []
    if isinstance(keep, str):
        keep = [keep]
    keep = [k for k in keep if k]  # a form sends "" to mean "keep nothing"
    if any(k not in p["keeper"] for k in keep):
        raise RuleViolation("bad_cards", "Choose among your Knights and Fragments.")
    _discard_extras(t, seat, [pid for pid in p["keeper"] if pid not in keep])


def _discard_extras(t: _Turn, seat: int, pids: list[str]) -> None:
    """End phase: discard these Knights and Fragments, the cards under the Knights, and the
    seals the Fragments helped to form (rulebook "End Phase")."""
    board = t.player(seat)["board"]
    gone: list[str] = []
    sids: list[int] = []
    geometry = t.state["geometry"]
    for seal in board["seals"]:
        if seal["point"] is not None:
            _, touching = B.sigil_at(board, t.cards, geometry, seal["point"])
            if any(pid in pids for pid in touching if pid):
                sids.append(seal["sid"])
    for index, x in enumerate(board["placements"]):
        if x["pid"] in pids:
            gone.append(x["pid"])
            if "Knight" in t.cards[x["card"]]["types"] and x["size"] == "regular":
                # the cards underneath the Knight go too
                for below in board["placements"][:index]:
                    if (
                        below["spaces"] == x["spaces"]
                        and not below["fear"]
                        and below["pid"] not in gone
                    ):
                        gone.append(below["pid"])
                        sids += [s["sid"] for s in board["seals"] if s["on"] == below["pid"]]
    t.emit("pd.cards.discarded", {"seat": seat, "pids": gone, "sids": sorted(set(sids))})


# ---------------------------------------------------------------------------------------------
# cadence: what happens when every player is ready
# ---------------------------------------------------------------------------------------------
def _start_turn(t: _Turn, turn_no: int) -> None:
    s = t.state
    if s["solo"]:
        t.emit("pd.step.changed", {"phase": "summoning", "step": "place", "turn": turn_no})
        count = DIFFICULTIES[s["options"]["difficulty"]]
        deck = f"round{s['round']}"
        t.emit("pd.cards.dealt", {"seat": 0, "to": "hand", "cards": t.draw(0, deck, count)}, True)
    else:
        t.emit("pd.step.changed", {"phase": "summoning", "step": "place", "turn": turn_no})


def _advance(t: _Turn) -> None:
    """Move the ritual on while every player is ready for the next step."""
    for _ in range(50):
        if not _advance_once(t):
            return


def _pending(t: _Turn) -> bool:
    return any(
        len(p["courage"]) > 3 or p["drawn"] or p["keeper"] is not None for p in t.state["players"]
    )


def _advance_once(t: _Turn) -> bool:
    s = t.state
    players = s["players"]
    n = len(players)
    if s["phase"] == "setup":
        if all(p["setup_done"] for p in players):
            _start_turn(t, 1)
            return True
        return False
    if s["phase"] == "summoning":
        if s["step"] == "place" and all(p["placed"] for p in players):
            t.emit("pd.step.changed", {"step": "reveal"})
            return True
        if s["step"] == "reveal" and all(p["reveal"] for p in players):
            for seat in range(n):
                _resolve_reveal(t, seat)
            order = [(s["leader"] + i) % n for i in range(n)]
            t.emit("pd.step.changed", {"step": "bonus", "bonus_order": order})
            return True
        if s["step"] == "bonus" and all(p["bonus"] for p in players) and not _pending(t):
            if s["solo"]:
                if players[0]["hand"]:
                    t.emit("pd.hand.discarded", {"seat": 0, "cards": players[0]["hand"]})
            else:
                t.emit("pd.hands.passed", {})
            if s["turn"] < 6:
                _start_turn(t, s["turn"] + 1)
            else:
                _score_round(t)
            return True
        return False
    if s["phase"] == "end" and not _pending(t):
        next_round = s["round"] + 1
        t.emit("pd.step.changed", {"phase": "summoning", "round": next_round, "turn": 0})
        if not s["solo"]:
            for seat in range(n):
                cards = t.draw(seat, f"round{next_round}", 6)
                t.emit("pd.cards.dealt", {"seat": seat, "to": "hand", "cards": cards}, True)
        _start_turn(t, 1)
        return True
    return False


def _score_round(t: _Turn) -> None:
    """Scoring phase (rulebook "Scoring"), then the end phase or the end of the game."""
    s = t.state
    t.emit("pd.round.scoring", {"round": s["round"]})
    geometry = s["geometry"]
    for seat in range(len(s["players"])):
        p = t.state["players"][seat]
        board = p["board"]
        for entry in B.seal_scores(board, t.cards, geometry):
            t.emit("pd.seal.scored", {"seat": seat, **entry})
        knights = 0
        for x in board["placements"]:
            card = t.cards[x["card"]]
            if "Knight" in card["types"]:
                knights += 6 if card["deck"] == "royal" else 3
        if knights:
            t.emit(
                "pd.score.gained",
                {"seat": seat, "points": knights, "reason": "Knights", "scoring": True},
            )
        for cid in p["courage"]:
            points = courage_points(t.state, seat, cid)
            if points:
                t.emit(
                    "pd.score.gained",
                    {
                        "seat": seat,
                        "points": points,
                        "reason": t.cards[cid]["name"],
                        "scoring": True,
                    },
                )
    if s["round"] >= 3:
        scores = [p["score"] for p in t.state["players"]]
        best = max(scores)
        winners = [i for i, v in enumerate(scores) if v == best]
        rating = solo_rating(scores[0]) if s["solo"] else None
        t.emit("pd.game.ended", {"scores": scores, "winners": winners, "rating": rating})
        return
    t.emit("pd.step.changed", {"phase": "end", "step": "end"})
    for seat, p in enumerate(t.state["players"]):
        extras = [
            x["pid"]
            for x in p["board"]["placements"]
            if {"Knight", "Fragment"} & set(t.cards[x["card"]]["types"])
        ]
        if extras and _courage_effects(t, seat, "keeper"):
            t.emit("pd.keeper.pending", {"seat": seat, "pids": extras})
        elif extras:
            _discard_extras(t, seat, extras)
    for seat in range(len(s["players"])):
        _draw_courage(t, seat)


def courage_points(state: dict, seat: int, cid: str) -> int:
    """Points a Courage card gives in the scoring phase (rulebook "Score Courage"): type cards
    count face-up cards of their type on top of the circle; Score Sins gives half the total sin,
    rounded down; others nothing."""
    effect = state["catalog"][cid]["effect"]
    p = state["players"][seat]
    if effect["kind"] == "type_score":
        seen = set()
        for layer in B.tops(p["board"]).values():
            for x in layer:
                if x["face_up"] and effect["type"] in state["catalog"][x["card"]]["types"]:
                    seen.add(x["pid"])
        return len(seen) * effect["points"]
    if effect["kind"] == "score_sins":
        return sum(p["sins"].values()) // 2
    return 0


def reveal_needs_wild(state: dict, seat: int) -> bool:
    """Whether revealing the card ``seat`` placed this turn would form an all-purple sigil (the
    player then chooses its colour)."""
    p = state["players"][seat]
    if not p["placed"]:
        return False
    scratch = _Turn(PersonalDemonsRuleset(), state, None)
    scratch.emit("pd.card.revealed", {"seat": seat, "pid": p["placed"]})
    board = scratch.player(seat)["board"]
    sids = B.seals_removed_by(board, B.placement_by_pid(board, p["placed"]))
    if sids:
        scratch.emit("pd.seal.removed", {"seat": seat, "sids": sids})
    board = scratch.player(seat)["board"]
    return any(
        colour == "purple"
        for _, colour in B.formable_seals(board, state["catalog"], state["geometry"])
    )


def bonus_options(state: dict, seat: int) -> dict:
    """What ``seat`` may do in the bonus step now: ``{"my_turn", "fear", "fragment", "royal",
    "sins_for": {cost: [sin...]}, "personal": [id...]}``."""
    t = _Turn(PersonalDemonsRuleset(), state, None)
    try:
        _bonus_turn_ok(t, seat)
        my_turn = True
    except RuleViolation:
        my_turn = False
    p = state["players"][seat]
    sins_for = {cost: [s for s in SINS if p["sins"][s] >= cost] for cost in (2, 4, 6)}
    probe = {"id": "?", "size": "small", "sigils": [None] * 4}
    room = bool(B.legal_anchors(p["board"], state["catalog"], probe, face_up=True))
    personal = []
    for cid in p["personal"]:
        card = state["catalog"][cid]
        named = card["cost"]["sin"] if card["deck"] == "colossal" else None
        payable = p["sins"][named] >= 6 if named else bool(sins_for[6])
        if (
            payable
            and can_summon(state, seat, cid)
            and B.legal_anchors(p["board"], state["catalog"], card, face_up=True)
        ):
            personal.append(cid)
    return {
        "my_turn": my_turn,
        "status": p["bonus"],
        "fear": any(x["fear"] for x in p["board"]["placements"]),
        "fear_points": fear_points(state, seat),
        "fragment": bool(sins_for[2])
        and room
        and bool(state["decks"]["fragment"] or state["discards"]["fragment"]),
        "royal": bool(sins_for[4]) and bool(state["decks"]["royal"] or state["discards"]["royal"]),
        "sins_for": {str(k): v for k, v in sins_for.items()},
        "personal": personal,
    }

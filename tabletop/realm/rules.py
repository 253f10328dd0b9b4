"""Pixel Demon's Realm as a Ruleset on the table kit (pure, no Django import).

Rulebook: ``shared/rules/pixel-demons-realm-rulebook.txt``; sections are named in each docstring.

State: a JSON-able dict (see ``RealmRuleset.initial_state``). Seats are numbered clockwise, so
"the player on your left" is ``(seat + 1) % n`` and play passes to that seat.

Choices where the rulebook is silent (documented again where applied):

- Pacts: option ``pacts`` = ``acolyte-a`` / ``acolyte-b`` (the two sides of the shared Acolyte
  Pact) or ``secret`` (each player picks one of the face-down Pact cards during the prelude).
- The Draw step happens automatically when a turn starts (1 card, then up to 6).
- Every card played in a ritual must meet at least one corner (at most 4 cards).
- A Mimic that finds no non-Vessel card draws a card, like a Seeker or Keeper that finds none.
- Summoning a Vessel uses printed suits and ranks (curses change cards only in a ritual);
  feeding an Eater uses the printed suit.
- Curses transforming a suit ("Your Skulls are all 8s") apply to every card of that suit,
  Aces and Wardens included; Vessels count as their declared suit and rank before curses apply.
- Option ``auto_pass``: skip the disruption prompt of a player who holds no usable card (faster,
  but everyone then learns they hold none). Off by default: everyone is asked, as at the table.
- A binder asked to feed an Eater may decline (the binding is disrupted); with no card of the
  Eater's suit the binding is disrupted at once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from tabletop.errors import RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo, require

from . import cards as C
from .content import demo_content

OPENED = "realm.table.opened"

EVENT_LABELS = {
    OPENED: "opened the Realm",
    "realm.pact.chosen": "chose a Pact",
    "realm.affliction.given": "gave an Affliction",
    "realm.turn.started": "passed play to the next player",
    "realm.cards.drawn": "drew (or dealt) cards",
    "realm.deck.reshuffled": "reshuffled the discard pile",
    "realm.cards.discarded": "discarded cards",
    "realm.ritual.begun": "began a binding ritual",
    "realm.ritual.passed": "let the ritual proceed",
    "realm.vessel.exorcised": "exorcised a Vessel",
    "realm.ritual.eater_played": "played an Eater on the ritual",
    "realm.ritual.fed": "fed the Eater",
    "realm.ritual.disrupted": "saw the binding disrupted",
    "realm.demon.bound": "saw a Demon bound",
    "realm.demon.released": "released a Demon",
    "realm.demon.revealed": "revealed a new Demon",
    "realm.vessel.summoned": "summoned a Vessel",
    "realm.eater.attached": "attached an Eater",
    "realm.eater.fed": "fed an Eater",
    "realm.warden.played": "played a card's power",
    "realm.hand.shown": "looked at a hand",
    "realm.card.taken": "took a card",
    "realm.turn.purged": "purged",
    "realm.turn.ended": "ended the turn",
    "realm.pact.fulfilled": "fulfilled a Pact and won",
}

FINAL_COMMANDS = frozenset(
    {
        "realm.pact.choose",
        "realm.affliction.give",
        "realm.demon.bind",
        "realm.ritual.pass",
        "realm.ritual.exorcise",
        "realm.ritual.eater",
        "realm.ritual.feed",
        "realm.ritual.yield",
        "realm.demon.release",
        "realm.warden.seeker",
        "realm.warden.keeper",
        "realm.mimic.play",
        "realm.card.take",
        "realm.turn.purge",
        "realm.turn.end",
        "realm.pact.announce",
    }
)


def _slot_of(seat: int) -> str:
    return f"p{seat}"


class _Emitter:
    """Builds a command's events while folding them into a working state, so later checks in
    ``decide`` see the effect of earlier events."""

    def __init__(self, ruleset: RealmRuleset, state: dict) -> None:
        self.ruleset = ruleset
        self.state = state
        self.events: list[NewEvent] = []

    def emit(self, type_: str, data: dict, final: bool = False) -> None:
        self.events.append(NewEvent(type_, data, final))
        self.state = self.ruleset.evolve(self.state, EventRecord(type_, data, data.get("seat")))


class RealmRuleset(BaseRuleset):
    """Pixel Demon's Realm for 2-4 players (rulebook "Overview").

    ``content``: a callable returning ``{"demons", "pacts", "afflictions"}`` (lists of dicts in
    the shapes of ``tabletop.realm.cards``); the demo content by default. ``setup`` copies the
    content into the opening event, so a replay never reads the content source again.
    """

    name = "realm"
    title = "Pixel Demon's Realm"
    min_seats = 2
    max_seats = 4
    template = "realm/live.html"
    stylesheet = "realm/realm.css"
    final_commands = FINAL_COMMANDS
    event_labels = EVENT_LABELS
    options_schema = {
        "pacts": {
            "label": "Pacts",
            "choices": [
                ["acolyte-a", "Acolyte Pact, side A (shared)"],
                ["acolyte-b", "Acolyte Pact, side B (shared)"],
                ["secret", "Secret Pacts (each picks one face down)"],
            ],
            "default": "acolyte-a",
        },
        "afflictions": {
            "label": "Afflictions",
            "choices": [["off", "Off"], ["on", "On"]],
            "default": "off",
        },
        "auto_pass": {
            "label": "Skip disruption prompts for players without a usable card",
            "choices": [["off", "Off (ask everyone)"], ["on", "On (faster)"]],
            "default": "off",
        },
    }

    def __init__(self, content: Callable[[], dict] | None = None) -> None:
        self.content = content or demo_content

    # --- state --------------------------------------------------------------------------

    def initial_state(self) -> dict:
        return {"phase": "new"}

    def is_finished(self, state: dict) -> bool:
        """True once a Pact was fulfilled (the kit then marks the table finished)."""
        return state.get("phase") == "over"

    # --- setup (rulebook "Setup") -------------------------------------------------------

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng) -> list[NewEvent]:
        """Opening events: shuffled Demon and Ritual decks, the Active Demon with the Portal Card
        beneath, a Personal Demon per player from the bottom of the Demon Deck, Pacts, 5 cards
        each, a random first player (rulebook "Setup"); Afflictions when the option is on
        (rulebook "Afflictions"). Raises RuleViolation ``seats`` / ``content``."""
        n = len(seats)
        require(2 <= n <= 4, "seats", "Realm is played by 2 to 4 players.")
        options = {k: options.get(k, v["default"]) for k, v in self.options_schema.items()}
        content = self.content()
        demons = {d["id"]: d for d in content["demons"]}
        for demon in demons.values():
            C.validate_demon(demon)
        require(len(demons) >= n + 1, "content", "Not enough demons for this table.")
        mode = options["pacts"]
        if mode == "secret":
            pacts = [p for p in content["pacts"] if not p.get("acolyte")]
            require(len(pacts) >= n, "content", "Not enough secret Pacts for this table.")
        else:
            pacts = [p for p in content["pacts"] if p["id"] == mode]
            require(len(pacts) == 1, "content", "The Acolyte Pact is missing.")
        for pact in pacts:
            C.validate_conditions(pact["conditions"])
        afflictions = content["afflictions"] if options["afflictions"] == "on" else []
        require(
            not afflictions or len(afflictions) >= 2 * n,
            "content",
            "Not enough Affliction cards for this table.",
        )

        order = rng.shuffled(sorted(demons))
        active, below = order[0], order[1:]
        personal = []
        for _ in range(n):  # each takes the card at the bottom of the Demon Deck
            personal.append(below.pop())
        deck = rng.shuffled(C.RITUAL_DECK)
        hands = []
        for _ in range(n):
            hands.append(deck[:5])
            deck = deck[5:]
        first = rng.randbelow(n)
        slots = rng.shuffled(sorted(p["id"] for p in pacts)) if mode == "secret" else []
        aff_deck = rng.shuffled(sorted(a["id"] for a in afflictions)) if afflictions else []
        drawer = rng.randbelow(n) if afflictions else None
        data = {
            "names": [s.name for s in seats],
            "options": options,
            "content": {
                "demons": demons,
                "pacts": {p["id"]: p for p in pacts},
                "afflictions": {a["id"]: a for a in afflictions},
            },
            "active": active,
            "demon_deck": below,
            "personal": personal,
            "deck": deck,
            "hands": hands,
            "vessels": list(C.VESSELS),
            "first": first,
            "acolyte": None if mode == "secret" else mode,
            "pact_slots": slots,
            "affliction_deck": aff_deck,
            "affliction_drawer": drawer,
        }
        em = _Emitter(self, self.initial_state())
        em.emit(OPENED, data, final=True)
        self._maybe_begin(em, rng)
        return em.events

    # --- evolve -------------------------------------------------------------------------

    def evolve(self, state: dict, event: EventRecord) -> dict:
        """Fold one event into a new state (the input is not changed). Content is shared by
        reference: it never changes after the opening event."""
        handler = _EVOLVERS.get(event.type)
        if handler is None:
            return state
        new = {k: copy.deepcopy(v) for k, v in state.items() if k != "content"}
        if "content" in state:
            new["content"] = state["content"]
        data = event.data
        seat = data.get("seat")
        if (
            seat is not None
            and "glimpse" in new
            and event.type not in ("realm.hand.shown", "realm.cards.drawn")
        ):
            new["glimpse"][seat] = None
        handler(new, data)
        return new

    # --- decide -------------------------------------------------------------------------

    def decide(self, state: dict, command: Command, seat: int | None, rng) -> list[NewEvent]:
        """Check a command against the rules and return its events (see the ``_cmd_*`` methods
        for each command's data). Raises RuleViolation with a code; nothing changes then."""
        require(state.get("phase") not in (None, "new"), "not_started", "The game has not begun.")
        require(state["phase"] != "over", "game_over", "The game is over.")
        require(seat is not None and 0 <= seat < state["n"], "not_seated", "Only players can act.")
        handler = getattr(
            self, "_cmd_" + command.type.removeprefix("realm.").replace(".", "_"), None
        )
        require(
            command.type.startswith("realm.") and handler is not None,
            "unknown_command",
            f"Unknown command {command.type}.",
        )
        data = command.data if isinstance(command.data, dict) else {}
        em = _Emitter(self, state)
        try:
            handler(em, seat, data, rng)
        except (TypeError, AttributeError, KeyError, ValueError) as exc:
            # malformed data that slipped past the checks: refuse it, never a server error
            raise RuleViolation("bad_command", "That command is malformed.") from exc
        return em.events

    # prelude (rulebook "Pact Cards", "Afflictions")

    def _cmd_pact_choose(self, em, seat, data, rng):
        """``{"slot": i}``: take the i-th face-down Pact card (secret Pacts, rulebook "Pact
        Cards"). Codes ``not_now``, ``already_chosen``, ``bad_slot``."""
        st = em.state
        require(st["phase"] == "prelude" and st["acolyte"] is None, "not_now", "No Pact to pick.")
        require(st["players"][seat]["pact"] is None, "already_chosen", "You have your Pact.")
        slot = _int(data.get("slot"))
        require(slot is not None and 0 <= slot < len(st["pact_slots"]), "bad_slot", "Pick a card.")
        em.emit("realm.pact.chosen", {"seat": seat, "pact": st["pact_slots"][slot]}, True)
        self._maybe_begin(em, rng)

    def _cmd_affliction_give(self, em, seat, data, rng):
        """``{"card": id, "to": seat}``: give one of the two drawn Affliction cards to another
        player without one; the other is discarded (rulebook "Afflictions")."""
        st = em.state
        aff = st["afflictions"]
        require(st["phase"] == "prelude" and aff["drawer"] == seat, "not_now", "Not your draw.")
        require(data.get("card") in aff["offer"], "bad_card", "Give one of the two you drew.")
        to = _int(data.get("to"))
        require(
            to is not None
            and 0 <= to < st["n"]
            and to != seat
            and st["players"][to]["affliction"] is None,
            "bad_target",
            "Give it to another player who has no Affliction.",
        )
        other = [a for a in aff["offer"] if a != data["card"]]
        em.emit(
            "realm.affliction.given",
            {"seat": seat, "to": to, "card": data["card"], "discarded": other},
            True,
        )
        self._maybe_begin(em, rng)

    def _maybe_begin(self, em, rng):
        st = em.state
        if st["phase"] != "prelude":
            return
        if any(p["pact"] is None for p in st["players"]) and st["acolyte"] is None:
            return
        if st["afflictions"]["drawer"] is not None:
            return
        self._start_turn(em, st["first"], rng)

    # turn (rulebook "Sequence of a Turn")

    def _start_turn(self, em, seat, rng):
        """Draw step: one card, then up to 6 (rulebook "Step 1 - Draw")."""
        em.emit("realm.turn.started", {"seat": seat})
        hand = em.state["players"][seat]["hand"]
        self._draw(em, seat, max(1, 6 - len(hand)), rng, "draw")

    def _draw(self, em, seat, count, rng, why):
        """Draw ``count`` cards for ``seat``; when the Ritual Deck runs out the discard pile is
        shuffled into a new deck (rulebook "Ritual Cards"). Draws fewer if both are empty."""
        while count > 0:
            st = em.state
            if not st["deck"]:
                if not st["discard"]:
                    return
                em.emit("realm.deck.reshuffled", {"order": rng.shuffled(st["discard"])})
                st = em.state
            take = st["deck"][: min(count, len(st["deck"]))]
            em.emit("realm.cards.drawn", {"seat": seat, "cards": take, "why": why}, True)
            count -= len(take)

    def _acting(self, st, seat, *, ending=False):
        require(st["phase"] in ("act",), "not_now", _phase_message(st))
        require(seat == st["turn"], "not_your_turn", "It is not your turn.")
        require(st["take"] is None, "take_pending", "First take a card from the hand you see.")
        if not ending:
            require(not st["must_end"], "turn_over", "Your turn is over: reset your hand.")

    def _hand_cards(self, st, seat, cards, code="not_in_hand"):
        if isinstance(cards, str):  # one ticked box arrives as a string from a form
            cards = [cards]
        require(
            isinstance(cards, list) and all(isinstance(c, str) for c in cards),
            "bad_cards",
            "Choose cards from your hand.",
        )
        require(len(set(cards)) == len(cards), "bad_cards", "Each card can be played once.")
        hand = st["players"][seat]["hand"]
        require(all(c in hand for c in cards), code, "Those cards are not in your hand.")
        return cards

    def _cmd_turn_purge(self, em, seat, data, rng):
        """``{}``: discard the whole hand and draw as many; only when no action was taken this
        turn; the turn then ends (rulebook "Purge")."""
        st = em.state
        self._acting(st, seat)
        require(not st["acted"], "already_acted", "You can only purge before any other action.")
        hand = list(st["players"][seat]["hand"])
        em.emit("realm.turn.purged", {"seat": seat, "cards": hand})
        self._draw(em, seat, len(hand), rng, "purge")

    def _cmd_turn_end(self, em, seat, data, rng):
        """``{"discard": [ids]}``: Reset (rulebook "Step 3 - End Your Turn"): the hand to exactly 5
        (or a curse's size) by drawing or by discarding the chosen cards; refill this player's
        Personal Demon, then the Active Demon, from below the Portal Card; the next player
        (clockwise) starts. Codes ``discard_count``."""
        st = em.state
        self._acting(st, seat, ending=True)
        player = st["players"][seat]
        size = C.hand_size(self._effects(st, seat))
        discard = self._hand_cards(st, seat, data.get("discard") or [])
        extra = max(0, len(player["hand"]) - size)
        require(
            len(discard) == extra,
            "discard_count",
            f"Discard exactly {extra} card(s) to keep {size}.",
        )
        if discard:
            em.emit("realm.cards.discarded", {"seat": seat, "cards": discard, "why": "reset"})
        short = size - len(em.state["players"][seat]["hand"])
        if short > 0:
            self._draw(em, seat, short, rng, "reset")
        st = em.state
        if st["players"][seat]["personal"] is None and st["demon_deck"]:
            em.emit(
                "realm.demon.revealed",
                {"seat": seat, "slot": _slot_of(seat), "demon": st["demon_deck"][0]},
            )
        st = em.state
        if st["active"] is None and st["demon_deck"]:
            em.emit(
                "realm.demon.revealed",
                {"seat": seat, "slot": "active", "demon": st["demon_deck"][0]},
            )
        em.emit("realm.turn.ended", {"seat": seat})
        self._start_turn(em, (seat + 1) % em.state["n"], rng)

    # binding (rulebook "Binding a Demon", "Performing the Binding Ritual")

    def _effects(self, st, seat):
        demons = st["content"]["demons"]
        return C.lasting_effects([demons[b["demon"]] for b in st["players"][seat]["bound"]])

    def _cmd_demon_bind(self, em, seat, data, rng):
        """``{"target": "active"|"personal", "cards": [ids], "declare": {vessel: {"suit",
        "rank"}, ace: {"rank"}}}``: reveal a binding ritual. The cards must meet all four corners
        (``cards.solve_binding``, with the binder's curses); no Eater may be attached. Then the
        disruption steps run (rulebook "Disrupting a Binding"). Codes ``no_demon``,
        ``eater_attached``, ``ritual_fails``, ``vessel_undeclared``, ``bad_declaration``."""
        st = em.state
        self._acting(st, seat)
        target = data.get("target")
        require(target in ("active", "personal"), "bad_target", "Bind the Active or your Demon.")
        slot = "active" if target == "active" else _slot_of(seat)
        demon = st["active"] if target == "active" else st["players"][seat]["personal"]
        require(demon is not None, "no_demon", "There is no Demon there to bind.")
        require(
            not st["eaters"].get(slot),
            "eater_attached",
            "An Eater is attached to this Demon: feed it first.",
        )
        cards = self._hand_cards(st, seat, data.get("cards") or [])
        require(1 <= len(cards) <= 4, "ritual_fails", "Play 1 to 4 cards that meet the corners.")
        declare = data.get("declare") or {}
        require(isinstance(declare, dict), "bad_declaration", "Bad declaration.")
        declare = dict(declare)
        for key, value in data.items():  # form fields "vs:<vessel>" / "vr:<vessel>"
            if isinstance(key, str) and key[:3] in ("vs:", "vr:") and value not in ("", None):
                field = "suit" if key[:3] == "vs:" else "rank"
                declare.setdefault(key[3:], {})[field] = str(value)
        declared = C.check_declarations(cards, declare)
        corners = st["content"]["demons"][demon]["corners"]
        assignment = C.solve_binding(corners, cards, declared, self._effects(st, seat))
        effects = self._effects(st, seat)
        require(
            assignment is not None,
            "ritual_fails",
            C.explain_failure(corners, cards, declared, effects)
            + (" Your curses apply." if effects else ""),
        )
        em.emit(
            "realm.ritual.begun",
            {
                "seat": seat,
                "slot": slot,
                "demon": demon,
                "cards": cards,
                "declared": declared,
                "assignment": assignment,
            },
        )
        self._advance(em, rng)

    def _usable(self, st, seat) -> bool:
        """Whether ``seat`` holds a card for the current disruption step (for ``auto_pass``)."""
        ritual = st["ritual"]
        hand = st["players"][seat]["hand"]
        if ritual["step"] == "exorcise":
            ranks = {d["rank"] for d in ritual["declared"].values() if "suit" in d}
            return any(C.printed(c)[1] in ranks for c in hand)
        return any(C.printed(c)[1] == "E" for c in hand)

    def _advance(self, em, rng):
        """Run the automatic parts of a ritual: skipped prompts (``auto_pass``), a binder who
        cannot feed, and the binding itself once every opponent passed."""
        while True:
            st = em.state
            ritual = st["ritual"]
            if ritual is None:
                return
            if ritual["step"] == "bound":
                self._bind(em, rng)
                return
            if ritual["step"] == "feed":
                eater_suit = C.printed(ritual["eater"])[0]
                hand = st["players"][ritual["binder"]]["hand"]
                if not any(C.printed(c)[0] == eater_suit for c in hand):
                    em.emit(
                        "realm.ritual.disrupted",
                        {"seat": ritual["binder"], "eater": ritual["eater"], "auto": True},
                    )
                return
            if st["options"].get("auto_pass") == "on" and not self._usable(st, ritual["responder"]):
                em.emit(
                    "realm.ritual.passed",
                    {"seat": ritual["responder"], "step": ritual["step"], "auto": True},
                )
                continue
            return

    def _bind(self, em, rng):
        st = em.state
        ritual = st["ritual"]
        seat = ritual["binder"]
        demon = st["content"]["demons"][ritual["demon"]]
        em.emit(
            "realm.demon.bound",
            {
                "seat": seat,
                "slot": ritual["slot"],
                "demon": ritual["demon"],
                "cards": ritual["cards"],
                "personal": ritual["slot"] == _slot_of(seat),
            },
            True,
        )
        if demon.get("lasting"):
            return
        n = st["n"]
        for effect in demon.get("effects", []):
            op = effect["op"]
            if op == "draw":
                self._draw(em, seat, effect["count"], rng, "curse")
            elif op == "opponents_draw":
                for k in range(1, n):
                    self._draw(em, (seat + k) % n, effect["count"], rng, "curse")
            elif op == "discard_random":
                hand = em.state["players"][seat]["hand"]
                lost = rng.sample(hand, min(effect["count"], len(hand))) if hand else []
                if lost:
                    em.emit("realm.cards.discarded", {"seat": seat, "cards": lost, "why": "curse"})
            elif op == "return_vessels":
                vessels = [c for c in em.state["players"][seat]["hand"] if C.is_vessel(c)]
                if vessels:
                    em.emit(
                        "realm.cards.discarded", {"seat": seat, "cards": vessels, "why": "curse"}
                    )

    def _responder_check(self, st, seat, step):
        require(st["phase"] == "ritual", "not_now", "No ritual is being performed.")
        ritual = st["ritual"]
        require(ritual["step"] == step, "not_now", _phase_message(st))
        require(ritual["responder"] == seat, "not_your_prompt", "Another player must answer.")
        return ritual

    def _cmd_ritual_pass(self, em, seat, data, rng):
        """``{}``: the prompted opponent lets the ritual proceed (no exorcism / no Eater)."""
        st = em.state
        require(st["phase"] == "ritual", "not_now", "No ritual is being performed.")
        step = st["ritual"]["step"]
        require(step in ("exorcise", "eater"), "not_now", _phase_message(st))
        self._responder_check(st, seat, step)
        em.emit("realm.ritual.passed", {"seat": seat, "step": step, "auto": False})
        self._advance(em, rng)

    def _cmd_ritual_exorcise(self, em, seat, data, rng):
        """``{"vessel": id, "card": id}``: the player on the binder's left exorcises one Vessel
        with a card whose printed rank is the Vessel's declared rank: the ritual fails, the
        Vessel returns to its stack, the other cards to the binder's hand, whose turn ends
        (rulebook "Exorcising a Vessel"). Codes ``bad_vessel``, ``rank_mismatch``."""
        st = em.state
        ritual = self._responder_check(st, seat, "exorcise")
        vessel = data.get("vessel")
        require(
            vessel in ritual["declared"] and C.is_vessel(vessel),
            "bad_vessel",
            "Choose a Vessel of this ritual.",
        )
        card = data.get("card")
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        require(
            C.printed(card)[1] == ritual["declared"][vessel]["rank"],
            "rank_mismatch",
            f"Exorcise it with a {ritual['declared'][vessel]['rank']} from your hand.",
        )
        em.emit(
            "realm.vessel.exorcised",
            {"seat": seat, "binder": ritual["binder"], "vessel": vessel, "card": card},
        )

    def _cmd_ritual_eater(self, em, seat, data, rng):
        """``{"card": id}``: the prompted opponent plays an Eater onto the demon being bound;
        the binder must feed it at once (rulebook "Eater Disruption"). Code ``not_eater``."""
        st = em.state
        self._responder_check(st, seat, "eater")
        card = data.get("card")
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        require(C.printed(card)[1] == "E", "not_eater", "Play an Eater.")
        em.emit("realm.ritual.eater_played", {"seat": seat, "card": card})
        self._advance(em, rng)

    def _feed_check(self, st, seat):
        require(
            st["phase"] == "ritual" and st["ritual"]["step"] == "feed",
            "not_now",
            _phase_message(st),
        )
        require(st["ritual"]["binder"] == seat, "not_your_prompt", "Only the binder feeds.")
        return st["ritual"]

    def _cmd_ritual_feed(self, em, seat, data, rng):
        """``{"card": id}``: the binder feeds the Eater a Ritual Card of its suit; the same
        opponent may then play another Eater (rulebook "Eater Disruption"). Code
        ``suit_mismatch``."""
        st = em.state
        ritual = self._feed_check(st, seat)
        card = data.get("card")
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        require(
            C.printed(card)[0] == C.printed(ritual["eater"])[0],
            "suit_mismatch",
            "Feed the Eater a card of its suit.",
        )
        em.emit("realm.ritual.fed", {"seat": seat, "eater": ritual["eater"], "card": card})
        self._advance(em, rng)

    def _cmd_ritual_yield(self, em, seat, data, rng):
        """``{}``: the binder does not feed the Eater: the binding is disrupted, the Eater stays
        on the demon, the ritual cards return to hand and the turn ends."""
        ritual = self._feed_check(em.state, seat)
        em.emit("realm.ritual.disrupted", {"seat": seat, "eater": ritual["eater"], "auto": False})

    # other actions (rulebook "Releasing a Demon", "Realm Wardens", "Vessels", "The Mimics")

    def _cmd_demon_release(self, em, seat, data, rng):
        """``{"demon": id}``: move one of your bound demons to the bottom of the Demon Deck, its
        lasting curse ends, draw 3 cards (rulebook "Releasing a Demon"). Code ``not_bound``."""
        st = em.state
        self._acting(st, seat)
        demon = data.get("demon")
        require(
            any(b["demon"] == demon for b in st["players"][seat]["bound"]),
            "not_bound",
            "That Demon is not bound to you.",
        )
        em.emit("realm.demon.released", {"seat": seat, "demon": demon})
        self._draw(em, seat, 3, rng, "release")

    def _cmd_vessel_summon(self, em, seat, data, rng):
        """``{"cards": [3 ids]}``: three Ritual Cards of one printed suit or one printed rank go
        to the discard pile; take a Vessel from the stack (rulebook "Vessels"). Codes
        ``not_three_of_a_kind``, ``no_vessel``."""
        st = em.state
        self._acting(st, seat)
        cards = self._hand_cards(st, seat, data.get("cards") or [])
        faces = [C.printed(c) for c in cards]
        require(
            len(cards) == 3
            and all(f[0] for f in faces)
            and (len({f[0] for f in faces}) == 1 or len({f[1] for f in faces}) == 1),
            "not_three_of_a_kind",
            "Summon with three cards of one suit or one rank.",
        )
        require(bool(st["vessels"]), "no_vessel", "The Vessel Stack is empty.")
        em.emit("realm.vessel.summoned", {"seat": seat, "cards": cards, "vessel": st["vessels"][0]})

    def _eater_slot(self, st, slot):
        if slot == "active":
            return st["active"]
        if isinstance(slot, str) and slot.startswith("p") and slot[1:].isdigit():
            k = int(slot[1:])
            if 0 <= k < st["n"]:
                return st["players"][k]["personal"]
        return None

    def _cmd_eater_attach(self, em, seat, data, rng):
        """``{"card": id, "slot": "active"|"p<seat>"}``: attach an Eater from your hand to an
        unbound demon; it cannot be bound until fed (rulebook "Eaters")."""
        st = em.state
        self._acting(st, seat)
        card = data.get("card")
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        require(C.printed(card)[1] == "E", "not_eater", "Play an Eater.")
        slot = data.get("slot")
        require(self._eater_slot(st, slot) is not None, "no_demon", "Choose an unbound Demon.")
        em.emit("realm.eater.attached", {"seat": seat, "card": card, "slot": slot})

    def _cmd_eater_feed(self, em, seat, data, rng):
        """``{"slot", "eater": id, "card": id}``: feed an attached Eater a Ritual Card of its suit;
        both go to the discard pile (rulebook "Eaters"). Codes ``no_eater``, ``suit_mismatch``."""
        st = em.state
        self._acting(st, seat)
        slot, eater, card = data.get("slot"), data.get("eater"), data.get("card")
        require(
            isinstance(slot, str) and eater in st["eaters"].get(slot, []),
            "no_eater",
            "No such Eater there.",
        )
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        require(
            C.printed(card)[0] == C.printed(eater)[0],
            "suit_mismatch",
            "Feed the Eater a card of its suit.",
        )
        em.emit("realm.eater.fed", {"seat": seat, "slot": slot, "eater": eater, "card": card})

    def _look(self, em, seat, data, rng, kind, rank, ask, choose):
        st = em.state
        self._acting(st, seat)
        card = data.get("card")
        self._hand_cards(st, seat, [card] if isinstance(card, str) else None)
        if kind == "mimic":
            require(C.is_mimic(card), "wrong_card", "Play a Mimic.")
        else:
            require(C.printed(card)[1] == rank, "wrong_card", f"Play a {kind.title()}.")
        target = _int(data.get("opponent"))
        require(
            target is not None and 0 <= target < st["n"] and target != seat,
            "bad_target",
            "Choose an opponent.",
        )
        em.emit(
            "realm.warden.played",
            {"seat": seat, "card": card, "kind": kind, "target": target, "ask": ask},
        )
        hand = list(em.state["players"][target]["hand"])
        choices = [c for c in hand if choose(c)]
        em.emit(
            "realm.hand.shown",
            {
                "seat": seat,
                "target": target,
                "kind": kind,
                "ask": ask,
                "cards": hand,
                "choices": choices,
            },
            True,
        )
        if not choices:
            self._draw(em, seat, 1, rng, kind)

    def _cmd_warden_seeker(self, em, seat, data, rng):
        """``{"card": Seeker id, "opponent": seat, "suit": D|V|S|C}``: see the opponent's hand,
        take an Ace-10 of that suit, or draw a card if there is none (rulebook "Seekers")."""
        suit = data.get("suit")
        require(suit in C.SUITS, "bad_suit", "Name a suit.")

        def fits(c):
            s, r = C.printed(c)
            return s == suit and (r == "A" or r in C.NUMERIC_RANKS)

        self._look(em, seat, data, rng, "seeker", "S", suit, fits)

    def _cmd_warden_keeper(self, em, seat, data, rng):
        """``{"card": Keeper id, "opponent": seat, "parity": "odd"|"even"}``: see the opponent's
        hand, take a card of that parity (Wardens, Aces, Mimics, Vessels are neither), or draw
        (rulebook "Keepers", FAQ "Even or Odd")."""
        par = data.get("parity")
        require(par in ("odd", "even"), "bad_parity", "Choose odd or even.")
        self._look(em, seat, data, rng, "keeper", "K", par, lambda c: C.parity(c) == par)

    def _cmd_mimic_play(self, em, seat, data, rng):
        """``{"card": Mimic id, "opponent": seat}``: see the opponent's hand and take a
        non-Vessel card (rulebook "The Mimics"); with none, draw a card (our choice)."""
        self._look(em, seat, data, rng, "mimic", None, None, lambda c: not C.is_vessel(c))

    def _cmd_card_take(self, em, seat, data, rng):
        """``{"card": id}``: take the chosen card from the hand you are looking at."""
        st = em.state
        take = st["take"]
        require(take is not None and take["seat"] == seat, "not_now", "You are not choosing.")
        require(data.get("card") in take["choices"], "bad_card", "Choose one of the cards offered.")
        em.emit("realm.card.taken", {"seat": seat, "target": take["target"], "card": data["card"]})

    # winning (rulebook "How to Win")

    def pact_of(self, st, seat):
        """The pact dict that ``seat`` plays for (the shared Acolyte Pact or their own), or
        None before it is chosen."""
        pact_id = st["acolyte"] or st["players"][seat]["pact"]
        return st["content"]["pacts"].get(pact_id) if pact_id else None

    def bound_demons(self, st, seat):
        demons = st["content"]["demons"]
        return [
            dict(demons[b["demon"]], personal=b["personal"]) for b in st["players"][seat]["bound"]
        ]

    def _cmd_pact_announce(self, em, seat, data, rng):
        """``{}``: announce that your Pact is met: you win, your Pact is revealed (rulebook
        "How to Win"). Code ``pact_not_met``."""
        st = em.state
        require(st["phase"] in ("act", "ritual"), "not_now", _phase_message(st))
        pact = self.pact_of(st, seat)
        require(
            pact is not None and C.pact_met(pact["conditions"], self.bound_demons(st, seat)),
            "pact_not_met",
            "Your Pact is not met yet.",
        )
        em.emit("realm.pact.fulfilled", {"seat": seat, "pact": pact["id"]}, True)

    # --- view ---------------------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """All that ``seat`` may see (None: a spectator). Public: demon fronts (corners only)
        and Eaters, bound demons in full, counts of hands, Vessels in hand (FAQ "Public
        Information"), decks and the Vessel Stack, the discard pile, the ritual being revealed,
        Afflictions, the Acolyte Pact. Private to ``seat``: its hand, its secret Pact, the
        hand it is looking at, its Affliction offer and its prompts. Never: another seat's hand
        or secret Pact, any demon's back before it is bound, the deck order."""
        st = state
        if st.get("phase") in (None, "new"):
            return {"phase": "new"}
        n = st["n"]
        demons = st["content"]["demons"]
        me = seat if seat is not None and 0 <= seat < n else None

        def front(demon_id, slot):
            if demon_id is None:
                return None
            return {
                "slot": slot,
                "corners": [_corner(c) for c in demons[demon_id]["corners"]],
                "eaters": [C.card_info(e) for e in st["eaters"].get(slot, [])],
            }

        players = []
        for k in range(n):
            p = st["players"][k]
            bound = [
                dict(_demon_public(demons[b["demon"]]), personal=b["personal"]) for b in p["bound"]
            ]
            pact = None
            if st["winner"] == k or (k == me and p["pact"]):
                pact = _pact_public(self.pact_of(st, k))
            players.append(
                {
                    "seat": k,
                    "name": st["names"][k],
                    "hand_count": len(p["hand"]),
                    "vessels_in_hand": sum(1 for c in p["hand"] if C.is_vessel(c)),
                    "personal": front(p["personal"], _slot_of(k)),
                    "bound": bound,
                    "affliction": st["content"]["afflictions"].get(p["affliction"]),
                    "has_pact": p["pact"] is not None or st["acolyte"] is not None,
                    "pact": pact,
                    "is_turn": st["turn"] == k and st["phase"] in ("act", "ritual"),
                    "is_me": k == me,
                }
            )
        ritual = None
        if st["ritual"]:
            r = st["ritual"]
            ritual = {
                "binder": r["binder"],
                "binder_name": st["names"][r["binder"]],
                "slot": r["slot"],
                "target_label": "the Active Demon"
                if r["slot"] == "active"
                else "their Personal Demon",
                "corners": [_corner(c) for c in demons[r["demon"]]["corners"]],
                "cards": [C.card_info(c) for c in r["cards"]],
                "declared": r["declared"],
                "assignment": [
                    dict(
                        a,
                        wild=C.is_vessel(a["card"]) or C.printed(a["card"])[1] == "A",
                        suit_label=C.SUIT_NAMES.get(a["suit"], ""),
                        card_label=C.card_label(a["card"]),
                        corner_label=C.corner_label(a["corner"]),
                    )
                    for a in r["assignment"]
                ],
                "step": r["step"],
                "responder": r["responder"],
                "responder_name": st["names"][r["responder"]]
                if r["responder"] is not None
                else None,
                "eater": C.card_info(r["eater"]) if r["eater"] else None,
                # the next pass completes the binding (and reveals the curse): confirm it
                "pass_binds": r["step"] == "eater"
                and r["responder"] is not None
                and (r["responder"] + 1) % n == r["binder"],
            }
        acolyte = st["content"]["pacts"].get(st["acolyte"]) if st["acolyte"] else None
        view = {
            "phase": st["phase"],
            "n": n,
            "turn": st["turn"],
            "turn_name": st["names"][st["turn"]] if st["turn"] is not None else None,
            "turn_no": st["turn_no"],
            "active": front(st["active"], "active"),
            "demon_deck_count": len(st["demon_deck"]),
            "deck_count": len(st["deck"]),
            "discard_count": len(st["discard"]),
            "discard_top": [C.card_info(c) for c in st["discard"][-5:]][::-1],
            "vessel_stack": len(st["vessels"]),
            "players": players,
            "ritual": ritual,
            "acolyte": _pact_public(acolyte) if acolyte else None,
            "pact_slots": len(st["pact_slots"]) if st["acolyte"] is None else 0,
            "pact_slot_list": list(range(len(st["pact_slots"]))) if st["acolyte"] is None else [],
            "last_curse": dict(st["last_curse"], who=st["names"][st["last_curse"]["seat"]])
            if st["last_curse"]
            else None,
            "winner": st["winner"],
            "winner_name": st["names"][st["winner"]] if st["winner"] is not None else None,
            "log": st["log"][-8:][::-1],
            "affliction_drawer": st["afflictions"]["drawer"],
            "seat": me,
            "me": None,
            "suit_choices": [[s, C.SUIT_NAMES[s], C.SUIT_SYMBOLS[s]] for s in C.SUITS],
            "rank_choices": list(C.NUMERIC_RANKS),
        }
        if me is not None:
            view["me"] = self._private(st, me)
        return view

    def _private(self, st, me):
        p = st["players"][me]
        pact = self.pact_of(st, me)
        size = C.hand_size(self._effects(st, me))
        prompts = {}
        r = st["ritual"]
        if r and r["responder"] == me and r["step"] == "exorcise":
            prompts["exorcise"] = [
                {
                    "vessel": v,
                    "rank": d["rank"],
                    "suit": d["suit"],
                    "cards": [C.card_info(c) for c in p["hand"] if C.printed(c)[1] == d["rank"]],
                }
                for v, d in r["declared"].items()
                if C.is_vessel(v)
            ]
        if r and r["responder"] == me and r["step"] == "eater":
            prompts["eater"] = [C.card_info(c) for c in p["hand"] if C.printed(c)[1] == "E"]
        if r and r["binder"] == me and r["step"] == "feed":
            suit = C.printed(r["eater"])[0]
            prompts["feed"] = [C.card_info(c) for c in p["hand"] if C.printed(c)[0] == suit]
        take = st["take"] if st["take"] and st["take"]["seat"] == me else None
        opponents = [{"seat": k, "name": st["names"][k]} for k in range(st["n"]) if k != me]
        slots = ([{"slot": "active", "label": "the Active Demon"}] if st["active"] else []) + [
            {"slot": _slot_of(k), "label": f"{st['names'][k]}'s Personal Demon"}
            for k in range(st["n"])
            if st["players"][k]["personal"]
        ]
        aff = st["afflictions"]
        my_turn = st["turn"] == me and st["phase"] == "act" and st["take"] is None
        return {
            "hand": [C.card_info(c) for c in p["hand"]],
            "vessels": [c for c in p["hand"] if C.is_vessel(c)],
            "powers": [
                C.card_info(c)
                for c in p["hand"]
                if C.is_mimic(c) or C.printed(c)[1] in C.WARDEN_RANKS
            ],
            "opponents": opponents,
            "eater_slots": slots,
            "bound": [
                {"id": b["demon"], "name": st["content"]["demons"][b["demon"]]["name"]}
                for b in p["bound"]
            ],
            "pact": _pact_public(pact) if pact else None,
            "pact_progress": C.pact_progress(pact["conditions"], self.bound_demons(st, me))
            if pact
            else [],
            "pact_met": bool(pact) and C.pact_met(pact["conditions"], self.bound_demons(st, me)),
            "must_choose_pact": st["phase"] == "prelude"
            and st["acolyte"] is None
            and p["pact"] is None,
            "affliction_offer": [st["content"]["afflictions"][a] for a in aff["offer"]]
            if aff["drawer"] == me
            else [],
            "glimpse": _glimpse(st["glimpse"][me]),
            "take": [C.card_info(c) for c in take["choices"]] if take else [],
            "prompts": prompts,
            "my_turn": my_turn,
            "can_act": my_turn and not st["must_end"],
            "can_purge": my_turn and not st["must_end"] and not st["acted"],
            "hand_size": size,
            "discard_needed": max(0, len(p["hand"]) - size),
            "curses": [e for e in self._effects(st, me)],
        }


# --- evolvers ----------------------------------------------------------------------------


def _log(st, text):
    st["log"] = (st["log"] + [text])[-30:]


def _name(st, seat):
    return st["names"][seat]


def _ev_opened(st, d):
    n = len(d["names"])
    st.update(
        n=n,
        names=d["names"],
        options=d["options"],
        content=d["content"],
        active=d["active"],
        demon_deck=list(d["demon_deck"]),
        deck=list(d["deck"]),
        discard=list(d.get("discard", [])),
        vessels=list(d["vessels"]),
        eaters={},
        players=[
            {
                "hand": list(d["hands"][k]),
                "personal": d["personal"][k],
                "bound": [],
                "pact": None,
                "affliction": None,
            }
            for k in range(n)
        ],
        first=d["first"],
        turn=None,
        turn_no=0,
        phase="prelude",
        acted=False,
        must_end=False,
        ritual=None,
        take=None,
        glimpse=[None] * n,
        acolyte=d["acolyte"],
        pact_slots=list(d["pact_slots"]),
        afflictions={
            "deck": list(d["affliction_deck"][2:]),
            "drawer": d["affliction_drawer"],
            "offer": list(d["affliction_deck"][:2]),
        },
        winner=None,
        last_curse=None,
        log=[],
    )
    if d["affliction_drawer"] is None:
        st["afflictions"]["offer"] = []
    _log(st, f"The Realm opens for {n} players.")


def _ev_pact_chosen(st, d):
    st["pact_slots"].remove(d["pact"])
    st["players"][d["seat"]]["pact"] = d["pact"]
    _log(st, f"{_name(st, d['seat'])} chose a Pact.")


def _ev_affliction_given(st, d):
    aff = st["afflictions"]
    st["players"][d["to"]]["affliction"] = d["card"]
    aff["offer"] = []
    if any(p["affliction"] is None for p in st["players"]):
        aff["drawer"] = d["to"]
        aff["offer"], aff["deck"] = aff["deck"][:2], aff["deck"][2:]
    else:
        aff["drawer"] = None
    name = st["content"]["afflictions"][d["card"]]["name"]
    _log(st, f"{_name(st, d['seat'])} gave {name} to {_name(st, d['to'])}.")


def _ev_turn_started(st, d):
    st.update(turn=d["seat"], phase="act", acted=False, must_end=False, take=None)
    st["turn_no"] += 1
    st["glimpse"] = [None] * st["n"]
    _log(st, f"{_name(st, d['seat'])}'s turn.")


def _ev_drawn(st, d):
    k = len(d["cards"])
    assert st["deck"][:k] == d["cards"], "drawn cards are not the top of the deck"
    st["deck"] = st["deck"][k:]
    st["players"][d["seat"]]["hand"] += d["cards"]
    _log(st, f"{_name(st, d['seat'])} drew {k} card{'s' if k != 1 else ''}.")


def _ev_reshuffled(st, d):
    assert sorted(d["order"]) == sorted(st["discard"]), "reshuffle must use the discard pile"
    st["deck"] = st["deck"] + list(d["order"])
    st["discard"] = []
    _log(st, "The discard pile was shuffled into a new Ritual Deck.")


def _to_discard(st, cards):
    for c in cards:
        (st["vessels"] if C.is_vessel(c) else st["discard"]).append(c)


def _from_hand(st, seat, cards):
    hand = st["players"][seat]["hand"]
    for c in cards:
        hand.remove(c)


def _ev_discarded(st, d):
    _from_hand(st, d["seat"], d["cards"])
    _to_discard(st, d["cards"])
    k = len(d["cards"])
    _log(st, f"{_name(st, d['seat'])} discarded {k} card{'s' if k != 1 else ''}.")


def _ev_purged(st, d):
    _from_hand(st, d["seat"], d["cards"])
    _to_discard(st, d["cards"])
    st.update(acted=True, must_end=True)
    _log(st, f"{_name(st, d['seat'])} purged {len(d['cards'])} cards.")


def _ev_ritual_begun(st, d):
    _from_hand(st, d["seat"], d["cards"])
    n = st["n"]
    has_vessel = any(C.is_vessel(c) for c in d["cards"])
    st["ritual"] = {
        "binder": d["seat"],
        "slot": d["slot"],
        "demon": d["demon"],
        "cards": list(d["cards"]),
        "declared": d["declared"],
        "assignment": d["assignment"],
        "step": "exorcise" if has_vessel else "eater",
        "responder": (d["seat"] + 1) % n,
        "eater": None,
    }
    st.update(phase="ritual", acted=True)
    _log(st, f"{_name(st, d['seat'])} began a binding ritual with {len(d['cards'])} cards.")


def _ev_ritual_passed(st, d):
    r = st["ritual"]
    if r["step"] == "exorcise":
        r["step"] = "eater"
        r["responder"] = (r["binder"] + 1) % st["n"]
    else:
        nxt = (r["responder"] + 1) % st["n"]
        if nxt == r["binder"]:
            r["step"], r["responder"] = "bound", None
        else:
            r["responder"] = nxt
    _log(st, f"{_name(st, d['seat'])} passed.")


def _end_ritual(st, back_to_hand):
    r = st["ritual"]
    st["players"][r["binder"]]["hand"] += back_to_hand
    st.update(ritual=None, phase="act", must_end=True)


def _ev_exorcised(st, d):
    r = st["ritual"]
    _from_hand(st, d["seat"], [d["card"]])
    st["discard"].append(d["card"])
    st["vessels"].append(d["vessel"])
    _end_ritual(st, [c for c in r["cards"] if c != d["vessel"]])
    _log(st, f"{_name(st, d['seat'])} exorcised a Vessel: the ritual fails.")


def _ev_eater_played(st, d):
    _from_hand(st, d["seat"], [d["card"]])
    st["ritual"].update(step="feed", eater=d["card"])
    _log(st, f"{_name(st, d['seat'])} played the {C.card_label(d['card'])} on the ritual.")


def _ev_ritual_fed(st, d):
    r = st["ritual"]
    _from_hand(st, d["seat"], [d["card"]])
    st["discard"] += [r["eater"], d["card"]]
    r.update(step="eater", eater=None)
    _log(st, f"{_name(st, d['seat'])} fed the Eater.")


def _ev_disrupted(st, d):
    r = st["ritual"]
    st["eaters"].setdefault(r["slot"], []).append(r["eater"])
    _end_ritual(st, list(r["cards"]))
    _log(st, f"The Eater disrupted {_name(st, d['seat'])}'s binding.")


def _ev_bound(st, d):
    seat = d["seat"]
    _to_discard(st, d["cards"])
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
    _log(st, f'{_name(st, seat)} bound {demon["name"]}: "{demon["curse"]}"')


def _ev_released(st, d):
    bound = st["players"][d["seat"]]["bound"]
    bound[:] = [b for b in bound if b["demon"] != d["demon"]]
    st["demon_deck"].append(d["demon"])
    st["acted"] = True
    name = st["content"]["demons"][d["demon"]]["name"]
    _log(st, f"{_name(st, d['seat'])} released {name}.")


def _ev_revealed(st, d):
    assert st["demon_deck"][0] == d["demon"]
    st["demon_deck"].pop(0)
    if d["slot"] == "active":
        st["active"] = d["demon"]
    else:
        st["players"][int(d["slot"][1:])]["personal"] = d["demon"]
    _log(st, "A new Demon emerges from below the Portal.")


def _ev_summoned(st, d):
    _from_hand(st, d["seat"], d["cards"])
    st["discard"] += d["cards"]
    st["vessels"].remove(d["vessel"])
    st["players"][d["seat"]]["hand"].append(d["vessel"])
    st["acted"] = True
    _log(st, f"{_name(st, d['seat'])} summoned a Vessel.")


def _ev_attached(st, d):
    _from_hand(st, d["seat"], [d["card"]])
    st["eaters"].setdefault(d["slot"], []).append(d["card"])
    st["acted"] = True
    _log(st, f"{_name(st, d['seat'])} attached the {C.card_label(d['card'])}.")


def _ev_eater_fed(st, d):
    _from_hand(st, d["seat"], [d["card"]])
    st["eaters"][d["slot"]].remove(d["eater"])
    if not st["eaters"][d["slot"]]:
        del st["eaters"][d["slot"]]
    st["discard"] += [d["eater"], d["card"]]
    st["acted"] = True
    _log(st, f"{_name(st, d['seat'])} fed the {C.card_label(d['eater'])}.")


def _ev_warden_played(st, d):
    _from_hand(st, d["seat"], [d["card"]])
    st["discard"].append(d["card"])
    st["acted"] = True
    ask = {
        "seeker": f" naming {C.SUIT_NAMES.get(d['ask'], '')}",
        "keeper": f" naming {d['ask']}",
    }.get(d["kind"], "")
    _log(
        st, f"{_name(st, d['seat'])} played a {d['kind'].title()} on {_name(st, d['target'])}{ask}."
    )


def _ev_hand_shown(st, d):
    st["glimpse"][d["seat"]] = {
        "target": d["target"],
        "kind": d["kind"],
        "ask": d["ask"],
        "cards": list(d["cards"]),
    }
    st["take"] = (
        {"seat": d["seat"], "target": d["target"], "choices": list(d["choices"])}
        if d["choices"]
        else None
    )


def _ev_taken(st, d):
    _from_hand(st, d["target"], [d["card"]])
    st["players"][d["seat"]]["hand"].append(d["card"])
    st["take"] = None
    _log(st, f"{_name(st, d['seat'])} took a card from {_name(st, d['target'])}.")


def _ev_turn_ended(st, d):
    _log(st, f"{_name(st, d['seat'])} ended the turn.")


def _ev_fulfilled(st, d):
    st.update(phase="over", winner=d["seat"])
    _log(
        st,
        f"{_name(st, d['seat'])} fulfilled the Pact "
        f"{st['content']['pacts'][d['pact']]['name']} and wins!",
    )


_EVOLVERS = {
    OPENED: _ev_opened,
    "realm.pact.chosen": _ev_pact_chosen,
    "realm.affliction.given": _ev_affliction_given,
    "realm.turn.started": _ev_turn_started,
    "realm.cards.drawn": _ev_drawn,
    "realm.deck.reshuffled": _ev_reshuffled,
    "realm.cards.discarded": _ev_discarded,
    "realm.turn.purged": _ev_purged,
    "realm.ritual.begun": _ev_ritual_begun,
    "realm.ritual.passed": _ev_ritual_passed,
    "realm.vessel.exorcised": _ev_exorcised,
    "realm.ritual.eater_played": _ev_eater_played,
    "realm.ritual.fed": _ev_ritual_fed,
    "realm.ritual.disrupted": _ev_disrupted,
    "realm.demon.bound": _ev_bound,
    "realm.demon.released": _ev_released,
    "realm.demon.revealed": _ev_revealed,
    "realm.vessel.summoned": _ev_summoned,
    "realm.eater.attached": _ev_attached,
    "realm.eater.fed": _ev_eater_fed,
    "realm.warden.played": _ev_warden_played,
    "realm.hand.shown": _ev_hand_shown,
    "realm.card.taken": _ev_taken,
    "realm.turn.ended": _ev_turn_ended,
    "realm.pact.fulfilled": _ev_fulfilled,
}


# --- view helpers ------------------------------------------------------------------------


def _corner(c):
    return {
        "value": c,
        "label": C.corner_label(c),
        "symbol": C.SUIT_SYMBOLS.get(c, c),
        "is_suit": c in C.SUITS,
    }


def _demon_public(d):
    return {
        "id": d["id"],
        "name": d["name"],
        "title": d.get("title", ""),
        "lore": d.get("lore", ""),
        "curse": d["curse"],
        "lasting": d.get("lasting", False),
        "corners": [_corner(c) for c in d["corners"]],
    }


def _pact_public(p):
    if p is None:
        return None
    return {"id": p["id"], "name": p["name"], "text": p["text"], "side": p.get("side", "")}


def _glimpse(g):
    if not g:
        return None
    return {
        "target": g["target"],
        "kind": g["kind"],
        "ask": g["ask"],
        "cards": [C.card_info(c) for c in g["cards"]],
    }


def _phase_message(st):
    if st["phase"] == "prelude":
        return "The game starts once every Pact and Affliction is given."
    if st["phase"] == "ritual":
        return "A binding ritual is waiting for answers."
    return "Not now."


def _int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None

"""Personal Demons as a Ruleset of the live-table kit (rulebook: personal-demons-rulebook.txt),
written with the decider toolkit (``tabletop.decider``; KIT.md section 1). Pure: no Django.

Where is what (one topic per part of the rulebook):

- ``setup``: options, the deal (A-L), each player's Fear and two Personal Demons;
- ``summoning``: Place, Reveal, Sin and Seal steps (in unison);
- ``bonus``: the bonus step (Face Fear, Fragment, Royal, the drawn card);
- ``personal``: Summon Personal Demon and colossal abilities ("may" choices, forced discards);
- ``seals``: forming and removing seals, requirements;  ``sins``: the gauges, More Sins;
- ``courage``: three Courage maximum, Keeper, the end-phase discards;
- ``scoring``: seals, Knights, Courage, the end of the game, the solo rating;
- ``cadence``: moving the ritual on when everyone is ready (Pass, Discard, End Phase);
- ``decks``: drawing and reshuffling;  ``physical``: a table with real cards;
- ``board``: the circle's geometry and placement rules (pure functions); ``content``: card
  validation, the demo set; ``view``: what each phone sees; ``state``: the declared shapes.

Setup content (the card faces and the circle) is data: the app's content provider
(``tabletop/personal_demons/content_db.py``, registered in ``AppConfig.ready``) gathers the
admin-edited faces when the table starts and the kit hands them to ``setup`` as ``content``.

Choices where the rulebook is silent (documented in the docstrings that apply them; see also
the app's README): the app draws the Leader; a card left face down on top of others removes the
seals touching it; seals touching any newly placed card are removed and sigils re-checked;
facing a Fear removes its seals; bonus cards give no sin; a drawn Royal-deck card with no legal
place is discarded; Courage type cards count face-up cards on top; Abyss, Inferno, Limbo and
Pan-Demonium count as seals; a player who declined a bonus may act while no later player has.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tabletop.decider import DeciderRuleset, Decision, copy_json
from tabletop.errors import RuleViolation
from tabletop.rules import Command, NewEvent, SeatInfo

from . import board as B
from .bonus import bonus
from .cadence import advance, cadence
from .courage import courage
from .decks import decks
from .personal import personal
from .physical import physical
from .physical import view as physical_view
from .scoring import scoring, solo_rating
from .seals import seals
from .setup import OPTIONS_SCHEMA, deal, filled_options, setup
from .sins import sins
from .state import State
from .summoning import summoning
from .view import build_view

__all__ = ["OPTIONS_SCHEMA", "PersonalDemonsRuleset", "solo_rating"]

# After every app-table command the ritual moves on when everyone is ready.
for _topic in (setup, summoning, bonus, personal, courage):
    _topic.after = advance

_COLOURS = B.COLOURS
_SINS = ("glut", "hate", "want")


class PersonalDemonsRuleset(DeciderRuleset):
    """Personal Demons for 1-4 players (solo meditation with one seat), dealt by the app or
    kept with real cards (option ``table``). Commands are documented in their topics; after
    every app-table command the ritual moves on when everyone is ready (``cadence.advance``,
    wired into the app topics above).

    Errors: the kit's ``not_seated`` (NotAllowed), ``unknown_command`` (also an app command at a
    physical table or the other way round), ``game_over``; at setup ``bad_seats``,
    ``bad_option``, ``bad_card``; the topics' RuleViolation codes."""

    name = "personal_demons"
    title = "Personal Demons"
    min_seats = 1
    max_seats = 4
    template = "personal_demons/live.html"
    bar_template = "personal_demons/_bar.html"  # what the ritual waits for, my next step
    # Everyone places and chooses in unison: undo is each player's own (kit, undo_own_only).
    undo_own_only = True
    # Why Undo is greyed after a final event (tabletop.live.undo_why).
    final_words: ClassVar[dict[str, str]] = {
        "pd.cards.dealt": "cards dealt",
        "pd.card.revealed": "card revealed",
        "pd.personal.summoned": "Demon summoned",
        "pd.card.drawn": "card drawn",
        "pd.courage.taken": "Courage taken",
    }
    stylesheet = "personal_demons/personal_demons.css"
    options_schema = OPTIONS_SCHEMA
    topics = (
        setup,
        decks,
        summoning,
        seals,
        sins,
        bonus,
        personal,
        courage,
        scoring,
        cadence,
        physical,
    )

    def initial_state(self) -> State:
        return {"phase": "new"}

    def setup(
        self, options: dict, seats: tuple[SeatInfo, ...], rng: Any, content: dict | None = None
    ) -> list[NewEvent]:
        """Setup A-L (rulebook "Setup"; solo: "Solo Meditation", A-J), or a physical table.
        ``content``: ``{"cards": [card, ...], "geometry": {...}}`` from the content provider
        (the demo set and the default circle when absent). Raises ``RuleViolation``
        ``bad_seats`` (outside 1-4 seats), ``bad_option``, ``bad_card``."""
        if not 1 <= len(seats) <= 4:
            raise RuleViolation("bad_seats", "Personal Demons is for 1 to 4 players.")
        chosen = filled_options(options)
        names = [s.name for s in sorted(seats, key=lambda s: s.number)]
        if chosen["table"] == "physical":
            leader = rng.randbelow(len(seats)) if len(seats) > 1 else 0
            return [NewEvent("pd.phys.started", {"seats": names, "leader": leader})]
        d = Decision(self, self.initial_state(), None, rng)
        deal(d, chosen, names, content)
        return d.events

    def copy(self, state: State) -> State:
        """The kit's copy policy (``copy_json``), except that the card ``catalog`` and the
        circle ``geometry`` are shared, not copied: they are content, set once by
        ``pd.game.started`` and never changed by any fold (and they are most of the state)."""
        shared = {k: state[k] for k in ("catalog", "geometry") if k in state}  # type: ignore[literal-required]
        rest = copy_json({k: v for k, v in state.items() if k not in shared})
        return {**rest, **shared}  # type: ignore[typeddict-item]

    def is_finished(self, state: State) -> bool:
        """True once the third round is scored (rulebook "End of Game")."""
        return state.get("phase") == "over"

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may see (``view.build_view``; ``physical.view``)."""
        if state.get("mode") == "physical":
            return physical_view(state, seat)
        return build_view(state, seat)

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands ``seat``'s page offers (``personal_demons/live.html`` and
        ``_physical.html``), data as the forms send it ("r,c" spaces, "1"/"0" for face up,
        ``keep[]`` with its empty first value)."""
        if view.get("mode") == "physical":
            return _physical_moves(view)
        me, mine = view.get("me"), view.get("self")
        if not me or not mine or view.get("phase") == "over":
            return []
        out: list[Command] = []
        phase, step = view["phase"], view.get("step")
        if phase == "setup" and not mine["setup_done"]:
            ids = [c["id"] for c in me["candidates"]]
            pairs = [[a, b] for i, a in enumerate(ids) for b in ids[i + 1 :]]
            for cell in me["cells"]:
                for pair in pairs:
                    out.append(
                        Command("pd.setup.choose", {"fear_space": cell["value"], "keep": pair})
                    )
        if phase == "summoning" and step == "place" and not mine["placed"]:
            for c in me["hand"]:
                for cell in me["cells"]:
                    if cell["legal"]:
                        out.append(
                            Command("pd.card.place", {"card": c["id"], "space": cell["value"]})
                        )
        if phase == "summoning" and step == "reveal" and me["placed"] and not me["reveal"]:
            if me["placed"]["can_reveal"]:
                wilds = _COLOURS if me["placed"]["needs_wild"] else (None,)
                for wild in wilds:
                    out.append(
                        Command(
                            "pd.card.reveal",
                            {"face_up": "1", **({"wild_colour": wild} if wild else {})},
                        )
                    )
            for colour in _COLOURS:
                for sin in _SINS:
                    out.append(
                        Command(
                            "pd.card.reveal", {"face_up": "0", "seal_colour": colour, "sin": sin}
                        )
                    )
        if mine.get("drawn"):
            if me["drawn_options"]:
                halves = ("top", "bottom") if me.get("drawn_small") else (None,)
                for cell in me["drawn_cells"]:
                    if cell["legal"]:
                        for half in halves:
                            data = {
                                "space": cell["value"],
                                "wild_colour": "blue",
                                **({"half": half} if half else {}),
                            }
                            out.append(Command("pd.drawn.place", data))
            else:
                out.append(Command("pd.drawn.discard"))
        options = me.get("bonus") or {}
        if (
            phase == "summoning"
            and step == "bonus"
            and options.get("my_turn")
            and options.get("status") != "acted"
            and not mine.get("drawn")
        ):
            if options.get("status") != "declined":
                out.append(Command("pd.bonus.decline"))
            if options["fear"]:
                out.append(Command("pd.bonus.face_fear", {"wild_colour": "blue"}))
            if options["fragment"]:
                out += [Command("pd.bonus.fragment", {"sin": s}) for s in options["sins_for"]["2"]]
            if options["royal"]:
                out += [Command("pd.bonus.royal", {"sin": s}) for s in options["sins_for"]["4"]]
            for c in me["personal"]:
                if c["id"] in options["personal"]:
                    sins_for: list[str | None] = (
                        options["sins_for"]["6"] if c["cost"]["sin"] == "any" else [None]
                    )
                    for anchor in c["anchors"]:
                        for pay_sin in sins_for:
                            data = {
                                "card": c["id"],
                                "space": anchor["value"],
                                "wild_colour": "blue",
                                **({"sin": pay_sin} if pay_sin else {}),
                            }
                            out.append(Command("pd.bonus.personal", data))
        if me.get("courage_over"):
            out += [Command("pd.courage.discard", {"cards": c["id"]}) for c in mine["courage"]]
        if me.get("keeper") is not None:
            pids = [k["pid"] for k in me.get("keeper_items", [])]
            for kept in ([], pids, *([p] for p in pids)):
                out.append(Command("pd.keeper.keep", {"keep": ["", *kept]}))
        for offer in me.get("offers", []):
            out.append(Command("pd.ability.use", {"card": offer["card"]["id"]}))
            out.append(Command("pd.ability.decline", {"card": offer["card"]["id"]}))
        return out


def _physical_moves(view: dict) -> list[Command]:
    """The buttons of ``_physical.html``: Ready, the sin +/− and the bonus payment, Courage
    take/discard, the scoring assistant and the Knight buttons, free points."""
    mine = view.get("self")
    if not mine or view.get("step") == "over":
        return []
    out: list[Command] = []
    if not mine["ready"]:
        # The button every player taps most (the others are tapped now and then).
        out += [Command("pd.phys.ready")] * 40
    for sin in _SINS:
        out.append(Command("pd.phys.sin", {"sin": sin, "amount": 1}))
        out.append(Command("pd.phys.pay", {"sin": sin, "amount": 1}))
        out += [Command("pd.phys.pay", {"sin": sin, "amount": a}) for a in (2, 4, 6)]
    out += [Command("pd.phys.courage", {"delta": 1}), Command("pd.phys.courage", {"delta": -1})]
    if view["step"] == "scoring":
        out.append(Command("pd.phys.seal", {"values": ["2", "3", "", ""]}))
        out.append(Command("pd.phys.points", {"points": 6, "reason": "Royal Knight"}))
        out.append(Command("pd.phys.points", {"points": 3, "reason": "small Knight"}))
    out.append(Command("pd.phys.points", {"points": "4"}))
    return out

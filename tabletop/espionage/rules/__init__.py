"""Demon Espionage as a Ruleset of the live-table kit (rulebook: demon-espionage-rulebook.txt),
written with the decider toolkit (``tabletop.decider``; KIT.md section 1).

The players hold the physical combat cards. The app deals and keeps what must stay secret (the
faction cards and the soul cards), keeps everyone's health, records each duel and referees it, and
ends and scores the game. Pure Python: no Django import.

Where is what (one topic per part of the rulebook):

- ``cards``: the card tables and the referee of a duel (parse, copies, outcome); no events;
- ``preparation``: options, the deal (``espionage.game.prepared``);
- ``turns``: whose turn, changing one's hand, the end of a turn and the draw-back reminder;
- ``duel``: challenge, face-down cards, REVEAL!, confirmation, settling, calling a duel off;
- ``actions``: enhanced action cards recorded face up (and their health change);
- ``health``: health, souls, the 2-health reveal, elimination;
- ``end``: the end of the game and the scoring;
- ``view``: what each phone sees; ``state``: the declared shapes.

Choices where the rulebook is silent (each in the docstring of the function that applies it):

- a Dummy Corpse is a troop of 0 damage points with no R.P.S symbol (``cards.duel_outcome``);
- R.P.S: a symbol beats no symbol; two cards without a symbol tie (``cards.duel_outcome``);
- any action card other than R.P.S played in a duel (Reverse, Damage +2, Negate...) has its effect
  applied by the players at the table, who both confirm the outcome (``RPS_ONLY`` is automatic);
- an eliminated player's souls still count for their faction;
- options: the minority bonus counts dealt or surviving players; a tie in souls is shared or
  settled by survivors or by remaining health; an eliminated player's faction may be shown.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tabletop.decider import DeciderRuleset
from tabletop.rules import Command, NewEvent, SeatInfo

from .actions import actions
from .cards import (
    ACTION_CARDS,
    FACTIONS,
    INITIATOR,
    OPPONENT,
    OUTCOMES,
    REBEL,
    REVEAL_CARDS,
    REVEALS_REQUIRED,
    SHADOW,
    SOUL_CARDS,
    SYMBOLS,
    TIE,
    check_copies,
    duel_outcome,
    parse_actions,
    parse_card,
)
from .duel import duel
from .end import end, minority_faction, score
from .health import health
from .preparation import OPTIONS_SCHEMA, preparation, prepare
from .state import State
from .turns import turns
from .view import view as _view

__all__ = [
    "ACTION_CARDS",
    "FACTIONS",
    "INITIATOR",
    "OPPONENT",
    "OPTIONS_SCHEMA",
    "OUTCOMES",
    "REBEL",
    "REVEALS_REQUIRED",
    "REVEAL_CARDS",
    "SHADOW",
    "SOUL_CARDS",
    "TIE",
    "EspionageRuleset",
    "check_copies",
    "duel_outcome",
    "minority_faction",
    "parse_actions",
    "parse_card",
    "score",
]


class EspionageRuleset(DeciderRuleset):
    """Demon Espionage for 3 to 6 players (Demon Espionage rulebook).

    Commands (``Command.type``: ``data``; each documented in its topic):
    ``espionage.duel.challenge`` ``{"opponent": seat}``, ``espionage.hand.change`` ``{}``
    (``turns``), ``espionage.duel.card`` (a combat card), ``espionage.duel.actions`` (limited
    action cards; reveals), ``espionage.duel.confirm`` ``{"outcome"}`` (reveals; ``duel``),
    ``espionage.action.record`` ``{"card", "target", "health"}`` (reveals; ``actions``).

    Errors: the kit's ``not_seated`` (NotAllowed), ``unknown_command``, ``game_over``; the
    game's RuleViolation codes ``not_your_turn``, ``duel_in_progress``, ``no_duel``,
    ``bad_opponent``, ``wrong_stage``, ``bad_card``, ``bad_action``, ``too_many_copies``,
    ``bad_outcome``, ``bad_target``, ``health_full``, and at setup ``bad_player_count``,
    ``bad_option``.
    """

    name = "espionage"
    title = "Demon Espionage"
    min_seats = 3
    max_seats = 6
    template = "espionage/live.html"
    bar_template = "espionage/_bar.html"  # what is happening and my next step, at the bottom
    stylesheet = "espionage/espionage.css"
    options_schema = OPTIONS_SCHEMA
    # A duel's card and action choices are each duelist's own business: only the seat that
    # sent a command may undo it (the kit's undo_own_only).
    undo_own_only = True
    # Why Undo is greyed after a final event (tabletop.live.undo_why).
    final_words: ClassVar[dict[str, str]] = {
        "espionage.game.prepared": "factions dealt",
        "espionage.duel.revealed": "duel revealed",
        "espionage.soul.drawn": "soul drawn",
        "espionage.faction.revealed": "faction revealed",
        "espionage.game.ended": "game over",
    }
    topics = (preparation, turns, duel, actions, health, end)

    def initial_state(self) -> State:
        return {"phase": "new", "players": []}

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng: Any) -> list[NewEvent]:
        """Preparation (``preparation.prepare``). Raises RuleViolation ``bad_player_count``,
        ``bad_option``."""
        return prepare(options, seats, rng)

    def is_finished(self, state: State) -> bool:
        """True once ``espionage.game.ended`` is folded (How to Play 9); the kit then marks the
        table finished."""
        return state.get("phase") == "ended"

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` sees (``view.view``)."""
        return _view(state, seat)

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands ``seat``'s page offers (``espionage/live.html``), data as its forms send
        it: duel buttons, change of hand, the troop / Dummy Corpse / action-as-troop card forms
        (every troop; each action card as printed and as a 4 Rock), the limited action
        checkboxes (none, one card, or R.P.S with another), the confirm buttons, and the record
        form (a few card / target / health combinations)."""
        can = view.get("can") or {}
        out: list[Command] = []
        for p in can.get("challenge", []):
            out.append(Command("espionage.duel.challenge", {"opponent": p["seat"]}))
        if can.get("change_hand"):
            out.append(Command("espionage.hand.change"))
        keys = [key for key, _ in view.get("action_cards", [])]
        if can.get("card"):
            for damage in range(1, 10):
                for symbol in SYMBOLS:
                    out.append(
                        Command(
                            "espionage.duel.card",
                            {"kind": "troop", "damage": damage, "symbol": symbol},
                        )
                    )
            out.append(Command("espionage.duel.card", {"kind": "dummy"}))
            for key in keys:
                out.append(
                    Command(
                        "espionage.duel.card",
                        {"kind": "action", "name": key, "damage": "", "symbol": ""},
                    )
                )
                out.append(
                    Command(
                        "espionage.duel.card",
                        {"kind": "action", "name": key, "damage": 4, "symbol": "rock"},
                    )
                )
        if can.get("actions"):
            out.append(Command("espionage.duel.actions", {}))
            for key in keys:
                out.append(Command("espionage.duel.actions", {"cards": key}))
                if key != "rps":
                    out.append(Command("espionage.duel.actions", {"cards": ["rps", key]}))
        if can.get("confirm"):
            for outcome in OUTCOMES:
                out.append(Command("espionage.duel.confirm", {"outcome": outcome}))
        if can.get("record"):
            out.append(
                Command("espionage.action.record", {"card": "encore", "target": "", "health": 0})
            )
            for p in view.get("players", []):
                if not p["eliminated"]:
                    out.append(
                        Command(
                            "espionage.action.record",
                            {"card": "divert", "target": p["seat"], "health": -1},
                        )
                    )
                    out.append(
                        Command(
                            "espionage.action.record",
                            {"card": "heal", "target": p["seat"], "health": 1},
                        )
                    )
        return out

"""Demon Espionage as a Ruleset of the live-table kit (rulebook: demon-espionage-rulebook.txt).

The players hold the physical combat cards. The app deals and keeps what must stay secret (the
faction cards and the soul cards), keeps everyone's health, records each duel and referees it, and
ends and scores the game. Pure Python: no Django import.

State (a JSON-able dict, seats are list indexes 0..n-1 in table order)::

    phase        "playing" | "ended"
    options      the table options (see ``OPTIONS_SCHEMA``)
    players      [{name, faction, health 0..5, souls [1..3, ...], revealed, eliminated}]
    soul_deck    the shuffled soul values still to draw, top first (hidden)
    reveal_cards Reveal cards kept in the combat deck (1 or 2)
    reveals_required / reveals_done   the 2-health reveal rule (1 or 2 players)
    active       the seat whose turn it is; turn: 1, 2, 3...
    used         combat cards each seat used this turn (the draw-back reminder)
    duel         None | {initiator, opponent, stage, cards, actions, revealed, claims}
    draw_back    the last turn's reminder [[seat, cards], ...]
    log          public lines (never a secret)
    result       None | the scoring of ``espionage.game.ended``

Hidden information: a player's faction (until revealed), the values of their souls, the order of
the soul deck and the cards of a duel before the reveal. ``view`` shows each of them to their owner
only, and everything at the end of the game.

Choices where the rulebook is silent (each in the docstring of the function that applies it):

- a Dummy Corpse is a troop of 0 damage points with no R.P.S symbol (``duel_outcome``);
- R.P.S: a symbol beats no symbol; two cards without a symbol tie (``duel_outcome``);
- any action card other than R.P.S played in a duel (Reverse, Damage +2, Negate...) has its effect
  applied by the players at the table, who both confirm the outcome (``RPS_ONLY`` is automatic);
- an eliminated player's souls still count for their faction;
- options: the minority bonus counts dealt or surviving players; a tie in souls is shared or
  settled by survivors or by remaining health; an eliminated player's faction may be shown.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable

from tabletop.errors import RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo, require

REBEL = "rebel"
SHADOW = "shadow"
FACTIONS = (REBEL, SHADOW)
FACTION_LABELS = {REBEL: "Rebel", SHADOW: "Shadow"}

START_HEALTH = 5  # Preparation, Health Card: "Each player has 5 starting health."
REVEAL_AT_HEALTH = 2  # Important notes: "the first player to be left with 2 health points"

#: Preparation, Faction Card: Shadow and Rebel cards shuffled, by number of players.
FACTION_CARDS = {3: 2, 4: 2, 5: 3, 6: 3}
#: Preparation, Combat Card: Reveal cards kept in the combat pile, by number of players.
REVEAL_CARDS = {3: 1, 4: 1, 5: 1, 6: 2}
#: Preparation, Soul Card: how many 1-, 2- and 3-soul cards, by number of players.
SOUL_CARDS = {3: (8, 5, 1), 4: (10, 6, 2), 5: (13, 7, 2), 6: (15, 8, 3)}
#: Important notes: players to reveal their faction at 2 health (3-4 players: 1, 5-6: 2).
REVEALS_REQUIRED = {3: 1, 4: 1, 5: 2, 6: 2}

#: Card Pieces, Action Cards (37): key -> (label, copies in the box).
ACTION_CARDS = {
    "disarray": ("Disarray", 2),
    "encore": ("Encore", 2),
    "heal": ("Heal", 2),
    "reveal": ("Reveal", 2),
    "damage_plus_3": ("Damage +3", 4),
    "damage_plus_2": ("Damage +2", 6),
    "reverse": ("Reverse", 5),
    "negate": ("Negate", 2),
    "divert": ("Divert", 6),
    "rps": ("R.P.S", 6),
}
#: Card Pieces, Troop Cards (42): damage points -> copies; 0 is the Dummy Corpse (3 copies).
TROOP_CARDS = {1: 9, 2: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 3, 0: 3}
SYMBOLS = ("rock", "paper", "scissors")
SYMBOL_LABELS = {"rock": "Rock", "paper": "Paper", "scissors": "Scissors"}
#: R.P.S: each symbol beats the one it maps to.
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
#: Action cards whose effect the app applies itself; any other played in a duel needs the
#: duellists' confirmation of the outcome.
RPS_ONLY = frozenset({"rps"})

INITIATOR = "initiator"
OPPONENT = "opponent"
TIE = "tie"
OUTCOMES = (INITIATOR, OPPONENT, TIE)

OPTIONS_SCHEMA = {
    "tie_break": {
        "label": "When both factions have as many souls",
        "choices": [
            ["shared", "Both factions share the victory"],
            ["survivors", "More players still in the game wins"],
            ["health", "More health left in total wins"],
        ],
        "default": "shared",
        "help": "The rulebook does not say how a tie in souls is settled.",
    },
    "minority": {
        "label": "Faction with fewer players (2 extra souls at the end)",
        "choices": [
            ["dealt", "Fewer players dealt (3 and 5 players)"],
            ["surviving", "Fewer players still in the game"],
        ],
        "default": "dealt",
        "help": "The rulebook does not say whether eliminated players count.",
    },
    "reveal_on_elimination": {
        "label": "Show an eliminated player's faction",
        "choices": [["no", "No, keep it hidden"], ["yes", "Yes, turn it face up"]],
        "default": "no",
        "help": "The rulebook only requires the reveal at 2 health.",
    },
}

LOG_LIMIT = 60


# --------------------------------------------------------------------------------------------
# Referee (pure functions, no state)


def soul_deck_for(players: int) -> list[int]:
    """The unshuffled soul deck for 3..6 players (Preparation, Soul Card): 14, 18, 22 or 26
    cards of value 1, 2 and 3. Raises RuleViolation ``bad_player_count`` otherwise."""
    require(players in SOUL_CARDS, "bad_player_count", "Demon Espionage is for 3 to 6 players.")
    ones, twos, threes = SOUL_CARDS[players]
    return [1] * ones + [2] * twos + [3] * threes


def faction_cards_for(players: int) -> list[str]:
    """The faction cards to shuffle (Preparation, Faction Card): 2 Shadow and 2 Rebel for 3-4
    players, all 3 of each for 5-6. Raises RuleViolation ``bad_player_count`` otherwise."""
    require(players in FACTION_CARDS, "bad_player_count", "Demon Espionage is for 3 to 6 players.")
    return [SHADOW] * FACTION_CARDS[players] + [REBEL] * FACTION_CARDS[players]


def parse_card(data: dict, reveal_cards: int = 2) -> dict:
    """A combat card played face down in a duel (How to Play 3), from command data.

    ``data``: ``{"kind": "troop", "damage": 1..9, "symbol": "rock"|"paper"|"scissors"}``,
    ``{"kind": "dummy"}`` (the Dummy Corpse: 0 damage points, no symbol), or
    ``{"kind": "action", "name": <ACTION_CARDS key>, "damage": 1..9, "symbol": optional}``
    (an action card with damage points used as a troop, How to Play, Important notes; the rulebook
    does not say which action cards carry damage points, so the player enters the printed value;
    Damage +2 and Damage +3 default to 2 and 3). Returns ``{kind, damage, symbol, name}``.
    Raises RuleViolation ``bad_card``.
    """
    kind = data.get("kind")
    if kind == "dummy":
        return {"kind": "dummy", "damage": 0, "symbol": None, "name": None}
    symbol = data.get("symbol") or None
    require(symbol is None or symbol in SYMBOLS, "bad_card", "Choose Rock, Paper or Scissors.")
    if kind == "troop":
        damage = _int(data.get("damage"))
        require(damage in range(1, 10), "bad_card", "A troop card has 1 to 9 damage points.")
        require(
            symbol is not None,
            "bad_card",
            "Every troop card but the Dummy Corpse has an "
            "R.P.S symbol: choose Rock, Paper or Scissors.",
        )
        return {"kind": "troop", "damage": damage, "symbol": symbol, "name": None}
    if kind == "action":
        name = data.get("name")
        require(name in ACTION_CARDS, "bad_card", "Choose which action card you played.")
        require(name != "reveal" or reveal_cards > 0, "bad_card", "No Reveal card in this game.")
        default = {"damage_plus_2": 2, "damage_plus_3": 3}.get(name)
        damage = _int(data.get("damage")) if data.get("damage") not in (None, "") else default
        require(
            damage in range(1, 10),
            "bad_card",
            "Enter the damage points printed on the action card (1 to 9).",
        )
        return {"kind": "action", "damage": damage, "symbol": symbol, "name": name}
    raise RuleViolation("bad_card", "Choose a troop card, the Dummy Corpse or an action card.")


def parse_actions(data: dict) -> list[str]:
    """The limited action cards a duellist plays face down (How to Play 4), from command data.

    Accepts ``{"cards": ["rps", "reverse"]}`` (a list or a comma-separated string) or one key per
    card with a count (``{"rps": 1, "reverse": 2}``, as form fields send them). Returns the sorted
    list of card keys (possibly empty: playing none is allowed). Raises RuleViolation
    ``bad_action`` for an unknown card or a count below 0.
    """
    raw = data.get("cards")
    names: list[str] = []
    if raw is not None:
        if isinstance(raw, str):
            raw = [part.strip() for part in raw.split(",") if part.strip()]
        require(isinstance(raw, list), "bad_action", "Send the action cards as a list.")
        names = [str(name) for name in raw]
    for key, value in data.items():
        if key in ACTION_CARDS:
            count = _int(value)
            require(count is not None and count >= 0, "bad_action", "A card count is 0 or more.")
            names += [key] * count
    for name in names:
        require(name in ACTION_CARDS, "bad_action", f"There is no action card {name!r}.")
    return sorted(names)


def check_copies(card: dict | None, actions: list[str], reveal_cards: int) -> None:
    """One duellist cannot play more copies of a card than the box holds (Card Pieces; Reveal:
    only the ``reveal_cards`` kept, Preparation). Raises RuleViolation ``too_many_copies``."""
    counts = Counter(actions)
    if card is not None and card["kind"] == "action":
        counts[card["name"]] += 1
    for name, count in counts.items():
        limit = reveal_cards if name == "reveal" else ACTION_CARDS[name][1]
        require(
            count <= limit,
            "too_many_copies",
            f"The game has only {limit} {ACTION_CARDS[name][0]} card(s).",
        )


def duel_outcome(initiator_card: dict, opponent_card: dict, rps: bool) -> str:
    """Who wins a duel by the cards alone: ``"initiator"``, ``"opponent"`` or ``"tie"``.

    How to Play 5 and Troop Cards: by default the higher damage points win; when the R.P.S card is
    played (``rps``) the R.P.S symbols decide (Rock beats Scissors, Scissors beats Paper, Paper
    beats Rock). Important notes: the same damage points or the same symbol is a tie. Rulebook
    silent, our choice: a card with a symbol beats one without (the Dummy Corpse), and two cards
    without a symbol tie.
    """
    if rps:
        mine, theirs = initiator_card.get("symbol"), opponent_card.get("symbol")
        if mine == theirs:
            return TIE
        if theirs is None or (mine is not None and BEATS[mine] == theirs):
            return INITIATOR
        return OPPONENT
    if initiator_card["damage"] == opponent_card["damage"]:
        return TIE
    return INITIATOR if initiator_card["damage"] > opponent_card["damage"] else OPPONENT


def describe_card(card: dict) -> str:
    """A combat card for people: ``"7 Rock"``, ``"Dummy Corpse"``, ``"Damage +3 as 3"``."""
    symbol = f" {SYMBOL_LABELS[card['symbol']]}" if card.get("symbol") else ""
    if card["kind"] == "dummy":
        return "Dummy Corpse"
    if card["kind"] == "action":
        return f"{ACTION_CARDS[card['name']][0]} as {card['damage']}{symbol}"
    return f"{card['damage']}{symbol}"


def describe_actions(actions: list[str]) -> str:
    """Limited action cards for people: ``"R.P.S, Reverse"`` or ``"none"``."""
    return ", ".join(ACTION_CARDS[name][0] for name in actions) or "none"


def _int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


# --------------------------------------------------------------------------------------------
# The Ruleset


class _Draft:
    """Events being decided, folded as they are emitted so later checks see their effect."""

    def __init__(self, ruleset: EspionageRuleset, state: dict) -> None:
        self.ruleset = ruleset
        self.state = state
        self.events: list[NewEvent] = []

    def emit(self, type_: str, data: dict, final: bool = False) -> None:
        self.events.append(NewEvent(type_, data, final))
        self.state = self.ruleset.evolve(self.state, EventRecord(type_, data))


class EspionageRuleset(BaseRuleset):
    """Demon Espionage for 3 to 6 players (Demon Espionage rulebook).

    Commands (``Command.type``: ``data``), each from the seat named:

    - ``espionage.duel.challenge``: ``{"opponent": seat}``, the active player (How to Play 2.1);
    - ``espionage.hand.change``: ``{}``, the active player, forfeiting the turn (How to Play 2.1:
      only when no card in the hand has damage points; the players check that at the table);
    - ``espionage.duel.card``: a combat card (``parse_card``), the initiator then the opponent
      (How to Play 3);
    - ``espionage.duel.actions``: limited action cards (``parse_actions``), the opponent then the
      initiator (How to Play 4); the initiator's ends in the reveal, and the app settles the duel
      unless an action card other than R.P.S was played;
    - ``espionage.duel.confirm``: ``{"outcome": "initiator"|"opponent"|"tie"}``, each duellist,
      after a reveal with action cards the players resolve: the duel settles when both agree;
    - ``espionage.action.record``: ``{"card": key, "target": seat?, "health": -1|0|1}``, the
      active player records an enhanced action card played face up during their turn
      (Combat Cards Explained) and the health change the table applied, if any.

    Errors: RuleViolation with codes ``game_over``, ``spectator``, ``not_your_turn``,
    ``duel_in_progress``, ``no_duel``, ``bad_opponent``, ``wrong_stage``, ``bad_card``,
    ``bad_action``, ``too_many_copies``, ``bad_outcome``, ``bad_target``, ``health_full``,
    ``unknown_command``.
    """

    name = "espionage"
    title = "Demon Espionage"
    min_seats = 3
    max_seats = 6
    template = "espionage/live.html"
    stylesheet = "espionage/espionage.css"
    options_schema = OPTIONS_SCHEMA
    #: Commands that can show a player something hidden (a soul card, a faction, the duel cards).
    final_commands = frozenset(
        {"espionage.duel.actions", "espionage.duel.confirm", "espionage.action.record"}
    )
    #: The kit's log shows "<acting seat> <label>"; events a command causes for someone else
    #: (a soul drawn by the winner when the loser confirms) are worded without a subject.
    event_labels = {
        "espionage.game.prepared": "dealt the factions and shuffled the soul deck",
        "espionage.turn.started": "→ next turn",
        "espionage.duel.challenged": "challenged a player to a duel",
        "espionage.hand.changed": "changed their whole hand",
        "espionage.duel.card_committed": "played a combat card face down",
        "espionage.duel.actions_committed": "played their limited action cards (if any)",
        "espionage.duel.revealed": "→ the duel cards were revealed",
        "espionage.duel.outcome_claimed": "confirmed the duel outcome",
        "espionage.duel.settled": "→ the duel was settled",
        "espionage.duel.cancelled": "→ the duel was called off",
        "espionage.soul.drawn": "→ a soul card was drawn",
        "espionage.health.changed": "→ a player's health changed",
        "espionage.faction.revealed": "→ a faction was revealed",
        "espionage.player.eliminated": "→ a player was eliminated",
        "espionage.action.recorded": "played an action card face up",
        "espionage.turn.ended": "→ the turn ended",
        "espionage.game.ended": "→ the game ended: all factions and souls revealed",
    }

    # ---- setup ---------------------------------------------------------------------------

    def initial_state(self) -> dict:
        return {"phase": "new", "players": [], "log": []}

    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng) -> list[NewEvent]:
        """Preparation for 3..6 seats: faction cards shuffled and one dealt to each seat (2+2 for
        3-4 players, 3+3 for 5-6), 5 health each, the Reveal cards kept in the combat pile (1 or
        2), the soul deck built by player count and shuffled, and a random first player (the
        rulebook does not say who starts). Raises RuleViolation ``bad_player_count`` or
        ``bad_option``. Returns one final event ``espionage.game.prepared``."""
        count = len(seats)
        factions = rng.shuffled(faction_cards_for(count))[:count]
        deck = rng.shuffled(soul_deck_for(count))
        first = rng.randbelow(count)
        filled = {}
        for key, spec in OPTIONS_SCHEMA.items():
            value = (options or {}).get(key, spec["default"])
            require(
                value in [choice[0] for choice in spec["choices"]],
                "bad_option",
                f"Unknown choice {value!r} for {spec['label']}.",
            )
            filled[key] = value
        data = {
            "names": [seat.name for seat in sorted(seats, key=lambda s: s.number)],
            "factions": factions,
            "soul_deck": deck,
            "first": first,
            "reveal_cards": REVEAL_CARDS[count],
            "reveals_required": REVEALS_REQUIRED[count],
            "options": filled,
        }
        return [NewEvent("espionage.game.prepared", data, final=True)]

    def is_finished(self, state: dict) -> bool:
        """True once ``espionage.game.ended`` is folded (How to Play 9); the kit then marks the
        table finished."""
        return state.get("phase") == "ended"

    # ---- decide --------------------------------------------------------------------------

    def decide(self, state: dict, command: Command, seat: int | None, rng) -> list[NewEvent]:
        """Check ``command`` from ``seat`` against the rules and return the events (see the class
        docstring). Never changes ``state``. Raises RuleViolation."""
        handler = self._commands.get(command.type)
        require(handler is not None, "unknown_command", f"Unknown command {command.type!r}.")
        require(state.get("phase") == "playing", "game_over", "The game is over.")
        require(
            seat is not None and 0 <= seat < len(state["players"]),
            "spectator",
            "Only a player at the table can do that.",
        )
        draft = _Draft(self, state)
        handler(self, draft, seat, command.data or {})
        return draft.events

    def _challenge(self, d: _Draft, seat: int, data: dict) -> None:
        s = d.state
        _require_active(s, seat)
        require(s["duel"] is None, "duel_in_progress", "A duel is already under way.")
        opponent = _int(data.get("opponent"))
        require(
            opponent is not None and 0 <= opponent < len(s["players"]) and opponent != seat,
            "bad_opponent",
            "Choose another player to duel.",
        )
        require(
            not s["players"][opponent]["eliminated"],
            "bad_opponent",
            "That player has been eliminated.",
        )
        d.emit("espionage.duel.challenged", {"initiator": seat, "opponent": opponent})

    def _change_hand(self, d: _Draft, seat: int, data: dict) -> None:
        s = d.state
        _require_active(s, seat)
        require(s["duel"] is None, "duel_in_progress", "Finish the duel first.")
        d.emit("espionage.hand.changed", {"seat": seat})
        _end_turn(d)

    def _card(self, d: _Draft, seat: int, data: dict) -> None:
        duel = _require_duel(d.state, "cards")
        side = 0 if duel["cards"][0] is None else 1
        who = (duel["initiator"], duel["opponent"])[side]
        _require_duellist(duel, seat, who, "cards")
        card = parse_card(data, d.state["reveal_cards"])
        check_copies(card, [], d.state["reveal_cards"])
        d.emit("espionage.duel.card_committed", {"seat": seat, "card": card})

    def _actions(self, d: _Draft, seat: int, data: dict) -> None:
        duel = _require_duel(d.state, "actions")
        side = 1 if duel["actions"][1] is None else 0  # the opponent first (How to Play 4)
        who = (duel["initiator"], duel["opponent"])[side]
        _require_duellist(duel, seat, who, "actions")
        actions = parse_actions(data)
        check_copies(duel["cards"][side], actions, d.state["reveal_cards"])
        d.emit("espionage.duel.actions_committed", {"seat": seat, "cards": actions})
        if side == 0:
            _reveal(d)

    def _confirm(self, d: _Draft, seat: int, data: dict) -> None:
        duel = _require_duel(d.state, "confirm")
        require(
            seat in (duel["initiator"], duel["opponent"]),
            "not_your_turn",
            "Only the duellists confirm the outcome.",
        )
        outcome = data.get("outcome")
        require(outcome in OUTCOMES, "bad_outcome", "Choose who won the duel, or a tie.")
        d.emit("espionage.duel.outcome_claimed", {"seat": seat, "outcome": outcome})
        claims = d.state["duel"]["claims"]
        if claims[0] is not None and claims[0] == claims[1]:
            _settle(d, outcome)

    def _record(self, d: _Draft, seat: int, data: dict) -> None:
        s = d.state
        _require_active(s, seat)
        card = data.get("card")
        require(card in ACTION_CARDS, "bad_action", "Choose which action card you played.")
        require(card != "reveal" or s["reveal_cards"] > 0, "bad_action", "No Reveal card here.")
        change = _int(data.get("health")) if data.get("health") not in (None, "") else 0
        require(change in (-1, 0, 1), "bad_action", "Health changes by 1 at most.")
        raw_target = data.get("target")
        target = _int(raw_target) if raw_target not in (None, "") else None
        if target is not None:
            require(
                0 <= target < len(s["players"]) and not s["players"][target]["eliminated"],
                "bad_target",
                "Choose a player still in the game.",
            )
        require(change == 0 or target is not None, "bad_target", "Whose health changes?")
        if change == 1:
            require(
                s["players"][target]["health"] < START_HEALTH,
                "health_full",
                "Health cannot go above 5.",
            )
        d.emit(
            "espionage.action.recorded",
            {"seat": seat, "card": card, "target": target, "health": change},
        )
        if change:
            _change_health(d, target, change, by=seat)
        if _game_over_reason(d.state):
            if d.state["duel"] is not None:
                d.emit("espionage.duel.cancelled", {"reason": "game over"})
            _end_turn(d)
            return
        duel = d.state["duel"]
        if duel is not None and any(
            d.state["players"][p]["eliminated"] for p in (duel["initiator"], duel["opponent"])
        ):
            d.emit("espionage.duel.cancelled", {"reason": "a duellist was eliminated"})
        if d.state["players"][seat]["eliminated"]:
            _end_turn(d)

    _commands: dict[str, Callable] = {
        "espionage.duel.challenge": _challenge,
        "espionage.hand.change": _change_hand,
        "espionage.duel.card": _card,
        "espionage.duel.actions": _actions,
        "espionage.duel.confirm": _confirm,
        "espionage.action.record": _record,
    }

    # ---- evolve --------------------------------------------------------------------------

    def evolve(self, state: dict, event: EventRecord) -> dict:
        """Fold one event into a new state (the input is not changed). Unknown types are
        ignored so a log from a newer version still replays."""
        handler = _EVOLVERS.get(event.type)
        if handler is None:
            return state
        new = _copy_state(state)
        line = handler(new, event.data)
        if line:
            new["log"] = (new["log"] + [line])[-LOG_LIMIT:]
        return new

    # ---- view ----------------------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """All that ``seat`` may see (None: a spectator). Shapes::

            phase, me (None or {seat, name, faction, souls [values], soul_total, health,
            eliminated}), players [{seat, name, health, eliminated, faction (None unless
            revealed), soul_count, active, me}], active, active_name, turn, soul_deck_left,
            reveal_cards, reveals_required, duel (None or see ``_duel_view``), can {...},
            draw_back [{seat, name, cards}], log [str], result (None or the scoring),
            options, action_cards [[key, label]], symbols [[key, label]].

        Another seat's faction appears only when revealed; soul values only for their owner;
        the duel cards only for the one who played them until the reveal; everything at the end.
        """
        if state.get("phase") not in ("playing", "ended"):
            return {"phase": "new", "players": [], "log": []}
        ended = state["phase"] == "ended"
        players = state["players"]
        mine = seat is not None and 0 <= seat < len(players)
        me = None
        if mine:
            p = players[seat]
            me = {
                "seat": seat,
                "name": p["name"],
                "faction": p["faction"],
                "faction_label": FACTION_LABELS[p["faction"]],
                "revealed": p["revealed"],
                "souls": list(p["souls"]),
                "soul_total": sum(p["souls"]),
                "health": p["health"],
                "eliminated": p["eliminated"],
            }
        rows = []
        for number, p in enumerate(players):
            shown = ended or p["revealed"] or number == seat
            rows.append(
                {
                    "seat": number,
                    "name": p["name"],
                    "health": p["health"],
                    "hearts": [n < p["health"] for n in range(START_HEALTH)],
                    "eliminated": p["eliminated"],
                    "faction": p["faction"] if shown else None,
                    "faction_label": FACTION_LABELS[p["faction"]] if shown else None,
                    "revealed": p["revealed"],
                    "soul_count": len(p["souls"]),
                    "souls": list(p["souls"]) if ended else None,
                    "active": number == state["active"] and not ended,
                    "me": number == seat,
                }
            )
        duel = _duel_view(state, seat)
        return {
            "phase": state["phase"],
            "me": me,
            "players": rows,
            "active": state["active"],
            "active_name": players[state["active"]]["name"],
            "turn": state["turn"],
            "soul_deck_left": len(state["soul_deck"]),
            "reveal_cards": state["reveal_cards"],
            "reveals_required": state["reveals_required"],
            "reveals_done": state["reveals_done"],
            "duel": duel,
            "can": _abilities(state, seat),
            "draw_back": [
                {"seat": s, "name": players[s]["name"], "cards": n} for s, n in state["draw_back"]
            ],
            "log": list(reversed(state["log"][-10:])),
            "result": copy.deepcopy(state["result"]) if ended else None,
            "options": dict(state["options"]),
            "action_cards": [
                [key, label]
                for key, (label, _) in ACTION_CARDS.items()
                if key != "reveal" or state["reveal_cards"] > 0
            ],
            "symbols": [[key, SYMBOL_LABELS[key]] for key in SYMBOLS],
        }


# --------------------------------------------------------------------------------------------
# Decide helpers


def _require_active(state: dict, seat: int) -> None:
    require(
        seat == state["active"],
        "not_your_turn",
        f"It is {state['players'][state['active']]['name']}'s turn.",
    )


def _require_duel(state: dict, stage: str) -> dict:
    duel = state["duel"]
    require(duel is not None, "no_duel", "No duel is under way.")
    require(
        duel["stage"] == stage,
        "wrong_stage",
        {
            "cards": "The combat cards are already down.",
            "actions": "Both combat cards must be played first.",
            "confirm": "The duel is not waiting for a confirmation.",
        }[stage],
    )
    return duel


def _require_duellist(duel: dict, seat: int, who: int, stage: str) -> None:
    if seat == who:
        return
    if seat in (duel["initiator"], duel["opponent"]):
        order = (
            "The initiator plays a combat card first."
            if stage == "cards"
            else ("The opponent plays limited action cards first.")
        )
        raise RuleViolation("not_your_turn", order)
    raise RuleViolation("not_your_turn", "Only the duellists play cards in this duel.")


def _reveal(d: _Draft) -> None:
    """REVEAL! (How to Play 4-5): the cards turn face up; settle now unless an action card other
    than R.P.S needs the players to apply its effect and confirm the outcome."""
    duel = d.state["duel"]
    played = duel["actions"][0] + duel["actions"][1]
    rps = "rps" in played
    outcome = duel_outcome(duel["cards"][0], duel["cards"][1], rps)
    confirm = any(name not in RPS_ONLY for name in played)
    d.emit(
        "espionage.duel.revealed",
        {
            "cards": duel["cards"],
            "actions": duel["actions"],
            "rps": rps,
            "by_cards": outcome,
            "needs_confirmation": confirm,
        },
        final=True,
    )
    if not confirm:
        _settle(d, outcome)


def _settle(d: _Draft, outcome: str) -> None:
    """How to Play 5-8: the winner draws a soul card, the loser loses 1 health; a tie ends the
    duel with no damage and no soul (Important notes)."""
    duel = d.state["duel"]
    pair = (duel["initiator"], duel["opponent"])
    winner = {INITIATOR: pair[0], OPPONENT: pair[1]}.get(outcome)
    loser = {INITIATOR: pair[1], OPPONENT: pair[0]}.get(outcome)
    d.emit("espionage.duel.settled", {"outcome": outcome, "winner": winner, "loser": loser})
    if winner is not None:
        _draw_soul(d, winner, "duel")
        _change_health(d, loser, -1, by=winner)
    _end_turn(d)


def _draw_soul(d: _Draft, seat: int, reason: str) -> None:
    """Draw the top soul card for ``seat`` (kept face down: its value only on their phone).
    Nothing when the soul deck is empty."""
    if d.state["soul_deck"]:
        d.emit(
            "espionage.soul.drawn",
            {"seat": seat, "value": d.state["soul_deck"][0], "reason": reason},
            final=True,
        )


def _change_health(d: _Draft, seat: int, delta: int, by: int | None) -> None:
    """Health changes by ``delta`` (-1 or +1, kept in 0..5). At 2, the first one (3-4 players) or
    two (5-6) players to get there reveal their faction (Important notes); at 0 the player is
    eliminated and ``by`` (if another player) draws an extra soul (How to Play 6, 8)."""
    player = d.state["players"][seat]
    health = max(0, min(START_HEALTH, player["health"] + delta))
    d.emit(
        "espionage.health.changed",
        {"seat": seat, "delta": health - player["health"], "health": health, "by": by},
    )
    s = d.state
    if (
        health == REVEAL_AT_HEALTH
        and not player["revealed"]
        and (s["reveals_done"] < s["reveals_required"])
    ):
        d.emit(
            "espionage.faction.revealed",
            {"seat": seat, "faction": player["faction"], "reason": "two_health"},
            final=True,
        )
    if health == 0:
        d.emit("espionage.player.eliminated", {"seat": seat, "by": by})
        if (
            s["options"]["reveal_on_elimination"] == "yes"
            and not d.state["players"][seat]["revealed"]
        ):
            d.emit(
                "espionage.faction.revealed",
                {"seat": seat, "faction": player["faction"], "reason": "eliminated"},
                final=True,
            )
        if by is not None and by != seat and not d.state["players"][by]["eliminated"]:
            _draw_soul(d, by, "elimination")


def _end_turn(d: _Draft) -> None:
    """How to Play 7-8: the turn ends, everyone who used combat cards draws back as many (the
    reminder), then the game ends (How to Play 9) or the next player still in the game plays."""
    s = d.state
    draw_back = [[seat, n] for seat, n in enumerate(s["used"]) if n]
    changed = s.get("hand_changed")
    d.emit(
        "espionage.turn.ended",
        {"seat": s["active"], "draw_back": draw_back, "hand_changed": changed},
    )
    reason = _game_over_reason(d.state)
    if reason:
        _end_game(d, reason)
        return
    players = d.state["players"]
    count = len(players)
    nxt = next(
        (s["active"] + step) % count
        for step in range(1, count + 1)
        if not players[(s["active"] + step) % count]["eliminated"]
    )
    d.emit("espionage.turn.started", {"seat": nxt})


def _game_over_reason(state: dict) -> str | None:
    """How to Play 9: a faction eliminated, or no soul card left."""
    for faction in FACTIONS:
        members = [p for p in state["players"] if p["faction"] == faction]
        if members and all(p["eliminated"] for p in members):
            return "faction_eliminated"
    if not state["soul_deck"]:
        return "souls_exhausted"
    return None


def minority_faction(state: dict) -> str | None:
    """The faction with fewer players for the end bonus (How to Play 9), or None when equal.

    Rulebook silent on which players count: option ``minority`` ``"dealt"`` (default: players
    dealt into the faction, so only 3- and 5-player games have one) or ``"surviving"`` (players
    still in the game at the end: a faction wiped out counts 0)."""
    players = state["players"]
    if state["options"]["minority"] == "surviving":
        players = [p for p in players if not p["eliminated"]]
    counts = Counter(p["faction"] for p in players)
    rebel, shadow = counts[REBEL], counts[SHADOW]
    if rebel == shadow:
        return None
    return REBEL if rebel < shadow else SHADOW


def score(state: dict, bonus_faction: str | None, bonus: list[int]) -> dict:
    """Souls totalled per faction and the winner (How to Win: the faction with the most souls).

    Every soul a faction's players hold counts, eliminated players' too (rulebook silent), plus
    the minority bonus. A tie is settled by option ``tie_break``: ``"shared"`` (both factions
    share the victory: ``winner`` None), ``"survivors"`` (more players still in the game, else
    shared) or ``"health"`` (more health left in total, else shared). Returns ``{totals {faction:
    souls}, winner, settled_by "souls"|"survivors"|"health"|"shared"}``."""
    totals = {faction: 0 for faction in FACTIONS}
    for p in state["players"]:
        totals[p["faction"]] += sum(p["souls"])
    if bonus_faction:
        totals[bonus_faction] += sum(bonus)
    if totals[REBEL] != totals[SHADOW]:
        winner = REBEL if totals[REBEL] > totals[SHADOW] else SHADOW
        return {"totals": totals, "winner": winner, "settled_by": "souls"}
    rule = state["options"]["tie_break"]
    if rule in ("survivors", "health"):
        measure = {faction: 0 for faction in FACTIONS}
        for p in state["players"]:
            measure[p["faction"]] += (not p["eliminated"]) if rule == "survivors" else p["health"]
        if measure[REBEL] != measure[SHADOW]:
            winner = REBEL if measure[REBEL] > measure[SHADOW] else SHADOW
            return {"totals": totals, "winner": winner, "settled_by": rule}
    return {"totals": totals, "winner": None, "settled_by": "shared"}


def _end_game(d: _Draft, reason: str) -> None:
    """How to Play 9: the minority faction draws 2 more souls if any are left, then every faction
    and soul is revealed and the souls totalled per faction."""
    s = d.state
    bonus_faction = minority_faction(s)
    bonus = list(s["soul_deck"][:2]) if bonus_faction else []
    outcome = score(s, bonus_faction, bonus)
    d.emit(
        "espionage.game.ended",
        {
            "reason": reason,
            "factions": [p["faction"] for p in s["players"]],
            "souls": [list(p["souls"]) for p in s["players"]],
            "bonus_faction": bonus_faction,
            "bonus": bonus,
            **outcome,
        },
        final=True,
    )


def _abilities(state: dict, seat: int | None) -> dict:
    """What this seat can do now, for the page's buttons."""
    none = {
        "challenge": [],
        "change_hand": False,
        "card": False,
        "actions": False,
        "confirm": False,
        "record": False,
    }
    if state["phase"] != "playing" or seat is None or not 0 <= seat < len(state["players"]):
        return none
    duel = state["duel"]
    active = seat == state["active"]
    result = dict(none)
    result["record"] = active
    if duel is None:
        if active:
            result["challenge"] = [
                {"seat": n, "name": p["name"]}
                for n, p in enumerate(state["players"])
                if n != seat and not p["eliminated"]
            ]
            result["change_hand"] = True
        return result
    pair = (duel["initiator"], duel["opponent"])
    if duel["stage"] == "cards":
        result["card"] = seat == pair[0 if duel["cards"][0] is None else 1]
    elif duel["stage"] == "actions":
        result["actions"] = seat == pair[1 if duel["actions"][1] is None else 0]
    elif duel["stage"] == "confirm":
        result["confirm"] = seat in pair
    return result


def _duel_view(state: dict, seat: int | None) -> dict | None:
    """The duel in progress: who duels, the stage and who must act; face-down cards only to
    the one who played them (their count is public, as on the table); all after the reveal."""
    duel = state["duel"]
    if duel is None:
        return None
    players = state["players"]
    pair = (duel["initiator"], duel["opponent"])
    sides = []
    for side, who in enumerate(pair):
        card, actions = duel["cards"][side], duel["actions"][side]
        shown = duel["revealed"] or who == seat
        sides.append(
            {
                "seat": who,
                "name": players[who]["name"],
                "role": (INITIATOR, OPPONENT)[side],
                "card_down": card is not None,
                "actions_down": actions is not None,
                "action_count": len(actions) if actions is not None else None,
                "card": describe_card(card) if shown and card else None,
                "actions": describe_actions(actions) if shown and actions is not None else None,
                "claim": duel["claims"][side],
            }
        )
    waiting = None
    if duel["stage"] == "cards":
        waiting = pair[0 if duel["cards"][0] is None else 1]
    elif duel["stage"] == "actions":
        waiting = pair[1 if duel["actions"][1] is None else 0]
    elif duel["stage"] == "confirm":
        waiting = [who for side, who in enumerate(pair) if duel["claims"][side] is None]
    return {
        "initiator": pair[0],
        "opponent": pair[1],
        "stage": duel["stage"],
        "sides": sides,
        "waiting": waiting,
        "waiting_names": [
            players[w]["name"] for w in (waiting if isinstance(waiting, list) else [waiting])
        ],
        "revealed": duel["revealed"],
        "rps": duel.get("rps", False) if duel["revealed"] else None,
        "by_cards": duel.get("by_cards") if duel["revealed"] else None,
        "mine": seat in pair,
    }


# --------------------------------------------------------------------------------------------
# Evolve: one function per event type; each changes the (copied) state and returns a log line


def _copy_state(state: dict) -> dict:
    """A copy deep enough for the evolvers: they replace lists (log, soul deck, souls) rather
    than append to them, and change only players, ``used`` and the duel's lists in place.
    (A full deepcopy per event made a 150-command game ten times slower.)"""
    new = dict(state)
    if "players" in state:
        new["players"] = [dict(p) for p in state["players"]]
    if state.get("used") is not None:
        new["used"] = list(state["used"])
    duel = state.get("duel")
    if duel is not None:
        new["duel"] = {
            **duel,
            "cards": list(duel["cards"]),
            "actions": list(duel["actions"]),
            "claims": list(duel["claims"]),
        }
    return new


def _name(state: dict, seat: int | None) -> str:
    return state["players"][seat]["name"] if seat is not None else "The table"


def _on_prepared(s: dict, e: dict) -> str:
    count = len(e["names"])
    s.update(
        {
            "phase": "playing",
            "options": dict(e["options"]),
            "players": [
                {
                    "name": name,
                    "faction": faction,
                    "health": START_HEALTH,
                    "souls": [],
                    "revealed": False,
                    "eliminated": False,
                }
                for name, faction in zip(e["names"], e["factions"], strict=True)
            ],
            "soul_deck": list(e["soul_deck"]),
            "reveal_cards": e["reveal_cards"],
            "reveals_required": e["reveals_required"],
            "reveals_done": 0,
            "active": e["first"],
            "turn": 1,
            "used": [0] * count,
            "hand_changed": False,
            "duel": None,
            "draw_back": [],
            "result": None,
        }
    )
    return (
        f"Factions dealt, {len(e['soul_deck'])} souls shuffled; keep {e['reveal_cards']} "
        f"Reveal card(s) in the combat pile and deal 5 combat cards each. "
        f"{e['names'][e['first']]} plays first."
    )


def _on_turn_started(s: dict, e: dict) -> str:
    s["active"] = e["seat"]
    s["turn"] += 1
    s["used"] = [0] * len(s["players"])
    s["hand_changed"] = False
    return f"{_name(s, e['seat'])}'s turn."


def _on_challenged(s: dict, e: dict) -> str:
    s["duel"] = {
        "initiator": e["initiator"],
        "opponent": e["opponent"],
        "stage": "cards",
        "cards": [None, None],
        "actions": [None, None],
        "revealed": False,
        "claims": [None, None],
    }
    return f"{_name(s, e['initiator'])} challenged {_name(s, e['opponent'])} to a duel."


def _on_hand_changed(s: dict, e: dict) -> str:
    s["hand_changed"] = True
    return f"{_name(s, e['seat'])} changed their whole hand and forfeits the turn."


def _side(duel: dict, seat: int) -> int:
    return 0 if seat == duel["initiator"] else 1


def _on_card(s: dict, e: dict) -> str:
    duel = s["duel"]
    duel["cards"][_side(duel, e["seat"])] = e["card"]
    s["used"][e["seat"]] += 1
    if None not in duel["cards"]:
        duel["stage"] = "actions"
    return f"{_name(s, e['seat'])} played a combat card face down."


def _on_actions(s: dict, e: dict) -> str:
    duel = s["duel"]
    duel["actions"][_side(duel, e["seat"])] = list(e["cards"])
    s["used"][e["seat"]] += len(e["cards"])
    count = len(e["cards"])
    return f"{_name(s, e['seat'])} played {count} limited action card{'s' if count != 1 else ''}."


def _on_revealed(s: dict, e: dict) -> str:
    duel = s["duel"]
    duel.update(
        {
            "revealed": True,
            "rps": e["rps"],
            "by_cards": e["by_cards"],
            "stage": "confirm" if e["needs_confirmation"] else "settling",
        }
    )
    a, b = duel["initiator"], duel["opponent"]
    text = (
        f"Reveal! {_name(s, a)}: {describe_card(e['cards'][0])} "
        f"(actions: {describe_actions(e['actions'][0])}) vs {_name(s, b)}: "
        f"{describe_card(e['cards'][1])} (actions: {describe_actions(e['actions'][1])})."
    )
    if e["needs_confirmation"]:
        text += " Apply the action cards and both confirm the outcome."
    return text


def _on_claimed(s: dict, e: dict) -> str:
    duel = s["duel"]
    duel["claims"][_side(duel, e["seat"])] = e["outcome"]
    said = {
        INITIATOR: f"{_name(s, duel['initiator'])} won",
        TIE: "a tie",
        OPPONENT: f"{_name(s, duel['opponent'])} won",
    }[e["outcome"]]
    return f"{_name(s, e['seat'])} says: {said}."


def _on_settled(s: dict, e: dict) -> str:
    s["duel"] = None
    if e["winner"] is None:
        return "The duel is a tie: no damage, no soul."
    return f"{_name(s, e['winner'])} won the duel against {_name(s, e['loser'])}."


def _on_cancelled(s: dict, e: dict) -> str:
    s["duel"] = None
    return f"The duel is off ({e['reason']})."


def _on_soul(s: dict, e: dict) -> str:
    s["soul_deck"] = s["soul_deck"][1:]
    s["players"][e["seat"]]["souls"] = s["players"][e["seat"]]["souls"] + [e["value"]]
    extra = " (extra soul for the elimination)" if e["reason"] == "elimination" else ""
    return f"{_name(s, e['seat'])} drew a soul card{extra}; {len(s['soul_deck'])} left."


def _on_health(s: dict, e: dict) -> str:
    s["players"][e["seat"]]["health"] = e["health"]
    verb = "lost" if e["delta"] < 0 else "gained"
    return f"{_name(s, e['seat'])} {verb} {abs(e['delta'])} health ({e['health']} left)."


def _on_faction_revealed(s: dict, e: dict) -> str:
    s["players"][e["seat"]]["revealed"] = True
    if e["reason"] == "two_health":
        s["reveals_done"] += 1
    return f"{_name(s, e['seat'])} reveals their faction: {FACTION_LABELS[e['faction']]}."


def _on_eliminated(s: dict, e: dict) -> str:
    s["players"][e["seat"]]["eliminated"] = True
    by = f" by {_name(s, e['by'])}" if e["by"] is not None and e["by"] != e["seat"] else ""
    return f"{_name(s, e['seat'])} is eliminated{by}."


def _on_action(s: dict, e: dict) -> str:
    s["used"][e["seat"]] += 1
    target = f" on {_name(s, e['target'])}" if e["target"] is not None else ""
    return f"{_name(s, e['seat'])} played {ACTION_CARDS[e['card']][0]}{target}."


def _on_turn_ended(s: dict, e: dict) -> str | None:
    s["draw_back"] = [list(pair) for pair in e["draw_back"]]
    s["duel"] = None
    parts = [f"{_name(s, seat)} draws {n}" for seat, n in e["draw_back"]]
    if e.get("hand_changed"):
        parts.append(f"{_name(s, e['seat'])} draws a new hand of 5")
    return ("Draw back: " + ", ".join(parts) + ".") if parts else None


def _on_game_ended(s: dict, e: dict) -> str:
    s["phase"] = "ended"
    s["duel"] = None
    s["soul_deck"] = s["soul_deck"][len(e["bonus"]) :]
    s["result"] = {
        "reason": e["reason"],
        "factions": list(e["factions"]),
        "souls": [list(x) for x in e["souls"]],
        "bonus_faction": e["bonus_faction"],
        "bonus": list(e["bonus"]),
        "totals": dict(e["totals"]),
        "winner": e["winner"],
        "settled_by": e["settled_by"],
    }
    why = (
        "a faction has been eliminated"
        if e["reason"] == "faction_eliminated"
        else "all soul cards have been drawn"
    )
    totals = e["totals"]
    if e["winner"]:
        verdict = f"{FACTION_LABELS[e['winner']]} wins"
    else:
        verdict = "both factions share the victory"
    return (
        f"Game over: {why}. Rebel {totals[REBEL]} souls, Shadow {totals[SHADOW]} souls: {verdict}."
    )


_EVOLVERS: dict[str, Callable[[dict, dict], str | None]] = {
    "espionage.game.prepared": _on_prepared,
    "espionage.turn.started": _on_turn_started,
    "espionage.duel.challenged": _on_challenged,
    "espionage.hand.changed": _on_hand_changed,
    "espionage.duel.card_committed": _on_card,
    "espionage.duel.actions_committed": _on_actions,
    "espionage.duel.revealed": _on_revealed,
    "espionage.duel.outcome_claimed": _on_claimed,
    "espionage.duel.settled": _on_settled,
    "espionage.duel.cancelled": _on_cancelled,
    "espionage.soul.drawn": _on_soul,
    "espionage.health.changed": _on_health,
    "espionage.faction.revealed": _on_faction_revealed,
    "espionage.player.eliminated": _on_eliminated,
    "espionage.action.recorded": _on_action,
    "espionage.turn.ended": _on_turn_ended,
    "espionage.game.ended": _on_game_ended,
}

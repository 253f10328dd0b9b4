"""The ``demloc`` Ruleset: a DemLoc mission at the table (DemLoc rulebook 6.4, 6.4.1, 6.4.2, 7,
8), written with the kit's decider toolkit (``tabletop.decider``, KIT.md).

Where each rule lives (one topic module each: its commands, events, folds and narrators):

- ``damage``: damage, broken armor and hearts, bleeding, poison, broken seals and the seal limit;
- ``shooting``: the ability test, shots and stray shots; ``brawl``: hand-to-hand fights and the
  FURY / VIGOR / WEAKNESS effects; ``hand``: the hand-to-hand test outside a fight (evasive
  movement, destroying scenery); ``calc``: confirming or cancelling a worked-out fight;
- ``arcane``: mana, channelling, powers, pentacles; ``arcane_tests``: the arcane test
  (defend, cancel, free a possessed character); ``possession``: the
  possessed character each turn, the out-of-control card, freeing;
- ``summoning``: daemons, and daemons leaving the game; ``daemons``: the code and channelled
  dice a summoner assigns to its daemon (7.2.3.2);
- ``abilities``: personal abilities used at the table, paid from fate (5.1.1, 6.4.2);
- ``turns``: phases, the first player, the turn change, movement tokens (activations);
- ``end``: the control objective, objective achieved, surrender, total elimination, turn
  limit, escapes, closing; ``score``: fate points, kills, relics;
- ``leave``: a Guild leaving the mission (preparation or play);
- ``roster``: the opening of the mission and the quick game's guilds; ``setup`` (queries),
  ``setup_guilds``, ``setup_picks``, ``setup_stages``, ``setup_view``: the preparation phases;
- ``view``: what a seat sees; ``resolution``: who won and what the guilds get;
  ``state``: the declared shapes.

Randomness (first player, daemon draws, out-of-control directions, raffle) happens only in the
commands through the kit's dice; undo and redo replay the same outcome.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tabletop.decider import DeciderRuleset, copy_json
from tabletop.rules import Command, EventRecord, NewEvent, SeatInfo

from . import setup as setup_rules
from . import view as view_module
from .abilities import abilities
from .arcane import arcane
from .arcane_tests import arcane_test_topic
from .brawl import brawl
from .calc import calc
from .common import NO_LINES, STRATEGIC
from .daemons import daemons
from .damage import damage
from .end import check_elimination, end
from .hand import hand
from .leave import leave
from .moves import moves_for
from .possession import possession
from .roster import quick_opening, roster
from .score import drop_relics, score
from .setup_guilds import guilds as setup_guilds
from .setup_picks import picks as setup_picks
from .setup_stages import stages as setup_stages
from .shooting import shooting
from .state import DemlocState
from .summoning import settle, summoning
from .turns import turns

OPTIONS_SCHEMA = {
    "seals": {
        "label": "Possessed when the broken seals...",
        "choices": [
            ["exceeded", "exceed the limit (7.2.3)"],
            ["reaches", "reach the limit (6.4.2)"],
        ],
        "default": "exceeded",
    },
    # "The basic rule" (ch. 7): "In case of contradictions, players must
    # always follow the instructions provided in the Abilities and Weapons chapter" (8): 8.1
    # BLOODING "At the beginning of the turn, the bleeding tokens assign as many hits" and 8.1
    # POISONOUS / 8.2 POISON "At the end of each turn ... he will automatically gain an
    # additional one" are the defaults; 6.4.2 ("At the end of the turn ... bleeding", "At the
    # beginning of each turn ... a new poisoning token") stays a table option. A table opened
    # before this change keeps the options written in its opening event.
    "bleeding": {
        "label": "Bleeding hits at the...",
        "choices": [["start", "start of the turn (8.1)"], ["end", "end of the turn (6.4.2)"]],
        "default": "start",
        "help": "8.1 (the Abilities and Weapons chapter, which the basic rule of chapter 7 "
        "follows) says the start; 6.4.2 says the end.",
    },
    "poison": {
        "label": "Poison grows at the...",
        "choices": [["end", "end of the turn (8.1, 8.2)"], ["start", "start of the turn (6.4.2)"]],
        "default": "end",
        "help": "8.1 and 8.2 (followed by the basic rule of chapter 7) say the end; 6.4.2 "
        "says the start.",
    },
    "free_possessed": {
        "label": "Freeing a possessed character: the +3 of 7.2.3.5 is...",
        "choices": [
            ["bonus", "a help (ability + 3)"],
            ["penalty", "added to the die (as printed)"],
        ],
        # Read literally, the +3 makes freeing impossible for arcane 1-3 (the
        # die must be at most the ability) and needs a 1 at arcane 4; the rulebook offers
        # freeing as a purpose of the test, so the default reads it as a help.
        "default": "bonus",
        "help": "Read literally the +3 makes freeing impossible below arcane 4; the default "
        "reads it as a help. The page shows the highest roll that frees before the roll.",
    },
    "seal_dice": {
        "label": "An arcane die that shows a broken seal while channelling is...",
        "choices": [
            ["removed", "removed for the mission (7.2.3)"],
            ["kept", "rolled again later"],
        ],
        "default": "removed",
    },
    "daemon_level": {
        "label": "The daemon level a summoner may ask for is...",
        "choices": [
            ["summoner", "at most the summoner's own level (5.1.3, 7.2.3.2)"],
            ["any", "any level, 1 to 5 (as printed)"],
        ],
        # 7.2.3.2 lets the player "indicate ... the power level of the daemon
        # to be summoned" and draws "in the lower hierarchy" when there is none, but the cost
        # printed on the Arcane Code does not grow with the level, so read alone asking for 5
        # always draws the strongest daemon. 5.1.3 gives mercenaries and daemons the same level
        # indicator of "overall power": by default a summoner calls no daemon above its level.
        "default": "summoner",
        "help": "The rulebook prices a summoning by the Arcane Code, not by the level: the "
        "default caps the level asked for at the summoner's own level.",
    },
    "hand_test": {
        "label": "Destroying scenery: the +2 of 7.3.2 is...",
        "choices": [
            ["bonus", "a help (ability + 2)"],
            ["penalty", "added to the die (as printed)"],
        ],
        # Worded like the +3 of 7.2.3.5 ("adding +2 to the result obtained by rolling the
        # die"); read the same way by default (free_possessed), so a barrel is within reach.
        "default": "bonus",
    },
    "defender_weapon": {
        "label": "A defender that wins a fight (7.3.2.2) deals its weapon's BLOODING/POISONOUS...",
        "choices": [
            ["primary", "with its primary weapon (8.1)"],
            ["none", "never: only the attacker's weapons"],
        ],
        # 8.1 BLOODING x: "Every time the player inflicts damages on a character with a weapon
        # with this ability"; 7.3.2: "even if the defender wins the fight he has the
        # possibility of injuring his opponent". The defender's 1-5 damages are dealt in the
        # fight with the weapon it holds, its primary (the one the table's difference-1 row
        # names for the attacker).
        "default": "primary",
    },
    "activations": {
        "label": "Activations (7.2, 7.3)",
        "choices": [
            ["once", "a character is activated once per phase"],
            ["free", "not tracked by the app"],
        ],
        "default": "once",
        "help": '7.2: "once a character has been activated it cannot be activated again until '
        'the next game phase": one shot, arcane action or brawl attack per phase.',
    },
    "turn_limit": {
        "label": "Turn limit",
        "choices": [["0", "none"], ["3", "3"], ["4", "4"], ["6", "6"], ["8", "8"], ["10", "10"]],
        "default": "0",
    },
    "turn_limit_hidden": {
        "label": "The turn limit is...",
        "choices": [["0", "shown"], ["1", "hidden: the app says when the turns are over (7)"]],
        "default": "0",
    },
    "objective_turns": {
        "label": "Objective control: turns to hold",
        "choices": [["0", "no control objective"], ["2", "2"], ["3", "3"], ["4", "4"]],
        "default": "0",
    },
    "elimination": {
        "label": "Total elimination ends the game when...",
        "choices": [
            ["last", "only one player has characters left (7.3.2.3)"],
            ["any", "any player of 3 or 4 is wiped out (7)"],
        ],
        "default": "last",
        "help": "Chapter 7 and 7.3.2.3 differ for 3-4 players; with 'any' the winner is the "
        "last one standing, else the most fame from kills.",
    },
    # Found by a new user: a kill counted only when someone tapped "Count a kill", so a table
    # that did not know the control got a wrong winner on kills. 6.4.2 "Kill counter: Here the
    # player can enter the number and type of enemies he has eliminated": the app applies the
    # shots, fights and powers, so by default it counts their kills itself
    # (``missions.rules.score``); "Count a kill" stays for what it cannot know (a bleeding
    # death). A table opened before this option keeps counting by hand only.
    "kills": {
        "label": "Kills are counted...",
        "choices": [
            ["app", "by the app from shots and brawls"],
            ["hand", "by hand only (Count a kill)"],
        ],
        "default": "app",
        "help": "The app counts a kill when a shot, a fight, an arcane power or a pentacle it "
        "applies kills an enemy character. Deaths it cannot attribute (bleeding, poison, "
        "possession) are entered with 'Count a kill'.",
    },
    # Who wins when nobody reached the objective (turn limit, agreement to stop, one of 3-4
    # wiped out): the rulebook does not say (6.4.2 "Kill counter ... essential for awarding
    # feods and fame bonus"). By kill fame, a mission paying kills only in feods ends "2 kills
    # to 0" as a draw; by default the kills are counted. A table opened before this option
    # keeps the kill fame.
    "kills_win": {
        "label": "With no objective reached, the winner is the player with...",
        "choices": [
            ["count", "the most kills (the kill counter, 6.4.2)"],
            ["fame", "the most fame from kills (the mission's kill rewards)"],
        ],
        "default": "count",
        "help": "At a turn limit, an agreement to stop or when one of 3-4 players is wiped "
        "out, among the players with characters in play. Equal: a draw.",
    },
    # 7.3.2.3 "Opponent surrender: when a player decides to stop the game, he/she can ask the
    # other players the possibility to end the mission. If all the other players agree, it is
    # possible to tap end game". Whether the one who asked loses is not said.
    "surrender": {
        "label": "When everyone agrees to stop (7.3.2.3), the player who asked first...",
        "choices": [
            ["agreement", "does not lose: the mission is won as at a turn limit"],
            ["loses", "surrenders: loses the mission and pays the defeat"],
        ],
        "default": "agreement",
        "help": "The first player to tap Agree to stop in the turn is the one who asked.",
    },
    # No rulebook number: 6.4.2 "players check the counter of fate points they can spend" and
    # 5.1.1 price abilities in fate points, but no page says how many a player starts with.
    "fate_points": {
        "label": "Fate points each player starts a mission with",
        "choices": [[str(n), str(n)] for n in range(0, 7)],
        "default": "3",
        "help": "The rulebook gives no number; 3 pays one or two activated abilities.",
    },
    # 7.2.1: an object is "placed on top of the card of the character who performed the action
    # of collecting"; "Only objects owned by the mercenaries are considered in determining the
    # winner". A killed mercenary owns nothing: by default its relic tokens fall where it died
    # (as a deposit: "placed on the board in the same space occupied by the character"). A table
    # opened before this option keeps counting them.
    "relic_death": {
        "label": "A relic carried by a mercenary who is killed...",
        "choices": [
            ["dropped", "falls where it died: it no longer counts (7.2.1)"],
            ["kept", "still counts for its Guild"],
        ],
        "default": "dropped",
    },
    # 7.2.2.4 "equal to the armor factor ... the character's armor absorbed the impact"; the
    # table: "Weapon damage assigned to the armor of the target character (if still present)".
    # Damage assigned to the armor carries over from one armor step to the next and, after the
    # third broken armor token, to the hit factor (6.4.2 general damage). By default an equal
    # shot never wounds: what is left once the armor is gone is lost. A table opened before
    # this option lets it carry over.
    "equal_shot": {
        "label": "An equal shot (7.2.2.4) whose damage breaks the last armor...",
        "choices": [
            ["armor", "stays in the armor: the armor absorbed it, no wound"],
            ["carry", "carries over to the hit factor like any damage"],
        ],
        "default": "armor",
    },
    "objective_claim": {
        "label": "Objective achieved is...",
        "choices": [
            ["confirm", "claimed by a player, confirmed by the others"],
            ["claimer", "tapped by the player who reached it (7.3.2.3)"],
        ],
        "default": "confirm",
        "help": "7.3.2.3: at the end of the turn 'the player who has reached the mission "
        "objective can tap end game'. The claim decides the winner and the app cannot see the "
        "board, so by default the other players confirm it, as they do a surrender.",
    },
    "control": {
        "label": "Who may change a character",
        "choices": [["owner", "its player"], ["anyone", "any player (one shared phone)"]],
        "default": "owner",
    },
}


class DemlocRuleset(DeciderRuleset):
    """A DemLoc mission: 2 to 4 players, each with their guild's characters."""

    name = "demloc"
    title = "DemLoc mission"
    min_seats = 2
    max_seats = 4
    template = "missions/live.html"
    bar_template = "missions/_bar.html"  # the turn actions, at the bottom of the screen
    links = (
        ("Open a mission with your Guild", "missions:lobby"),
        ("Rules reference (works offline)", "missions:reference"),
    )
    stylesheet = "missions/missions.css"
    script = "missions/table.js"  # the seat's alert, the arcane arithmetic (no inline script: CSP)
    options_schema: ClassVar[dict] = OPTIONS_SCHEMA
    topics = (
        roster,
        setup_guilds,
        setup_picks,
        setup_stages,
        turns,
        damage,
        shooting,
        brawl,
        hand,
        calc,
        arcane,
        arcane_test_topic,
        possession,
        summoning,
        daemons,
        abilities,
        end,
        leave,
        score,
    )

    def initial_state(self) -> DemlocState:
        return {
            "version": 0,
            "options": {},
            "players": [],
            "pieces": {},
            "order": [],
            "turn": 0,
            "phase": STRATEGIC,
            "first": None,
            "previous_first": None,
            "play_order": [],
            "acting_index": 0,
            "weights": [],
            "objective": {"target": 0, "count": 0, "counting": False, "seat": None},
            "turn_limit": 0,
            "turn_limit_hidden": False,
            "surrender": [],
            "claim": None,
            "elimination": None,
            "elimination_since": None,
            "ended": None,
            "pending": None,
            "notice": None,
            "mission_events": [],
            "event_notice": None,
            "closed_areas": [],
            "objective_text": None,
            "daemon_seq": 0,
            "setup": None,
            "closed": None,
        }

    def is_finished(self, state: dict) -> bool:
        """A quick game is over when the mission ends; a lifecycle mission (one opened from the
        mission lobby) when it is closed, after its resolution was written into the guilds
        (until then undo may still reopen the ended mission)."""
        if state.get("setup"):
            return state.get("closed") is not None
        return state.get("ended") is not None

    def status_label(self, state: dict) -> str:
        """The table's status in words when the kit's would mislead
        (``missions.rules.view.status_label``):
        a Guild mission that ended is not over until it is closed."""
        return view_module.status_label(state)

    def players(self, state: dict) -> int:
        """The seats of the game: its players, or while a mission is prepared the seats at the
        table."""
        return len(state["players"]) or len((state.get("setup") or {}).get("seats", []))

    def fixed_options(self, setup: dict) -> set[str]:
        """The table options a Guild mission's definition sets itself (its turn limit, whether
        it is shown, the turns to hold a control objective: ``setup_stages.opening_events``), so
        the lobby does not offer them; a quick game (no mission) fixes none."""
        if not (setup or {}).get("mission"):
            return set()
        return {"turn_limit", "turn_limit_hidden", "objective_turns"}

    def setup(
        self, options: dict, seats: tuple[SeatInfo, ...], rng: Any, content: dict | None = None
    ) -> list[NewEvent]:
        """Opening events. ``content`` (stored with the table by the opening service, read no
        database): ``{"mission": {"id", "mode", "definition"}}`` for a mission opened from the
        mission lobby (the preparation phases follow: ``demloc.setup.opened``), or
        ``{"guilds": [guild per seat]}`` for a quick game with the guilds' characters
        (``roster.quick_opening``); without content a quick game with the demo guilds. Tables
        opened before setup content existed kept these as the table options ``mission`` and
        ``guilds``: they are read from there too."""
        content = content or {}
        raw = options or {}
        opts = {k: spec["default"] for k, spec in OPTIONS_SCHEMA.items()}
        opts.update({k: str(v) for k, v in raw.items() if k in opts and v is not None})
        mission = content.get("mission") or raw.get("mission")
        if mission:
            return [setup_rules.opened_event(mission, seats, opts)]
        return quick_opening(
            opts, seats, rng, list(content.get("guilds") or raw.get("guilds") or [])
        )

    def fold_into(self, state: Any, event: EventRecord, lines: list[str] = NO_LINES) -> Any:
        """Fold ``event`` in place (its data copied first, so the state never shares objects
        with the stored event), then let daemons leave (7.2.3.3) and remember its version."""
        spec = self.registry.evolvers.get(event.type)
        if spec is None:
            return super().fold_into(state, event)  # raises UnknownEvent
        record = EventRecord(event.type, copy_json(event.data), event.seat, event.version)
        fold: Any = spec.fold  # the toolkit types it (state, event); ours take lines too
        fold(state, record, lines)
        if not event.type.startswith(setup_rules.P):
            settle(state, lines)
            drop_relics(state, lines)
            if state["ended"] is None:
                check_elimination(state, lines)
        state["version"] = event.version
        return state

    def narrate(self, event: EventRecord, state: Any) -> str | None:
        """The log line of ``event``. Given the state just before it (a full replay: the log
        page, the battle report), the whole story: the event folded into a copy with every
        consequence in words (damage steps, kills, bleeding...). Given a later state (the live
        view's latest lines), the topic's narrator: the event's own numbers and names. An
        undone event the live view lists after the current state's version cannot be folded
        into that state (an undone "Shot applied" finds no pending shot): it gets the topic's
        narrator too, never an error on the page."""
        if event.type in self.registry.evolvers and state.get("version", 0) < event.version:
            lines: list[str] = []
            try:
                self.fold_into(copy_json(state), event, lines)
            # StopIteration: a ``next(...)`` lookup that finds nothing (an undone "frees a
            # slot" whose pick was freed again since: ``setup.drop_pick``).
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, StopIteration):
                return super().narrate(event, state)
            return " ".join(lines) or None
        return super().narrate(event, state)

    def view(self, state: dict, seat: int | None) -> dict:
        """``missions.rules.view.view``."""
        return view_module.view(state, seat)

    def live_view(self, state: dict, seat: int | None) -> dict:
        """The view the live region renders (``missions.rules.view.view`` with
        ``forms=False``): its cards leave the sheets' forms out, so the brawl dice against
        every target are not worked out (``tabletop.live.seat_view``)."""
        return view_module.view(state, seat, forms=False)

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands this seat's page offers (``missions.rules.moves``)."""
        return moves_for(view, seat)


__all__ = ["OPTIONS_SCHEMA", "DemlocRuleset"]

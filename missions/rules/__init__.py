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
  ``state``: the declared shapes; ``options``: the table options (``OPTIONS_SCHEMA``).

Randomness (first player, daemon draws, out-of-control directions, raffle) happens only in the
commands through the kit's dice; undo and redo replay the same outcome.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, ClassVar

from tabletop.decider import DeciderRuleset, heard
from tabletop.rules import Command, EventRecord, NewEvent, SeatInfo

from . import setup as setup_rules
from . import view as view_module
from .abilities import abilities
from .arcane import arcane
from .arcane_tests import arcane_test_topic
from .brawl import brawl
from .calc import calc
from .common import STRATEGIC
from .daemons import daemons
from .damage import damage
from .end import active_by_seat, check_elimination, end, say_eliminated
from .hand import hand
from .leave import leave
from .moves import moves_for
from .options import OPTIONS_SCHEMA
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

#: Who had an active character before the event being folded, while the kit narrates the log
#: (``DemlocRuleset.fold_into``); None otherwise.
_ACTIVE_BEFORE: ContextVar[dict[int, bool] | None] = ContextVar("demloc_active_before", default=None)


class DemlocRuleset(DeciderRuleset):
    """A DemLoc mission: 2 to 4 players, each with their guild's characters."""

    name = "demloc"
    title = "DemLoc mission"
    min_seats = 2
    max_seats = 4
    template = "missions/live.html"
    bar_template = "missions/_bar.html"  # the turn actions, at the bottom of the screen
    # the two templates are Jinja2's (missions/jinja2/; docs/architecture.md, "The live region")
    jinja_live = True
    # Why Undo is greyed after each final event (tabletop.live.undo_why), a word or two the
    # width of the button; and, for a barrier that hid nothing, the refusal's reason
    # (tabletop.log.barrier_words).
    final_words: ClassVar[dict[str, str]] = {
        "demloc.setup.guild_bound": "Guild brought",
        "demloc.setup.guild_refreshed": "Guild refreshed",
        "demloc.setup.guild_left": "Guild taken out",
        # The server's draw right after the last Guild is brought (6.4.1 raffle): said as the
        # step the players took, which it makes final (a new user read "control spot drawn"
        # under Undo as what Undo would take back, not his Bring my Guild).
        "demloc.setup.raffle_drawn": "Guilds brought",
        "demloc.setup.contest_settled": "contest settled",
        "demloc.setup.stage_advanced": "first player drawn",
        "demloc.mission.opened": "mission started",
        "demloc.guild.left": "Guild left",
        "demloc.mission.closed": "mission closed",
    }
    # What an enabled Undo takes back (tabletop.live.undo_what), a word or two the width of
    # the button, by command type.
    undo_words: ClassVar[dict[str, str]] = {
        "demloc.setup.next": "Next",
        "demloc.setup.raffle": "raffle",
        "demloc.setup.pick": "character chosen",
        "demloc.setup.unpick": "character put back",
        "demloc.setup.hire": "follower hired",
        "demloc.setup.offer": "offer",
        "demloc.setup.mana": "mana dice",
        "demloc.setup.deploy": "placed",
        "demloc.ability.use": "ability",
        "demloc.arcane.test": "arcane test",
        "demloc.brawl.propose": "brawl",
        "demloc.shot.propose": "shot",
        "demloc.calc.apply": "applied",
        "demloc.calc.cancel": "cancelled",
        "demloc.daemon.assign": "daemon's card",
        "demloc.daemon.summon": "summon",
        "demloc.damage.assign": "damage",
        "demloc.damage.remove": "damage removed",
        "demloc.effect.set": "effect",
        "demloc.fate.gain": "fate gained",
        "demloc.fate.spend": "fate spent",
        "demloc.hand.test": "hand test",
        "demloc.kill.count": "kill count",
        "demloc.mana.adjust": "mana",
        "demloc.mana.channel": "channel",
        "demloc.mission.end": "mission end",
        "demloc.movement.set": "movement",
        "demloc.objective.achieve": "objective",
        "demloc.objective.answer": "answer",
        "demloc.objective.control": "control",
        "demloc.pentacle.strike": "strike",
        "demloc.phase.next": "pass",
        "demloc.piece.escape": "escape",
        "demloc.possession.assign": "possession",
        "demloc.possession.remove": "possession",
        "demloc.power.use": "power",
        "demloc.relic.take": "relic",
        "demloc.surrender.vote": "vote to stop",
        "demloc.tokens.adjust": "token",
        "demloc.turn.next": "next turn",
    }
    final_reasons: ClassVar[dict[str, str]] = {
        "demloc.setup.guild_bound": (
            "a Guild was brought to the mission; only its Guild Master takes it out (Take my "
            "Guild out)"
        ),
        "demloc.setup.guild_refreshed": (
            "the Guild was brought again as it is now; only its Guild Master brings it"
        ),
        "demloc.setup.guild_left": (
            "a Guild was taken out of the mission; only its Guild Master brings it back"
        ),
        "demloc.setup.contest_settled": "the contest for a character is settled (6.4.1)",
        "demloc.setup.stage_advanced": "the first player is drawn for the deployment (6.4.1)",
        "demloc.mission.opened": "the mission has started: the preparation is over (6.4.1)",
        "demloc.guild.left": "a Guild left the mission (6.4)",
        "demloc.mission.closed": "the mission is closed: its results are in the Guilds",
    }
    # what missions/_bar.html reads of the view (tabletop.blocks.pick)
    bar_reads = ("setup ended mission[closed,mode] me players[seat] phase my_turn "
                 "options[control] last_turn claim[can_answer] i_surrender stop_ends surrender can_end "
                 "can_claim_objective pending_for_me pending[kind] power_on_me")
    links = (
        ("Open a mission with your Guild", "missions:lobby"),
        ("Rules reference (works offline)", "missions:reference"),
    )
    stylesheet = "missions/missions.css"
    script = "missions/table.js"  # the seat's alert, the arcane arithmetic (no inline script: CSP)
    options_schema: ClassVar[dict] = OPTIONS_SCHEMA
    #: The folds say the whole story of an event, its consequences included (``after_fold``).
    folds_narrate = True
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

    def is_finished(self, state: DemlocState) -> bool:
        """A quick game is over when the mission ends; a lifecycle mission (one opened from the
        mission lobby) when it is closed, after its resolution was written into the guilds
        (until then undo may still reopen the ended mission)."""
        if state.get("setup"):
            return state.get("closed") is not None
        return state.get("ended") is not None

    def status_label(self, state: DemlocState) -> str:
        """The table's status in words when the kit's would mislead
        (``missions.rules.view.status_label``):
        a Guild mission that ended is not over until it is closed."""
        return view_module.status_label(state)

    def players(self, state: DemlocState) -> int:
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

    def fold_into(self, state: Any, event: EventRecord) -> Any:
        """The kit's fold (the event's fold, then ``after_fold``). While the kit narrates the
        log (``tabletop.decider.heard``), who has an active character is read first, so that
        ``after_fold`` can say who was eliminated by the event (``end.say_eliminated``); the
        state is the same either way."""
        if not heard() or event.type.startswith("demloc.setup.") or not state.get("pieces"):
            return super().fold_into(state, event)
        token = _ACTIVE_BEFORE.set(active_by_seat(state))
        try:
            return super().fold_into(state, event)
        finally:
            _ACTIVE_BEFORE.reset(token)

    def after_fold(self, state: Any, event: EventRecord) -> None:
        """The consequences of any event of the mission in play, said in the log: daemons
        leave (7.2.3.3, ``summoning.settle``), a killed character's relics fall
        (``score.drop_relics``), a player left with no active character is eliminated
        (7.3.2.3, ``end.say_eliminated``: said only) and a total elimination is seen (7,
        7.3.2.3, ``end.check_elimination``); then the state keeps the event's version
        (``holds``). The preparation's events (``demloc.setup.*``) have none of these."""
        if not event.type.startswith("demloc.setup."):
            settle(state)
            drop_relics(state)
            before = _ACTIVE_BEFORE.get()
            if before is not None and state["ended"] is None:
                say_eliminated(state, before)
            if state["ended"] is None:
                check_elimination(state)
        state["version"] = event.version

    def holds(self, state: Any, event: EventRecord) -> bool:
        """Whether ``state`` was folded through ``event`` (its ``version``): the live view's
        latest lines are then said by the topics' narrators, from the event's own numbers and
        names; otherwise folding the event says the whole story (``tabletop.decider``,
        "Saying")."""
        return state.get("version", 0) >= event.version

    def view(self, state: DemlocState, seat: int | None) -> dict:
        """``missions.rules.view.view``."""
        return view_module.view(state, seat)

    def live_view(self, state: DemlocState, seat: int | None) -> dict:
        """The view the live region renders (``missions.rules.view.view`` with
        ``forms=False``): its cards leave the sheets' forms out, so the brawl dice against
        every target are not worked out (``tabletop.live.seat_view``)."""
        return view_module.view(state, seat, forms=False)

    def bar_fresh(self, view: dict) -> bool:
        """Whether the bottom bar shows what its view does not hold: during the preparation
        (its whole setup view) and once the mission is closed (the next mission, read from
        the database: ``missions_tags.next_mission_code``)."""
        return bool(view.get("setup")) or bool((view.get("mission") or {}).get("closed"))

    def moves(self, view: dict, seat: int) -> list[Command]:
        """The commands this seat's page offers (``missions.rules.moves``)."""
        return moves_for(view, seat)


__all__ = ["OPTIONS_SCHEMA", "DemlocRuleset"]

"""The ``demloc`` Ruleset: a DemLoc mission at the table (DemLoc rulebook 6.4.2, 7, 8).

State: one JSON dict (see ``DemlocRuleset.initial_state``); pieces as in
``missions.rules.damage``. ``decide`` checks a command and returns events carrying every
outcome (the calculators' arithmetic, the random draws); ``evolve`` folds them with the pure
functions of this package, never drawing; ``view`` shows the whole table to every seat (the
table's information is public in DemLoc).

Randomness (first player, daemon draws, out-of-control directions) happens only in ``decide``
through the kit's ``rng``; undo and redo replay the same outcome (``tabletop.dice``).
"""

from __future__ import annotations

import copy

from tabletop.errors import RuleViolation
from tabletop.rules import BaseRuleset, Command, EventRecord, NewEvent, SeatInfo, require

from . import arcane, brawl, resolution, shooting, summoning, turns
from . import setup as setup_rules
from .cards import card_from_data, feature_value, has_feature, parse_feature, possession_limit
from .damage import (
    GENERAL,
    HIT,
    add_broken_hearts,
    add_poison,
    adjust_tokens,
    assign_damage,
    bleed,
    in_play,
    new_piece,
    poison_tick,
    possession_tick,
    remove_damage,
)
from .reference import reference_key
from .roster import demo_guild

P = "demloc."

OPTIONS_SCHEMA = {
    "seals": {
        "label": "Possessed when the broken seals...",
        "choices": [
            ["exceeded", "exceed the limit (7.2.3)"],
            ["reaches", "reach the limit (6.4.2)"],
        ],
        "default": "exceeded",
    },
    "bleeding": {
        "label": "Bleeding hits at the...",
        "choices": [["end", "end of the turn (6.4.2)"], ["start", "start of the turn (8.1)"]],
        "default": "end",
    },
    "poison": {
        "label": "Poison grows at the...",
        "choices": [["start", "start of the turn (6.4.2)"], ["end", "end of the turn (8.1, 8.2)"]],
        "default": "start",
    },
    "free_possessed": {
        "label": "Freeing a possessed character: the +3 of 7.2.3.5 is...",
        "choices": [
            ["penalty", "added to the die (as printed)"],
            ["bonus", "a help (ability + 3)"],
        ],
        "default": "penalty",
    },
    "turn_limit": {
        "label": "Turn limit",
        "choices": [["0", "none"], ["3", "3"], ["4", "4"], ["6", "6"], ["8", "8"], ["10", "10"]],
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
    "guilds": {
        # Not a choice on the new-table form: the mission lifecycle passes the chosen
        # characters here (see ``DemlocRuleset.setup``); None plays the demo guilds.
        "label": "Guilds and characters (set by the guild app)",
        "hidden": True,
        "default": None,
    },
    "mission": {
        # Not a choice either: ``missions.services.mission_open`` puts the mission definition
        # and the mode here; the table then starts with the preparation phases (6.4.1).
        "label": "Mission (set by the mission lobby)",
        "hidden": True,
        "default": None,
    },
    "control": {
        "label": "Who may change a character",
        "choices": [["owner", "its player"], ["anyone", "any player (one shared phone)"]],
        "default": "owner",
    },
}

TOKENS = ("broken_armor", "broken_hearts", "bleeding", "poison", "seals")
KILL_KINDS = ("mercenary", "follower", "daemon")

EVENT_LABELS = {
    P + "mission.opened": "opened the mission",
    P + "turn.started": "started a new turn",
    P + "phase.advanced": "passed",
    P + "damage.assigned": "assigned damage",
    P + "damage.removed": "removed damage",
    P + "tokens.adjusted": "changed tokens",
    P + "movement.set": "turned a movement token",
    P + "mana.adjusted": "changed mana cubes",
    P + "mana.channelled": "channelled mana",
    P + "power.used": "used an arcane power",
    P + "pentacle.struck": "struck with a pentacle",
    P + "effect.set": "changed an effect",
    P + "piece.escaped": "marked a character escaped",
    P + "shot.proposed": "worked out a shot",
    P + "shot.strayed": "shot a stray bullet",
    P + "brawl.proposed": "worked out a fight",
    P + "calc.applied": "applied the result",
    P + "calc.cancelled": "cancelled the calculation",
    P + "arcane.tested": "made an arcane test",
    P + "daemon.summoned": "summoned a daemon",
    P + "objective.counting": "changed the objective counter",
    P + "surrender.voted": "voted on ending the mission",
    P + "mission.ended": "ended the mission",
    P + "fate.spent": "spent fate points",
    P + "fate.gained": "gained fate points",
    P + "kill.counted": "counted a kill",
    P + "relic.taken": "changed the relic tokens",
    P + "mission.closed": "closed the mission",
    **setup_rules.EVENT_LABELS,
}


def _int(
    data: dict,
    key: str,
    default: int | None = None,
    low: int | None = None,
    high: int | None = None,
) -> int:
    value = data.get(key, default)
    if value == "":
        value = default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation("bad_input", f"{key} must be a whole number.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RuleViolation("bad_input", f"{key} must be between {low} and {high}.")
    return value


def _bool(data: dict, key: str) -> bool:
    value = data.get(key, False)
    if isinstance(value, str):
        return value.lower() in ("1", "true", "on", "yes")
    return bool(value)


def _dice(data: dict, key: str) -> list[int]:
    value = data.get(key, [])
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    try:
        return [int(v) for v in value]
    except (TypeError, ValueError):
        raise RuleViolation("bad_dice", "Enter the dice as numbers, e.g. 4 2 6.") from None


def _refs(kind: str, features: list[str]) -> list[dict]:
    """``[{"text": "SHIELD 1", "key": "weapon-shield" | None}]`` for the page's reference links."""
    return [{"text": f, "key": reference_key(kind, f)} for f in features]


class DemlocRuleset(BaseRuleset):
    """A DemLoc mission: 2 to 4 players, each with their guild's characters."""

    name = "demloc"
    title = "DemLoc mission"
    min_seats = 2
    max_seats = 4
    template = "missions/live.html"
    links = (
        ("Open a mission with your Guild", "missions:lobby"),
        ("Rules reference (works offline)", "missions:reference"),
    )
    stylesheet = "missions/missions.css"
    options_schema = OPTIONS_SCHEMA
    event_labels = EVENT_LABELS

    # ------------------------------------------------------------------ state
    def initial_state(self) -> dict:
        return {
            "options": {},
            "players": [],
            "pieces": {},
            "order": [],
            "turn": 0,
            "phase": turns.STRATEGIC,
            "first": None,
            "previous_first": None,
            "play_order": [],
            "acting_index": 0,
            "weights": [],
            "objective": {"target": 0, "count": 0, "counting": False, "seat": None},
            "turn_limit": 0,
            "surrender": [],
            "elimination": None,
            "ended": None,
            "pending": None,
            "notice": None,
            "daemon_seq": 0,
            "log": [],
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

    # ------------------------------------------------------------------ setup
    def setup(self, options: dict, seats: tuple[SeatInfo, ...], rng) -> list[NewEvent]:
        """Opening events: ``demloc.mission.opened`` with every card and pantheon as data, then
        the first ``demloc.turn.started``. ``options["guilds"]`` (optional): a list, one per seat
        in table order, of ``{"name", "fate_points", "characters": [card], "pantheon": [daemon
        card]}`` (``missions.rules.cards``); a seat without one plays a demo guild."""
        hidden = ("guilds", "mission")
        opts = {k: spec["default"] for k, spec in OPTIONS_SCHEMA.items() if k not in hidden}
        opts.update({k: str(v) for k, v in (options or {}).items() if k in opts and v is not None})
        if (options or {}).get("mission"):
            return [setup_rules.opened_event(options["mission"], seats, opts)]
        guilds = list((options or {}).get("guilds") or [])
        players, pieces = [], []
        for i, seat in enumerate(seats):
            guild = guilds[i] if i < len(guilds) and guilds[i] else demo_guild(i)
            players.append(
                {
                    "seat": seat.number,
                    "name": seat.name,
                    "guild": guild.get("name", f"Guild of {seat.name}"),
                    "fate": int(guild.get("fate_points", 3)),
                    "pantheon": [
                        card_from_data({**d, "kind": "daemon"}) for d in guild.get("pantheon", [])
                    ],
                }
            )
            names = set()
            for card in guild.get("characters", []):
                c = card_from_data(card)
                if c["kind"] == "mercenary":
                    require(
                        c["name"] not in names,
                        "duplicate_mercenary",
                        f"{c['name']} is already in this mission (5.1.1).",
                    )
                    names.add(c["name"])
                c["id"] = f"s{seat.number}-{c['id']}"
                pieces.append({"card": c, "owner": seat.number})
        merc_names = [p["card"]["name"] for p in pieces if p["card"]["kind"] == "mercenary"]
        require(
            len(merc_names) == len(set(merc_names)),
            "duplicate_mercenary",
            "Two guilds bring the same mercenary: the app's rule is that he sides with one (5.1.1).",
        )
        opened = NewEvent(
            P + "mission.opened", {"options": opts, "players": players, "pieces": pieces}
        )
        seat_numbers = [s.number for s in seats]
        first = turns.draw_first_player(rng, seat_numbers, None)
        started = NewEvent(
            P + "turn.started",
            {
                "turn": 1,
                "first": first,
                "weights": turns.first_player_weights(seat_numbers, None),
                "ooc": {},
            },
        )
        return [opened, started]

    # ------------------------------------------------------------------ helpers
    def _piece(self, state: dict, piece_id, *, alive: bool = True) -> dict:
        piece = state["pieces"].get(str(piece_id))
        require(piece is not None, "no_such_character", "No such character at this table.")
        if alive:
            require(in_play(piece), "not_in_play", f"{piece['name']} is no longer in play.")
        return piece

    def _control(self, state: dict, piece: dict, seat: int | None) -> None:
        if state["options"].get("control") == "anyone":
            return
        require(
            piece["owner"] == seat,
            "not_your_character",
            f"{piece['name']} belongs to another player.",
        )

    def _player(self, state: dict, seat: int) -> dict:
        for p in state["players"]:
            if p["seat"] == seat:
                return p
        raise RuleViolation("not_seated", "Only a player at this table can do that.")

    # ------------------------------------------------------------------ decide
    def decide(self, state: dict, command: Command, seat: int | None, rng) -> list[NewEvent]:
        if state.get("setup") and state["setup"]["stage"] != "play":
            return setup_rules.decide(state, command, seat, rng)
        if command.type == P + "mission.close":
            return self._cmd_mission_close(state, dict(command.data or {}), seat)
        require(seat is not None, "not_seated", "Only a seated player can play.")
        self._player(state, seat)
        require(state["ended"] is None, "mission_over", "The mission is over.")
        kind = command.type.removeprefix(P)
        handler = getattr(self, "_cmd_" + kind.replace(".", "_"), None)
        require(
            command.type.startswith(P) and handler is not None,
            "unknown_command",
            f"Unknown command {command.type!r}.",
        )
        return handler(state, dict(command.data or {}), seat, rng)

    # damage and tokens (6.4.2) ------------------------------------------------
    def _cmd_damage_assign(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        amount = _int(data, "amount", 1, 1, 30)
        mode = data.get("mode", GENERAL)
        require(mode in (GENERAL, HIT), "bad_mode", "Damage is general (armor first) or a hit.")
        return [
            NewEvent(P + "damage.assigned", {"piece": piece["id"], "amount": amount, "mode": mode})
        ]

    def _cmd_damage_remove(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        amount = _int(data, "amount", 1, 1, 30)
        step = data.get("step", "armor")
        require(
            step in ("armor", "hit"), "bad_step", "Remove damage from the armor or the hit step."
        )
        key = "armor_damage" if step == "armor" else "hit_damage"
        require(piece[key] > 0, "nothing_to_remove", "Only damage already assigned can be removed.")
        return [
            NewEvent(P + "damage.removed", {"piece": piece["id"], "amount": amount, "step": step})
        ]

    def _cmd_tokens_adjust(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        token = data.get("token")
        require(token in TOKENS, "bad_token", "Unknown token.")
        delta = _int(data, "delta", None, -10, 10)
        require(delta != 0, "bad_input", "Add or remove at least one token.")
        if delta < 0:
            require(
                piece[token] > 0,
                "nothing_to_remove",
                "Only tokens already assigned can be removed (never below 0).",
            )
        if token == "poison" and delta > 0 and piece["poison"] > 0:
            require(
                _bool(data, "exception"),
                "already_poisoned",
                f"{piece['name']} is already poisoned: no new poison tokens (6.4.2).",
            )
        if token == "broken_armor" and delta > 0:
            require(piece["broken_armor"] < 3, "at_most_three", "At most 3 broken armor tokens.")
        return [
            NewEvent(P + "tokens.adjusted", {"piece": piece["id"], "token": token, "delta": delta})
        ]

    def _cmd_movement_set(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        value = data.get("state")
        require(
            value in ("active", "exhausted"),
            "bad_input",
            "A movement token is active or exhausted.",
        )
        if value == "active":
            require(
                not piece["summoning"],
                "summoning",
                f"{piece['name']} cannot move while its daemon plays (7.2.3.2).",
            )
        require(piece["movement"] != value, "no_change", f"The movement token is already {value}.")
        return [NewEvent(P + "movement.set", {"piece": piece["id"], "state": value})]

    def _cmd_mana_adjust(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        colour = data.get("colour")
        require(
            colour in ("common", "dark"), "bad_input", "Mana is common (white) or dark (black)."
        )
        delta = _int(data, "delta", None, -6, 6)
        require(delta != 0, "bad_input", "Add or remove at least one cube.")
        require(piece["mana"][colour] + delta >= 0, "nothing_to_remove", "No such cube to remove.")
        if delta > 0:
            held = piece["mana"]["common"] + piece["mana"]["dark"]
            require(
                held + delta <= piece["arcane"],
                "too_many_dice",
                f"{piece['name']} holds at most {piece['arcane']} mana.",
            )
        return [
            NewEvent(P + "mana.adjusted", {"piece": piece["id"], "colour": colour, "delta": delta})
        ]

    def _cmd_mana_channel(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        require(not piece["possessed"], "possessed", "A possessed character cannot act (7.2.3).")
        setup = _bool(data, "setup")
        # 7.2.3.3: seals rolled when a daemon leaves have no effect either.
        daemon_left = _bool(data, "daemon_left")
        if setup:
            require(
                state["turn"] == 1 and state["phase"] == turns.STRATEGIC,
                "not_setup",
                "Setup channelling happens before the first turn is played.",
            )
        counts = {k: _int(data, k, 0, 0, 6) for k in ("common", "dark", "seals")}
        arcane.channel(
            piece,
            counts["common"],
            counts["dark"],
            counts["seals"],
            setup=setup or daemon_left,
            rule=state["options"]["seals"],
        )
        return [
            NewEvent(
                P + "mana.channelled",
                {"piece": piece["id"], **counts, "setup": setup, "daemon_left": daemon_left},
            )
        ]

    def _cmd_power_use(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        require(not piece["possessed"], "possessed", "A possessed character cannot act (7.2.3).")
        code = piece.get("code")
        require(
            code is not None and piece["asset"] == "standard",
            "no_power",
            f"{piece['name']} has no arcane power to use now.",
        )
        index = _int(data, "power", 0, 0, len(code["powers"]) - 1)
        target = self._piece(state, data.get("target"))
        extra = {
            "common": _int(data, "extra_common", 0, 0, 9),
            "dark": _int(data, "extra_dark", 0, 0, 9),
        }
        arcane.pay(piece, code["powers"][index]["cost"], extra)
        return [
            NewEvent(
                P + "power.used",
                {"piece": piece["id"], "power": index, "target": target["id"], "extra": extra},
            )
        ]

    def _cmd_pentacle_strike(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        code = piece.get("code") or {}
        pentacle = code.get("pentacle")
        require(
            piece["asset"] == "post_summoning" and pentacle,
            "no_pentacle",
            "No summoning pentacle is active.",
        )
        strikes = [e for e in pentacle["effects"] if parse_feature(e)[0] in ("HIT", "ARCANE HIT")]
        require(strikes, "no_pentacle", "This pentacle strikes nobody (8.3).")
        targets = data.get("targets") or []
        if isinstance(targets, str):
            targets = [t for t in targets.split(",") if t]
        require(targets, "bad_input", "Choose the characters in contact.")
        ids = [self._piece(state, t)["id"] for t in targets]
        return [
            NewEvent(
                P + "pentacle.struck", {"piece": piece["id"], "targets": ids, "effects": strikes}
            )
        ]

    def _cmd_effect_set(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        effect = data.get("effect")
        require(effect in ("fury", "vigor", "weakness"), "bad_effect", "Unknown effect.")
        if effect == "fury":
            on = _bool(data, "on")
            require(
                not on or has_feature(piece["features"], "FURY"),
                "no_fury",
                f"{piece['name']} has no FURY.",
            )
            value = 2 if on else 0
        else:
            value = _int(data, "value", None, 0, 6)
        return [
            NewEvent(P + "effect.set", {"piece": piece["id"], "effect": effect, "value": value})
        ]

    def _cmd_piece_escape(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        return [NewEvent(P + "piece.escaped", {"piece": piece["id"]})]

    # calculators (7.2.2, 7.3.2) -----------------------------------------------
    def _cmd_shot_propose(self, state, data, seat, rng):
        require(
            state["pending"] is None,
            "calc_pending",
            "Apply or cancel the calculation on the table first.",
        )
        shooter_ref = str(data.get("shooter") or "")
        if ":" in shooter_ref:  # the page's "character:weapon" choice
            shooter_ref, data["weapon"] = shooter_ref.split(":", 1)
        shooter = self._piece(state, shooter_ref)
        self._control(state, shooter, seat)
        require(not shooter["possessed"], "possessed", "A possessed character cannot act (7.2.3).")
        target = self._piece(state, data.get("target"))
        require(shooter["id"] != target["id"], "bad_target", "A character cannot shoot itself.")
        require(shooter["weapons"], "no_weapon", f"{shooter['name']} has no weapon.")
        w_index = _int(data, "weapon", 0, 0, len(shooter["weapons"]) - 1)
        weapon = shooter["weapons"][w_index]
        require(weapon.get("range"), "not_ranged", f"{weapon['name']} is not a ranged weapon.")
        stray = _bool(data, "stray")
        fate = _int(data, "fate", 0, 0, 6)
        require(
            self._player(state, shooter["owner"])["fate"] >= fate,
            "not_enough_fate",
            "Not enough fate points.",
        )
        test = None
        if not stray:
            test = shooting.ability_test(
                _int(data, "test_roll", None), shooter["ranged"], fate, name="Ranged weapon"
            )
            if not test.passed:
                ooc = shooting.out_of_control(rng)
                return [
                    NewEvent(
                        P + "shot.strayed",
                        {
                            "shooter": shooter["id"],
                            "target": target["id"],
                            "fate": fate,
                            "lines": list(test.lines),
                            "ooc": ooc,
                        },
                    )
                ]
        result = shooting.resolve_shot(
            shooter,
            target,
            weapon,
            _dice(data, "dice"),
            positioned=_bool(data, "positioned"),
            cover=_int(data, "cover", 0, 0, 6),
            extra=_int(data, "extra", 0, -6, 6),
        )
        lines = (
            list(test.lines) if test else ["Stray shot on a new target: no ability test."]
        ) + list(result.lines)
        return [
            NewEvent(
                P + "shot.proposed",
                {
                    "kind": "shot",
                    "by": seat,
                    "shooter": shooter["id"],
                    "target": target["id"],
                    "weapon": w_index,
                    "fate": fate,
                    "positioned": _bool(data, "positioned"),
                    "outcome": result.outcome,
                    "damage": result.damage,
                    "lines": lines,
                },
            )
        ]

    def _cmd_brawl_propose(self, state, data, seat, rng):
        require(
            state["pending"] is None,
            "calc_pending",
            "Apply or cancel the calculation on the table first.",
        )
        attacker = self._piece(state, data.get("attacker"))
        self._control(state, attacker, seat)
        require(
            not attacker["possessed"],
            "possessed",
            "A possessed character cannot attack; it only defends with 1 (7.2.3).",
        )
        defender = self._piece(state, data.get("defender"))
        require(attacker["id"] != defender["id"], "bad_target", "A character cannot fight itself.")
        result = brawl.resolve_brawl(
            attacker,
            defender,
            _dice(data, "attacker_dice"),
            _dice(data, "defender_dice"),
            attack_order=_int(data, "order", 1, 1, 8),
            from_behind=_bool(data, "from_behind"),
            charge=_bool(data, "charge"),
            attacker_extra=_int(data, "attacker_extra", 0, -6, 6),
            defender_extra=_int(data, "defender_extra", 0, -6, 6),
        )
        return [
            NewEvent(
                P + "brawl.proposed",
                {
                    "kind": "brawl",
                    "by": seat,
                    "attacker": attacker["id"],
                    "defender": defender["id"],
                    "winner": result.winner,
                    "difference": result.difference,
                    "damage": result.loser_damage,
                    "broken_hearts": result.broken_hearts,
                    "lines": list(result.lines),
                },
            )
        ]

    def _calc_parties(self, state, pending) -> set[int]:
        ids = [pending.get(k) for k in ("shooter", "target", "attacker", "defender")]
        return {state["pieces"][i]["owner"] for i in ids if i} | {pending["by"]}

    def _cmd_calc_apply(self, state, data, seat, rng):
        pending = state["pending"]
        require(pending is not None, "no_calc", "There is no calculation to apply.")
        if state["options"].get("control") != "anyone":
            require(
                seat in self._calc_parties(state, pending),
                "not_your_fight",
                "Only the players in this fight confirm it.",
            )
        return [NewEvent(P + "calc.applied", {"kind": pending["kind"]})]

    def _cmd_calc_cancel(self, state, data, seat, rng):
        require(state["pending"] is not None, "no_calc", "There is no calculation to cancel.")
        return [NewEvent(P + "calc.cancelled", {})]

    # arcane test, possession (7.2.3.5) ----------------------------------------
    def _cmd_arcane_test(self, state, data, seat, rng):
        piece = self._piece(state, data.get("piece"))
        self._control(state, piece, seat)
        require(piece["arcane"] > 0, "no_arcane", f"{piece['name']} has no arcane ability.")
        require(not piece["possessed"], "possessed", "A possessed character cannot act (7.2.3).")
        fate = _int(data, "fate", 0, 0, 6)
        require(
            self._player(state, piece["owner"])["fate"] >= fate,
            "not_enough_fate",
            "Not enough fate points.",
        )
        purpose = data.get("purpose") or ("free" if data.get("target") else "other")
        require(purpose in ("free", "other"), "bad_input", "Unknown purpose.")
        roll_mod, ability_mod = (0, 0)
        target = None
        if purpose == "free":
            target = self._piece(state, data.get("target"))
            require(target["possessed"], "not_possessed", f"{target['name']} is not possessed.")
            require(target["id"] != piece["id"], "bad_target", "A character cannot free itself.")
            roll_mod, ability_mod = arcane.free_possessed_modifier(
                state["options"]["free_possessed"]
            )
        test = shooting.ability_test(
            _int(data, "roll", None), piece["arcane"] + ability_mod, fate, roll_mod, name="Arcane"
        )
        return [
            NewEvent(
                P + "arcane.tested",
                {
                    "piece": piece["id"],
                    "target": target["id"] if target else None,
                    "purpose": purpose,
                    "fate": fate,
                    "passed": test.passed,
                    "lines": list(test.lines),
                },
            )
        ]

    # summoning (7.2.3.2) --------------------------------------------------------
    def _cmd_daemon_summon(self, state, data, seat, rng):
        summoner = self._piece(state, data.get("piece"))
        self._control(state, summoner, seat)
        require(
            summoner["kind"] == "mercenary",
            "cannot_summon",
            "Only mercenaries summon daemons (5.1.2).",
        )
        require(not summoner["possessed"], "possessed", "A possessed character cannot act (7.2.3).")
        require(
            not summoner["summoning"],
            "already_summoning",
            f"{summoner['name']} already has a daemon in play.",
        )
        code = summoner.get("code")
        require(
            code and code.get("summon_cost") and summoner["asset"] == "standard",
            "cannot_summon",
            "No arcane code to summon with.",
        )
        require(
            summoner["movement"] == "active",
            "not_active",
            "Summoning needs an active movement token (7.2.3.2).",
        )
        for colour in ("common", "dark"):
            require(
                summoner["mana"][colour] >= code["summon_cost"][colour],
                "not_enough_mana",
                f"Not enough {colour} mana to summon.",
            )
        # 5.1.5: a code summons the daemons of its own kabbalah.
        kabbalah = code.get("kabbalah")
        require(
            data.get("kabbalah") in (None, "", kabbalah),
            "wrong_kabbalah",
            f"{code['name']} summons {kabbalah} daemons only.",
        )
        level = _int(data, "level", 1, 1, 5)
        hearts = summoning.check_hearts(_int(data, "hearts", None))
        pantheon = self._player(state, summoner["owner"])["pantheon"]
        drawn_level, daemon = summoning.draw_daemon(rng, pantheon, kabbalah, level)
        replaced = next(
            (
                p["id"]
                for p in state["pieces"].values()
                if p["kind"] == "daemon" and in_play(p) and p["name"] == daemon["name"]
            ),
            None,
        )
        return [
            NewEvent(
                P + "daemon.summoned",
                {
                    "summoner": summoner["id"],
                    "daemon": daemon,
                    "id": f"d{state['daemon_seq'] + 1}",
                    "hearts": hearts,
                    "kabbalah": kabbalah,
                    "level": level,
                    "drawn_level": drawn_level,
                    "replaced": replaced,
                },
            )
        ]

    # turns (7, 7.3.2.3) ---------------------------------------------------------
    def _cmd_phase_next(self, state, data, seat, rng):
        require(state["phase"] != turns.TURN_END, "turn_over", "The turn is over: tap Next turn.")
        acting = state["play_order"][state["acting_index"]]
        if state["options"].get("control") != "anyone":
            require(seat == acting, "not_your_phase", "Wait for the acting player to pass.")
        index = state["acting_index"] + 1
        phase = state["phase"]
        if index >= len(state["play_order"]):
            index = 0
            phase = turns.BRAWL if phase == turns.STRATEGIC else turns.TURN_END
        return [NewEvent(P + "phase.advanced", {"phase": phase, "acting_index": index})]

    def _cmd_turn_next(self, state, data, seat, rng):
        require(
            state["phase"] == turns.TURN_END,
            "turn_not_over",
            "Finish the strategic and brawl phases first.",
        )
        require(
            state["pending"] is None,
            "calc_pending",
            "Apply or cancel the calculation on the table first.",
        )
        limit = state["turn_limit"]
        require(
            not limit or state["turn"] < limit,
            "turn_limit",
            f"Turn {limit} was the last: end the game.",
        )
        seats = [p["seat"] for p in state["players"]]
        first = turns.draw_first_player(rng, seats, state["first"])
        ooc = {}
        for piece in state["pieces"].values():
            if in_play(piece) and piece["possessed"]:
                ooc[piece["id"]] = shooting.out_of_control(rng)
        events = [
            NewEvent(
                P + "turn.started",
                {
                    "turn": state["turn"] + 1,
                    "first": first,
                    "weights": turns.first_player_weights(seats, state["first"]),
                    "ooc": ooc,
                },
            )
        ]
        # The objective counter may complete during the turn change: the mission ends there.
        preview = self.evolve(state, EventRecord(events[0].type, events[0].data, seat, 0))
        objective = preview["objective"]
        if objective["target"] and objective["count"] >= objective["target"]:
            events.append(
                NewEvent(
                    P + "mission.ended", {"reason": "objective_control", "seat": objective["seat"]}
                )
            )
        return events

    def _cmd_objective_control(self, state, data, seat, rng):
        objective = state["objective"]
        require(objective["target"] > 0, "no_objective", "This mission has no control objective.")
        action = data.get("action")
        require(action in ("start", "suspend"), "bad_input", "Start or suspend the counter.")
        if action == "start":
            require(
                not objective["counting"] or objective["seat"] != seat,
                "no_change",
                "The counter already runs for you.",
            )
        else:
            require(objective["counting"], "no_change", "The counter is not running.")
        return [NewEvent(P + "objective.counting", {"seat": seat, "counting": action == "start"})]

    def _cmd_objective_achieve(self, state, data, seat, rng):
        return [NewEvent(P + "mission.ended", {"reason": "objective", "seat": seat})]

    def _cmd_surrender_vote(self, state, data, seat, rng):
        agree = _bool(data, "agree")
        events = [NewEvent(P + "surrender.voted", {"agree": agree})]
        voters = set(state["surrender"]) | {seat} if agree else set(state["surrender"]) - {seat}
        if agree and voters >= {p["seat"] for p in state["players"]}:
            events.append(NewEvent(P + "mission.ended", {"reason": "surrender", "seat": None}))
        return events

    def _cmd_mission_end(self, state, data, seat, rng):
        limit = state["turn_limit"]
        if limit and state["turn"] >= limit and state["phase"] == turns.TURN_END:
            return [NewEvent(P + "mission.ended", {"reason": "turn_limit", "seat": None})]
        if state["elimination"] is not None:
            # -2: a player of 3-4 is wiped out but several are left (option "any"): no one seat.
            seat_out = None if state["elimination"] == -2 else state["elimination"]
            return [NewEvent(P + "mission.ended", {"reason": "elimination", "seat": seat_out})]
        raise RuleViolation(
            "cannot_end",
            "The game ends by turn limit, objective, surrender or total elimination (7.3.2.3).",
        )

    def _cmd_mission_close(self, state, data, seat):
        """Server only (``missions.services.mission_close``, seat None): the resolution was
        written into the guilds; the event is final, so undo can never reopen the mission."""
        require(seat is None, "server_only", "Close the mission from the resolution page.")
        require(state.get("setup") is not None, "not_a_mission", "This table has no mission.")
        require(state["ended"] is not None, "not_ended", "The mission has not ended yet.")
        require(state.get("closed") is None, "already_closed", "The mission is already closed.")
        return [NewEvent(P + "mission.closed", {"result": data.get("result") or {}}, final=True)]

    def _cmd_relic_take(self, state, data, seat, rng):
        """Relic tokens retrieved (a relic mission): +1 or -1 on the player's counter."""
        require(
            (state.get("setup") or {}).get("definition", {}).get("kind") == "relic",
            "no_relic",
            "This mission has no relic.",
        )
        delta = _int(data, "delta", 1, -1, 1)
        require(delta != 0, "bad_input", "Count +1 or -1.")
        if delta < 0:
            require(
                self._player(state, seat).get("relics", 0) > 0,
                "nothing_to_remove",
                "No relic token to remove.",
            )
        return [NewEvent(P + "relic.taken", {"delta": delta})]

    # fate points and kills (6.4.2) ---------------------------------------------
    def _cmd_fate_spend(self, state, data, seat, rng):
        amount = _int(data, "amount", 1, 1, 10)
        require(
            self._player(state, seat)["fate"] >= amount,
            "not_enough_fate",
            "Not enough fate points (never below 0).",
        )
        return [
            NewEvent(
                P + "fate.spent",
                {"amount": amount, "reason": str(data.get("reason") or "an ability")[:80]},
            )
        ]

    def _cmd_fate_gain(self, state, data, seat, rng):
        amount = _int(data, "amount", 1, 1, 10)
        return [
            NewEvent(
                P + "fate.gained",
                {"amount": amount, "reason": str(data.get("reason") or "the game")[:80]},
            )
        ]

    def _cmd_kill_count(self, state, data, seat, rng):
        kind = data.get("kind")
        require(kind in KILL_KINDS, "bad_input", "A kill is a mercenary, a follower or a daemon.")
        level = _int(data, "level", 1, 1, 5)
        delta = _int(data, "delta", 1, -1, 1)
        require(delta != 0, "bad_input", "Count +1 or -1.")
        if delta < 0:
            kills = self._player(state, seat)["kills"]
            require(
                kills.get(kind, {}).get(str(level), 0) > 0,
                "nothing_to_remove",
                "No such kill to remove.",
            )
        return [NewEvent(P + "kill.counted", {"kind": kind, "level": level, "delta": delta})]

    # ------------------------------------------------------------------ evolve
    def evolve(self, state: dict, event: EventRecord) -> dict:
        s = copy.deepcopy(state)
        lines: list[str] = []
        kind = event.type.removeprefix(P)
        handler = getattr(self, "_on_" + kind.replace(".", "_"), None)
        if event.type.startswith(setup_rules.P):
            setup_rules.evolve(s, event.type, event.data, event.seat, lines)
            if lines:
                s["log"].append({"v": event.version, "turn": 0, "seat": event.seat, "lines": lines})
            return s
        if handler is None:
            return s
        handler(s, event.data, event.seat, lines)
        self._settle(s, lines)
        if lines:
            s["log"].append(
                {"v": event.version, "turn": s["turn"], "seat": event.seat, "lines": lines}
            )
        return s

    def _set(self, s: dict, piece: dict, lines: list[str], more: list[str]) -> None:
        s["pieces"][piece["id"]] = piece
        lines.extend(more)

    def _settle(self, s: dict, lines: list[str]) -> None:
        """Daemons leaving (7.2.3.3): a killed daemon gives its heart tokens to its summoner as
        broken hearts; a killed summoner's daemon leaves the game; either way the summoner's
        arcane code returns to standard and its movement token is exhausted."""
        changed = True
        while changed:
            changed = False
            for daemon in list(s["pieces"].values()):
                summoner = s["pieces"].get(daemon.get("summoner") or "")
                if (
                    daemon["kind"] != "daemon"
                    or summoner is None
                    or summoner.get("summoning") != daemon["id"]
                ):
                    continue
                if in_play(daemon) and not in_play(summoner):
                    daemon = {**daemon, "status": "dismissed"}
                    s["pieces"][daemon["id"]] = daemon
                    lines.append(
                        f"{summoner['name']} is out of play: {daemon['name']} leaves the game (7.2.3.3)."
                    )
                if not in_play(daemon):
                    summoner = {**summoner, "summoning": None, "asset": "standard"}
                    if in_play(summoner):
                        summoner["movement"] = "exhausted"
                        lines.append(
                            f"{daemon['name']} has left: {summoner['name']}'s arcane code back to standard, movement token exhausted."
                        )
                        if daemon["status"] == "killed":
                            summoner, more = add_broken_hearts(summoner, daemon["heart_limit"])
                            lines.append(
                                f"The daemon was killed: {summoner['name']} receives its {daemon['heart_limit']} heart token(s) as broken hearts."
                            )
                            lines.extend(more)
                    s["pieces"][summoner["id"]] = summoner
                    changed = True

    def _on_mission_opened(self, s, d, seat, lines):
        s["options"] = dict(d["options"])
        s["turn_limit"] = int(d["options"].get("turn_limit", 0) or 0)
        s["objective"]["target"] = int(d["options"].get("objective_turns", 0) or 0)
        for p in d["players"]:
            s["players"].append(
                {**copy.deepcopy(p), "kills": {k: {} for k in KILL_KINDS}, "relics": 0}
            )
        for item in d["pieces"]:
            piece = new_piece(item["card"], item["owner"])
            if item.get("mana"):
                piece["mana"] = dict(item["mana"])
            piece["token"] = item.get("token")
            piece["enters"] = item.get("enters", 1)
            piece["area"] = item.get("area", "")
            s["pieces"][piece["id"]] = piece
            s["order"].append(piece["id"])
        if s.get("setup"):
            s["setup"]["stage"] = "play"
        lines.append(
            "The mission begins: "
            + ", ".join(f"{p['name']} ({p['guild']})" for p in d["players"])
            + "."
        )

    def _name(self, s, seat) -> str:
        for p in s["players"]:
            if p["seat"] == seat:
                return p["name"]
        return "?"

    def _on_turn_started(self, s, d, seat, lines):
        if s["turn"] >= 1:
            lines.append(f"End of turn {s['turn']}.")
            self._tick(s, "end", lines)
            for pid, p in list(s["pieces"].items()):
                if not in_play(p):
                    continue
                p = dict(p)
                if p["fury"] > 0:
                    p, more = add_broken_hearts(p, 1)
                    p["fury"] -= 1
                    lines.append(
                        f"{p['name']}'s FURY costs a broken heart ({p['fury']} turn(s) left)."
                    )
                    lines.extend(more)
                p["vigor"] = 0
                p["weakness"] = 0
                if in_play(p) and not p["summoning"]:
                    p["movement"] = "active"
                s["pieces"][pid] = p
            self._settle(s, lines)
            objective = s["objective"]
            if objective["counting"]:
                objective["count"] += 1
                lines.append(
                    f"Objective held by {self._name(s, objective['seat'])}: {objective['count']}/{objective['target']} turns."
                )
        s["turn"] = d["turn"]
        s["previous_first"] = s["first"]
        s["first"] = d["first"]
        s["weights"] = list(d["weights"])
        seats = [p["seat"] for p in s["players"]]
        s["play_order"] = turns.clockwise_from(seats, d["first"])
        s["acting_index"] = 0
        s["phase"] = turns.STRATEGIC
        s["surrender"] = []
        total = sum(d["weights"])
        odds = ", ".join(
            f"{self._name(s, st)} {w}/{total}" for st, w in zip(seats, d["weights"], strict=True)
        )
        lines.append(
            f"Turn {d['turn']}: {self._name(s, d['first'])} plays first (draw odds {odds})."
        )
        self._tick(s, "start", lines)
        for pid, ooc in d.get("ooc", {}).items():
            p = s["pieces"].get(pid)
            if p is None or not in_play(p):
                continue
            p, more = possession_tick(p)
            self._set(s, p, lines, more)
            if in_play(p):
                where = ooc["direction"] or "no effect (5)"
                lines.append(
                    f"{p['name']} moves out of control: d10 {'/'.join(map(str, ooc['rolls']))} -> {where}."
                )
        self._settle(s, lines)
        self._check_elimination(s, lines)
        wave = [p["name"] for p in s["pieces"].values() if p.get("enters", 1) == d["turn"] > 1]
        if wave:
            s["notice"] = (
                f"Turn {d['turn']}: the next wave enters. Take the cards and miniatures of "
                + ", ".join(wave)
                + " and place them now (6.4.1)."
            )
            lines.append(s["notice"])

    def _tick(self, s, moment, lines):
        opts = s["options"]
        for pid in s["order"]:
            p = s["pieces"][pid]
            if opts["bleeding"] == moment and in_play(p):
                p, more = bleed(p)
                self._set(s, p, lines, more)
            if opts["poison"] == moment and in_play(p):
                p, more = poison_tick(p)
                self._set(s, p, lines, more)

    def _check_elimination(self, s, lines):
        alive = {p["owner"] for p in s["pieces"].values() if in_play(p) and not p["possessed"]}
        if len(s["players"]) > 1 and len(alive) == 1:
            s["elimination"] = next(iter(alive))
            lines.append(
                f"Only {self._name(s, s['elimination'])} has characters in play: the game can end (total elimination)."
            )
        elif not alive:
            s["elimination"] = -1
            lines.append("Nobody has characters in play: the game can end.")
        elif s["options"].get("elimination") == "any" and len(s["players"]) >= 3:
            out = [p for p in s["players"] if p["seat"] not in alive]
            s["elimination"] = -2 if out else None
            if out:
                lines.append(
                    ", ".join(p["name"] for p in out)
                    + " has no character in play: the game can end (7)."
                )
        else:
            s["elimination"] = None

    def _on_phase_advanced(self, s, d, seat, lines):
        s["phase"] = d["phase"]
        s["acting_index"] = d["acting_index"]
        if d["phase"] == turns.TURN_END:
            lines.append(
                f"Turn {s['turn']} is over: all movement tokens go back to active with Next turn."
            )
        else:
            label = "Strategic" if d["phase"] == turns.STRATEGIC else "Brawl"
            lines.append(
                f"{label} phase: {self._name(s, s['play_order'][d['acting_index']])} acts."
            )

    def _on_damage_assigned(self, s, d, seat, lines):
        p = s["pieces"][d["piece"]]
        what = "hit(s) to the hit factor" if d["mode"] == HIT else "damage (armor first)"
        lines.append(f"{p['name']}: {d['amount']} {what}.")
        p, more = assign_damage(p, d["amount"], d["mode"])
        self._set(s, p, lines, more)

    def _on_damage_removed(self, s, d, seat, lines):
        p, more = remove_damage(s["pieces"][d["piece"]], d["amount"], d["step"])
        self._set(s, p, lines, more)

    def _on_tokens_adjusted(self, s, d, seat, lines):
        p = s["pieces"][d["piece"]]
        if d["token"] == "seals":
            p, more = arcane.add_seals(p, d["delta"], s["options"]["seals"])
        else:
            p, more = adjust_tokens(p, d["token"], d["delta"])
        self._set(s, p, lines, more)

    def _on_movement_set(self, s, d, seat, lines):
        p = {**s["pieces"][d["piece"]], "movement": d["state"]}
        self._set(s, p, lines, [f"{p['name']}'s movement token: {d['state']}."])

    def _on_mana_adjusted(self, s, d, seat, lines):
        p = copy.deepcopy(s["pieces"][d["piece"]])
        p["mana"][d["colour"]] += d["delta"]
        self._set(
            s,
            p,
            lines,
            [f"{p['name']}: {d['delta']:+d} {d['colour']} mana (now {p['mana'][d['colour']]})."],
        )

    def _on_mana_channelled(self, s, d, seat, lines):
        p, more = arcane.channel(
            s["pieces"][d["piece"]],
            d["common"],
            d["dark"],
            d["seals"],
            setup=d["setup"] or d.get("daemon_left", False),
            rule=s["options"]["seals"],
        )
        intro = (
            ["Setup channelling (6.4.1):"]
            if d["setup"]
            else ["Dice rolled as the daemon left (7.2.3.3):"]
            if d.get("daemon_left")
            else []
        )
        self._set(s, p, lines, intro + more)

    def _on_power_used(self, s, d, seat, lines):
        p = s["pieces"][d["piece"]]
        power = p["code"]["powers"][d["power"]]
        p, more = arcane.pay(p, power["cost"], d["extra"])
        self._set(
            s,
            p,
            lines,
            [f"{p['name']} uses {power['name']} on {s['pieces'][d['target']]['name']}."] + more,
        )
        for effect in power["effects"]:
            t, more = arcane.apply_effect(s["pieces"][d["target"]], effect)
            self._set(s, t, lines, more)

    def _on_pentacle_struck(self, s, d, seat, lines):
        p = s["pieces"][d["piece"]]
        lines.append(f"{p['name']}'s pentacle strikes everyone in contact.")
        for tid in d["targets"]:
            for effect in d["effects"]:
                t, more = arcane.apply_effect(s["pieces"][tid], effect)
                self._set(s, t, lines, more)

    def _on_effect_set(self, s, d, seat, lines):
        p = {**s["pieces"][d["piece"]], d["effect"]: d["value"]}
        text = {
            "fury": f"{p['name']}: FURY "
            + (
                "active for 2 turns (dice doubled, a broken heart at the end of each)."
                if d["value"]
                else "ended."
            ),
            "vigor": f"{p['name']}: VIGOR {d['value']} this turn.",
            "weakness": f"{p['name']}: WEAKNESS {d['value']} this turn.",
        }[d["effect"]]
        self._set(s, p, lines, [text])

    def _on_piece_escaped(self, s, d, seat, lines):
        p = {**s["pieces"][d["piece"]], "status": "escaped"}
        self._set(s, p, lines, [f"{p['name']} leaves the board: escaped."])

    def _on_shot_proposed(self, s, d, seat, lines):
        s["pending"] = copy.deepcopy(d)
        sh, tg = s["pieces"][d["shooter"]]["name"], s["pieces"][d["target"]]["name"]
        lines.append(f"Shot: {sh} at {tg}.")
        lines.extend(d["lines"])

    def _on_shot_strayed(self, s, d, seat, lines):
        sh = s["pieces"][d["shooter"]]
        player = self._player(s, sh["owner"])
        player["fate"] -= d["fate"]
        lines.append(f"Shot: {sh['name']} at {s['pieces'][d['target']]['name']}.")
        lines.extend(d["lines"])
        ooc = d["ooc"]
        where = ooc["direction"] or "no effect: the shot is lost (5)"
        lines.append(
            f"Stray shot! Out-of-control d10 {'/'.join(map(str, ooc['rolls']))} -> {where}. If a character stands there, shoot it with 'stray shot' ticked; an empty square: the shot is void."
        )
        s["notice"] = lines[-1]

    def _on_brawl_proposed(self, s, d, seat, lines):
        s["pending"] = copy.deepcopy(d)
        lines.append(
            f"Fight: {s['pieces'][d['attacker']]['name']} attacks {s['pieces'][d['defender']]['name']}."
        )
        lines.extend(d["lines"])

    def _on_calc_cancelled(self, s, d, seat, lines):
        s["pending"] = None
        lines.append("Calculation cancelled.")

    def _weapon_tokens(self, s, target_id, weapons, lines):
        for w in weapons:
            bleeding = feature_value(w["features"], "BLOODING")
            if bleeding:
                t, _ = adjust_tokens(s["pieces"][target_id], "bleeding", bleeding)
                self._set(
                    s,
                    t,
                    lines,
                    [
                        f"{w['name']} is BLOODING {bleeding}: {t['name']} bleeding tokens {t['bleeding']}."
                    ],
                )
            poison = feature_value(w["features"], "POISONOUS")
            if poison:
                t, more = add_poison(s["pieces"][target_id], poison)
                self._set(s, t, lines, [f"{w['name']} is POISONOUS {poison}."] + more)

    def _on_calc_applied(self, s, d, seat, lines):
        pending = s["pending"]
        s["pending"] = None
        if pending["kind"] == "shot":
            shooter = s["pieces"][pending["shooter"]]
            if pending["fate"]:
                self._player(s, shooter["owner"])["fate"] -= pending["fate"]
                lines.append(
                    f"{self._name(s, shooter['owner'])} spends {pending['fate']} fate point(s) on the test."
                )
            if pending["positioned"]:
                self._set(
                    s,
                    {**shooter, "movement": "exhausted"},
                    lines,
                    [f"{shooter['name']}'s movement token: exhausted (positioned shot)."],
                )
            lines.append(
                f"Shot applied: {shooter['name']} at {s['pieces'][pending['target']]['name']}."
            )
            if pending["outcome"] == "none" or pending["damage"] <= 0:
                lines.append("No damage.")
                return
            mode = GENERAL if pending["outcome"] == "armor" else HIT
            t, more = assign_damage(s["pieces"][pending["target"]], pending["damage"], mode)
            self._set(s, t, lines, more)
            self._weapon_tokens(s, t["id"], [shooter["weapons"][pending["weapon"]]], lines)
            return
        attacker, defender = s["pieces"][pending["attacker"]], s["pieces"][pending["defender"]]
        lines.append(f"Fight applied: {attacker['name']} against {defender['name']}.")
        if pending["winner"] is None:
            lines.append("A tie: nothing happens.")
            return
        loser = defender if pending["winner"] == "attacker" else attacker
        t, more = assign_damage(loser, pending["damage"], GENERAL)
        self._set(s, t, lines, more)
        if pending["winner"] == "attacker":
            weapons = attacker["weapons"][: 1 if pending["difference"] == 1 else 2]
            if pending["damage"] > 0:
                self._weapon_tokens(s, defender["id"], weapons, lines)
            if pending["broken_hearts"]:
                t, more = add_broken_hearts(s["pieces"][defender["id"]], pending["broken_hearts"])
                self._set(s, t, lines, ["Devastating blow (5+):"] + more)

    def _on_arcane_tested(self, s, d, seat, lines):
        p = s["pieces"][d["piece"]]
        if d["fate"]:
            self._player(s, p["owner"])["fate"] -= d["fate"]
        lines.extend(d["lines"])
        if d["purpose"] != "free":
            return
        t = s["pieces"][d["target"]]
        if not d["passed"]:
            lines.append(f"{t['name']} stays possessed.")
            return
        t = {**t, "possessed": False}
        lines.append(f"{p['name']} frees {t['name']} from the daemon.")
        if t["broken_hearts"] >= t["heart_limit"]:
            t["status"] = "killed"
            lines.append(f"{t['name']} already carries its fatal broken hearts: killed.")
        self._set(s, t, lines, [])

    def _on_daemon_summoned(self, s, d, seat, lines):
        summoner = copy.deepcopy(s["pieces"][d["summoner"]])
        cost = summoner["code"]["summon_cost"]
        summoner["mana"]["common"] -= cost["common"]
        summoner["mana"]["dark"] -= cost["dark"]
        owner = summoner["owner"]
        lines.append(
            f"{summoner['name']} summons a {d['kabbalah']} daemon of level {d['level']}"
            + (
                f" (none at that level: drawn from level {d['drawn_level']})"
                if d["drawn_level"] != d["level"]
                else ""
            )
            + f": {d['daemon']['name']} with {d['hearts']} heart token(s)."
        )
        if d["replaced"]:
            old = s["pieces"][d["replaced"]]
            s["pieces"][old["id"]] = {**old, "status": "dismissed"}
            notice = (
                f"{d['daemon']['name']} was already on the table for {self._name(s, old['owner'])}: "
                f"{self._name(s, old['owner'])} removes it (card and miniature); {self._name(s, owner)} places the new one (5.1.3)."
            )
            lines.append(notice)
            s["notice"] = notice
        summoner["summoning"] = d["id"]
        summoner["asset"] = "post_summoning"
        summoner["movement"] = "exhausted"
        s["pieces"][summoner["id"]] = summoner
        card = {**copy.deepcopy(d["daemon"]), "id": d["id"]}
        daemon = new_piece(card, owner, heart_limit=d["hearts"])
        daemon["summoner"] = summoner["id"]
        s["pieces"][d["id"]] = daemon
        s["order"].append(d["id"])
        s["daemon_seq"] += 1
        lines.append(
            f"Place the daemon next to {summoner['name']}; {summoner['name']} cannot move while it plays."
        )

    def _on_objective_counting(self, s, d, seat, lines):
        o = s["objective"]
        o["counting"] = d["counting"]
        if d["counting"]:
            if o["seat"] != d["seat"]:
                o["count"] = 0
            o["seat"] = d["seat"]
            lines.append(
                f"Objective counter runs for {self._name(s, d['seat'])} ({o['count']}/{o['target']})."
            )
        else:
            lines.append(f"Objective counter suspended at {o['count']}/{o['target']}.")

    def _on_surrender_voted(self, s, d, seat, lines):
        votes = set(s["surrender"])
        votes = votes | {seat} if d["agree"] else votes - {seat}
        s["surrender"] = sorted(votes)
        lines.append(
            f"{self._name(s, seat)} "
            + ("agrees to end the mission." if d["agree"] else "wants to play on.")
        )

    def _on_mission_ended(self, s, d, seat, lines):
        s["ended"] = {"reason": d["reason"], "seat": d["seat"]}
        why = {
            "turn_limit": "the last turn was played",
            "objective": f"{self._name(s, d['seat'])} achieved the objective",
            "objective_control": f"{self._name(s, d['seat'])} held the objective long enough",
            "surrender": "all players agreed to stop",
            "elimination": "total elimination",
        }[d["reason"]]
        lines.append(f"The mission ends: {why}.")

    def _on_mission_closed(self, s, d, seat, lines):
        s["closed"] = copy.deepcopy(d["result"])
        lines.append("The mission is closed: the guilds are updated.")

    def _on_relic_taken(self, s, d, seat, lines):
        player = self._player(s, seat)
        player["relics"] = player.get("relics", 0) + d["delta"]
        lines.append(f"{player['name']}: {player['relics']} relic token(s).")

    def _on_fate_spent(self, s, d, seat, lines):
        player = self._player(s, seat)
        player["fate"] -= d["amount"]
        lines.append(
            f"{player['name']} spends {d['amount']} fate point(s) on {d['reason']} ({player['fate']} left)."
        )

    def _on_fate_gained(self, s, d, seat, lines):
        player = self._player(s, seat)
        player["fate"] += d["amount"]
        lines.append(
            f"{player['name']} gains {d['amount']} fate point(s) from {d['reason']} ({player['fate']})."
        )

    def _on_kill_counted(self, s, d, seat, lines):
        player = self._player(s, seat)
        by_level = player["kills"].setdefault(d["kind"], {})
        key = str(d["level"])
        by_level[key] = by_level.get(key, 0) + d["delta"]
        lines.append(f"{player['name']}: {d['kind']} level {d['level']} kills {by_level[key]}.")

    # ------------------------------------------------------------------ view
    def view(self, state: dict, seat: int | None) -> dict:
        """The whole table (public in DemLoc), with per-piece figures the page shows: dice to
        shoot and fight, the seal limit, and the player's own characters first. While a
        lifecycle mission is being prepared: ``{"setup": setup_rules.view(...), "me"}`` only."""
        setup = state.get("setup")
        if setup and setup["stage"] != "play":
            return {
                "me": seat,
                "setup": setup_rules.view(setup, seat),
                "ended": None,
                "log": list(reversed(state["log"][-40:])),
            }
        mission = None
        if setup:
            definition = setup["definition"]
            mission = {
                "id": setup["mission"],
                "mode": setup["mode"],
                "name": definition.get("name"),
                "kind": definition["kind"],
                "kind_label": setup_rules.KINDS[definition["kind"]],
                "objective": definition.get("objective", ""),
                "special_rules": definition.get("special_rules", ""),
                "relic_tokens": definition.get("relic_tokens", 0),
                "point": (setup.get("raffle") or {}).get("point"),
                "result": resolution.compute(state) if state["ended"] else None,
                "closed": state.get("closed"),
            }
        seats = [p["seat"] for p in state["players"]]
        pieces = []
        for pid in state["order"]:
            p = state["pieces"][pid]
            pieces.append(
                {
                    **p,
                    "mine": p["owner"] == seat,
                    # An ended mission shows its cards without controls (it only undoes).
                    "editable": seat is not None
                    and state["ended"] is None
                    and (p["owner"] == seat or state["options"].get("control") == "anyone"),
                    "player": self._name(state, p["owner"]),
                    "seal_limit": possession_limit(p["arcane"]),
                    "shoot_dice": shooting.shooting_dice(p),
                    "h2h_now": brawl.h2h_ability(p),
                    "refs": _refs("ability", p["features"]),
                    "weapon_refs": [
                        {**w, "index": i, "refs": _refs("weapon", w["features"])}
                        for i, w in enumerate(p["weapons"])
                    ],
                    "power_refs": [
                        {**pw, "index": i, "refs": _refs("arcane", pw["effects"])}
                        for i, pw in enumerate((p.get("code") or {}).get("powers", []))
                    ],
                    "pentacle_refs": _refs(
                        "pentacle", ((p.get("code") or {}).get("pentacle") or {}).get("effects", [])
                    ),
                    "summoner_name": state["pieces"][p["summoner"]]["name"]
                    if p.get("summoner")
                    else None,
                }
            )
        acting = state["play_order"][state["acting_index"]] if state["play_order"] else None
        next_odds = (
            [
                {"seat": st, "name": self._name(state, st), "percent": round(prob * 100)}
                for st, prob in turns.first_player_odds(seats, state["first"])
            ]
            if seats
            else []
        )
        limit = state["turn_limit"]
        return {
            "me": seat,
            "players": [
                {
                    **{k: v for k, v in p.items() if k != "pantheon"},
                    "pantheon": [d["name"] for d in p["pantheon"]],
                    "kabbalahs": sorted({d.get("kabbalah") or "" for d in p["pantheon"]}),
                }
                for p in state["players"]
            ],
            "pieces": pieces,
            "my_pieces": [p for p in pieces if p["mine"]],
            "other_pieces": [p for p in pieces if not p["mine"]],
            "turn": state["turn"],
            "phase": state["phase"],
            "phase_label": turns.PHASES[state["phase"]],
            "first": state["first"],
            "first_name": self._name(state, state["first"]),
            "acting": acting,
            "acting_name": self._name(state, acting),
            "my_turn": acting == seat and state["phase"] != turns.TURN_END,
            "next_odds": next_odds,
            "turn_limit": limit,
            "last_turn": bool(limit and state["turn"] >= limit),
            "objective": state["objective"],
            "surrender": state["surrender"],
            "i_surrender": seat in state["surrender"],
            "elimination": state["elimination"],
            "ended": state["ended"],
            "mission": mission,
            "pending": state["pending"],
            "notice": state["notice"],
            "options": state["options"],
            "log": list(reversed(state["log"][-60:])),
            "can_end": bool(
                (limit and state["turn"] >= limit and state["phase"] == turns.TURN_END)
                or state["elimination"] is not None
            ),
        }

"""The stages of a mission's preparation after the Guilds (DemLoc rulebook 6.4.1, 5.2): every
player taps Next to leave a phase (``demloc.setup.next``), the setup mana of arcane characters
(``demloc.setup.mana``), sub-base colours and movement token numbers, the deployment in turns
(``demloc.setup.deploy``) and the start of the game (``demloc.mission.opened``). The stage
order and shared queries are in ``missions.rules.setup``.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Topic, copy_json, say
from tabletop.rules import EventRecord, NewEvent, counted, require

from .common import known, must
from .roster import turn_one
from .setup import (
    COLOURS,
    STAGE_LABELS,
    TRAINING,
    contests_of,
    next_stage,
    piece_id,
    seat_key,
    setup_command,
    stage_is,
    who,
)
from .setup_script import wave_turns
from .state import DemlocState
from .turns import clockwise_from, draw_first_player

stages = Topic("setup_stages")


def _check_ready(setup: dict, seat: int) -> None:
    stage = setup["stage"]
    if stage == "guilds":
        require(
            len(setup["guilds"]) == len(setup["seats"]),
            "guilds_missing",
            "Wait until every player has brought a Guild.",
        )
    if stage == "characters":
        picks = setup["picks"][seat_key(seat)]
        require(picks, "no_characters", "Choose at least one character.")
        require(
            not contests_of(setup, seat),
            "contested",
            "Settle the contested mercenary first (5.1.1): make your offer or free the slot.",
        )
    if stage == "mana":
        for pick in setup["picks"][seat_key(seat)]:
            pid = piece_id(seat, pick["id"])
            require(
                pick["card"].get("arcane", 0) == 0 or pid in setup["mana"],
                "mana_missing",
                f"Enter the arcane dice of {pick['name']}.",
            )
    if stage == "deployment":
        require(False, "deploying", "Place the miniatures first.")


@setup_command(stages, "demloc.setup.next")
def next_tap(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """Next: this player is done with the phase; when everybody is, the preparation moves on
    (6.4.1); at Start the mission begins (final). Raises ``already_ready``, ``guilds_missing``,
    ``no_characters``, ``contested``, ``mana_missing``, ``deploying``, ``raffle_missing``."""
    require(setup["stage"] != "play", "wrong_phase", "The mission has started.")
    require(seat not in setup["ready"], "already_ready", "You already tapped Next.")
    _check_ready(setup, seat)
    events = [NewEvent("demloc.setup.next_tapped", {"stage": setup["stage"]})]
    if set(setup["ready"]) | {seat} >= set(setup["seats"]):
        events.extend(_advance(state, setup, rng))
    return events


def _advance(state: DemlocState, setup: dict, rng) -> list[NewEvent]:
    stage = setup["stage"]
    if stage == "guilds":
        require(
            setup["mode"] == TRAINING or setup["raffle"] is not None,
            "raffle_missing",
            "The control spot has not been drawn yet.",
        )
    if stage == "start":
        return opening_events(state, setup, rng)
    new = next_stage(setup)
    data: dict = {"stage": new}
    if new == "miniatures":
        data["colours"] = assign_colours(setup)
        data["tokens"] = assign_tokens(setup)
    if new == "deployment":
        first = draw_first_player(rng, setup["seats"], None)
        data["first"] = first
        data["order"] = clockwise_from(setup["seats"], first)
    # The first-player draw is final: undo could otherwise let another phone re-draw it.
    return [NewEvent("demloc.setup.stage_advanced", data, final=new == "deployment")]


def assign_colours(setup: dict) -> dict[str, str]:
    """Sub-base colours (5.2): each Guild's own colour; a colour already taken by an earlier
    seat goes to the first free one of ``COLOURS`` (our rule: the app keeps them distinct)."""
    taken: dict[str, str] = {}
    for seat in setup["seats"]:
        wanted = setup["guilds"][seat_key(seat)]["guild"].get("colour")
        if wanted not in COLOURS or wanted in taken.values():
            wanted = next(c for c in COLOURS if c not in taken.values())
        taken[seat_key(seat)] = wanted
    return taken


def assign_tokens(setup: dict) -> dict[str, int]:
    """Movement token numbers (5.2): 1, 2, 3... per player, in the order the characters were
    chosen; the same number goes on the miniature's sub-base and the card."""
    tokens = {}
    for seat in setup["seats"]:
        for n, pick in enumerate(setup["picks"][seat_key(seat)], start=1):
            tokens[piece_id(seat, pick["id"])] = n
    return tokens


#: The fields of a mana form, as its labels say them (what each arcane die showed, 6.4.1).
MANA_FIELDS = ("common", "dark", "seals")


def mana_count_words(name: str, arcane: int, entered: int) -> str | None:
    """What is wrong with ``entered`` dice for a character who rolls ``arcane`` arcane dice
    (6.4.1: each die rolled shows common, dark or a broken seal, entered once), in the
    refusal's words, or None when they match: "3 entered, Malve rolls only 2 arcane dice:
    ..." (too many), "1 entered, Malve rolls 2 arcane dice: 1 missing ..." (too few)."""
    dice = counted(arcane, "arcane die", "arcane dice")
    if entered > arcane:
        return (f"{entered} entered, {name} rolls only {dice}: count each die once "
                "(common, dark or seal).")
    if entered < arcane:
        return (f"{entered} entered, {name} rolls {dice}: {arcane - entered} missing "
                "(count each die as common, dark or seal).")
    return None


def mana_field_words(name: str, arcane: int, field: str, value: object) -> str:
    """The refusal of one mana field whose value is not a number of dice (negative, above
    12, not a whole number): names the field, what it takes and what was typed."""
    shown = str(value).strip()[:12] if value is not None else ""
    return (f"{field.capitalize()}: enter 0 to {arcane} ({name} rolls "
            f"{counted(arcane, 'arcane die', 'arcane dice')}), not {shown or 'nothing'}.")


@setup_command(stages, "demloc.setup.mana")
def mana(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"character", "common", "dark", "seals"}``: what each arcane die of the character
    showed in the setup (6.4.1: broken seals have no effect), as many dice as its arcane
    ability. Raises ``no_such_character``, ``no_arcane``, ``bad_input``, ``bad_count``."""
    stage_is(setup, "mana")
    require(seat not in setup["ready"], "already_ready", "You tapped Next already.")
    char_id = str(data.get("character") or "")
    pick = must(
        next((p for p in setup["picks"][seat_key(seat)] if p["id"] == char_id), None),
        code="no_such_character",
        message="That character is not in your slots.",
    )
    arcane = pick["card"].get("arcane", 0)
    require(arcane > 0, "no_arcane", f"{pick['name']} has no arcane ability.")
    counts = {
        k: data.int(
            k, lo=0, hi=12, default=0, code="bad_input",
            message=mana_field_words(pick["name"], arcane, k, data.get(k)),
        )
        for k in MANA_FIELDS
    }
    wrong = mana_count_words(pick["name"], arcane, sum(counts.values()))
    require(wrong is None, "bad_count", wrong or "")
    return [NewEvent("demloc.setup.mana_rolled", {"piece": piece_id(seat, char_id), **counts})]


def pick_name(setup: dict, pid: str) -> str:
    """The name of the chosen character ``pid`` (``s<seat>-<card>``), "a character" if gone."""
    seat = _seat_of(pid)
    for p in (setup.get("picks") or {}).get(seat_key(seat), []) if seat is not None else []:
        if piece_id(seat, p["id"]) == pid:
            return p["name"]
    return "a character"


def _seat_of(pid: str) -> int | None:
    """The seat in a piece id ``s<seat>-<card>`` (``setup.piece_id``)."""
    head = pid.split("-", 1)[0]
    return int(head[1:]) if head[:1] == "s" and head[1:].isdigit() else None


def area_holders(setup: dict) -> dict[str, set[int]]:
    """``{area: {seats with a miniature there}}`` of the deployment so far."""
    out: dict[str, set[int]] = {}
    for pid, placed in setup["deploy"]["placed"].items():
        seat = placed.get("seat", _seat_of(pid))
        if placed.get("area") and seat is not None:
            out.setdefault(placed["area"], set()).add(seat)
    return out


def deployment_areas(setup: dict, seat: int) -> list[str]:
    """The deployment areas ``seat`` may place a miniature in now (6.4.1 "choosing the
    preferred deployment area, unless otherwise specified"): each Guild deploys in areas no
    other Guild holds, unless the mission says they may share (``"shared": true`` on an area
    of its definition). Our reading where the rulebook is silent: with more Guilds than
    areas, a Guild that finds every area held by others may use any of them (else it could
    not deploy at all). Areas in the definition's order."""
    areas = setup["definition"].get("deployment", [])
    holders = area_holders(setup)
    free = [
        a["name"] for a in areas if a.get("shared") or not holders.get(a["name"], set()) - {seat}
    ]
    return free or [a["name"] for a in areas]


@setup_command(stages, "demloc.setup.deploy")
def deploy(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"character", "area", "wave": turn | "later": bool}``: the acting player places one
    miniature in a deployment area, or (a wave mission) holds it back for the wave of turn
    ``wave`` (``later``: the first wave); then the next player clockwise who still has one
    (6.4.1). Raises ``not_your_turn``, ``no_such_character``, ``already_placed``, ``no_waves``,
    ``bad_wave``, ``bad_area``, ``area_taken`` (another Guild's area: ``deployment_areas``)."""
    stage_is(setup, "deployment")
    placing = setup["deploy"]
    require(
        seat == placing["acting"],
        "not_your_turn",
        f"{setup['names'][seat_key(placing['acting'])]} places a miniature now.",
    )
    char_id = str(data.get("character") or "")
    pick = must(
        next((p for p in setup["picks"][seat_key(seat)] if p["id"] == char_id), None),
        code="no_such_character",
        message="That character is not in your slots.",
    )
    pid = piece_id(seat, char_id)
    require(pid not in placing["placed"], "already_placed", f"{pick['name']} is already placed.")
    later = data.bool("later")
    areas = [a["name"] for a in setup["definition"].get("deployment", [])]
    area = str(data.get("area") or "")
    turns = wave_turns(setup["definition"])
    wave = data.get("wave")
    if later or wave not in (None, "", 0, "0"):
        require(
            setup["definition"]["kind"] == "waves" and bool(turns),
            "no_waves",
            "Only a wave mission holds characters back.",
        )
        enters = turns[0]
        if wave not in (None, "", 0, "0"):
            enters = data.int("wave", code="bad_wave")
            require(
                enters in turns,
                "bad_wave",
                "Hold it back for one of the waves: turn "
                + ", ".join(str(t) for t in turns)
                + " (6.4.1).",
            )
        area = ""
    else:
        enters = 1
        require(area in areas, "bad_area", f"Place it in a deployment area: {', '.join(areas)}.")
        allowed = deployment_areas(setup, seat)
        holders = area_holders(setup).get(area, set()) - {seat}
        require(
            area in allowed,
            "area_taken",
            f"{area} is the deployment area of "
            f"{', '.join(setup['names'][seat_key(h)] for h in sorted(holders))}: place it in "
            f"{', '.join(allowed)} (6.4.1: each Guild deploys in its own area).",
        )
    placed = {**placing["placed"], pid: {}}
    remaining = [
        s
        for s in placing["order"]
        if any(piece_id(s, p["id"]) not in placed for p in setup["picks"][seat_key(s)])
    ]
    nxt = None
    if remaining:
        i = placing["order"].index(seat)
        ring = placing["order"][i + 1 :] + placing["order"][: i + 1]
        nxt = next(s for s in ring if s in remaining)
    return [
        NewEvent(
            "demloc.setup.deployed",
            {"seat": seat, "piece": pid, "area": area, "enters": enters, "next": nxt},
        )
    ]


def opening_events(state: DemlocState, setup: dict, rng) -> list[NewEvent]:
    """``demloc.mission.opened`` and the first ``demloc.turn.started`` from the setup: every
    chosen character's card with its setup mana, movement token number and wave turn; the
    table options the mission definition implies (turn limit, turns to hold)."""
    definition = setup["definition"]
    opts = dict(setup.get("options") or {})
    opts["turn_limit"] = str(int(definition.get("turn_limit") or 0))
    opts["turn_limit_hidden"] = "1" if definition.get("turn_limit_hidden") else "0"
    opts["objective_turns"] = str(
        int(definition.get("control_turns") or 0) if definition["kind"] == "control" else 0
    )
    players, pieces = [], []
    for seat in setup["seats"]:
        guild = setup["guilds"][seat_key(seat)]
        players.append(
            {
                "seat": seat,
                "name": setup["names"][seat_key(seat)],
                "guild": guild["guild"]["name"],
                # Table option ``fate_points`` (no rulebook number: 3 by default); a table
                # opened before the option: the Guild's payload (3).
                "fate": int(opts.get("fate_points") or guild.get("fate_points", 3)),
                "pantheon": copy_json(guild["pantheon"]),
            }
        )
        for pick in setup["picks"][seat_key(seat)]:
            pid = piece_id(seat, pick["id"])
            mana = setup["mana"].get(pid, {})
            placed = setup["deploy"]["placed"].get(pid, {})
            pieces.append(
                {
                    "card": {**copy_json(pick["card"]), "id": pid, "name": pick["name"]},
                    "owner": seat,
                    "mana": {"common": mana.get("common", 0), "dark": mana.get("dark", 0)},
                    "token": setup["tokens"].get(pid),
                    "enters": placed.get("enters", 1),
                    "area": placed.get("area", ""),
                }
            )
    return [
        # Starting the game is final (6.4.1 "start game"): the preparation is over.
        NewEvent(
            "demloc.mission.opened",
            {"options": opts, "players": players, "pieces": pieces},
            final=True,
        ),
        turn_one(rng, list(setup["seats"])),
    ]


@stages.evolver("demloc.setup.next_tapped", label="tapped Next")
def next_tapped(s: DemlocState, e: EventRecord) -> None:
    ready: set[Any] = {*known(s["setup"])["ready"], e.seat}
    known(s["setup"])["ready"] = sorted(ready)
    say(say_next_tapped(e, s))


@stages.narrator("demloc.setup.next_tapped")
def say_next_tapped(e: EventRecord, s: DemlocState) -> str:
    return (
        f"{who(s.get('setup') or {}, e.seat)} is ready ({STAGE_LABELS.get(e.data['stage'], '')})."
    )


@stages.evolver("demloc.setup.stage_advanced", label="moved to the next phase")
def stage_advanced(s: DemlocState, e: EventRecord) -> None:
    setup, d = known(s["setup"]), e.data
    setup["stage"] = d["stage"]
    setup["ready"] = []
    if "colours" in d:
        setup["colours"] = dict(d["colours"])
        setup["tokens"] = dict(d["tokens"])
    if "first" in d:
        setup["deploy"].update(
            {"first": d["first"], "order": list(d["order"]), "acting": d["first"]}
        )
    say(say_stage_advanced(e, s))


@stages.narrator("demloc.setup.stage_advanced")
def say_stage_advanced(e: EventRecord, s: DemlocState) -> str:
    first = (
        f"Deployment: {who(s.get('setup') or {}, e.data['first'])} places first. "
        if "first" in e.data
        else ""
    )
    return f"{first}Phase: {STAGE_LABELS.get(e.data['stage'], e.data['stage'])}."


@stages.evolver("demloc.setup.mana_rolled", label="entered arcane dice")
def mana_rolled(s: DemlocState, e: EventRecord) -> None:
    known(s["setup"])["mana"][e.data["piece"]] = {k: e.data[k] for k in ("common", "dark", "seals")}
    say(say_mana_rolled(e, s))


@stages.narrator("demloc.setup.mana_rolled")
def say_mana_rolled(e: EventRecord, s: DemlocState) -> str:
    d = e.data
    extra = f"; {counted(d['seals'], 'broken seal')} without effect (6.4.1)" if d["seals"] else ""
    return f"{who(s.get('setup') or {}, e.seat)}: {d['common']} common and {d['dark']} dark mana on {pick_name(s.get('setup') or {}, d['piece'])}{extra}."


@stages.evolver("demloc.setup.deployed", label="placed a miniature")
def deployed(s: DemlocState, e: EventRecord) -> None:
    setup, d = known(s["setup"]), e.data
    setup["deploy"]["placed"][d["piece"]] = {
        "area": d["area"],
        "enters": d["enters"],
        "seat": d["seat"],
    }
    setup["deploy"]["acting"] = d["next"]
    if d["next"] is None:
        setup["stage"] = "start"
        setup["ready"] = []
    say(say_deployed(e, s))


@stages.narrator("demloc.setup.deployed")
def say_deployed(e: EventRecord, s: DemlocState) -> str:
    d = e.data
    where = f"in {d['area']}" if d["area"] else f"for the wave of turn {d['enters']}"
    done = " Every miniature is placed: everyone taps Next to start." if d["next"] is None else ""
    return f"{who(s.get('setup') or {}, e.seat)} places a miniature {where}.{done}"


__all__ = ["copy_json", "require"]

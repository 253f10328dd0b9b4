"""The Guilds phase of a mission's preparation (DemLoc rulebook 6.4, 6.4.1 raffle): the mission
lobby opens (``demloc.setup.opened``), each phone brings its Guild (the server sends its
snapshot: ``demloc.setup.guild_bind``; the same Guild again: a fresh snapshot, choices no
longer valid dropped), and a standard mission draws its control spot (``demloc.setup.raffle``).
The stages and shared queries are in ``missions.rules.setup``.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Topic, copy_json, say
from tabletop.errors import NotFound, RuleViolation
from tabletop.rules import EventRecord, NewEvent, require

from .cards import card_from_data
from .common import known
from .setup import (
    STANDARD,
    can_refresh,
    contest_after_unpick,
    drop_pick,
    initial,
    seat_key,
    setup_command,
    stage_is,
)
from .state import DemlocState

guilds = Topic("setup_guilds")

#: The longest seat name (``tabletop.names.MAX_NAME``, a Guild name too): a Guild that names
#: its seat is never cut.
SEAT_NAME_MAX = 60


@guilds.evolver("demloc.setup.opened", label="opened the mission lobby")
def opened(s: DemlocState, e: EventRecord) -> None:
    s["setup"] = initial(copy_json(e.data))
    say(say_opened(e, s))


@guilds.narrator("demloc.setup.opened")
def say_opened(e: EventRecord, s: DemlocState) -> str:
    return f"{e.data['definition'].get('name', 'A mission')} ({e.data['mode']}): bring your Guilds."


@setup_command(guilds, "demloc.setup.guild_bind", server=True)
def guild_bind(state: DemlocState, setup: dict, data: Data, seat: int | None, rng: Any) -> list[NewEvent]:
    """Server only (``missions.services.mission_guild_bind``): ``{"seat", "guild": {"id",
    "name", "colour", "fame", "feods"}, "roster", "pantheon", "database_followers",
    "fate_points", "taken_at", "seat_name"?}``, the Guild's snapshot (``seat_name``: the seat
    is named after the Guild from now on). Brought again by the same seat: a fresh
    snapshot (``guild_refreshed``). Raises ``not_seated``, ``bad_guild``, ``wrong_phase``,
    ``guild_twice``, ``guild_bound``, ``characters_done``."""
    bound = data.get("seat")
    if bound not in setup["seats"] or isinstance(bound, bool):
        raise NotFound("not_seated", "No such seat at this table.")
    guild = data.get("guild") or {}
    require(isinstance(guild.get("id"), int), "bad_guild", "A Guild needs an id.")
    require(
        isinstance(guild.get("name"), str) and guild["name"].strip(),
        "bad_guild",
        "A Guild needs a name.",
    )
    payload = {
        "seat": bound,
        "guild": guild,
        "roster": [_checked_entry(e) for e in data.get("roster") or []],
        "pantheon": _checked_pantheon(data.get("pantheon") or []),
        "database_followers": data.get("database_followers") or [],
        "fate_points": data.int("fate_points", lo=0, hi=99, default=3, code="bad_guild"),
        "taken_at": str(data.get("taken_at") or ""),
    }
    if seat_key(bound) in setup["guilds"]:
        return _guild_refresh(setup, bound, payload, rng)
    stage_is(setup, "guilds")
    require(
        all(g["guild"]["id"] != guild["id"] for g in setup["guilds"].values()),
        "guild_twice",
        f"{guild.get('name', 'That Guild')} is already at this table: one Guild per player.",
    )
    seat_name = data.get("seat_name")
    if isinstance(seat_name, str) and seat_name.strip():
        # The seat takes the Guild's name; the event keeps the name it had.
        payload["seat_name"] = seat_name.strip()[:SEAT_NAME_MAX]
        payload["seat_was"] = setup["names"].get(seat_key(bound), "")
    # A barrier (final), as a Guild leaving is: only its Guild Master brings a Guild (the
    # server reads it from the guilds and renames the seat), so no other seat's Undo may take
    # it back and leave a seat at the table without its Guild.
    return [NewEvent("demloc.setup.guild_bound", payload, True)]


def _guild_refresh(setup: dict, seat: int, payload: dict, rng) -> list[NewEvent]:
    """The same Guild brought again (a fresh snapshot). Picks no longer valid are dropped:
    a mercenary or guest gone or no longer ready, a hired follower whose card left the Guild's
    database, and hires (latest first) the new purse no longer covers."""
    require(
        payload["guild"]["id"] == setup["guilds"][seat_key(seat)]["guild"]["id"],
        "guild_bound",
        "This seat has already brought its Guild.",
    )
    require(
        can_refresh(setup, seat),
        "characters_done",
        "Your characters are chosen: your Guild stays as it was brought for this mission.",
    )
    roster = {c["id"]: c for c in payload["roster"]}
    offers = {f["key"]: f for f in setup["definition"].get("followers", [])}
    dropped, kept_hires = [], []
    for pick in setup["picks"][seat_key(seat)]:
        why = ""
        if pick["source"] == "hired":
            card_id = (offers.get(pick["ref"]) or {}).get("card_id")
            if card_id is not None and card_id not in payload["database_followers"]:
                why = "no longer in your card database (5.1.2)"
            else:
                kept_hires.append(pick)
        else:
            entry = roster.get(pick["id"])
            if entry is None:
                why = "no longer in your Guild"
            elif not entry.get("ready", True):
                why = entry.get("why") or "cannot go on a mission now"
        if why:
            dropped.append({"id": pick["id"], "name": pick["name"], "why": why})
    costs = setup["costs"][seat_key(seat)]
    pending = sum(c["offers"].get(seat_key(seat), 0) for c in setup["contests"].values())
    spent = sum(p["cost"] for p in kept_hires) + costs["offers"] + pending
    for pick in reversed(kept_hires):
        if spent <= payload["guild"].get("feods", 0):
            break
        spent -= pick["cost"]
        dropped.append({"id": pick["id"], "name": pick["name"], "why": "too dear for your purse"})
    events = [NewEvent("demloc.setup.guild_refreshed", {**payload, "dropped": dropped}, True)]
    for gone in dropped:
        pick = next(p for p in setup["picks"][seat_key(seat)] if p["id"] == gone["id"])
        events.extend(contest_after_unpick(setup, seat, pick, rng))
    return events


def _checked_entry(entry: dict) -> dict:
    """A roster entry with its card normalized (``cards.card_from_data``); a card the mission
    cannot read makes the character unavailable instead of breaking the table."""
    entry = copy_json(entry)
    try:
        entry["card"] = card_from_data(entry.get("card") or {})
    except RuleViolation as exc:
        entry.update(ready=False, not_ready_code="bad_card", why=exc.message)
    return entry


def _checked_pantheon(pantheon: list[dict]) -> list[dict]:
    out = []
    for daemon in pantheon:
        try:
            out.append(card_from_data({**daemon, "kind": "daemon"}))
        except RuleViolation:
            continue  # a daemon card the mission cannot read is never drawn
    return out


def _bound(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    known(s["setup"])["guilds"][seat_key(d["seat"])] = copy_json(
        {
            "guild": d["guild"],
            "roster": d["roster"],
            "pantheon": d["pantheon"],
            "database_followers": d["database_followers"],
            "fate_points": d["fate_points"],
            "taken_at": d.get("taken_at", ""),
            "dropped": d.get("dropped", []),
        }
    )


@guilds.evolver("demloc.setup.guild_bound", label="brought a Guild")
def guild_bound(s: DemlocState, e: EventRecord) -> None:
    _bound(s, e)
    say(say_guild_bound(e, s))
    if e.data.get("seat_name"):
        known(s["setup"])["names"][seat_key(e.data["seat"])] = e.data["seat_name"]


@guilds.narrator("demloc.setup.guild_bound")
def say_guild_bound(e: EventRecord, s: DemlocState) -> str:
    if e.data.get("seat_was"):
        return f"{e.data['seat_was']} brings {e.data['guild']['name']}."
    names = (s.get("setup") or {}).get("names", {})
    return f"{names.get(seat_key(e.data['seat']), '?')} brings {e.data['guild']['name']}."


@guilds.evolver("demloc.setup.guild_refreshed", label="brought a Guild again")
def guild_refreshed(s: DemlocState, e: EventRecord) -> None:
    _bound(s, e)
    setup, d = known(s["setup"]), e.data
    key = seat_key(d["seat"])
    say(say_guild_refreshed(e, s))
    for gone in d["dropped"]:
        drop_pick(setup, d["seat"], gone["id"])
        say(f"{gone['name']} leaves the slots of {setup['names'][key]}: {gone['why']}.")
    roster = {c["id"]: c for c in d["roster"]}
    for pick in setup["picks"][key]:
        entry = roster.get(pick["id"]) if pick["source"] != "hired" else None
        if entry is not None:  # a new weapon or code shows on the card now
            pick["card"] = copy_json(entry["card"])


@guilds.narrator("demloc.setup.guild_refreshed")
def say_guild_refreshed(e: EventRecord, s: DemlocState) -> str:
    names = (s.get("setup") or {}).get("names", {})
    name = names.get(seat_key(e.data["seat"]), "?")
    text = f"{name} brings {e.data['guild']['name']} again (fresh Guild data)."
    gone = "".join(
        f" {g['name']} leaves the slots of {name}: {g['why']}." for g in e.data.get("dropped", [])
    )
    return text + gone


@setup_command(guilds, "demloc.setup.raffle", server=True)
def raffle(state: DemlocState, setup: dict, data: Data, seat: int | None, rng: Any) -> list[NewEvent]:
    """Server only: ``{"candidates": [control point]}``, the free points and those held by the
    guilds at the table; one is drawn (6.4.1 raffle). Final: undo never draws again. Raises
    ``training``, ``raffle_done``, ``guilds_missing``."""
    stage_is(setup, "guilds")
    require(setup["mode"] == STANDARD, "training", "A training mission has no raffle (6.4).")
    require(setup["raffle"] is None, "raffle_done", "The control spot is already drawn.")
    require(
        len(setup["guilds"]) == len(setup["seats"]),
        "guilds_missing",
        "Every player brings a Guild first.",
    )
    candidates = data.list("candidates", max_items=500, default=[])
    point = rng.choice(candidates) if candidates else None
    # A random draw shown to everyone: final, so undo is never a way to draw again.
    return [
        NewEvent("demloc.setup.raffle_drawn", {"point": point, "candidates": len(candidates)}, final=True)
    ]


def _raffle_text(point: dict | None) -> str:
    if point is None:
        return "No control spot is at stake: the city has none to draw."
    return f"Raffle: the mission takes place at {point['name']} ({point['area']})."


@guilds.evolver("demloc.setup.raffle_drawn", label="drew the control spot")
def raffle_drawn(s: DemlocState, e: EventRecord) -> None:
    known(s["setup"])["raffle"] = copy_json({"point": e.data["point"], "candidates": e.data["candidates"]})
    say(_raffle_text(e.data["point"]))


@guilds.narrator("demloc.setup.raffle_drawn")
def say_raffle_drawn(e: EventRecord, s: DemlocState) -> str:
    return _raffle_text(e.data["point"])

"""The mission preparation phases at the table (DemLoc rulebook 6.4, 6.4.1, 5.1.1, 5.1.2, 5.2).

Pure: no Django. The ``demloc`` ruleset calls ``decide`` and ``evolve`` of this module while
``state["setup"]["stage"]`` is not ``"play"``. A lifecycle mission starts with the event
``demloc.setup.opened`` (``missions.services.mission_open`` puts the mission definition in the
hidden ``mission`` table option); the stages then run in this order, each one left when every
player has tapped Next (6.4.1)::

    guilds -> raffle (standard only) -> objective -> map -> characters -> mana -> miniatures
           -> deployment -> start -> play

- ``guilds``: each phone brings its Guild (server command ``demloc.setup.guild_bind``, seat
  None, sent by ``missions.services.mission_guild_bind`` with the Guild's snapshot); in a
  standard mission the server then draws the control spot (``demloc.setup.raffle``). A player
  may bring the same Guild again (a fresh snapshot: ``demloc.setup.guild_refreshed``) until
  their Characters step is done (our rule: the rulebook has the profiles "connected" once, but
  a Master who enlists or equips at the table must see it); choices no longer valid are dropped
  with a line in the log.
- ``characters``: picks into ``definition["slots"]`` slots: ready mercenaries, guesthouse
  followers (free), followers enlisted for feods from the mission's shared pool (5.1.2: the
  copies are shared by every player at the table). Uniqueness (5.1.1): a mercenary picked by two
  guilds is *contested*; each contending player makes a sealed feods offer; the highest offer
  takes him and pays it; equal offers: the Guild of greater fame; equal fame: a draw. A settled
  contest is final for the mission (``settled``, ``settled_holder``): the mercenary sides with
  the winning Guild and no other Guild picks him again (``mercenary_taken``).
- ``mana``: the arcane dice each arcane character rolled (6.4.1: broken seals have no effect).
- ``miniatures``: sub-base colours and movement token numbers (5.2).
- ``deployment``: a random first player, then clockwise one miniature at a time (6.4.1); in a
  wave mission a character may be held back for a later wave.
- ``start``: every player taps Start: ``demloc.mission.opened`` and the first turn.

Feods are never paid during the setup: hires and offers are checked against the Guild's purse
as it was when it joined the table and paid when the mission is closed (guilds change only
then; ``missions.rules.resolution``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.decider import ANYONE, SEATED, Data, Decision, Topic, copy_json
from tabletop.errors import RuleViolation
from tabletop.rules import NewEvent, require

STANDARD = "standard"
TRAINING = "training"
MODES = (STANDARD, TRAINING)

STAGES = (
    "guilds",
    "raffle",
    "objective",
    "map",
    "characters",
    "mana",
    "miniatures",
    "deployment",
    "start",
    "play",
)
STAGE_LABELS = {
    "guilds": "Guilds",
    "raffle": "Raffle",
    "objective": "Objective",
    "map": "Map",
    "characters": "Characters",
    "mana": "Mana",
    "miniatures": "Miniatures",
    "deployment": "Deployment",
    "start": "Start",
}
KINDS = {
    "objective": "Reach an objective",
    "turns": "Limited turns",
    "control": "Hold an area",
    "waves": "Waves",
    "relic": "Retrieve the relic",
}
#: Sub-base colours (5.2); the Guild colours of the guilds app.
COLOURS = ("red", "blue", "yellow", "green")


def stages_for(mode: str) -> list[str]:
    """The stages of a mission in ``mode``: a training mission has no raffle (6.4.1)."""
    return [s for s in STAGES if not (s == "raffle" and mode == TRAINING)]


def opened_event(mission: dict, seats, options: dict) -> NewEvent:
    """The first event of a lifecycle mission. ``mission``: the hidden table option,
    ``{"id": int, "mode": "standard" | "training", "definition": {...}}`` (the definition as
    ``MissionDefinition.snapshot()`` gives it); ``options``: the other table options."""
    require(
        isinstance(mission, dict) and isinstance(mission.get("id"), int),
        "bad_option",
        "Open a mission from the mission lobby.",
    )
    mode = mission.get("mode")
    require(mode in MODES, "bad_mode", "A mission is standard or training (6.4).")
    definition = mission.get("definition") or {}
    require(definition.get("kind") in KINDS, "bad_mission", "The mission has no known type.")
    return NewEvent(
        "demloc.setup.opened",
        {
            "mission": mission.get("id"),
            "mode": mode,
            "definition": copy_json(definition),
            "seats": [[s.number, s.name] for s in seats],
            "options": dict(options),
        },
    )


def initial(d: dict) -> dict:
    """The ``state["setup"]`` dict after ``demloc.setup.opened``."""
    return {
        "mission": d["mission"],
        "mode": d["mode"],
        "options": d.get("options", {}),
        "definition": d["definition"],
        "seats": [s for s, _ in d["seats"]],
        "names": {str(s): n for s, n in d["seats"]},
        "stage": "guilds",
        "ready": [],
        "guilds": {},
        "raffle": None,
        "picks": {str(s): [] for s, _ in d["seats"]},
        "hired": {},
        "costs": {str(s): {"hires": 0, "offers": 0} for s, _ in d["seats"]},
        "contests": {},
        "settled": {},
        "mana": {},
        "colours": {},
        "tokens": {},
        "deploy": {"first": None, "order": [], "acting": None, "placed": {}},
    }


# ---------------------------------------------------------------------------------- queries
def seat_key(seat: int | None) -> str:
    return str(seat)


def roster_entry(setup: dict, seat: int, char_id: str) -> dict | None:
    """The character ``char_id`` of ``seat``'s Guild roster (``None`` if there is none)."""
    guild = setup["guilds"].get(seat_key(seat))
    if guild is None:
        return None
    return next((c for c in guild["roster"] if c["id"] == char_id), None)


def pool_entry(setup: dict, key: str) -> dict | None:
    """The mission's follower offer ``key`` (5.1.2), or None."""
    return next((f for f in setup["definition"].get("followers", []) if f["key"] == key), None)


def available_feods(setup: dict, seat: int | None, *, pending_offers: bool = True) -> int:
    """The feods ``seat`` may still commit: its Guild's feods when it joined the table, minus
    hires and settled offers, minus (``pending_offers``) its sealed offers not yet settled."""
    guild = setup["guilds"][seat_key(seat)]["guild"]
    costs = setup["costs"][seat_key(seat)]
    left = guild["feods"] - costs["hires"] - costs["offers"]
    if pending_offers:
        for contest in setup["contests"].values():
            left -= contest["offers"].get(seat_key(seat), 0)
    return left


def hired_count(setup: dict, key: str) -> int:
    """Copies of follower ``key`` already enlisted by anyone at the table (shared pool)."""
    return sum(
        1
        for picks in setup["picks"].values()
        for p in picks
        if p["source"] == "hired" and p["ref"] == key
    )


def piece_id(seat: int | None, char_id: str) -> str:
    return f"s{seat}-{char_id}"


def chosen(setup: dict) -> list[tuple[int, dict]]:
    """Every pick ``(seat, pick)`` in seat order, contested or not."""
    return [(s, p) for s in setup["seats"] for p in setup["picks"][seat_key(s)]]


def contests_of(setup: dict, seat: int) -> list[str]:
    return [n for n, c in setup["contests"].items() if seat in c["seats"]]


def next_stage(setup: dict) -> str:
    order = stages_for(setup["mode"])
    return order[order.index(setup["stage"]) + 1]


def stage_is(setup: dict, *stages: str) -> None:
    require(
        setup["stage"] in stages,
        "wrong_phase",
        f"Not now: this is the {STAGE_LABELS[setup['stage']]} phase.",
    )


#: Stages in which a player may bring their Guild again (until their Characters step is done).
REFRESH_STAGES = ("guilds", "raffle", "objective", "map", "characters")


def can_refresh(setup: dict, seat: int | None) -> bool:
    """Whether ``seat`` may bring its Guild again now: it has brought one, the stage is at most
    Characters, and (at Characters) it has not tapped Next yet."""
    return (
        seat is not None
        and seat_key(seat) in setup["guilds"]
        and setup["stage"] in REFRESH_STAGES
        and not (setup["stage"] == "characters" and seat in setup["ready"])
    )


def guild_label(setup: dict, seat: int) -> str:
    """``seat``'s Guild as the log names it: "Guild 2 (Bob)", or the Guild's name alone when
    the seat is named after it."""
    guild = ((setup.get("guilds") or {}).get(seat_key(seat)) or {}).get("guild") or {}
    name, player = guild.get("name") or "", who(setup, seat)
    if not name:
        return player
    return name if player in ("", name) else f"{name} ({player})"


def settled_holder(setup: dict, name: str) -> int | None:
    """The seat whose Guild the mercenary ``name`` sided with in a settled contest of this
    mission (5.1.1), or None. Final for the preparation: the sealed offers were revealed, so a
    second contest for him would be an auction with the first one's bids known. Even when his
    Guild frees his slot he stays with it (its offer stands; it may choose him back at no new
    cost) and nobody else picks him; only a Guild leaving the preparation (everyone chooses
    again, ``missions.rules.leave``) clears it."""
    held = (setup.get("settled") or {}).get(name)
    return held["seat"] if held else None


def taken_message(setup: dict, name: str) -> str:
    """The ``mercenary_taken`` message: who has ``name`` (a settled contest's winner)."""
    holder = settled_holder(setup, name)
    assert holder is not None
    return (
        f"{name} sides with {guild_label(setup, holder)} for this mission: a settled contest "
        "is final (5.1.1)."
    )


def contest_after_unpick(setup: dict, seat: int, pick: dict, rng) -> list[NewEvent]:
    """When ``seat`` frees a contested mercenary, the others may all have offered already:
    their offers settle it now (5.1.1)."""
    contest = setup["contests"].get(pick["name"])
    if pick["source"] == "mercenary" and contest and seat in contest["seats"]:
        rest = [x for x in contest["seats"] if x != seat]
        offers = {k: v for k, v in contest["offers"].items() if k != seat_key(seat)}
        if len(rest) >= 2 and len(offers) == len(rest):
            return [settle_contest(setup, pick["name"], offers, rng)]
    return []


def settle_contest(setup: dict, name: str, offers: dict[str, int], rng) -> NewEvent:
    """Who gets the mercenary ``name`` picked by several guilds (5.1.1): the highest sealed
    offer of feods; equal offers: the Guild of greater fame (at the time it joined the table);
    still equal: a random draw. The offers are revealed here, so the event is final (no undo)."""
    best = max(offers.values())
    top = [int(s) for s, v in offers.items() if v == best]
    reason = "offer"
    if len(top) > 1:
        fame = {s: setup["guilds"][seat_key(s)]["guild"].get("fame", 0) for s in top}
        most = max(fame.values())
        top = [s for s in top if fame[s] == most]
        reason = "fame"
        if len(top) > 1:
            top = [rng.choice(sorted(top))]
            reason = "draw"
    return NewEvent(
        "demloc.setup.contest_settled",
        {"name": name, "winner": top[0], "offers": offers, "paid": best, "reason": reason},
        final=True,
    )


def drop_pick(setup: dict, seat: int, char_id: str) -> dict:
    """Take pick ``char_id`` out of ``seat``'s slots (its hire cost back, its contest left)."""
    picks = setup["picks"][seat_key(seat)]
    pick = next(p for p in picks if p["id"] == char_id)
    picks.remove(pick)
    if pick["source"] == "hired":
        setup["costs"][seat_key(seat)]["hires"] -= pick["cost"]
    contest = setup["contests"].get(pick["name"])
    if pick["source"] == "mercenary" and contest and seat in contest["seats"]:
        contest["seats"].remove(seat)
        contest["offers"].pop(seat_key(seat), None)
        if len(contest["seats"]) < 2:
            del setup["contests"][pick["name"]]
    return pick


SetupHandler = Callable[[dict, dict, Data, int | None, Any], list[NewEvent]]


def setup_command(
    topic: Topic, type_: str, *, server: bool = False, rebase: bool = False
) -> Callable:
    """Register a command of the preparation phases: ``handler(state, setup, data, seat, rng)
    -> [NewEvent]`` computes its events from the state before any of them (they are then
    emitted in order). Refused with ``wrong_phase`` when the table is not preparing a mission;
    ``server`` commands carry data read from the guilds and come from the app only (seat None:
    ``server_only``).

    ``rebase``: a Guild's own choice, independent of the other Guilds' (``tabletop.decider``,
    "Rebase"): when another phone acted first, the tap is decided on the newer state instead of
    being refused with ``stale_version``, so two Guilds choosing at the same instant both go
    through. Marked: choosing and freeing one's own characters, enlisting a follower, one's own
    sealed offer (``setup_picks``), whose handlers check everything again on the newer state (a
    slot taken meanwhile, the last copy of a follower enlisted, a contest settled: each its own
    coded error). Not marked: the stage commands (``next`` ends a phase for everyone, ``mana``
    and ``deploy`` follow the turn of the phase), the app's ``server`` commands, and the kit's
    undo/redo."""

    def register(handler: SetupHandler) -> SetupHandler:
        def guarded(d: Decision, data: Data) -> None:
            setup = d.state.get("setup")
            d.require(
                bool(setup) and setup["stage"] != "play",
                "wrong_phase",
                "The mission has started: the preparation is over.",
            )
            if server:
                d.require(d.seat is None, "server_only", "Only the app sends that.")
            for event in handler(d.state, setup, data, d.seat, d.rng):
                d.emit(event.type, event.data, final=event.final)

        guarded.__doc__ = handler.__doc__
        guarded.__name__ = handler.__name__
        topic.command(type_, policy=ANYONE if server else SEATED, rebase=rebase)(guarded)
        return handler

    return register


def who(setup: dict, seat: int | None) -> str:
    """The name of ``seat`` at the table ("" when None)."""
    return setup["names"].get(seat_key(seat), "") if seat is not None and setup else ""


__all__ = ["RuleViolation", "copy_json", "require"]

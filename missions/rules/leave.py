"""A Guild leaves the mission (the player "disconnects", DemLoc rulebook 6.4: "only after
disconnecting from the app ... it will be possible to modify their structure"): the server
commands ``demloc.setup.guild_leave`` (preparation) and ``demloc.guild.leave`` (play), their
events and folds. Sent by ``missions.services.mission_guild_leave`` only (seat None), which
checks the Guild Master, then syncs or releases the Guild's hold and closes an ended mission.

The rulebook has no rule for leaving in the middle of a mission; the app's rule:

- **Preparation** (6.4.1, before "start game"): the Guild is simply unbound. If the
  preparation was past the Guilds step, it goes back to it: the control spot is drawn again
  when every Guild is in (the raffle draws among the points of the Guilds at the table) and
  every player chooses its characters again (the sides changed, so did the sealed offers and
  the followers left for each; a contest settled for a mercenary is open again,
  5.1.1). Nothing is charged.
- **Play** (chapter 7): leaving counts as the **escape of every character of the Guild still
  in play** (7.2.3: a character that leaves the board "still remains in the Guild (therefore
  not counted as a death mercenary)"; a possessed one comes back injured and its Guild pays the
  possessed-escape penalty, as for any escape); its daemons leave with their summoners
  (7.2.3.3). When that leaves at most one player with characters in play, the mission ends at
  once by total elimination (7: nobody is left to play against), closing the turn in progress
  as every ending does (``end.finish``: its end-of-turn effects, once), and the service closes
  it. A control counter running for the Guild stops and goes back to 0, and a Guild that left
  never wins (6.4.2: the counter counts turns its characters hold the area). With 3-4 players and two or more left, the others play
  on; the Guild's unharmed characters come back at once, the others and the feods the mission
  charges stay held until the close writes them.
"""

from __future__ import annotations

from tabletop.decider import ANYONE, Data, Decision, Topic, say
from tabletop.rules import EventRecord, NewEvent, require

from .common import BRAWL, STRATEGIC, TURN_END, in_play, in_setup, known, name, player
from .end import claim_of, claim_waiting, finish, playing_seats
from .setup import seat_key, setup_command
from .state import DemlocState

leave = Topic("leave")


def _deploy() -> dict:
    return {"first": None, "order": [], "acting": None, "placed": {}}


@setup_command(leave, "demloc.setup.guild_leave", server=True)
def setup_guild_leave(
    state: DemlocState, setup: dict, data: Data, seat: int | None, rng
) -> list[NewEvent]:
    """``{"seat"}``: the seat's Guild leaves the preparation (module docstring). Raises
    ``server_only``, ``wrong_phase``, ``no_guild_here``."""
    bound = data.get("seat")
    require(
        isinstance(bound, int) and seat_key(bound) in setup["guilds"],
        "no_guild_here",
        "This seat has brought no Guild to the mission.",
    )
    guild = setup["guilds"][seat_key(bound)]["guild"]
    return [
        NewEvent(
            "demloc.setup.guild_left",
            {"seat": bound, "guild": guild["name"], "stage": setup["stage"]},
            # A barrier: only its Guild Master takes a Guild out, so no other seat's Undo
            # may bring it back (and hold its mercenaries again).
            True,
        )
    ]


@leave.evolver("demloc.setup.guild_left", label="took a Guild out of the mission")
def setup_guild_left(s: DemlocState, e: EventRecord) -> None:
    setup = known(s["setup"])
    setup["guilds"].pop(seat_key(e.data["seat"]), None)
    setup["raffle"] = None  # drawn again among the Guilds at the table (6.4.1)
    if setup["stage"] != "guilds":
        keys = [seat_key(x) for x in setup["seats"]]
        setup.update(
            stage="guilds",
            picks={k: [] for k in keys},
            hired={},
            costs={k: {"hires": 0, "offers": 0} for k in keys},
            contests={},
            settled={},
            mana={},
            colours={},
            tokens={},
            deploy=_deploy(),
        )
    setup["ready"] = []
    say(say_setup_guild_left(e, s))


@leave.narrator("demloc.setup.guild_left")
def say_setup_guild_left(e: EventRecord, s: DemlocState) -> str:
    back = (
        " The preparation goes back to the Guilds step: everyone chooses again."
        if e.data["stage"] != "guilds"
        else ""
    )
    return f"{e.data['guild']} leaves the mission.{back}"


@leave.command("demloc.guild.leave", policy=ANYONE)
def guild_leave(d: Decision, data: Data) -> None:
    """``{"seat"}``: the seat's Guild leaves the mission in play: every character of it in play
    escapes; when at most one player is left with characters in play, the mission ends by
    total elimination (module docstring). Raises ``server_only``, ``setup_first``,
    ``mission_over``, ``bad_input``, ``not_seated``, ``already_left``."""
    s = d.state
    d.require(d.seat is None, "server_only", "Leave the mission with the Leave button.")
    d.require(not in_setup(s), "setup_first", "The mission is being prepared.")
    d.require(s["ended"] is None, "mission_over", "The mission is over.")
    seat = data.int("seat", code="bad_input")
    player(s, seat)  # NotFound("not_seated")
    d.require(seat not in s.get("left", []), "already_left", "This Guild has left already.")
    escaping = [
        p["id"]
        for p in s["pieces"].values()
        if p["owner"] == seat and in_play(p) and p["kind"] != "daemon"
    ]
    # A barrier (final): no other seat's Undo brings a Guild back into the mission.
    d.emit("demloc.guild.left", {"seat": seat, "pieces": escaping}, final=True)
    alive = {p["owner"] for p in d.state["pieces"].values() if in_play(p) and not p["possessed"]}
    if len(alive) <= 1:
        finish(d, "elimination", next(iter(alive)) if alive else -1)
        return
    claim = claim_of(d.state)  # the leaver's own claim went with it (``guild_left``)
    if claim is not None and not claim_waiting(d.state):
        # The leaver was the last one to answer an objective claim: every player still in
        # the mission has confirmed it (7.3.2.3).
        finish(d, "objective", claim["seat"])
    elif set(d.state["surrender"]) and set(d.state["surrender"]) >= set(playing_seats(d.state)):
        # Every player still in the mission had agreed to end it (6.4.2 "surrender").
        finish(d, "surrender", None)


@leave.evolver("demloc.guild.left", label="left the mission")
def guild_left(s: DemlocState, e: EventRecord) -> None:
    s.setdefault("left", []).append(e.data["seat"])
    say(say_guild_left(e, s))
    _out_of_the_order(s, e.data["seat"])
    claim = s.get("claim")
    if claim and claim["seat"] == e.data["seat"]:
        s["claim"] = None
        say("Its objective claim goes with it.")
    # Its vote goes with it; if it asked to stop first it stays the one who asked (7.3.2.3,
    # option ``surrender`` = ``loses``): a player who only agreed never becomes it.
    s["surrender"] = [seat for seat in s.get("surrender", []) if seat != e.data["seat"]]
    objective = s["objective"]
    if objective["seat"] == e.data["seat"] and (objective["counting"] or objective["count"]):
        # 6.4.2: the counter counts the turns a Guild's characters hold the area; a Guild
        # with no character on the board holds nothing: its count is gone with it.
        s["objective"] = {**objective, "counting": False, "count": 0, "seat": None}
        say("Its control counter stops and goes back to 0 (6.4.2).")
    for pid in e.data["pieces"]:
        s["pieces"][pid]["status"] = "escaped"
        say(f"{s['pieces'][pid]['name']} leaves the board: escaped (7.2.3).")


def _out_of_the_order(s: DemlocState, seat: int) -> None:
    """Take ``seat`` out of this turn's playing order (7: the players still in the mission play
    on): whoever acted after it acts in its place; when it was the last to act in the phase,
    the phase passes on as if it had passed (strategic -> brawl -> end of the turn)."""
    order = list(s.get("play_order") or [])
    if seat not in order:
        return
    at, acting = order.index(seat), s["acting_index"]
    order.remove(seat)
    s["play_order"] = order
    if at < acting:
        s["acting_index"] = acting - 1
    elif at == acting and acting >= len(order) and s["phase"] in (STRATEGIC, BRAWL):
        s["acting_index"] = 0
        s["phase"] = BRAWL if s["phase"] == STRATEGIC else TURN_END
    elif s["phase"] == TURN_END or not order:
        s["acting_index"] = 0


@leave.narrator("demloc.guild.left")
def say_guild_left(e: EventRecord, s: DemlocState) -> str:
    return (
        f"{name(s, e.data['seat'])} leaves the mission: every character of the Guild "
        "still in play escapes."
    )

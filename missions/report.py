"""The battle report of a mission (issue 6): the timeline of first players, kills,
possessions, summonings and escapes, rebuilt from the table's event log (undone commands left
out), and the final result. Reads only."""

from __future__ import annotations

from tabletop.log import START_EVENT, LoggedEvent, Meta, apply_command, group_commands
from tabletop.registry import get_ruleset
from tabletop.services import load_log

from .models import Mission


def timeline(ruleset, events: list[LoggedEvent]) -> list[dict]:
    """``[{"version", "turn", "kind", "text"}]``: what happened, in order. ``kind``:
    ``first_player``, ``killed``, ``possessed``, ``freed``, ``escaped``, ``summoned``,
    ``kill_counted``, ``ended``, ``closed``. Pure over the log."""
    meta = Meta()
    groups = group_commands(events)
    for group in groups:
        meta = apply_command(meta, group)
    undone = set(meta.undone)
    state = ruleset.initial_state()
    out: list[dict] = []

    def add(event, kind, text, turn=None):
        out.append(
            {"version": event.version, "turn": turn or state["turn"], "kind": kind, "text": text}
        )

    for group in groups:
        if group[0].command_type in ("table.undo", "table.redo") or group[0].command_id in undone:
            continue
        for event in group:
            if event.type == START_EVENT:
                continue
            before = state
            state = ruleset.evolve(state, event.record())
            names = {p["seat"]: p["name"] for p in state["players"]}
            if event.type == "demloc.turn.started":
                add(
                    event,
                    "first_player",
                    f"Turn {event.data['turn']}: {names.get(event.data['first'], '?')} plays first.",
                    event.data["turn"],
                )
            elif event.type == "demloc.daemon.summoned":
                summoner = state["pieces"][event.data["summoner"]]["name"]
                add(event, "summoned", f"{summoner} summons {event.data['daemon']['name']}.")
            elif event.type == "demloc.kill.counted" and event.data["delta"] > 0:
                add(
                    event,
                    "kill_counted",
                    f"{names.get(event.seat, '?')} counts a {event.data['kind']} kill "
                    f"(level {event.data['level']}).",
                )
            elif event.type == "demloc.mission.ended":
                add(event, "ended", state["log"][-1]["lines"][-1] if state["log"] else "Ended.")
            elif event.type == "demloc.mission.closed":
                add(event, "closed", "The mission is closed: the guilds are updated.")
            for pid, piece in state["pieces"].items():
                old = before["pieces"].get(pid)
                if old is None:
                    continue
                owner = names.get(piece["owner"], "?")
                if old["status"] != piece["status"] and piece["status"] in ("killed", "escaped"):
                    add(event, piece["status"], f"{piece['name']} ({owner}) {piece['status']}.")
                if not old["possessed"] and piece["possessed"]:
                    add(event, "possessed", f"{piece['name']} ({owner}) is possessed.")
                if old["possessed"] and not piece["possessed"] and piece["status"] == "in_play":
                    add(event, "freed", f"{piece['name']} ({owner}) is freed.")
    return out


def battle_report(mission: Mission) -> dict:
    """``{"mission", "mode", "code", "closed", "players", "timeline", "result"}`` as JSON.
    ``result``: the stored result once closed, else the resolution preview of an ended
    mission, else None."""
    table = mission.table
    game = get_ruleset(table.ruleset)
    state = game.load(table.state) if table.state else None
    result = mission.result
    if result is None and state and state.get("ended") and state.get("setup"):
        from .rules import resolution

        result = resolution.compute(state)
    players = []
    if state and state.get("players"):
        players = [
            {"seat": p["seat"], "name": p["name"], "guild": p["guild"], "kills": p["kills"]}
            for p in state["players"]
        ]
    return {
        "mission": mission.definition.name,
        "mode": mission.mode,
        "code": table.code,
        "closed": mission.closed_at.isoformat() if mission.closed_at else None,
        "players": players,
        "timeline": timeline(game, load_log(table)),
        "result": result,
    }

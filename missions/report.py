"""The battle report of a mission: the timeline of first players, kills,
possessions, summonings and escapes, rebuilt from the table's event log (undone commands left
out), and the final result. Reads only."""

from __future__ import annotations

from tabletop.log import KIT_EVENTS, LoggedEvent, replay
from tabletop.registry import get_ruleset
from tabletop.services import load_log

from .models import Mission
from .rules import resolution
from .rules.end import ended_text


def timeline(ruleset, events: list[LoggedEvent]) -> list[dict]:
    """``[{"version", "turn", "kind", "text"}]``: what happened, in order, undone commands left
    out. ``kind``: ``first_player``, ``killed``, ``possessed``, ``freed``, ``escaped``,
    ``summoned``, ``kill_counted``, ``ended``, ``closed``. Pure over the log: one pass of the
    kit's replay iterator (``tabletop.log.replay``), comparing each character with how it was
    before the event."""
    out: list[dict] = []
    seen: dict[str, tuple[str, bool]] = {}  # piece id -> (status, possessed) before the event
    for event, _line, undone, state, _meta in replay(ruleset, events, narrate=False):
        if (
            undone
            or event.type in KIT_EVENTS
            or event.command_type in ("table.undo", "table.redo")
        ):
            continue
        names = {p["seat"]: p["name"] for p in state["players"]}
        data = event.data

        def add(
            kind: str,
            text: str,
            turn: int | None = None,
            version: int = event.version,
            now: int = state["turn"],
        ) -> None:
            out.append({"version": version, "turn": turn or now, "kind": kind, "text": text})

        if event.type == "demloc.turn.started":
            add(
                "first_player",
                f"Turn {data['turn']}: {names.get(data['first'], '?')} plays first.",
                data["turn"],
            )
        elif event.type == "demloc.daemon.summoned":
            add(
                "summoned",
                f"{state['pieces'][data['summoner']]['name']} summons {data['daemon']['name']}.",
            )
        elif event.type == "demloc.kill.counted" and data["delta"] > 0:
            # A kill the app counted names its player (whoever tapped Apply) and the victim.
            who = names.get(data["seat"] if data.get("seat") is not None else event.seat, "?")
            victim = state["pieces"].get(data.get("piece") or "")
            add(
                "kill_counted",
                f"{who} counts a {data['kind']} kill (level {data['level']})"
                + (f": {victim['name']}." if victim else "."),
            )
        elif event.type == "demloc.mission.ended":
            add("ended", ended_text(state, data))
        elif event.type == "demloc.mission.closed":
            add("closed", "The mission is closed: the guilds are updated.")
        for pid, piece in state["pieces"].items():
            old = seen.get(pid)
            seen[pid] = (piece["status"], piece["possessed"])
            if old is None:
                continue
            owner = names.get(piece["owner"], "?")
            if old[0] != piece["status"] and piece["status"] in ("killed", "escaped"):
                add(piece["status"], f"{piece['name']} ({owner}) {piece['status']}.")
            if not old[1] and piece["possessed"]:
                add("possessed", f"{piece['name']} ({owner}) is possessed.")
            if old[1] and not piece["possessed"] and piece["status"] == "in_play":
                add("freed", f"{piece['name']} ({owner}) is freed.")
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

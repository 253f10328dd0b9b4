"""Mission scripting: waves and mission events (DemLoc rulebook 6.4.1, 6.4.2). Pure: no Django.

A mission definition (``MissionDefinition.snapshot()``) may hold:

- ``waves``: ``[{"turn": 3, "text": "what enters and where"}, ...]``: any number of later waves
  (6.4.1 "the application will notify players when and how to position the characters that
  will have to enter the game at a later time"). At deployment a character of a wave mission
  is placed or held back for one of them; at the start of that turn the app says whose cards
  and miniatures to take, with the wave's text.
- ``events``: ``[{"turn": 4, "kind": ..., "text": "what the players do"} + the kind's field]``
  (6.4.2 "the app shows the players events that will lead to changes to the structure of the
  mission itself. In these cases, players simply have to follow the instructions shown in the
  app"). At the start of ``turn`` the event happens: a log line and the turn bar notice for
  that turn. Kinds:

  - ``objective`` (``"objective": "the new objective"``): the objective the page shows changes;
  - ``turn_limit`` (``"turn_limit": n``, 0 = none): the mission now ends after turn ``n`` (a
    hidden limit stays hidden: the notice only says that it changed);
  - ``area_closed`` (``"area": "a deployment area's name"``): later waves cannot enter there;
  - ``reinforcements``, ``rule``: instructions only (what enters, a new special rule).

Events are scheduled by turn (no triggers: the app cannot see the board). They are fixed in
the definition, which the mission's opening event holds, so a replay or an undo of the turn
change gives the same events; the players see each one only when it happens (the preparation
view leaves them out).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard, cast

from tabletop.decider import say

from .state import DemlocState, MissionEventDone

EVENT_KINDS = {
    "objective": "New objective",
    "turn_limit": "Turn limit changed",
    "area_closed": "Area closed",
    "reinforcements": "Reinforcements",
    "rule": "New rule",
}
#: The field each kind needs besides ``turn``, ``kind`` and ``text`` (its type).
EVENT_FIELDS: dict[str, tuple[str, type] | None] = {
    "objective": ("objective", str),
    "turn_limit": ("turn_limit", int),
    "area_closed": ("area", str),
    "reinforcements": None,
    "rule": None,
}
MAX_TURN = 30


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------------------ validation
def check_waves(waves: Any, turn_limit: int) -> str | None:
    """The first problem of a definition's ``waves`` (in words for the admin), or None: a list
    of ``{"turn": 2..30, "text": str}`` with distinct turns, each before a turn limit."""
    if not isinstance(waves, list):
        return "A list of waves."
    seen: set[int] = set()
    for i, wave in enumerate(waves, 1):
        if not isinstance(wave, dict):
            return f"Wave {i} is not an object."
        turn = wave.get("turn")
        if not _is_int(turn) or not 2 <= turn <= MAX_TURN:
            return f"Wave {i}: 'turn' is a whole number from 2 to {MAX_TURN}."
        if turn in seen:
            return f"Wave {i}: two waves at turn {turn}."
        seen.add(turn)
        if not isinstance(wave.get("text", ""), str):
            return f"Wave {i}: 'text' must be a str."
        if turn_limit and turn > turn_limit:
            return f"Wave {i}: turn {turn} is after the turn limit ({turn_limit})."
    return None


def check_events(events: Any, areas: list[str], turn_limit: int) -> str | None:
    """The first problem of a definition's ``events``, or None: a list of ``{"turn": 2..30,
    "kind", "text"}`` plus the kind's field (``EVENT_FIELDS``); an ``area_closed`` names a
    deployment area; a ``turn_limit`` event keeps the limit at least its own turn (0 = none).
    ``turn_limit``: the definition's limit (an event after it would never happen)."""
    if not isinstance(events, list):
        return "A list of events."
    for i, ev in enumerate(events, 1):
        if not isinstance(ev, dict):
            return f"Event {i} is not an object."
        turn = ev.get("turn")
        if not _is_int(turn) or not 2 <= turn <= MAX_TURN:
            return f"Event {i}: 'turn' is a whole number from 2 to {MAX_TURN}."
        kind = ev.get("kind")
        if kind not in EVENT_KINDS:
            return f"Event {i}: 'kind' is one of {', '.join(EVENT_KINDS)}."
        text = ev.get("text")
        if not isinstance(text, str) or not text.strip():
            return f"Event {i}: 'text' says what the players do."
        field = EVENT_FIELDS[kind]
        if field:
            key, kind_type = field
            value = ev.get(key)
            ok = _is_int(value) if kind_type is int else isinstance(value, str) and value.strip()
            if not ok:
                return f"Event {i}: a {kind} event needs {key!r} ({kind_type.__name__})."
        if kind == "area_closed" and ev["area"] not in areas:
            return f"Event {i}: {ev['area']!r} is not a deployment area ({', '.join(areas)})."
        if kind == "turn_limit" and ev["turn_limit"] and not turn <= ev["turn_limit"] <= MAX_TURN:
            return f"Event {i}: the new turn limit is 0 (none) or from turn {turn} to {MAX_TURN}."
        if turn_limit and turn > turn_limit and not _limit_moved(events, turn):
            return f"Event {i}: turn {turn} is after the turn limit ({turn_limit})."
    return None


def _limit_moved(events: list, turn: int) -> bool:
    """Whether an earlier ``turn_limit`` event makes ``turn`` reachable."""
    return any(
        isinstance(e, dict)
        and e.get("kind") == "turn_limit"
        and _is_int(e.get("turn"))
        and e["turn"] < turn
        and _is_int(e.get("turn_limit"))
        and (e["turn_limit"] == 0 or e["turn_limit"] >= turn)
        for e in events
    )


# ------------------------------------------------------------------------------ waves
def wave_turns(definition: dict) -> list[int]:
    """The turns of the definition's later waves, in order."""
    return sorted(int(w["turn"]) for w in definition.get("waves") or [])


def wave_at(definition: dict, turn: int) -> dict | None:
    """The wave of ``turn`` (``{"turn", "text"}``) or None."""
    return next((w for w in definition.get("waves") or [] if int(w["turn"]) == turn), None)


# ------------------------------------------------------------------------------ events
def _definition(s: DemlocState) -> dict:
    return (s.get("setup") or {}).get("definition") or {}


def events_at(definition: dict, turn: int) -> list[MissionEventDone]:
    """The mission events that happen at the start of ``turn``, in the definition's order."""
    return [
        cast(MissionEventDone, dict(e))
        for e in definition.get("events") or []
        if e.get("turn") == turn
    ]


def event_text(ev: Mapping[str, Any], hidden_limit: bool) -> str:
    """The words of a mission event: its kind, what changes, then the admin's instructions."""
    kind = ev["kind"]
    head = f"Mission event, turn {ev['turn']}: {EVENT_KINDS[kind]}."
    if kind == "objective":
        change = f" New objective: {ev['objective']}"
    elif kind == "turn_limit":
        if hidden_limit:
            change = " The number of turns has changed."
        elif ev["turn_limit"]:
            change = f" The mission now ends after turn {ev['turn_limit']}."
        else:
            change = " The mission has no turn limit any more."
    elif kind == "area_closed":
        change = f" {ev['area']} is closed: nothing enters there any more."
    else:
        change = ""
    return f"{head}{change} {ev['text']}".strip()


def apply_events(s: DemlocState, turn: int) -> None:
    """Fold the mission events of ``turn`` (start of the turn, after the wave): change the
    mission (objective, turn limit, closed areas), keep them in ``mission_events`` and as this
    turn's ``event_notice`` (cleared at the next turn)."""
    s["event_notice"] = None
    happening = events_at(_definition(s), turn)
    if not happening:
        return
    for ev in happening:
        kind = ev["kind"]
        if kind == "objective":
            s["objective_text"] = ev["objective"]
        elif kind == "turn_limit":
            s["turn_limit"] = int(ev["turn_limit"])
        elif kind == "area_closed":
            s["closed_areas"] = sorted({*s.get("closed_areas", []), ev["area"]})
        s.setdefault("mission_events", []).append(ev)
        say(event_text(ev, s.get("turn_limit_hidden", False)))
    s["event_notice"] = {"turn": turn, "events": happening}


def say_events(s: DemlocState, turn: int) -> list[str]:
    """The lines of ``turn``'s mission events from the definition alone (the narrator's)."""
    return [
        event_text(ev, s.get("turn_limit_hidden", False)) for ev in events_at(_definition(s), turn)
    ]


def public_definition(definition: dict) -> dict:
    """What the players may see of the definition before play: without the future mission
    events (they are shown when they happen) and, when hidden, without the turn limit (7)."""
    out = dict(definition)
    out.pop("events", None)
    if out.get("turn_limit_hidden"):
        out["turn_limit"] = None
    return out

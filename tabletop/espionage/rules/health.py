"""Health, souls, the 2-health reveal and elimination (Preparation, Important notes, How to
Play 5-8). No command of its own: duels and recorded action cards change health through
``change_health`` and win souls through ``draw_soul``."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from .cards import FACTION_LABELS, REVEAL_AT_HEALTH, START_HEALTH, name
from .state import State

health = Topic("health")


def draw_soul(d: Decision, seat: int, reason: str) -> None:
    """Draw the top soul card for ``seat`` (kept face down: its value only on their phone;
    How to Play 5-6). Nothing when the soul deck is empty. ``reason``: duel|elimination."""
    if d.state["soul_deck"]:
        d.emit(
            "espionage.soul.drawn",
            {"seat": seat, "value": d.state["soul_deck"][0], "reason": reason},
            final=True,
        )


def change_health(d: Decision, seat: int, delta: int, by: int | None) -> None:
    """Health changes by ``delta`` (-1 or +1, kept in 0..5). At 2, the first one (3-4 players) or
    two (5-6) players to get there reveal their faction (Important notes); at 0 the player is
    eliminated (How to Play 8) and ``by`` (if another player still in) draws an extra soul
    (How to Play 6)."""
    s = d.state
    player = s["players"][seat]
    after = max(0, min(START_HEALTH, player["health"] + delta))
    d.emit(
        "espionage.health.changed",
        {"seat": seat, "delta": after - player["health"], "health": after, "by": by},
    )
    if (
        after == REVEAL_AT_HEALTH
        and not player["revealed"]
        and s["reveals_done"] < s["reveals_required"]
    ):
        d.emit(
            "espionage.faction.revealed",
            {"seat": seat, "faction": player["faction"], "reason": "two_health"},
            final=True,
        )
    if after == 0:
        d.emit("espionage.player.eliminated", {"seat": seat, "by": by})
        if s["options"]["reveal_on_elimination"] == "yes" and not s["players"][seat]["revealed"]:
            d.emit(
                "espionage.faction.revealed",
                {"seat": seat, "faction": player["faction"], "reason": "eliminated"},
                final=True,
            )
        if by is not None and by != seat and not s["players"][by]["eliminated"]:
            draw_soul(d, by, "elimination")


@health.evolver("espionage.soul.drawn", label="→ a soul card was drawn")
def _soul_drawn(s: State, e: EventRecord) -> None:
    s["soul_deck"] = s["soul_deck"][1:]
    s["players"][e.data["seat"]]["souls"].append(e.data["value"])


@health.narrator("espionage.soul.drawn")
def _say_soul_drawn(e: EventRecord, s: State) -> str:
    extra = " (extra soul for the elimination)" if e.data["reason"] == "elimination" else ""
    return f"{name(s, e.data['seat'])} drew a soul card{extra}."


@health.evolver("espionage.health.changed", label="→ a player's health changed")
def _health_changed(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["health"] = e.data["health"]


@health.narrator("espionage.health.changed")
def _say_health_changed(e: EventRecord, s: State) -> str:
    verb = "lost" if e.data["delta"] < 0 else "gained"
    return (
        f"{name(s, e.data['seat'])} {verb} {abs(e.data['delta'])} health ({e.data['health']} left)."
    )


@health.evolver("espionage.faction.revealed", label="→ a faction was revealed")
def _faction_revealed(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["revealed"] = True
    if e.data["reason"] == "two_health":
        s["reveals_done"] += 1


@health.narrator("espionage.faction.revealed")
def _say_faction_revealed(e: EventRecord, s: State) -> str:
    return f"{name(s, e.data['seat'])} reveals their faction: {FACTION_LABELS[e.data['faction']]}."


@health.evolver("espionage.player.eliminated", label="→ a player was eliminated")
def _eliminated(s: State, e: EventRecord) -> None:
    s["players"][e.data["seat"]]["eliminated"] = True


@health.narrator("espionage.player.eliminated")
def _say_eliminated(e: EventRecord, s: State) -> str:
    by = e.data["by"]
    by_text = f" by {name(s, by)}" if by is not None and by != e.data["seat"] else ""
    return f"{name(s, e.data['seat'])} is eliminated{by_text}."

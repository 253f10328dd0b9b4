"""What a seat sees of a mission in play (the whole table: its information is public in
DemLoc), with the figures the page shows per character. DemLoc rulebook 6.4.2 (the app screen),
7 (first player odds). The log is not here: the page narrates it from the events (KIT.md).
"""

from __future__ import annotations

from typing import Any

from . import (
    activation,
    arcane,
    brawl,
    possession,
    resolution,
    revert,
    setup_script,
    setup_view,
    shooting,
    turns,
)
from . import setup as setup_rules
from .cards import possession_limit
from .common import TURN_END, name
from .end import can_claim, can_end_by_elimination, claim_of, claim_waiting
from .reference import reference_key
from .setup_map import picture
from .summoning import max_daemon_level
from .summoning import notice_text as replaced_text


def _refs(kind: str, features: list[str]) -> list[dict]:
    """``[{"text": "SHIELD 1", "key": "weapon-shield" | None}]`` for the page's reference links."""
    return [{"text": f, "key": reference_key(kind, f)} for f in features]


def notice_text(state: dict, notice: Any) -> str | None:
    """The words of ``state["notice"]`` (what the table must do now), or None."""
    if not notice:
        return None
    if isinstance(notice, str):  # a projection stored before notices were data
        return notice
    kind = notice.get("kind")
    if kind == "wave":
        return turns.wave_text(state, notice)
    if kind == "stray":
        return shooting.stray_text(notice["ooc"])
    if kind == "replaced":
        return replaced_text(state, notice)
    return None


def view(state: dict, seat: int | None) -> dict:
    """The whole table (public in DemLoc), with per-piece figures the page shows: dice to
    shoot and fight, the seal limit, and the player's own characters first. While a
    lifecycle mission is being prepared: ``{"setup": setup_rules.view(...), "me"}`` only."""
    setup = state.get("setup")
    if setup and setup["stage"] != "play":
        return {
            "me": seat,
            "setup": setup_view.view(setup, seat),
            "ended": None,
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
            # 6.4.2: a mission event may have changed the objective.
            "objective": state.get("objective_text") or definition.get("objective", ""),
            "first_objective": definition.get("objective", ""),
            "map": picture(definition),
            "areas": [
                {**a, "closed": a.get("name") in (state.get("closed_areas") or [])}
                for a in definition.get("deployment") or []
            ],
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
                "player": name(state, p["owner"]),
                "seal_limit": possession_limit(p["arcane"]),
                "shoot_dice": shooting.shooting_dice(p),
                # 7.2.3.5: the highest roll that frees a possessed character (0: none can).
                "free_best_roll": possession.free_test_best_roll(
                    p["arcane"], state["options"].get("free_possessed", "penalty")
                ),
                "arcane_dice_left": max(
                    0,
                    p["arcane"] - p["mana"]["common"] - p["mana"]["dark"] - p.get("lost_dice", 0),
                ),
                "h2h_now": brawl.h2h_ability(p),
                # Issue 15: activations (7.2), the summoner's level cap (7.2.3.2), the arcane
                # effect tokens a "cancel" test may remove and the power a "defend" test answers
                # (7.2.3.5), relics carried (7.2.1), possession by a card effect.
                "activated_now": activation.is_activated(state, p),
                "max_daemon_level": max_daemon_level(state, p),
                "daemon_levels": list(range(1, max_daemon_level(state, p) + 1)),
                "arcane_effects_live": [
                    {**eff, "index": i} for i, eff in enumerate(arcane.live_effects(state, p))
                ],
                "defend_power": (revert.defendable(state, pid) or {}).get("power"),
                "dignitary": bool(p.get("dignitary")),
                # 7.3.2: the highest roll that destroys scenery (0: none can), before the roll.
                "scenery_best_roll": brawl.hand_test_best_roll(
                    brawl.h2h_ability(p), state["options"].get("hand_test", "bonus")
                ),
                "backstack": any(
                    "BACKSTACK" in (f.split(" ")[0] for f in w["features"]) for w in p["weapons"]
                ),
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
            {"seat": st, "name": name(state, st), "percent": round(prob * 100)}
            for st, prob in turns.first_player_odds(seats, state["first"])
        ]
        if seats
        else []
    )
    limit = state["turn_limit"]
    hidden = bool(state.get("turn_limit_hidden"))
    # 7: "the app will report that the turns available to the players are over": reached at
    # the end of the last turn; a hidden limit is told only then.
    turns_over = bool(limit and state["turn"] >= limit and state["phase"] == TURN_END)
    claim = claim_of(state)
    waiting = claim_waiting(state)
    event_notice = state.get("event_notice")
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
        "first_name": name(state, state["first"]),
        "acting": acting,
        "acting_name": name(state, acting),
        "my_turn": acting == seat and state["phase"] != TURN_END,
        "next_odds": next_odds,
        "turn_limit": 0 if hidden else limit,
        "turn_limit_hidden": hidden,
        "last_turn": bool(limit and state["turn"] >= limit) and (not hidden or turns_over),
        "turns_over": turns_over,
        "objective": state["objective"],
        "surrender": state["surrender"],
        "i_surrender": seat in state["surrender"],
        "elimination": state["elimination"],
        "ended": state["ended"],
        "mission": mission,
        "pending": state["pending"],
        "notice": notice_text(state, state.get("notice")),
        # 6.4.2: the mission events of this turn, in words (the turn bar notice).
        "mission_events_now": [
            setup_script.event_text(ev, hidden) for ev in (event_notice or {}).get("events", [])
        ],
        "mission_events": [
            setup_script.event_text(ev, hidden) for ev in state.get("mission_events") or []
        ],
        "options": {
            k: v for k, v in state["options"].items() if not (hidden and k == "turn_limit")
        },
        "can_claim_objective": can_claim(state),
        "claim": {
            "seat": claim["seat"],
            "name": name(state, claim["seat"]),
            "turn": claim["turn"],
            "mine": claim["seat"] == seat,
            "waiting": [name(state, x) for x in waiting],
            "can_answer": seat in waiting,
        }
        if claim
        else None,
        "can_end": bool(turns_over or can_end_by_elimination(state)) and claim is None,
    }

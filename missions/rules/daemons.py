"""The code and channelled dice a summoner assigns to its daemon: the command
``demloc.daemon.assign``, its event and fold.

DemLoc rulebook 7.2.3.2: "the player must pull the daemon card from his Guild binder and place
it in his play area (the player then assigns arcane codes and arcane dice channeled to the
daemon)"; 5.1.3 (daemons are followers), 5.1.2 ("the followers will not summon daemons");
6.4.1 (channelling when a card is placed: "if the result is 1 or more broken seals no effect is
applied").

The app's reading (the rulebook gives no more detail): once, while the daemon is in play, its
player assigns it one of the Arcane Codes its summoner holds (by default the one it summoned
with; the daemon uses its powers and never summons, so the code comes without its summoning
and pentacle) and enters what the daemon's own arcane dice show when rolled as its card is
placed (at most its arcane ability; broken seals rolled then have no effect, as when cards
are placed in the characters choice phase, 6.4.1). A daemon with arcane ability 0 takes no
code and no dice.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.rules import EventRecord, counted

from .cards import codes_of
from .common import num, own_piece, piece_name, play_command
from .state import DemlocState

daemons = Topic("daemons")


def daemon_code(code: dict) -> dict:
    """A summoner's code as a daemon's code: its powers, no summoning and no pentacle (5.1.2,
    5.1.3: daemons are followers, and followers never summon)."""
    return {**copy_json(code), "summon_cost": None, "pentacle": None}


@play_command(daemons, "demloc.daemon.assign")
def daemon_assign(d: Decision, data: Data) -> None:
    """``{"piece": daemon, "code": index among the summoner's codes (default: the summoning
    code), "common": 0..6, "dark": 0..6, "seals": 0..6}`` (7.2.3.2). Raises ``not_a_daemon``,
    ``already_assigned``, ``no_arcane``, ``bad_input``, ``too_many_dice``."""
    daemon = own_piece(d, data)
    summoner = d.state["pieces"].get(daemon.get("summoner") or "")
    d.require(
        daemon["kind"] == "daemon" and summoner is not None,
        "not_a_daemon",
        f"{daemon['name']} is not a summoned daemon (7.2.3.2).",
    )
    d.require(
        not daemon.get("assigned"),
        "already_assigned",
        f"{daemon['name']} already has its code and dice (7.2.3.2).",
    )
    d.require(
        daemon["arcane"] > 0,
        "no_arcane",
        f"{daemon['name']} has no arcane ability: it takes no code nor dice.",
    )
    codes = codes_of(summoner)  # never empty: the summoner summoned with one of them
    in_hand = next((i for i, c in enumerate(codes) if c == summoner.get("code")), 0)
    index = num(data, "code", in_hand, 0, len(codes) - 1)
    counts = {k: num(data, k, 0, 0, 6) for k in ("common", "dark", "seals")}
    rolled = sum(counts.values())
    d.require(
        rolled <= daemon["arcane"],
        "too_many_dice",
        f"{daemon['name']} rolls {counted(daemon['arcane'], 'arcane die', 'arcane dice')} at most.",
    )
    d.emit(
        "demloc.daemon.assigned",
        {"piece": daemon["id"], "code": daemon_code(codes[index]), **counts},
    )


@daemons.evolver("demloc.daemon.assigned", label="assigned a daemon its code and dice")
def daemon_assigned(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    p["codes"] = [copy_json(d["code"])]
    p["code"] = p["codes"][0]
    p["mana"]["common"] += d["common"]
    p["mana"]["dark"] += d["dark"]
    p["assigned"] = True
    say(assigned_text(s, d))
    if d["seals"]:
        say(
            f"{counted(d['seals'], 'broken seal')} rolled as the card was placed: no effect (6.4.1)."
        )


def assigned_text(s: DemlocState, d: dict) -> str:
    return (
        f"{piece_name(s, d['piece'])} takes the code {d['code']['name']} and "
        f"{d['common']} common, {d['dark']} dark mana (7.2.3.2)."
    )


@daemons.narrator("demloc.daemon.assigned")
def say_daemon_assigned(e: EventRecord, s: DemlocState) -> str:
    return assigned_text(s, e.data)

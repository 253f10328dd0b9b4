"""The resolution phase: who won, what each Guild wins or loses, what becomes of each character
(DemLoc rulebook 6.4, 6.4.1 "resolution phase", 7 "ending the game"). Pure: no Django.

``compute(state)`` reads a ended lifecycle mission (``state["setup"]`` and the play state) and
returns the result as JSON; ``missions.services.mission_close`` writes it into the guilds, once.

Rule choices where the rulebook is silent (documented here and in the mission admin):

- Winner: the player who achieved the objective or held the area long enough; on total
  elimination, the last player with characters in play. When the mission ends by its turn limit,
  by agreement, or because one of 3-4 players was wiped out (table option ``elimination``), the
  player with the most fame from kills wins among those who still have characters in play (a
  wiped-out player never wins on kills, nobody does when no player has characters in play
  any more; if only one player has characters in play, that player wins as on total
  elimination); equal: nobody (a draw, the control spot stays with
  its holder).
- "On kills" means by default the most kills on the kill counter (table option ``kills_win``
  = ``count``; ``fame``: the most fame the kills pay, as before the option, and for a table
  opened before it). A Guild that left the mission never wins (6.4.2).
- Opponent surrender (7.3.2.3; table option ``surrender``): by default an agreed end, won as
  at a turn limit; with ``loses`` the first player who asked to stop loses and pays the defeat
  penalty, and the others win as at a turn limit among themselves (one left: that one wins).
- A draw (by agreement or on a tied count) charges nobody the defeat penalty: nobody was
  defeated, except a player who surrendered.
- Rewards come from the mission definition: the winner's fame, feods and blood stones (the
  "items earned"); the objective reward to the player who achieved it; each kill counted on the
  kill counter pays the kill reward of its kind times the killed character's level; each relic
  token retrieved pays the relic reward; every other player pays the defeat penalty; each own
  character that escaped while possessed pays the possessed-escape penalty.
- Costs decided in the setup are paid now: followers enlisted for the mission and the offers won
  for contested mercenaries (5.1.1, 5.1.2).
- Characters (mercenaries only: followers and daemons return to the common area, 5.1.2):
  killed -> dead (can never be used again, 6.4.1); one or more broken hearts, or possessed at
  the end (still on the board *or escaped while possessed*) -> injured, healed for
  ``heal_feods_per_heart`` x broken hearts (at least 1) feods; escaped, unharmed or survived
  (poison, bleeding or hit damage without a broken heart: the tokens end with the mission,
  6.4.2 poison kills only above the hit factor) -> active.
  Our reading of 6.4.1 ("characters who have escaped, been seriously injured or died") and 6.4.2
  (possession is removed only at the table, from a character still in play): a character that
  escaped possessed leaves with the daemon in it, so it comes back needing care (at least one
  broken heart's healing) and its Guild pays the possessed-escape penalty.
- Training mission (6.4): the winner and the kills are shown, nothing changes in any Guild.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.rules import counted

from .common import in_play, known
from .score import KILL_KINDS, KILL_LEVELS
from .setup import STANDARD
from .state import DemlocState

CURRENCIES = ("fame", "feods", "blood_stones")

#: What a mission pays when its definition keeps the defaults (``rewards`` of a definition's
#: snapshot; ``missions.models.MissionDefinition`` takes its fields' defaults from here, and
#: the rules reference page shows them): fame, feods and blood stones per rule, a kill's reward
#: per level of the killed card, the loss and the possessed escape as amounts taken away.
DEFAULT_REWARDS: dict = {
    "win": {"fame": 10, "feods": 20, "blood_stones": 0},
    "loss": {"fame": 2, "feods": 0},
    "objective": {"fame": 5, "feods": 5},
    "relic": {"fame": 0, "feods": 0},
    "kill": {
        "mercenary": {"fame": 2, "feods": 3},
        "follower": {"fame": 1, "feods": 1},
        "daemon": {"fame": 3, "feods": 0},
    },
    "possessed_escape": {"fame": 3, "feods": 0},
    "heal_feods_per_heart": 5,
}


def _reward(rewards: dict, key: str) -> dict:
    value = rewards.get(key) or {}
    return {c: int(value.get(c, 0) or 0) for c in CURRENCIES}


def kill_fame(player: Mapping[str, Any], rewards: dict) -> int:
    """Fame from ``player``'s kill counter: sum of kill reward x level x count."""
    total = 0
    for kind, by_level in (player.get("kills") or {}).items():
        fame = _reward(rewards.get("kill") or {}, kind)["fame"]
        total += sum(fame * int(level) * n for level, n in by_level.items())
    return total


def kill_score(player: Mapping[str, Any], rewards: dict, by: str) -> int:
    """What ranks ``player`` on kills (table option ``kills_win``): ``"count"`` the number of
    kills on the kill counter (6.4.2), ``"fame"`` their fame (``kill_fame``)."""
    if by == "fame":
        return kill_fame(player, rewards)
    return sum(int(n) for by_level in (player.get("kills") or {}).values() for n in by_level.values())


def surrendered(state: DemlocState) -> int | None:
    """The seat that surrendered (7.3.2.3 "Opponent surrender", table option ``surrender`` =
    ``loses``): the first player who asked to stop, when every other player agreed; else
    None."""
    ended: Mapping[str, Any] = state.get("ended") or {}
    if ended.get("reason") != "surrender":
        return None
    if (state.get("options") or {}).get("surrender", "agreement") != "loses":
        return None
    return ended.get("by")


def winner_of(state: DemlocState) -> tuple[int | None, str]:
    """``(seat or None, how)`` of an ended mission (module docstring)."""
    ended: Mapping[str, Any] = state.get("ended") or {}
    reason = ended.get("reason")
    loser = surrendered(state)
    if reason in ("objective", "objective_control"):
        return ended.get("seat"), reason
    seat = ended.get("seat")
    if reason == "elimination" and seat is not None and seat >= 0:
        return seat, reason
    rewards = known(state["setup"])["definition"].get("rewards") or {}
    alive = {
        p["owner"]
        for p in (state.get("pieces") or {}).values()
        if in_play(p) and not p.get("possessed")
    }
    # A Guild that left the mission never wins (6.4.2), nor one that surrendered (7.3.2.3).
    gone = set(state.get("left") or []) | ({loser} if loser is not None else set())
    alive -= gone
    # Only a Guild with characters on the board wins (7.3.2.3 total elimination: a wiped-out
    # player never wins on kills): when nobody is left, e.g. the last characters of both sides
    # killed by the last turn's poison, nobody wins.
    players = [p for p in state["players"] if p["seat"] in alive]
    if alive and len(alive) == 1 and len(state["players"]) > 1:
        return next(iter(alive)), "surrender" if loser is not None else "elimination"
    if loser is not None and len(players) == 1:
        return players[0]["seat"], "surrender"
    by = (state.get("options") or {}).get("kills_win", "fame")
    scores = {p["seat"]: kill_score(p, rewards, by) for p in players}
    best = max(scores.values(), default=0)
    top = [s for s, v in scores.items() if v == best]
    if len(top) == 1 and best > 0:
        return top[0], "kills"
    return None, "draw"


def payouts(rewards: dict) -> list[dict]:
    """What closing a standard mission writes into a Guild for ``rewards`` (a definition's
    ``rewards``, the shape of ``DEFAULT_REWARDS``), rule by rule, as ``compute`` adds it up
    (6.4.1 "resolution phase"): ``[{"key", "what", "who", "fame", "feods", "blood_stones"}]``,
    signed whole numbers. ``key``: ``win``, ``draw``, ``loss``, ``objective``,
    ``kill-<kind>-<level>`` (the kill reward times the killed card's level, each kind at
    each level of the kill counter), ``relic`` (per token), ``possessed_escape`` (per
    character). The rules reference page shows these rows."""
    zero = dict.fromkeys(CURRENCIES, 0)

    def row(key: str, what: str, who: str, amounts: dict, sign: int = 1, times: int = 1) -> dict:
        return {
            "key": key,
            "what": what,
            "who": who,
            **{c: sign * times * amounts.get(c, 0) for c in CURRENCIES},
        }

    rows = [
        row("win", "Won the mission", "The winner", _reward(rewards, "win")),
        row("draw", "A draw", "Every Guild, when nobody wins: no defeat penalty", zero),
        row(
            "loss",
            "Defeat",
            "Every Guild but the winner (and, with the table option, one that surrendered)",
            _reward(rewards, "loss"),
            sign=-1,
        ),
        row(
            "objective",
            "Objective achieved",
            "The Guild that achieved it (besides winning)",
            _reward(rewards, "objective"),
        ),
    ]
    for kind in KILL_KINDS:
        for level in KILL_LEVELS:
            rows.append(
                row(
                    f"kill-{kind}-{level}",
                    f"A {kind} killed, level {level}",
                    "The Guild whose kill counter counts it",
                    _reward(rewards.get("kill") or {}, kind),
                    times=level,
                )
            )
    rows.append(
        row("relic", "A relic token retrieved", "The Guild holding it", _reward(rewards, "relic"))
    )
    rows.append(
        row(
            "possessed_escape",
            "A character escaped possessed",
            "Its Guild",
            _reward(rewards, "possessed_escape"),
            sign=-1,
        )
    )
    return rows


def character_outcome(piece: dict, heal_per_heart: int) -> dict:
    """What becomes of one character: ``{"outcome": "killed" | "escaped" | "injured" |
    "survived" | "unharmed", "status": guild status or None, "heal_feods", "needs": words}``,
    and for an injured one that also carried tokens or damage, ``"carried"``: words for the
    report (``survived_marks``).
    "survived": in play at the end with poison, bleeding or hit damage but no broken heart
    (``survived_marks``): ready, as an unharmed one, and the report says what it carried."""
    if piece["status"] == "killed":
        return {
            "outcome": "killed",
            "status": "dead",
            "heal_feods": 0,
            "needs": "Dead: stays in the dormitory, can never be used again (6.4.1).",
        }
    hearts = piece.get("broken_hearts", 0)
    if piece.get("possessed") and piece["status"] in ("in_play", "escaped"):
        hearts = max(hearts, 1)
    if piece["status"] == "escaped" and not hearts:
        return {
            "outcome": "escaped",
            "status": "active",
            "heal_feods": 0,
            "needs": "Escaped: back in the dormitory, ready.",
        }
    marks = survived_marks(piece)
    if hearts:
        cost = heal_per_heart * hearts
        # What else it carried, as a survivor's line says it (a new user read "injured (1
        # broken heart)" for a character that ended with 4 poison tokens): the tokens end with
        # the mission, only the hearts need healing (6.4.1).
        out = {
            "outcome": "injured",
            "status": "injured",
            "heal_feods": cost,
            "needs": f"Seriously injured ({counted(hearts, 'broken heart')}): heal for {cost} feods.",
        }
        if marks:  # the report's words only (the Dormitory's note is ``needs``, cut at 200)
            out["carried"] = f"It also carried {', '.join(marks)}: the tokens end with the mission."
        return out
    if marks:
        return {
            "outcome": "survived",
            "status": "active",
            "heal_feods": 0,
            "needs": f"Survived with {', '.join(marks)}: the tokens end with the mission, "
            "ready for the next one (only a broken heart needs healing, 6.4.1).",
        }
    return {
        "outcome": "unharmed",
        "status": "active",
        "heal_feods": 0,
        "needs": "Unharmed: ready for the next mission.",
    }


def survived_marks(piece: dict) -> list[str]:
    """What a character still in play (or escaped) carried at the end (a survivor's line says
    it; an injured one's report adds it to its broken hearts):
    poison tokens (6.4.2 "when the number of poisoning tokens exceeds a character's life
    factor value, he will die": as many as the hit factor is alive, one more kills), bleeding
    tokens, hit damage, armor damage and broken armor tokens. Words for the report; none of them outlasts the mission (6.4.1 names
    only the escaped, the seriously injured and the dead), so the character is not
    "unharmed", but it is ready."""
    marks = []
    poison, hit = piece.get("poison", 0), piece.get("hit", 0)
    if poison:
        edge = " (at its hit factor: one more would have killed)" if hit and poison >= hit else ""
        marks.append(f"{counted(poison, 'poison token')}, hit factor {hit}{edge}")
    if piece.get("bleeding", 0):
        marks.append(counted(piece["bleeding"], "bleeding token"))
    if piece.get("hit_damage", 0):
        marks.append(f"{piece['hit_damage']} hit damage")
    # Armor damage as the card showed it (found by a new user: Spark put "armor damage 0 → 1"
    # on Brann, and the report said "unharmed"): with its broken armor tokens, or "no token".
    armor, broken = piece.get("armor_damage", 0), piece.get("broken_armor", 0)
    if armor or broken:
        tokens = counted(broken, "broken armor token") if broken else "no token"
        marks.append(f"armor damage {armor}, {tokens}" if armor else tokens)
    return marks


#: The reasons of a mission's charges (5.1.1 followers enlisted, 5.1.2 offers won): reserved
#: while it ran, posted apart from its rewards and penalties (``compute``'s ``items``).
CHARGES = ("Followers enlisted for the mission", "Offer won for a contested mercenary")


def compute(state: DemlocState) -> dict:
    """The result of an ended lifecycle mission::

        {"mode", "applies": bool (False for training), "winner": seat | None, "winner_name",
         "kills_win": "count" | "fame",
         "how": "objective" | "objective_control" | "elimination" | "surrender" | "kills"
                | "draw",
         "guilds": [{"seat", "guild_id", "guild", "fame", "feods", "blood_stones",
                     "lines": [str],
                     "items": [{"why": str, "fame"?, "feods"?, "blood_stones"?: int,
                                "charge": bool}]}],
         "characters": [{"seat", "piece", "name", "source", "ref", "outcome", "status",
                         "heal_feods", "needs", "carried"?, "possessed_escape"}],
         "control_point": {"point", "holder", "to", "change": "acquired" | "kept" | "stays"
                           | "none"}}

    Amounts are signed changes. ``applies`` False: nothing is to be written anywhere.
    ``items``: the same changes one reason each (a defeat, each kind and level of kill, the
    objective...), with only their non-zero currencies; they sum to the totals. ``charge``:
    the feods of followers enlisted and offers won (5.1.1, 5.1.2), reserved while the mission
    ran. Each item is a row of its own in the Guild's ledger, so a defeat (-2 fame) and a
    kill (+2 fame) are not netted into nothing (6.4.1 resolution).
    """
    setup = known(state["setup"])
    definition = setup["definition"]
    rewards = definition.get("rewards") or {}
    applies = setup["mode"] == STANDARD
    winner, how = winner_of(state)
    ended: Mapping[str, Any] = state.get("ended") or {}
    heal = int(rewards.get("heal_feods_per_heart", 0) or 0)
    guilds, characters = [], []
    for player in state["players"]:
        seat = player["seat"]
        g = setup["guilds"][str(seat)]["guild"]
        totals = dict.fromkeys(CURRENCIES, 0)
        lines: list[str] = []
        items: list[dict] = []

        def add(
            amounts: dict, why: str, times: int = 1, totals=totals, lines=lines, items=items
        ) -> None:
            parts, item = [], {}
            for c in CURRENCIES:
                n = amounts.get(c, 0) * times
                if n:
                    totals[c] += n
                    item[c] = n
                    parts.append(f"{n:+d} {c.replace('_', ' ')}")
            if parts:
                lines.append(f"{why}: {', '.join(parts)}")
                items.append({"why": why, **item, "charge": why in CHARGES})

        if seat == winner:
            add(_reward(rewards, "win"), "Won the mission")
        elif winner is not None or seat == surrendered(state):
            add({c: -v for c, v in _reward(rewards, "loss").items()}, "Defeat")
        else:
            lines.append("A draw: no defeat penalty")
        if ended.get("reason") in ("objective", "objective_control") and ended.get("seat") == seat:
            add(_reward(rewards, "objective"), "Objective achieved")
        for kind, by_level in (player.get("kills") or {}).items():
            for level, n in sorted(by_level.items()):
                if n > 0:
                    add(
                        _reward(rewards.get("kill") or {}, kind),
                        f"{counted(n, kind + ' kill')} of level {level}",
                        int(level) * n,
                    )
        if player.get("relics"):
            add(_reward(rewards, "relic"), counted(player["relics"], "relic token"), player["relics"])
        costs = setup["costs"][str(seat)]
        if costs["hires"]:
            add({"feods": -costs["hires"]}, CHARGES[0])
        if costs["offers"]:
            add({"feods": -costs["offers"]}, CHARGES[1])
        for pid in state["order"]:
            piece = state["pieces"][pid]
            if piece["owner"] != seat or piece["kind"] == "daemon":
                continue
            pick = _pick_of(setup, seat, pid)
            possessed_escape = piece["status"] == "escaped" and piece.get("possessed")
            if possessed_escape:
                add(
                    {c: -v for c, v in _reward(rewards, "possessed_escape").items()},
                    f"{piece['name']} escaped possessed",
                )
            outcome = character_outcome(piece, heal)
            if pick is None or pick["source"] != "mercenary":
                outcome = {
                    **outcome,
                    "status": None,
                    "heal_feods": 0,
                    # 5.1.2: a follower lodged in the Guesthouse ("permanently enlisted ...
                    # available for each mission") stays there; one hired for this mission
                    # goes back to the common area.
                    "needs": "A follower of the Guesthouse: it stays lodged there, ready for "
                    "the next mission (5.1.2)."
                    if pick is not None and pick["source"] == "guest"
                    else "A follower: its card goes back to the common area (5.1.2).",
                }
            characters.append(
                {
                    "seat": seat,
                    "piece": pid,
                    "name": piece["name"],
                    "source": pick["source"] if pick else None,
                    "ref": pick["ref"] if pick else None,
                    "possessed_escape": bool(possessed_escape),
                    **outcome,
                }
            )
        if not applies:
            totals = dict.fromkeys(CURRENCIES, 0)
            lines = ["Training mission: nothing changes in the Guild (6.4)."]
            items = []
        guilds.append(
            {
                "seat": seat,
                "guild_id": g["id"],
                "guild": g["name"],
                **totals,
                "lines": lines,
                "items": items,
            }
        )
    if not applies:
        for c in characters:
            c.update(status=None, heal_feods=0)
    return {
        "mode": setup["mode"],
        "applies": applies,
        "winner": winner,
        "winner_name": setup["names"].get(str(winner)) if winner is not None else None,
        "how": how,
        # What "kills" ranked by (table option ``kills_win``; a table opened before it: fame).
        "kills_win": (state.get("options") or {}).get("kills_win", "fame"),
        "guilds": guilds,
        "characters": characters,
        "control_point": _control_point(setup, winner, applies),
    }


def _pick_of(setup: dict, seat: int, pid: str) -> dict | None:
    for pick in setup["picks"][str(seat)]:
        if f"s{seat}-{pick['id']}" == pid:
            return pick
    return None


def _control_point(setup: dict, winner: int | None, applies: bool) -> dict:
    raffle = setup.get("raffle") or {}
    point = raffle.get("point")
    if not applies or point is None:
        return {"point": point, "holder": None, "to": None, "change": "none"}
    holder = point.get("holder_guild_id")
    if winner is None:
        return {"point": point, "holder": holder, "to": None, "change": "stays"}
    to = setup["guilds"][str(winner)]["guild"]["id"]
    return {
        "point": point,
        "holder": holder,
        "to": to,
        "change": "kept" if holder == to else "acquired",
    }

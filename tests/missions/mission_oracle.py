"""The test's own referee for whole DemLoc missions (``test_mission_playouts``): from the events
of a mission and the rulebook it recomputes the end of the mission and what the close must write
into the Guilds, without the app's resolution code (``missions.rules.resolution``,
``missions.rules.end``, ``missions.rules.turns``).

What it reads:

- the events the table folds (``Sim.records()``: undone commands left out), for the choices of
  the preparation (picks, hires, contests won, the control spot drawn), the kills, the relic
  tokens, the control counter, the Guilds that left, the claims and the ending;
- for each command that changed the turn or ended the mission, the projection just before it
  (``pre``: the fold of the events before it, the replay check makes sure it is one) for the
  tokens the characters carried then. Everything that command did at the end of the turn is the
  oracle's own: 8.1 bleeding and 8.2 poison (when the table plays them at the end), 8.4 FURY's
  broken heart, 7.2.3.3 daemons leaving, the 6.4.2 control counter.

The rules it applies (the rulebook, and the app's documented readings where the rulebook is
silent, docs/demloc-sections.md: section 6.4.1):

- 5.1.1 damage on the hit factor carries over into broken hearts; 3 broken hearts kill (a
  possessed character also needs 3 broken armor tokens, 7.2.3); poison tokens above the hit
  factor kill (6.4.2, 8.2).
- 6.4.2 control: at the end of each turn played a running counter counts one more turn for its
  Guild, if that Guild is still in the mission with a character on the board; reaching the
  turns to hold ends the mission at once, that Guild winning (also on the last turn of a turn
  limit), and no other turn starts.
- 7.3.2.3 ending: objective achieved (the claimer wins), total elimination (the last Guild with
  characters in play wins; nobody when none is left); at a turn limit, by agreement, or with
  several Guilds left: the most kill fame among the Guilds with characters in play (one such
  Guild: it wins), equal: a draw.
- 6.4.1 resolution: the winner gets the win reward (fame, feods, blood stones), the others pay
  the defeat penalty (nobody on a draw), the objective reward to its achiever, kill rewards x
  level, relic rewards per token counted (a mercenary's, 7.2.1), the followers enlisted and the
  offers won are paid, a character escaped possessed costs the possessed-escape penalty.
  Mercenaries: killed -> dead; broken hearts (or possessed at the end) -> injured, healed for
  the heal reward x broken hearts (at least one); otherwise active. Balances never go below 0
  (fame may). A training mission writes nothing.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field

P = "demloc."
S = "demloc.setup."
MAX_BROKEN_ARMOR = 3


class OracleError(AssertionError):
    """An invariant of the mission's end does not hold."""


# ------------------------------------------------------------------ damage (5.1.1, 6.4.2, 8.x)
def _alive(p: dict) -> bool:
    return p["status"] == "in_play"


def _fatal(p: dict) -> bool:
    # A plain restatement of the conditions the rulebook states outright, not a copy of the
    # app's ``damage.is_fatally_wounded`` (the oracle imports none of the app's rules code):
    # more poison tokens than the hit factor kill (6.4.2, 8.1 POISONOUS x, 8.2 POISON x); 3
    # broken hearts kill (5.1.1 hit factor; a daemon: its heart tokens, 7.2.3.2); a possessed
    # character dies only with its broken hearts *and* 3 broken armor tokens (7.2.3 "daemon
    # possessed").
    if p["poison"] > p["hit"]:
        return True
    full = p["broken_hearts"] >= p["heart_limit"]
    if p["possessed"]:
        return full and p["broken_armor"] >= MAX_BROKEN_ARMOR
    return full


def _kill_if_fatal(p: dict) -> None:
    if _alive(p) and _fatal(p):
        p["status"] = "killed"


def hit_damage(p: dict, amount: int) -> None:
    """``amount`` damage straight on the hit factor (bleeding, 8.1): each time it reaches the
    hit factor a broken heart is placed and the rest carries over (5.1.1)."""
    left = amount
    while left > 0 and _alive(p) and p["broken_hearts"] < p["heart_limit"]:
        room = p["hit"] - p["hit_damage"]
        if left >= room:
            left -= room
            p["hit_damage"] = 0
            p["broken_hearts"] += 1
            _kill_if_fatal(p)
        else:
            p["hit_damage"] += left
            left = 0


def broken_hearts(p: dict, count: int) -> None:
    if not _alive(p) or count <= 0:
        return
    p["broken_hearts"] += min(count, p["heart_limit"] - p["broken_hearts"])
    _kill_if_fatal(p)


def daemons_leave(pieces: dict) -> None:
    """7.2.3.3: a daemon whose summoner is out of play leaves; a killed daemon's heart tokens go
    to its summoner as broken hearts."""
    changed = True
    while changed:
        changed = False
        for daemon in pieces.values():
            summoner = pieces.get(daemon.get("summoner") or "")
            if daemon["kind"] != "daemon" or summoner is None:
                continue
            if summoner.get("summoning") != daemon["id"]:
                continue
            if _alive(daemon) and not _alive(summoner):
                daemon["status"] = "dismissed"
            if not _alive(daemon):
                summoner["summoning"] = None
                if daemon["status"] == "killed":
                    broken_hearts(summoner, daemon["heart_limit"])
                changed = True


def end_of_turn(pieces: dict, order: list[str], options: dict) -> dict:
    """The end-of-turn effects of one turn on a copy of ``pieces``: bleeding and poison when the
    table plays them at the end (8.1, 8.2), FURY's broken heart (8.4), daemons leaving."""
    out = copy.deepcopy(pieces)
    for pid in order:
        p = out[pid]
        if options.get("bleeding") == "end" and _alive(p) and p["bleeding"] > 0:
            hit_damage(p, p["bleeding"])
        if options.get("poison") == "end" and _alive(p) and p["poison"] > 0:
            p["poison"] += 1
            _kill_if_fatal(p)
    for pid in order:
        p = out[pid]
        if _alive(p) and p["fury"] > 0:
            broken_hearts(p, 1)
            p["fury"] -= 1
    daemons_leave(out)
    return out


def on_board(pieces: dict) -> set[int]:
    """Guilds with a character in play, not possessed (7.3.2.3, 7.2.3)."""
    return {p["owner"] for p in pieces.values() if _alive(p) and not p["possessed"]}


# ------------------------------------------------------------------ the oracle
@dataclass
class Expected:
    """What the close must write: ``winner`` seat or None, ``reason``, per seat ``amounts``
    {fame, feods, blood_stones} won or lost (the charges apart, before the purse's floor),
    ``charges`` (feods: followers enlisted and offers won, 5.1.1, 5.1.2), per mercenary
    id its ``fates`` (status, heal_feods), the control ``point`` (id, holder after)."""

    winner: int | None
    reason: str
    amounts: dict[int, dict[str, int]]
    charges: dict[int, int]
    fates: dict[int, tuple[str, int]]
    point: tuple[int, int | None] | None
    final_pieces: dict = field(default_factory=dict)


def _reward(rewards: dict, key: str) -> dict[str, int]:
    return {c: int(rewards.get(key, {}).get(c, 0)) for c in ("fame", "feods", "blood_stones")}


def judge(records, pre: dict[int, dict], rewards: dict, mode: str, guild_of_seat: dict) -> Expected:
    """Referee an ended mission. ``records``: its folded events; ``pre``: command id -> the
    projection before that command (turn changes and the ending); ``rewards``: the mission
    definition's rewards, read from its database row ({"win": {fame, feods, blood_stones},
    "loss", "objective", "relic", "kill": {kind: {...}}, "possessed_escape",
    "heal_feods_per_heart"}); ``guild_of_seat``: seat -> guild id. Raises ``OracleError``."""
    picks: dict[int, dict[str, dict]] = defaultdict(dict)
    offers: dict[int, int] = defaultdict(int)
    point = None
    kills: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    relics: dict[str, int] = defaultdict(int)  # per carrier
    agreed: list[int] = []  # agreements to stop this turn, in the order given (7.3.2.3)
    kinds: dict[str, str] = {}
    owner: dict[str, int] = {}
    seats: list[int] = []
    left: set[int] = set()
    counter = {"seat": None, "counting": False, "count": 0}
    target = 0
    options: dict = {}
    claim = None
    turn = 0
    ended = None
    by_command: dict[int, list] = defaultdict(list)
    for e in records:
        by_command[e.command_id].append(e)
    handled: set[int] = set()

    def turn_end(command_id: int, pieces_before: dict, order: list[str]) -> tuple[dict, bool]:
        """The end of the turn in progress, applied by the oracle: returns the pieces after it
        and whether the control objective is reached now (6.4.2)."""
        after = end_of_turn(pieces_before, order, options)
        if (
            counter["counting"]
            and counter["seat"] not in left
            and counter["seat"] in on_board(after)
        ):
            counter["count"] += 1
        reached = bool(target) and counter["count"] >= target and counter["seat"] is not None
        return after, reached

    for e in records:
        d, t = e.data, e.type
        if t == S + "guild_left":
            picks.clear()
            offers.clear()
            point = None
        elif t in (S + "picked", S + "hired"):
            picks[d["seat"]][d["pick"]["id"]] = d["pick"]
        elif t == S + "unpicked":
            picks[d["seat"]].pop(d["id"], None)
        elif t == S + "guild_refreshed":
            for gone in d.get("dropped", []):
                picks[d["seat"]].pop(gone["id"], None)
        elif t == S + "contest_settled":
            offers[d["winner"]] += d["paid"]
            for seat_key in d["offers"]:
                seat = int(seat_key)
                if seat != d["winner"]:
                    for pid, pk in list(picks[seat].items()):
                        if pk["source"] == "mercenary" and pk["name"] == d["name"]:
                            del picks[seat][pid]
        elif t == S + "raffle_drawn":
            point = d["point"]
        elif t == P + "mission.opened":
            options = dict(d["options"])
            target = int(options.get("objective_turns") or 0)
            seats = [p["seat"] for p in d["players"]]
            for p in d["pieces"]:
                kinds[p["card"]["id"]] = p["card"]["kind"]
                owner[p["card"]["id"]] = p["owner"]
        elif t == P + "daemon.summoned":
            kinds[d["id"]] = "daemon"
            owner[d["id"]] = owner[d["summoner"]]
        elif t == P + "kill.counted":
            seat = e.seat if d.get("seat") is None else d["seat"]
            kills[seat][(d["kind"], int(d["level"]))] += d["delta"]
        elif t == P + "relic.taken":
            relics[d["piece"]] += d["delta"]
        elif t == P + "surrender.voted":
            if d["agree"] and e.seat not in agreed:
                agreed.append(e.seat)
            elif not d["agree"] and e.seat in agreed:
                agreed.remove(e.seat)
        elif t == P + "objective.counting":
            if d["counting"] and counter["seat"] != d["seat"]:
                counter["count"] = 0
            counter["counting"] = d["counting"]
            if d["counting"]:
                counter["seat"] = d["seat"]
        elif t == P + "guild.left":
            left.add(d["seat"])
            if claim and claim["seat"] == d["seat"]:
                claim = None
        elif t == P + "objective.claimed":
            claim = {"seat": d["seat"], "agreed": set()}
        elif t == P + "objective.agreed":
            if claim:
                claim["agreed"].add(e.seat)
        elif t == P + "objective.disputed":
            claim = None
        elif t == P + "turn.started":
            if d["turn"] > 1 and e.command_id not in handled:
                handled.add(e.command_id)
                before = pre[e.command_id]
                _, reached = turn_end(e.command_id, before["pieces"], before["order"])
                if reached:
                    raise OracleError(
                        f"the control objective was reached at the end of turn {turn} "
                        f"({counter['count']}/{target} for seat {counter['seat']}): turn "
                        f"{d['turn']} must not start (6.4.2, the app stops the mission)"
                    )
            turn = d["turn"]
            agreed.clear()  # an agreement to stop is for the turn it was given in
        elif t == P + "mission.ended":
            ended = {"reason": d["reason"], "seat": d["seat"], "command": e.command_id}
        if t == P + "objective.claimed":
            claim["turn"] = d.get("turn")

    if ended is None:
        raise OracleError("the mission never ended")
    last = by_command[ended["command"]]
    if any(e.type == P + "turn.started" for e in last):
        raise OracleError(
            f"the command that ended the mission started turn "
            f"{[e.data['turn'] for e in last if e.type == P + 'turn.started']}: a turn nobody "
            "plays (its bleeding, possession, waves, events) must not happen"
        )
    before = pre[ended["command"]]
    pieces = copy.deepcopy(before["pieces"])
    for e in last:  # a Guild leaving: its characters in play escape (6.4, the app's rule)
        if e.type == P + "guild.left":
            for pid in e.data["pieces"]:
                if _alive(pieces[pid]):
                    pieces[pid]["status"] = "escaped"
    if before["ended"] is None and before.get("turn", 0) >= 1:
        final, reached = turn_end(ended["command"], pieces, before["order"])
    else:
        final, reached = pieces, False
    alive = on_board(final)

    # 7.3.2.3 / 6.4.2: who wins. Never a Guild that left the mission; with the table option
    # ``surrender`` = ``loses``, never the player who asked first to stop, who pays the defeat.
    reason = ended["reason"]
    loser = None
    if reason == "surrender" and options.get("surrender", "agreement") == "loses" and agreed:
        loser = agreed[0]
    alive -= left | ({loser} if loser is not None else set())
    if reached:
        winner, how = counter["seat"], "objective_control"
    elif reason == "objective":
        winner, how = ended["seat"], "objective"
        if winner in left:
            raise OracleError(f"seat {winner} left the mission but achieved its objective")
    elif reason == "objective_control":
        raise OracleError(
            f"the mission ended by control for seat {ended['seat']} but the counter is at "
            f"{counter['count']}/{target} (seat {counter['seat']}, left: {sorted(left)}, "
            f"on the board: {sorted(alive)})"
        )
    elif reason == "elimination" and ended["seat"] is not None and ended["seat"] != -2:
        winner = next(iter(alive)) if len(alive) == 1 else None
        how = "elimination"
    else:
        among = [s for s in seats if s in alive]  # nobody on the board: nobody wins
        if len(alive) == 1 and len(seats) > 1:
            winner, how = next(iter(alive)), "elimination"
        elif loser is not None and len(among) == 1:
            winner, how = among[0], "surrender"
        else:
            # "On kills" (table option ``kills_win``): the most kills on the counter (6.4.2),
            # or the most fame they pay; a table without the option: the fame.
            by = options.get("kills_win", "fame")
            score = {
                s: kill_reward(kills[s], rewards)["fame"]
                if by == "fame"
                else sum(n for n in kills[s].values())
                for s in among
            }
            best = max(score.values(), default=0)
            top = [s for s, v in score.items() if v == best]
            winner, how = (top[0], "kills") if len(top) == 1 and best > 0 else (None, "draw")
    if winner is not None and winner not in alive and how != "objective":
        raise OracleError(f"seat {winner} wins ({how}) without a character on the board")

    # 6.4.1: what each Guild wins or pays
    standard = mode == "standard"
    amounts: dict[int, dict[str, int]] = {}
    charges: dict[int, int] = {}
    fates: dict[int, tuple[str, int]] = {}
    heal = int(rewards.get("heal_feods_per_heart", 0))
    for seat in seats:
        total = dict.fromkeys(("fame", "feods", "blood_stones"), 0)

        def add(amount: dict, times: int = 1, total=total) -> None:
            for c in total:
                total[c] += amount.get(c, 0) * times

        if seat == winner:
            add(_reward(rewards, "win"))
        elif winner is not None or seat == loser:
            add({c: -v for c, v in _reward(rewards, "loss").items()})
        if how in ("objective", "objective_control") and seat == winner:
            add(_reward(rewards, "objective"))
        add(kill_reward(kills[seat], rewards))
        # 7.2.1: only a mercenary's objects count; a killed one's fall where it died (table
        # option ``relic_death`` = ``dropped``; a table without the option keeps them).
        dropped = options.get("relic_death", "kept") == "dropped"
        tokens = sum(
            n
            for pid, n in relics.items()
            if owner.get(pid) == seat
            and kinds.get(pid) == "mercenary"
            and not (dropped and final.get(pid, {}).get("status") == "killed")
        )
        if tokens > 0:
            add(_reward(rewards, "relic"), tokens)
        hires = sum(int(p.get("cost", 0)) for p in picks[seat].values() if p["source"] == "hired")
        charges[seat] = hires + offers[seat]
        for pid, p in final.items():
            if p["owner"] != seat or p["kind"] == "daemon":
                continue
            if p["status"] == "escaped" and p["possessed"]:
                add({c: -v for c, v in _reward(rewards, "possessed_escape").items()})
            pick = picks[seat].get(pid.split("-", 1)[1])
            if pick is None or pick["source"] != "mercenary":
                continue
            fates[int(pick["ref"])] = fate(p, heal) if standard else ("active", 0)
        amounts[seat] = total if standard else dict.fromkeys(total, 0)
        if not standard:
            charges[seat] = 0
    control = None
    if point is not None:
        holder = point.get("holder_guild_id")
        if standard and winner is not None:
            holder = guild_of_seat[winner]
        control = (point["id"], holder)
    return Expected(winner, how, amounts, charges, fates, control, final)


def kill_reward(kills: dict[tuple[str, int], int], rewards: dict) -> dict[str, int]:
    """6.4.2 kill counter, 6.4.1: each kill pays its kind's reward times the killed card's
    level (a count taken back below zero pays nothing)."""
    out = dict.fromkeys(("fame", "feods", "blood_stones"), 0)
    for (kind, level), n in kills.items():
        if n > 0:
            for c in out:
                out[c] += int(rewards.get("kill", {}).get(kind, {}).get(c, 0)) * level * n
    return out


def fate(p: dict, heal_per_heart: int) -> tuple[str, int]:
    """A mercenary's status after the mission (6.4.1): ``(status, heal_feods)``."""
    if p["status"] == "killed":
        return "dead", 0
    hearts = p["broken_hearts"]
    if p["possessed"] and p["status"] in ("in_play", "escaped"):
        hearts = max(hearts, 1)
    if hearts:
        return "injured", heal_per_heart * hearts
    return "active", 0

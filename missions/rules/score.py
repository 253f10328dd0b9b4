"""What each player counts during the mission: fate points, kills and relic tokens (commands
``demloc.fate.spend``, ``demloc.fate.gain``, ``demloc.kill.count``, ``demloc.relic.take``; their
events and folds). DemLoc rulebook 6.4.2 ("fate points", "kill counter"), 7.2.1 (fate points
lower a roll; relics count only on mercenaries), 6.4.1 (the resolution counts kills and relics: ``missions.rules.resolution``).

Kills counted by the app (table option ``kills``, default ``"app"``): when an attack the app
applies kills an enemy character, the command that applied it also emits
``demloc.kill.counted`` for the attacker's player (``credit_kills``), on the same counter
"Count a kill" feeds, so undoing the attack undoes the kill. The attacks are the confirmed shot
(the shooter), the confirmed fight (its winner: the attacker, or a defender that wins,
7.3.2.2), an arcane power (its caster, 7.2.3.1) and a pentacle strike (its summoner, 8.3).
The kind and level are the killed card's (a daemon: its card's level, the one it was drawn
from). Every character the attack leaves killed counts, the consequences the app applies with
it too: a daemon's summoner killed by the daemon's heart tokens (7.2.3.3) is the attacker's
kill as well; a daemon that leaves because its summoner died is dismissed, not killed, and
counts for nobody.

A death by poison (8.1 POISONOUS, 8.2 POISON: a token more each turn until they exceed the
hit factor) counts for the player whose attack poisoned the character (table option
``poison_kills``, default ``"poisoner"``): a character takes poison once (no new tokens while
poisoned, 8.1), so when an attack the app applies gives poison tokens to an enemy character
that had none, the command also emits ``demloc.poison.sourced`` (``credit_kills``: the piece's
``poisoned_by``, dropped when its poison is back to 0), and the turn end or start whose poison
kills it emits the ``demloc.kill.counted`` (``credit_poison_kills``).

No kill is counted for killing a character of one's own player, nor for a death with no
attacker the app knows: bleeding at the turn's end or start (8.1; several attacks may have put
the tokens there), poison put on by hand or with ``poison_kills`` ``"hand"``, possession
(7.2.3), FURY's broken hearts (8.4), a character freed with its fatal broken hearts (7.2.3.5)
or damage and tokens entered by hand (6.4.2 "assign damages").
Those count for nobody unless the players agree whose kill it was and enter it with "Count a
kill" (6.4.2: "Here the player can enter the number and type of enemies he has eliminated").
A passed "defend" test that brings a character back (7.2.3.5) takes the caster's kill back.

``"hand"`` (the rulebook's counter as printed, and tables opened before the option): only what
the players enter with "Count a kill".
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, say
from tabletop.rules import EventRecord, counted

from . import activation
from .common import fate_amount, name, num, own_piece, piece_name, play_command, player
from .state import DemlocState

score = Topic("score")
KILL_KINDS = ("mercenary", "follower", "daemon")
#: The kill counter's levels (6.4.2): a kill counts at its card's level, 1 to 5.
KILL_LEVELS = range(1, 6)

#: Table option ``kills``: who counts the kills of shots, fights and powers.
KILLS_APP = "app"  # the app, from the attacks it applies (default)
KILLS_HAND = "hand"  # only "Count a kill" (6.4.2 as printed; tables opened before the option)
#: Table option ``poison_kills``: whose kill a death by poison is.
POISON_KILLS_POISONER = "poisoner"  # the player whose attack poisoned it (default)
POISON_KILLS_HAND = "hand"  # nobody's ("Count a kill"; tables opened before the option)


@play_command(score, "demloc.fate.spend")
def fate_spend(d: Decision, data: Data) -> None:
    """``{"amount": 1..held, "reason"}``: never below 0 (6.4.2). Raises ``bad_input``
    (not a whole number of at least 1) and ``not_enough_fate`` (more than the player holds:
    the message says how many, ``common.fate_amount``)."""
    amount = fate_amount(d, data, "amount", d.seat, least=1)
    d.emit(
        "demloc.fate.spent", {"amount": amount, "reason": str(data.get("reason") or "an ability")[:80]}
    )


@score.evolver("demloc.fate.spent", label="spent fate points")
def fate_spent(s: DemlocState, e: EventRecord) -> None:
    p = player(s, e.seat)
    p["fate"] -= e.data["amount"]
    say(
        f"{p['name']} spends {counted(e.data['amount'], 'fate point')} on {e.data['reason']} ({p['fate']} left)."
    )


@score.narrator("demloc.fate.spent")
def say_fate_spent(e: EventRecord, s: DemlocState) -> str:
    return f"{name(s, e.seat)} spends {counted(e.data['amount'], 'fate point')} on {e.data['reason']}."


@play_command(score, "demloc.fate.gain")
def fate_gain(d: Decision, data: Data) -> None:
    """``{"amount": 1..10, "reason"}``."""
    amount = num(data, "amount", 1, 1, 10)
    d.emit(
        "demloc.fate.gained", {"amount": amount, "reason": str(data.get("reason") or "the game")[:80]}
    )


@score.evolver("demloc.fate.gained", label="gained fate points")
def fate_gained(s: DemlocState, e: EventRecord) -> None:
    p = player(s, e.seat)
    p["fate"] += e.data["amount"]
    say(
        f"{p['name']} gains {counted(e.data['amount'], 'fate point')} from {e.data['reason']} ({p['fate']})."
    )


@score.narrator("demloc.fate.gained")
def say_fate_gained(e: EventRecord, s: DemlocState) -> str:
    return f"{name(s, e.seat)} gains {counted(e.data['amount'], 'fate point')} from {e.data['reason']}."


@play_command(score, "demloc.kill.count")
def kill_count(d: Decision, data: Data) -> None:
    """``{"kind": mercenary | follower | daemon, "level": 1..5, "delta": +1 | -1}`` on the
    acting player's kill counter. Raises ``bad_input``, ``nothing_to_remove``."""
    kind = data.choice(
        "kind",
        KILL_KINDS,
        code="bad_input",
        message="A kill is a mercenary, a follower or a daemon.",
    )
    level = num(data, "level", 1, KILL_LEVELS[0], KILL_LEVELS[-1])
    delta = num(data, "delta", 1, -1, 1)
    d.require(delta != 0, "bad_input", "Count +1 or -1.")
    if delta < 0:
        kills = player(d.state, d.seat)["kills"]
        d.require(
            kills.get(kind, {}).get(str(level), 0) > 0,
            "nothing_to_remove",
            "No such kill to remove.",
        )
    d.emit("demloc.kill.counted", {"kind": kind, "level": level, "delta": delta})


def counts_kills(state: DemlocState) -> bool:
    """Whether the app counts the kills of the attacks it applies (table option ``kills``;
    a table opened before the option counts by hand only, as it always did)."""
    return state["options"].get("kills", KILLS_HAND) == KILLS_APP


def counts_poison_kills(state: DemlocState) -> bool:
    """Whether a death by poison counts for the poisoner's player (table options ``kills``
    ``"app"`` and ``poison_kills`` ``"poisoner"``; a table opened before the option: no)."""
    return counts_kills(state) and (
        state["options"].get("poison_kills", POISON_KILLS_HAND) == POISON_KILLS_POISONER
    )


def statuses(state: DemlocState) -> dict[str, tuple[str, int]]:
    """Piece id -> (status: ``in_play``, ``killed``..., poison tokens): taken before an
    attack's or a turn change's event, for ``credit_kills``, ``uncredit_kills`` and
    ``credit_poison_kills``."""
    return {pid: (p["status"], p.get("poison", 0)) for pid, p in state["pieces"].items()}


def _was(before: dict[str, tuple[str, int]], pid: str) -> str:
    return before.get(pid, ("", 0))[0]


def kill_level(p: dict) -> int:
    """The level a kill of ``p`` counts at: its card's level, 1..5 (the counter's range)."""
    level = p.get("level")
    return min(KILL_LEVELS[-1], max(KILL_LEVELS[0], level)) if isinstance(level, int) else 1


def kill_seat(state: DemlocState, e: EventRecord) -> int | None:
    """The player a ``kill.counted`` event counts for: ``seat`` in the data (a kill the app
    counted, whoever tapped Apply), else the player who tapped "Count a kill"."""
    seat = e.data.get("seat")
    return e.seat if seat is None else seat


def credit_kills(d: Decision, before: dict[str, tuple[str, int]], killer_id: str | None) -> None:
    """After the event of an attack by ``killer_id`` was emitted (``before``: ``statuses``
    just before it): one ``demloc.kill.counted`` (+1) for the killer's player per enemy
    character that was in play and is now killed (module docstring), in card order; then,
    with ``counts_poison_kills``, one ``demloc.poison.sourced`` per enemy character in play
    that had no poison token and has some now (8.1, 8.2). Nothing with the option ``kills``
    ``"hand"``, an unknown killer, or a character of the killer's own player."""
    killer = d.state["pieces"].get(killer_id or "")
    if killer is None or not counts_kills(d.state):
        return
    for pid, p in list(d.state["pieces"].items()):
        if (
            _was(before, pid) == "in_play"
            and p["status"] == "killed"
            and p["owner"] != killer["owner"]
            and p["kind"] in KILL_KINDS
        ):
            d.emit(
                "demloc.kill.counted",
                {
                    "kind": p["kind"],
                    "level": kill_level(p),
                    "delta": 1,
                    "seat": killer["owner"],
                    "piece": pid,
                    "by": killer["id"],
                },
            )
    if not counts_poison_kills(d.state):
        return
    for pid, p in list(d.state["pieces"].items()):
        if (
            _was(before, pid) == "in_play"
            and before[pid][1] <= 0 < p.get("poison", 0)
            and p["status"] == "in_play"
            and p["owner"] != killer["owner"]
            and p["kind"] in KILL_KINDS
        ):
            d.emit("demloc.poison.sourced", {"piece": pid, "by": killer["id"]})


def credit_poison_kills(d: Decision, before: dict[str, tuple[str, int]]) -> None:
    """After a turn change's event was emitted (``demloc.turn.ended`` or ``.started``, whose
    fold ticks the poison, 8.1, 8.2; ``before``: ``statuses`` just before it): one
    ``demloc.kill.counted`` (+1, ``"poison": True``) per character that was in play, is now
    killed with more poison tokens than its hit factor and was poisoned by an attack the app
    applied (``poisoned_by``, ``demloc.poison.sourced``), for that attacker's player; and, as
    for an attack (7.2.3.3), for the summoner that the heart tokens of such a daemon killed in
    the same fold. Nothing without ``counts_poison_kills``, nor for a character of the
    poisoner's own player."""
    if not counts_poison_kills(d.state):
        return
    pieces = d.state["pieces"]
    killed = [pid for pid, p in pieces.items()
              if _was(before, pid) == "in_play" and p["status"] == "killed"]
    by: dict[str, dict] = {}  # the poison deaths: piece id -> its poisoner
    for pid in killed:
        p, poisoner = pieces[pid], pieces.get(pieces[pid].get("poisoned_by") or "")
        if poisoner is not None and p.get("poison", 0) > p["hit"]:
            by[pid] = poisoner
    for pid in killed:  # 7.2.3.3: the summoner its poisoned daemon's hearts killed
        if pid not in by:
            daemon = next((q for q in by if pieces[q].get("summoner") == pid), None)
            if daemon is not None:
                by[pid] = by[daemon]
    for pid in killed:
        p, poisoner = pieces[pid], by.get(pid)
        if poisoner is None or p["owner"] == poisoner["owner"] or p["kind"] not in KILL_KINDS:
            continue
        d.emit(
            "demloc.kill.counted",
            {
                "kind": p["kind"],
                "level": kill_level(p),
                "delta": 1,
                "seat": poisoner["owner"],
                "piece": pid,
                "by": poisoner["id"],
                "poison": True,
            },
        )


@score.evolver("demloc.poison.sourced", label="noted whose poison it is")
def poison_sourced(s: DemlocState, e: EventRecord) -> None:
    """``{"piece", "by"}``: the attack of piece ``by`` poisoned ``piece`` (8.1, 8.2): a death
    by this poison counts for ``by``'s player (``credit_poison_kills``)."""
    s["pieces"][e.data["piece"]]["poisoned_by"] = e.data["by"]
    say(_poison_text(s, e))


def _poison_text(s: DemlocState, e: EventRecord) -> str:
    by = s["pieces"].get(e.data["by"]) or {}
    owner = name(s, by["owner"]) if "owner" in by else "its poisoner"
    return (
        f"{piece_name(s, e.data['piece'])} is poisoned by {piece_name(s, e.data['by'])}: a death "
        f"by this poison is {owner}'s kill."
    )


@score.narrator("demloc.poison.sourced")
def say_poison_sourced(e: EventRecord, s: DemlocState) -> str:
    return _poison_text(s, e)


def uncredit_kills(d: Decision, before: dict[str, tuple[str, int]], killer_id: str | None) -> None:
    """After an event that brought killed characters back into play (a passed "defend" test,
    7.2.3.5: the power "has no effect"): the kill the app counted for ``killer_id``'s player
    is taken back (-1), when the counter still holds one of that kind and level (the players
    may have corrected it by hand). Same conditions as ``credit_kills``."""
    killer = d.state["pieces"].get(killer_id or "")
    if killer is None or not counts_kills(d.state):
        return
    for pid, p in list(d.state["pieces"].items()):
        if _was(before, pid) != "killed" or p["status"] != "in_play":
            continue
        if p["owner"] == killer["owner"] or p["kind"] not in KILL_KINDS:
            continue
        kills = player(d.state, killer["owner"])["kills"]
        if kills.get(p["kind"], {}).get(str(kill_level(p)), 0) <= 0:
            continue
        d.emit(
            "demloc.kill.counted",
            {
                "kind": p["kind"],
                "level": kill_level(p),
                "delta": -1,
                "seat": killer["owner"],
                "piece": pid,
                "by": killer["id"],
            },
        )


def _kill_text(s: DemlocState, e: EventRecord) -> str:
    d = e.data
    kills = "kill" if abs(d["delta"]) == 1 else "kills"  # "+1 mercenary kill", "+2 ... kills"
    head = f"{name(s, kill_seat(s, e))}: {d['delta']:+d} {d['kind']} {kills} (level {d['level']})"
    if not d.get("piece"):
        return head + "."
    victim, killer = piece_name(s, d["piece"]), piece_name(s, d.get("by"))
    if d["delta"] > 0 and d.get("poison"):
        return f"{head}: {killer}'s poison killed {victim} (counted by the app, 8.1, 8.2)."
    if d["delta"] > 0:
        return f"{head}: {killer} killed {victim} (counted by the app)."
    return f"{head}: {victim} is back in play (taken back by the app)."


@score.evolver("demloc.kill.counted", label="counted a kill")
def kill_counted(s: DemlocState, e: EventRecord) -> None:
    p = player(s, kill_seat(s, e))
    by_level = p["kills"].setdefault(e.data["kind"], {})
    key = str(e.data["level"])
    by_level[key] = by_level.get(key, 0) + e.data["delta"]
    if e.data.get("piece"):
        say(_kill_text(s, e))
    else:
        say(
            f"{p['name']}: {e.data['kind']} level {e.data['level']} kills {by_level[key]}."
        )


@score.narrator("demloc.kill.counted")
def say_kill_counted(e: EventRecord, s: DemlocState) -> str:
    return _kill_text(s, e)


@play_command(score, "demloc.relic.take")
def relic_take(d: Decision, data: Data) -> None:
    """``{"piece", "delta": +1 | -1}``: a relic token picked up or put down by ``piece`` (a relic
    mission). Relics are counted per mercenary (7.2.1: "the objects collected by the followers
    do not count for the achievement of the mission objective. Only objects owned by the
    mercenaries are considered in determining the winner"): a follower or a daemon may carry a
    token (it is kept on its card) but only the mercenaries' tokens count for the player.
    Raises ``no_relic``, ``bad_input``, ``nothing_to_remove``, ``not_your_character``."""
    d.require(
        (d.state.get("setup") or {}).get("definition", {}).get("kind") == "relic",
        "no_relic",
        "This mission has no relic.",
    )
    d.require(data.has("piece"), "bad_input", "Choose the character who carries the relic.")
    p = own_piece(d, data)
    delta = num(data, "delta", 1, -1, 1)
    d.require(delta != 0, "bad_input", "Count +1 or -1.")
    if delta < 0:
        d.require(p.get("relics", 0) > 0, "nothing_to_remove", f"{p['name']} carries no relic.")
    d.emit("demloc.relic.taken", {"delta": delta, "piece": p["id"], "seat": p["owner"]})


def counts(p: dict) -> bool:
    """Whether the relic tokens ``p`` carries count for its player (7.2.1: mercenaries only)."""
    return p["kind"] == "mercenary"


@score.evolver("demloc.relic.taken", label="changed the relic tokens")
def relic_taken(s: DemlocState, e: EventRecord) -> None:
    pid = e.data.get("piece")
    if pid is None:  # older tables counted relics per player
        p = player(s, e.seat)
        p["relics"] = p.get("relics", 0) + e.data["delta"]
        say(f"{p['name']}: {counted(p['relics'], 'relic token')}.")
        return
    carrier = s["pieces"][pid]
    carrier["relics"] = carrier.get("relics", 0) + e.data["delta"]
    activation.mark_object(s, pid)  # no shot or power for it this turn (7.2.1)
    if carrier["movement"] == "active":
        # 7.2.1 "he must immediately end his movement": it cannot move again this turn, which
        # is what an exhausted movement token says (5, 7.2 "Details about movement tokens").
        carrier["movement"] = "exhausted"
        say(f"{carrier['name']}'s movement ends: movement token exhausted (7.2.1).")
    owner = player(s, carrier["owner"])
    if counts(carrier):
        owner["relics"] = owner.get("relics", 0) + e.data["delta"]
        say(
            f"{carrier['name']} carries {counted(carrier['relics'], 'relic token')}: {owner['name']} "
            f"counts {owner['relics']}."
        )
    else:
        say(
            f"{carrier['name']} carries {counted(carrier['relics'], 'relic token')}; a {carrier['kind']}'s "
            "objects do not count for the objective (7.2.1)."
        )


def drop_relics(s: DemlocState) -> None:
    """A killed character's relic tokens fall where it died (table option ``relic_death`` =
    ``dropped``; 7.2.1: only objects a mercenary owns count, and a deposited object is "placed
    on the board in the same space occupied by the character"): its player no longer counts
    them. With ``kept`` (and for a table opened before the option) they still count. Called
    after every event of the mission (``DemlocRuleset.after_fold``)."""
    if s["options"].get("relic_death", "kept") != "dropped":
        return
    for p in s["pieces"].values():
        if p["status"] != "killed" or not p.get("relics"):
            continue
        n, p["relics"] = p["relics"], 0
        if counts(p):
            owner = player(s, p["owner"])
            owner["relics"] = max(0, owner.get("relics", 0) - n)
            say(
                f"{p['name']}'s {counted(n, 'relic token')} fall{'s' if n == 1 else ''} where it died (7.2.1): "
                f"{owner['name']} counts {owner['relics']}."
            )
        else:
            say(f"{p['name']}'s {counted(n, 'relic token')} fall{'s' if n == 1 else ''} where it died (7.2.1).")


@score.narrator("demloc.relic.taken")
def say_relic_taken(e: EventRecord, s: DemlocState) -> str:
    if e.data.get("piece"):
        return f"{piece_name(s, e.data['piece'])}: {e.data['delta']:+d} relic token."
    return f"{name(s, e.seat)}: {e.data['delta']:+d} relic token."

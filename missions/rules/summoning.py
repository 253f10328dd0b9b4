"""Daemon summoning: the command ``demloc.daemon.summon``, its event and fold, and the daemon
leaving the game (``settle``, after every event). DemLoc rulebook 5.1.3 (daemons, unique
names), 5.1.5 (a code summons its own kabbalah), 7.2.3.2 (summoning a daemon), 7.2.3.3
(quitting the daemon's game).
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, counted

from . import activation
from .cards import codes_of
from .common import beyond_cap_words, in_play, name, num, own_piece, play_command, player
from .damage import add_broken_hearts, new_piece
from .state import DemlocState, Notice

summoning = Topic("summoning")


def daemon_candidates(pantheon: list[dict], kabbalah: str, level: int) -> tuple[int, list[dict]]:
    """The daemons of ``pantheon`` a summoning of ``kabbalah`` and ``level`` draws from: those of
    that kabbalah and level, or, when there are none, of the highest lower level that has some
    (7.2.3.2: "the extraction will be carried out in the lower hierarchy").
    Returns ``(level drawn from, daemons)``. Raises ``RuleViolation("no_daemon")``."""
    for lvl in range(level, 0, -1):
        found = [d for d in pantheon if d.get("kabbalah") == kabbalah and d.get("level") == lvl]
        if found:
            return lvl, found
    raise RuleViolation(
        "no_daemon", f"The pantheon has no {kabbalah} daemon of level {level} or lower."
    )


def draw_daemon(rng, pantheon: list[dict], kabbalah: str, level: int) -> tuple[int, dict]:
    """Draw one daemon at random (uniform, through ``rng``) from ``daemon_candidates``."""
    lvl, found = daemon_candidates(pantheon, kabbalah, level)
    return lvl, rng.choice(found)


def max_daemon_level(state: DemlocState, summoner: dict) -> int:
    """The highest daemon level ``summoner`` may ask for (7.2.3.2 "the app asks the player to
    indicate the reference kabbalah and the power level of the daemon to be summoned"): its own
    level under the table option ``daemon_level`` ``"summoner"`` (default; 5.1.3: daemons and
    mercenaries carry the same "level indicator" of overall power and the Arcane Code's
    summoning cost does not grow with the level, so without a cap asking for 5 would always
    draw the strongest daemon), 5 under ``"any"`` (and for tables opened before the option)."""
    if state["options"].get("daemon_level", "any") == "summoner":
        return max(1, min(5, summoner["level"]))
    return 5


def check_hearts(hearts: int) -> int:
    """The heart tokens a player gives a new daemon: 1..3 (7.2.3.2). Raises ``bad_hearts``."""
    if not isinstance(hearts, int) or isinstance(hearts, bool) or not 1 <= hearts <= 3:
        raise RuleViolation("bad_hearts", "Give the daemon 1 to 3 heart tokens.")
    return hearts


def summon_refusal(state: DemlocState, summoner: dict, code_index: int) -> RuleViolation | None:
    """The first rule a summoning by ``summoner`` with its code ``code_index`` breaks now
    (7.2.3.2), as the refusal to raise (its code and message), or None when it may summon: the one check of the
    command ``demloc.daemon.summon`` and of the page, which disables "Summon a daemon" with
    this reason beside it (``missions.rules.view``), so the two never disagree.

    The order (our choice, where the rulebook lists no order): first what no later moment
    changes, then what this moment lacks, so that a reason that says "later" is true. Never:
    not a mercenary (5.1.2), possessed (7.2.3), a daemon already in play, no code to summon
    with (5.1.5), no daemon of the code's kabbalah in the pantheon, a cost above what the
    summoner can ever hold (5.1.1 Arcane ability). Now: the movement token exhausted
    (7.2.3.2), already activated this phase (7.2), not enough mana held (channel first)."""
    name_ = summoner["name"]
    if summoner["kind"] != "mercenary":
        return RuleViolation("cannot_summon", "Only mercenaries summon daemons (5.1.2).")
    if summoner["possessed"]:
        return RuleViolation("possessed", "A possessed character cannot act (7.2.3).")
    if summoner["summoning"]:
        return RuleViolation("already_summoning", f"{name_} already has a daemon in play.")
    codes = codes_of(summoner)
    code = codes[code_index] if 0 <= code_index < len(codes) else {}
    if not (code and code.get("summon_cost") and summoner["asset"] == "standard"):
        return RuleViolation("cannot_summon", "No arcane code to summon with.")
    kabbalah = code.get("kabbalah")
    owner = next((p for p in state["players"] if p["seat"] == summoner["owner"]), None)
    if not any(d.get("kabbalah") == kabbalah for d in (owner or {}).get("pantheon", [])):
        return RuleViolation("no_daemon", f"Your pantheon has no {kabbalah} daemon.")
    cost = code["summon_cost"]
    total = int(cost.get("common", 0)) + int(cost.get("dark", 0))
    arcane = int(summoner.get("arcane") or 0)
    if total > arcane:
        return RuleViolation("not_enough_mana", beyond_cap_words(summoner, total))
    over = activation.turn_over_words(state, summoner, "summon a daemon")
    if over:
        return RuleViolation("turn_over", over)
    if summoner["movement"] != "active":
        return RuleViolation("not_active", "Summoning needs an active movement token (7.2.3.2).")
    activated = activation.activated_words(state, summoner, "summon a daemon")
    if activated:
        return RuleViolation("already_activated", activated)
    held = summoner["mana"]
    if any(held[c] < int(cost.get(c, 0)) for c in ("common", "dark")):
        return RuleViolation("not_enough_mana", (
            f"Not enough mana: {name_} holds {held['common']} common, {held['dark']} dark; "
            f"the summoning costs {cost.get('common', 0)} common, {cost.get('dark', 0)} dark: "
            f"{activation.channel_first_words(state)} (Arcane)."))
    return None


@play_command(summoning, "demloc.daemon.summon")
def daemon_summon(d: Decision, data: Data) -> None:
    """``{"piece", "code": index (default 0), "level": 1..5, "hearts": 1..3, "kabbalah"}``
    (7.2.3.2): a mercenary with an active movement token and the summoning mana of one of its
    Arcane Codes (5.1.5: any code it holds) draws a daemon of that code's kabbalah from its
    Guild's pantheon; that code turns to its post-summoning asset. Raises, first, the refusal
    of ``summon_refusal`` (``cannot_summon``, ``possessed``, ``already_summoning``,
    ``no_daemon``, ``not_enough_mana``, ``turn_over`` (7.3.2.3), ``not_active``,
    ``already_activated``), then
    ``wrong_kabbalah``, ``level_too_high`` (above ``max_daemon_level``), ``bad_hearts``,
    ``no_daemon``, ``bad_input``."""
    summoner = own_piece(d, data)
    codes = codes_of(summoner)
    code_index = num(data, "code", 0, 0, max(0, len(codes) - 1))
    refusal = summon_refusal(d.state, summoner, code_index)
    if refusal is not None:
        raise refusal
    code = codes[code_index]
    kabbalah: Any = code.get("kabbalah")
    d.require(
        data.get("kabbalah") in (None, "", kabbalah),
        "wrong_kabbalah",
        f"{code['name']} summons {kabbalah} daemons only.",
    )
    level = num(data, "level", 1, 1, 5)
    cap = max_daemon_level(d.state, summoner)
    d.require(
        level <= cap,
        "level_too_high",
        f"{summoner['name']} (level {summoner['level']}) summons daemons of level {cap} or "
        "lower (5.1.3, 7.2.3.2).",
    )
    hearts = check_hearts(num(data, "hearts", None))
    pantheon = player(d.state, summoner["owner"])["pantheon"]
    drawn_level, daemon = draw_daemon(d.rng, pantheon, kabbalah, level)
    replaced = next(
        (
            p["id"]
            for p in d.state["pieces"].values()
            if p["kind"] == "daemon" and in_play(p) and p["name"] == daemon["name"]
        ),
        None,
    )
    d.emit(
        "demloc.daemon.summoned",
        {
            "summoner": summoner["id"],
            "code": code_index,
            "daemon": daemon,
            "id": f"d{d.state['daemon_seq'] + 1}",
            "hearts": hearts,
            "kabbalah": kabbalah,
            "level": level,
            "drawn_level": drawn_level,
            "replaced": replaced,
        },
    )


@summoning.evolver("demloc.daemon.summoned", label="summoned a daemon")
def daemon_summoned(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    summoner = s["pieces"][d["summoner"]]
    # The summoning code is the code in hand from now on (its pentacle, 5.1.5 b).
    summoner["code"] = codes_of(summoner)[d.get("code", 0)]
    cost = summoner["code"]["summon_cost"]
    summoner["mana"]["common"] -= cost["common"]
    summoner["mana"]["dark"] -= cost["dark"]
    owner = summoner["owner"]
    say(summoned_text(s, d))
    if d["replaced"]:
        old = s["pieces"][d["replaced"]]
        old["status"] = "dismissed"
        notice: Notice = {
            "kind": "replaced",
            "daemon": d["daemon"]["name"],
            "old_owner": old["owner"],
            "new_owner": owner,
        }
        s["notice"] = notice
        say(notice_text(s, notice))
    activation.mark(s, summoner["id"])
    summoner["summoning"] = d["id"]
    summoner["asset"] = "post_summoning"
    summoner["movement"] = "exhausted"
    daemon = new_piece({**copy_json(d["daemon"]), "id": d["id"]}, owner, heart_limit=d["hearts"])
    daemon["summoner"] = summoner["id"]
    s["pieces"][d["id"]] = daemon
    s["order"].append(d["id"])
    s["daemon_seq"] += 1
    say(
        f"Place the daemon next to {summoner['name']}; {summoner['name']} cannot move while it plays."
    )


def a_or_an(word: str) -> str:
    """The article before ``word`` in the narration: "an" before a vowel letter ("an Ember
    Crown daemon", "an ash daemon"), else "a"."""
    return "an" if word[:1].lower() in ("a", "e", "i", "o", "u") else "a"


def summoned_text(s: DemlocState, d: dict) -> str:
    lower = (
        f" (none at that level: drawn from level {d['drawn_level']})"
        if d["drawn_level"] != d["level"]
        else ""
    )
    who = s["pieces"].get(d["summoner"], {}).get("name", "?")
    return (
        f"{who} summons {a_or_an(d['kabbalah'])} {d['kabbalah']} daemon of level {d['level']}"
        f"{lower}: "
        f"{d['daemon']['name']} with {counted(d['hearts'], 'heart token')}."
    )


def notice_text(s: DemlocState, n: Notice) -> str:
    """The words of a name clash notice (5.1.3)."""
    old, new = name(s, n["old_owner"]), name(s, n["new_owner"])
    return (
        f"{n['daemon']} was already on the table for {old}: {old} removes it (card and "
        f"miniature); {new} places the new one (5.1.3)."
    )


@summoning.narrator("demloc.daemon.summoned")
def say_daemon_summoned(e: EventRecord, s: DemlocState) -> str:
    return summoned_text(s, e.data)


def settle(s: DemlocState) -> None:
    """Daemons leaving (7.2.3.3), checked after every event: a killed daemon gives its heart
    tokens to its summoner as broken hearts; a killed summoner's daemon leaves the game; either
    way the summoner's arcane code returns to standard and its movement token is exhausted."""
    changed = True
    while changed:
        changed = False
        for daemon in list(s["pieces"].values()):
            summoner = s["pieces"].get(daemon.get("summoner") or "")
            if (
                daemon["kind"] != "daemon"
                or summoner is None
                or summoner.get("summoning") != daemon["id"]
            ):
                continue
            if in_play(daemon) and not in_play(summoner):
                daemon["status"] = "dismissed"
                say(
                    f"{summoner['name']} is out of play: {daemon['name']} leaves the game (7.2.3.3)."
                )
            if not in_play(daemon):
                summoner["summoning"] = None
                summoner["asset"] = "standard"
                if in_play(summoner):
                    summoner["movement"] = "exhausted"
                    say(
                        f"{daemon['name']} has left: {summoner['name']}'s arcane code back to "
                        "standard, movement token exhausted."
                    )
                    if daemon["status"] == "killed":
                        hurt, more = add_broken_hearts(summoner, daemon["heart_limit"])
                        say(
                            f"The daemon was killed: {summoner['name']} receives its "
                            f"{counted(daemon['heart_limit'], 'heart token')} as broken hearts."
                        )
                        say(*more)
                        s["pieces"][summoner["id"]] = hurt
                changed = True

"""What a seat sees of a mission in play (the whole table: its information is public in
DemLoc), with the figures the page shows per character. DemLoc rulebook 6.4.2 (the app screen),
7 (first player odds). The log is not here: the page narrates it from the events (KIT.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from hashlib import blake2b
from typing import Any

import orjson

from . import (
    abilities,
    activation,
    arcane,
    arcane_tests,
    brawl,
    calc,
    end,
    hand,
    possession,
    resolution,
    revert,
    setup_script,
    setup_view,
    shooting,
    turns,
)
from . import setup as setup_rules
from .cards import WEAPON_TYPE_WORDS, codes_of, possession_limit
from .common import TURN_END, in_play, known, name, piece_name
from .damage import tracks
from .end import can_claim, can_end_by_elimination, claim_of, claim_waiting
from .reference import reference_key
from .score import KILL_KINDS, counts_kills
from .setup_map import picture
from .state import DemlocState
from .summoning import max_daemon_level, summon_refusal
from .summoning import notice_text as replaced_text


def _refs(kind: str, features: list[str]) -> list[dict]:
    """``[{"text": "SHIELD 1", "key": "weapon-shield" | None}]`` for the page's reference links."""
    return [{"text": f, "key": reference_key(kind, f)} for f in features]


def _cost_at_use(p: dict, cost: dict, *, extra: bool = False) -> dict:
    """What a mana cost means for ``p`` now, for the page at the point of use (7.2.3.1,
    7.2.3.2): ``{"cost_common", "cost_dark", "extra_due", "affordable", "after_common",
    "after_dark", "beyond_cap"}``; ``extra``: an exhausted caster pays one more mana per level
    (powers). ``beyond_cap``: the cost is more mana than ``p`` can ever hold (5.1.1 Arcane
    ability: "the number of maximum arcane dice available to that character"), so channeling
    cannot make it affordable."""
    common, dark = int(cost.get("common", 0)), int(cost.get("dark", 0))
    due = p["level"] if extra and p["movement"] == "exhausted" else 0
    left_common, left_dark = p["mana"]["common"] - common, p["mana"]["dark"] - dark
    return {
        "cost_common": common,
        "cost_dark": dark,
        "extra_due": due,
        "affordable": left_common >= 0 and left_dark >= 0 and left_common + left_dark >= due,
        "after_common": max(0, left_common),
        "after_dark": max(0, left_dark),
        "beyond_cap": common + dark + due > int(p.get("arcane") or 0),
    }


def _summons_at_use(state: DemlocState, p: dict) -> list[dict]:
    """One summoning flow per Arcane Code ``p`` may summon with (5.1.5: any code it holds;
    the code in hand first), each as ``_summon_at_use`` with its ``code_index`` (what
    ``demloc.daemon.summon`` takes) and ``code_name``; empty when it cannot summon."""
    codes = codes_of(p)
    hand = p.get("code")
    order = sorted(range(len(codes)), key=lambda i: codes[i] != hand)
    out = []
    for i in order:
        flow = _summon_at_use(state, p, codes[i])
        if flow is not None:
            out.append({**flow, "code_index": i, "code_name": codes[i].get("name", "")})
    return out


def _summon_at_use(state: DemlocState, p: dict, code: dict | None = None) -> dict | None:
    """The summoning flow of a mercenary that can summon now with ``code`` (default the code
    in hand; 7.2.3.2), or None: its cost against the mana held, the levels its pantheon offers
    for the code's kabbalah, and why it cannot (``blocked``: words, or "")."""
    code = code if code is not None else (p.get("code") or {})
    if p["kind"] != "mercenary" or not code.get("summon_cost") or p["summoning"]:
        return None
    if p["asset"] != "standard":
        return None
    kabbalah = code.get("kabbalah")
    owner = next((pl for pl in state["players"] if pl["seat"] == p["owner"]), None)
    pool = sorted(
        (
            {"name": d["name"], "level": d.get("level", 1)}
            for d in (owner or {}).get("pantheon", [])
            if d.get("kabbalah") == kabbalah
        ),
        key=lambda d: (d["level"], d["name"]),
    )
    at_use = _cost_at_use(p, code["summon_cost"])
    # The command's own first refusal (7.2.3.2): the page disables the button with it.
    refusal = summon_refusal(state, p, codes_of(p).index(code)) if code in codes_of(p) else None
    blocked = refusal.message if refusal else ""
    return {
        **at_use,
        "kabbalah": kabbalah,
        "pool": pool,
        "levels": sorted({d["level"] for d in pool}),
        "blocked": blocked,
    }


def _possessed(state: DemlocState, pieces: list[dict], seat: int | None) -> list[dict]:
    """The possessed characters in play with this turn's out-of-control roll (7.2.3: "the
    player moves the daemonic possessed character (spending all movement points available)
    using the out of control card"; engaged, it does not move; it does nothing else)."""
    rolls = state.get("ooc") or {}
    out = []
    for p in pieces:
        if not p["possessed"] or p["status"] != "in_play":
            continue
        roll = rolls.get(p["id"])
        out.append(
            {
                "id": p["id"],
                "name": p["name"],
                "mine": p["owner"] == seat,
                "player": p["player"],
                "move": p.get("move", 0),
                "rolls": "/".join(map(str, roll["rolls"])) if roll else "",
                "direction": _direction_seen_by(roll, p["owner"] == seat),
                # Possessed by a card effect: its card's instructions win.
                "source": (p.get("possession") or {}).get("source", ""),
                "instructions": (p.get("possession") or {}).get("instructions", ""),
            }
        )
    return out


def _direction_seen_by(roll: dict | None, mine: bool) -> str:
    """The out-of-control direction (5.6, ``possession.OUT_OF_CONTROL_DIRECTIONS``) as this
    phone reads it: the d10 is read from the owner's side of the board, so the owner reads
    "towards you, on your left" and every other phone "towards its player, on their left"."""
    if not roll:
        return ""
    words = roll["direction"] or "no move (5)"
    if mine:
        return words
    return (
        words.replace("towards you", "towards its player")
        .replace("away from you", "away from its player")
        .replace("on your", "on their")
    )


def pending_view(state: DemlocState) -> dict | None:
    """The proposal waiting on the table as the page shows it: its data with the worked-out
    arithmetic in ``lines``, worded from the numbers its event carries
    (``shooting.shot_words``, ``brawl.brawl_words``; an event stored with its words keeps
    them), or None."""
    pending = state["pending"]
    if not pending:
        return pending
    # kills: who Apply would kill, warned before the tap (calc.kills)
    # and the weapon tokens Apply then adds (BLOODING, POISONOUS, 8.1): every effect said first
    if pending["kind"] == "shot":
        lines = shooting.shot_words(pending) + shooting.shot_token_words(state, pending)
        return {**pending, "lines": lines, "kills": calc.kills(state, pending)}
    lines = brawl.brawl_words(pending, state) + brawl.fight_token_words(state, pending)
    return {**pending, "lines": lines, "kills": calc.kills(state, pending)}


def pending_for(state: DemlocState, seat: int | None) -> bool:
    """A calculation (a shot, a fight: 7.2.2, 7.3.2) someone else worked out on one of this
    seat's characters waits for its Apply or Cancel."""
    pending = state["pending"]
    if seat is None or state["ended"] is not None or not pending or pending.get("by") == seat:
        return False
    ids = [pending.get(k) for k in ("target", "defender", "shooter", "attacker")]
    return any(i and state["pieces"][i]["owner"] == seat for i in ids)


def power_on_me(state: DemlocState, seat: int | None) -> dict | None:
    """The arcane power another player's character used this phase on a character of
    ``seat`` that is not yet answered (``revert.defendable``), for that player's alert and
    thumb bar, as a shot or a fight on their character is: ``{"key", "piece", "text",
    "can_defend"}`` or None. 7.2.3.5 "Defend against arcane attacks: if the test is passed the
    arcane power the character was targeting has no effect": the target's player may answer
    with the target's arcane test (``can_defend``, its Arcane section's "Defend against ...")
    when it has an arcane ability and a die in its mana pool; else the text says why not."""
    last = state.get("last_power")
    if seat is None or not last or last.get("kind", "power") != "power":
        return None
    target = state["pieces"].get(last["target"])
    caster = state["pieces"].get(last.get("caster") or "")
    if target is None or caster is None or target["owner"] != seat or caster["owner"] == seat:
        return None
    if revert.defendable(state, target["id"]) is None:
        return None
    result = power_result(state)
    effect = result["text"].split(": ", 1)[1] if result else "no effect."
    who = next((p["name"] for p in state["players"] if p["seat"] == caster["owner"]), "?")
    held = target["mana"]["common"] + target["mana"]["dark"]
    can_defend = bool(target["arcane"]) and held > 0 and not target["possessed"]
    if can_defend:
        then = f"Defend: {target['name']}'s arcane test, in its Arcane section (7.2.3.5)."
    elif not target["arcane"]:
        then = f"{target['name']} has no arcane ability: no defend test (7.2.3.5)."
    else:
        then = f"{target['name']} holds no mana die for a defend test (7.2.3.5)."
    return {
        "key": f"power-{last.get('version', 0)}",
        "piece": target["id"],
        "power": last["power"],
        "text": f"{caster['name']} ({who}) used {last['power']} on your {target['name']}: "
        f"{effect} {then}",
        "can_defend": can_defend,
    }


def _prompt(state: DemlocState, view: dict, seat: int | None) -> dict | None:
    """A prompt aimed at this seat, for the page's alert: ``{"key", "text"}``
    (and ``"target"``: the id of the page's part it is about) or None. A calculation someone
    else worked out on one of my characters waits for me; a claim of the objective waits for my
    answer; the others want to stop and I have not agreed; it is my move."""
    if seat is None or state["ended"] is not None:
        return None
    if view["pending_for_me"]:
        pending = known(state["pending"])  # pending_for_me: there is one
        what = "A shot" if pending["kind"] == "shot" else "A fight"
        return {
            "key": f"pending-{state['version']}",
            "text": f"{what} on your character waits for you: check it, then Apply or Cancel.",
            # The page's panel with the Apply and Cancel (missions/live.html): the alert
            # links to it (found by a new user: it was ~1000 px down a 740 px phone).
            "target": "dl-pending",
        }
    hit = view.get("power_on_me")
    if hit:
        # The target's card, whose Arcane section holds the defend test (7.2.3.5).
        return {"key": hit["key"], "text": hit["text"], "target": f"piece-{hit['piece']}"}
    claim = view.get("claim")
    if claim and claim["can_answer"]:
        return {
            "key": f"claim-{claim['turn']}-{claim['seat']}",
            "text": f"{claim['name']} claims the objective: Confirm or Dispute (7.3.2.3).",
        }
    if state["surrender"] and seat not in state["surrender"]:
        names = ", ".join(name(state, s) for s in state["surrender"])
        return {
            "key": f"stop-{state['turn']}-{len(state['surrender'])}",
            "text": f"{names} {'wants' if len(state['surrender']) == 1 else 'want'} to stop "
            "the mission: Agree to stop, or play on."
            + (f" Agreeing {view['stop_ends']}." if view.get("stop_ends") else ""),
        }
    if view["my_turn"]:
        return {
            "key": f"turn-{state['turn']}-{state['phase']}-{state['acting_index']}",
            "text": f"Your move: turn {state['turn']}, {view['phase_label'].split(':')[0].lower()}.",
        }
    return None


def _notice_land(notice: Any) -> str | None:
    """The landing key of a notice the tapping phone lands on (a stray shot, 5.6), else None."""
    if isinstance(notice, dict) and notice.get("kind") == "stray":
        return str(notice.get("at", "stray"))
    return None


def _notice_line(notice: Any) -> int | None:
    """The version of the log line a notice repeats (a stray shot's, 5.6), else None."""
    if isinstance(notice, dict) and notice.get("kind") == "stray" and notice.get("shooter"):
        at = notice.get("at")
        return at if isinstance(at, int) else None
    return None


def notice_text(state: DemlocState, notice: Any) -> str | None:
    """The words of ``state["notice"]`` (what the table must do now), or None."""
    if not notice:
        return None
    if isinstance(notice, str):  # a projection stored before notices were data
        return notice
    kind = notice.get("kind")
    if kind == "wave":
        return turns.wave_text(state, notice)
    if kind == "stray":
        if notice.get("shooter"):  # what happened first (older notices lack it)
            shooter = piece_name(state, notice["shooter"])
            target = piece_name(state, notice.get("target"))
            return f"{shooter}'s shot at {target} missed: the test failed. " + shooting.stray_text(
                notice["ooc"]
            )
        return shooting.stray_text(notice["ooc"])
    if kind == "replaced":
        return replaced_text(state, notice)
    return None


#: How the result line of an arcane power names each field it changed (``power_result``).
_FIELD_WORDS = {
    "armor_damage": "armor damage",
    "hit_damage": "hit damage",
    "broken_armor": "broken armor tokens",
    "broken_hearts": "broken hearts",
    "bleeding": "bleeding",
    "poison": "poison",
    "seals": "broken seals",
    "movement": "movement",
    "vigor": "VIGOR",
    "weakness": "WEAKNESS",
}


def _change_words(field: str, before: Any, after: Any) -> str:
    if field == "status":
        return str(after) if after != "in_play" else "back in play"
    if field == "possessed":
        return "possessed" if after else "no longer possessed"
    if field == "mana":
        b, a = before or {}, after or {}
        return f"mana {b.get('common', 0)}+{b.get('dark', 0)} → {a.get('common', 0)}+{a.get('dark', 0)}"
    return f"{_FIELD_WORDS.get(field, field)} {before} → {after}"


def power_result(state: DemlocState) -> dict | None:
    """The result line of the arcane power used last in this phase (7.2.3.5: what it changed
    on its target, as ``missions.rules.revert.record_power`` recorded it), shown in the
    caster's Arcane section where the tap that used it lands (docs/playing.md "A live table:
    where a tap lands"): ``{"caster": piece id, "key": the version it was used at, "text":
    "Bolt on Bram: hit damage 0 → 2, dead."}``; a power that changed nothing says "no
    effect". None when no power was used this phase (or the caster is gone)."""
    last = state.get("last_power")
    if not last or last.get("turn") != state["turn"] or last.get("phase") != state["phase"]:
        return None
    if last.get("caster") not in state["pieces"]:
        return None
    changes = last.get("changes") or {}
    order = [f for f in revert.POWER_FIELDS if f in changes]
    words = [_change_words(f, *changes[f]) for f in order] or ["no effect"]
    target = piece_name(state, last["target"])
    return {
        "caster": last["caster"],
        "key": last.get("version", 0),
        "text": f"{last['power']} on {target}: {', '.join(words)}.",
    }


def _test_outcome(last: Mapping[str, Any]) -> str:
    """What an arcane test did beyond passing or failing (7.2.3.5), for ``test_result``."""
    passed, target = last.get("passed"), last.get("target") or "the character"
    purpose = last.get("purpose")
    if purpose == "defend" and last.get("power"):
        return f"{last['power']} has no effect" if passed else f"{last['power']} stands"
    if purpose == "free":
        return f"{target} is freed" if passed else f"{target} stays possessed"
    if purpose == "cancel":
        what = last.get("effect") or "the arcane effect"
        return f"{what} is cancelled on {target}" if passed else f"{what} stays on {target}"
    return ""


def arcane_test_result(state: DemlocState) -> dict | None:
    """The result line of the arcane test made last in this phase (7.2.3.5), shown at the
    tester's Test form in its Arcane section, where the tap that made it lands (as
    ``power_result`` for a power; docs/playing.md "A live table: where a tap lands"):
    ``{"piece": the tester's id, "key": the version it was made at, "text": "Malve's arcane
    test: rolled 3 − 1 fate point → 2 (never below 1) against Arcane 2: passed."}``, with
    what the test did for its purpose ("; Spark has no effect", "; Bram is freed"). None when
    no test was made this phase (or the tester is gone)."""
    last = state.get("last_test")
    if not last or last.get("turn") != state["turn"] or last.get("phase") != state["phase"]:
        return None
    if last.get("piece") not in state["pieces"]:
        return None
    line = " ".join(last.get("lines") or ()).replace(" -> ", " → ").replace(" - ", " − ")
    line = line[:1].lower() + line[1:]
    outcome = _test_outcome(last)
    return {
        "piece": last["piece"],
        "key": last.get("version", 0),
        "text": f"{piece_name(state, last['piece'])}'s {line}"
        + (f"; {outcome}." if outcome else "."),
    }


def kill_list(player: Mapping[str, Any]) -> list[dict]:
    """A player's kill counter as the page lists it: ``[{"kind", "level", "count"}]``, the
    kinds in ``KILL_KINDS`` order then by level, only counts above 0 (empty: "Kills: none")."""
    kills = player.get("kills") or {}
    kinds = list(KILL_KINDS) + sorted(k for k in kills if k not in KILL_KINDS)
    return [
        {"kind": kind, "level": int(level), "count": n}
        for kind in kinds
        for level, n in sorted((kills.get(kind) or {}).items(), key=lambda kv: int(kv[0]))
        if n > 0
    ]


#: How many letters of a Guild's name the Players panel's one line shows at 360 px beside its
#: fate badge and +1 (bold, ~19 letters before the ellipsis), less a margin.
NAME_LINE_LETTERS = 16


def names_alike(names: list[str], letters: int = NAME_LINE_LETTERS) -> list[bool]:
    """For each name, whether one line cut to its first ``letters`` letters could not tell it
    from another name of the table (6.4.2 Players: the other Guilds named): those are shown
    whole (two lines); every other name keeps one line, whole in its title. Case and spaces
    at the ends do not tell names apart."""
    heads = [n.strip().casefold()[:letters] for n in names]
    return [sum(h == other for other in heads) > 1 for h in heads]


def status_label(state: DemlocState) -> str:
    """What the table's status says for a Guild mission that ended but is not closed (6.4.1:
    its result is written into the guilds when it is closed; until then undo may reopen it),
    or while it is prepared ("Preparing: Objective", 6.4.1's steps before turn 1: nobody plays
    yet), ``""`` otherwise (the kit's own "Playing" / "Finished" fits; a quick game ends
    finished).
    The one source of the words on the table page's badge and the home page's list of tables
    (``DemlocRuleset.status_label``, ``tabletop.live.table_status_text``)."""
    setup = state.get("setup")
    stage = (setup or {}).get("stage", "play")
    if setup and stage != "play" and state.get("ended") is None:
        return f"Preparing: {setup_rules.STAGE_LABELS.get(stage, stage)}"
    if state.get("ended") is None or not setup or state.get("closed"):
        return ""
    if setup.get("mode") == "standard":
        return "Ended: close to write the results"
    return "Ended: close the mission"


def arcane_missing(state: DemlocState, p: dict) -> dict | None:
    """One line for the Arcane section of a character with an arcane ability that is offered
    no power or no summoning, saying why and where one comes from ("" when both are offered,
    or when the sheet already says why at the button). 5.1.5: the powers and the summoning are
    on the Arcane Code cards, which a Guild adds to its Arcane Library and assigns to its
    mercenaries there; a summoning draws a daemon of the code's kabbalah from the Guild's
    daemonic pantheon (5.1.3, 7.2.3.2), filled on the Guild's Pantheon page. Followers bring
    their card's codes and never summon (5.1.2); a daemon takes its code from its summoner
    (7.2.3.2). ``{"text", "where": "library" | "pantheon" | ""}`` (the Guild page that gives
    one) or None."""
    if p["kind"] == "daemon" or not p.get("arcane"):
        return None
    name_ = p["name"]
    codes = codes_of(p)
    if not codes:
        if p["kind"] == "mercenary":
            return {
                "text": f"No power or summon: {name_} holds no Arcane Code (5.1.5). A Guild "
                "assigns its codes to its mercenaries in its Arcane Library, before the mission.",
                "where": "library",
            }
        return {
            "text": f"No power: {name_}'s card gives it no Arcane Code (5.1.2).",
            "where": "",
        }
    if p["asset"] != "standard":
        return {
            "text": f"No power: {name_}'s code is turned to its post-summoning asset while its "
            "daemon plays (5.1.5 b); its pentacle acts instead.",
            "where": "",
        }
    if p["kind"] != "mercenary":
        return {"text": "No summon: followers never summon daemons (5.1.2).", "where": ""}
    owner = next((pl for pl in state["players"] if pl["seat"] == p["owner"]), None)
    pantheon = (owner or {}).get("pantheon", [])
    kabbalahs = sorted({c.get("kabbalah") or "" for c in codes if c.get("summon_cost")})
    if kabbalahs and not any(d.get("kabbalah") in kabbalahs for d in pantheon):
        return {
            "text": f"No daemon to summon: the Guild's pantheon has no {' or '.join(kabbalahs)} "
            "daemon (7.2.3.2). A Guild adds daemons to it on its Pantheon page, before the "
            "mission.",
            "where": "pantheon",
        }
    return None


def _stop_ends(state: DemlocState, seat: int | None) -> str:
    """"ends turn 3: poison grows" when ``seat``'s agreement is the last one wanted, "" else."""
    playing = end.playing_seats(state)
    if seat is None or seat not in playing or seat in state["surrender"] or state["turn"] < 1:
        return ""
    if not set(playing) <= set(state["surrender"]) | {seat}:
        return ""
    if state.get("closed_turn") == state["turn"]:
        return ""
    if state["options"].get("stop_turn_end", "close") == "none":
        return f"stops in turn {state['turn']}: no end-of-turn effects"
    return f"ends turn {state['turn']}: {end.turn_end_effects(state['options'])}"


def _useless_on(state: DemlocState, power: dict) -> dict[str, str]:
    """``{piece id: why}``: the characters in play ``power`` would change nothing on
    (``missions.rules.arcane.no_effect_reason``, the command's own check), each worked out
    once per power's effects and target as it is (``_no_effect``)."""
    digests = _piece_digests(state)
    try:
        effects = tuple(power.get("effects") or ())
        hash(effects)
    except TypeError:  # not an effect's words: worked out afresh
        effects, digests = (), None
    found = {}
    for t in state["pieces"].values():
        if t["status"] == "in_play":
            why = _no_effect(power, t, effects, digests)
            if why:
                found[t["id"]] = why
    return found


#: ``arcane.no_effect_reason(power, target)`` worked out in this process, by what it reads:
#: the power's effects and the target piece (the 128-bit BLAKE2b digest of its JSON text,
#: ``_piece_digests``). The sheet of every character with a power asks it of each character
#: in play at every state (the JSON answer's view: 12 powers by 12 targets, half of its
#: sheets' cost), where a command changes one or two pieces.
_NO_EFFECT: OrderedDict[tuple, str] = OrderedDict()
NO_EFFECT_KEPT = 16384
#: ``(id(state), version) -> (state, {piece id: digest})``, the newest states'.
_DIGESTS: dict[tuple[int, int], tuple[DemlocState, dict[str, bytes] | None]] = {}
#: Reasons worked out / found kept (tests, bench).
no_effect_computes = 0
no_effect_hits = 0


def _piece_digests(state: DemlocState) -> dict[str, bytes] | None:
    """Each piece's 128-bit BLAKE2b digest of its JSON text (key order and number types
    included), once per state in this process; None when a piece is not JSON."""
    key = (id(state), int(state.get("version") or 0))
    with _VIEW_MEMO_LOCK:
        kept = _DIGESTS.get(key)
    if kept is not None and kept[0] is state:
        return kept[1]
    try:
        digests: dict[str, bytes] | None = {
            pid: blake2b(orjson.dumps(p), digest_size=16).digest()
            for pid, p in state["pieces"].items()
        }
    except TypeError:
        digests = None
    with _VIEW_MEMO_LOCK:
        _DIGESTS.pop(key, None)
        _DIGESTS[key] = (state, digests)
        while len(_DIGESTS) > VIEW_MEMO_KEPT:
            del _DIGESTS[next(iter(_DIGESTS))]
    return digests


def _no_effect(power: dict, target: dict, effects: tuple, digests: dict | None) -> str:
    """``arcane.no_effect_reason(power, target)``, kept by ``effects`` (the power's) and
    the target's digest (``digests``; None: worked out afresh)."""
    global no_effect_computes, no_effect_hits
    digest = digests.get(target["id"]) if digests is not None else None
    if digest is None:
        return arcane.no_effect_reason(power, target)
    key = (effects, digest)
    with _VIEW_MEMO_LOCK:
        found = _NO_EFFECT.get(key)
        if found is not None:
            no_effect_hits += 1
            return found
    why = arcane.no_effect_reason(power, target)
    with _VIEW_MEMO_LOCK:
        no_effect_computes += 1
        _NO_EFFECT[key] = why
        while len(_NO_EFFECT) > NO_EFFECT_KEPT:
            _NO_EFFECT.popitem(last=False)
    return why


def _useless_everywhere(state: DemlocState, power: dict) -> str:
    """The reason "Use" is disabled when ``power`` changes nothing on any character in play."""
    useless = _useless_on(state, power)
    targets = [t for t in state["pieces"].values() if t["status"] == "in_play"]
    if targets and len(useless) == len(targets):
        return (f"No effect on any character in play now: {power['name']} changes nothing"
                f" ({'; '.join(sorted(set(useless.values())))}, 8.2).")
    return ""


def _sheet_fields(state: DemlocState, p: dict, summoner: dict | None) -> dict:
    """The figures of piece ``p`` that only its sheet's forms show (``view``'s ``forms``): the
    dice to shoot and fight, the rolls that pass a test, the powers and summonings at their
    cost now (7.2.2, 7.2.3, 7.3.2), its abilities with the fate they cost (5.1.1, 6.4.2)."""
    notice = state.get("notice")
    stray_mine = (
        isinstance(notice, dict)
        and notice.get("kind") == "stray"
        and notice.get("shooter") == p["id"]
    )
    shoot_words = (
        activation.activated_words(state, p, "shoot")
        or activation.object_words(state, p, "shoot")
        or ""
    )
    return {
        # 5.1.1: with the dice an ability used this phase adds (Steady Aim).
        "shoot_dice": shooting.shooting_dice(p, abilities.extra_shot_dice(state, p)),
        # 7.2.3.5: the highest roll that frees a possessed character (0: none can).
        "free_best_roll": possession.free_test_best_roll(
            p["arcane"], state["options"].get("free_possessed", "penalty")
        ),
        "arcane_dice_left": max(
            0,
            p["arcane"] - p["mana"]["common"] - p["mana"]["dark"] - p.get("lost_dice", 0),
        ),
        "max_daemon_level": max_daemon_level(state, p),
        "daemon_levels": list(range(1, max_daemon_level(state, p) + 1)),
        # 7.3.2: the highest roll that destroys scenery (0: none can), before the roll.
        "scenery_best_roll": hand.hand_test_best_roll(
            brawl.h2h_ability(p), state["options"].get("hand_test", "bonus")
        ),
        "backstack": any(
            "BACKSTACK" in (f.split(" ")[0] for f in w["features"]) for w in p["weapons"]
        ),
        # 7.3.2.1: the dice against an opponent with no feature of its own (MONSTROUS
        # changes them: the worked-out fight says so).
        "brawl_dice": brawl.brawl_dice(p, {}, True)[0],
        # 5.1.5: the powers of every Arcane Code the character holds ("code": its
        # index among them, "code_name" its name).
        "power_refs": [
            {
                **pw,
                "index": i,
                "code": ci,
                "code_name": c["name"],
                "refs": _refs("arcane", pw["effects"]),
                **_cost_at_use(p, pw.get("cost") or {}, extra=True),
                # The command's own first refusal (7.2.3.1): "Use" is disabled with it.
                "blocked": getattr(arcane.power_refusal(state, p, ci, i), "message", "")
                or _useless_everywhere(state, pw),
                # 8.2: the characters in play it would change nothing on, each with why (the
                # command's own refusal, ``no_effect``): their Target option says it and is
                # disabled, before any mana is spent.
                "no_effect": _useless_on(state, pw),
            }
            for ci, c in enumerate(codes_of(p))
            for i, pw in enumerate(c.get("powers", []))
        ],
        # 7.2, 7.2.1: why Shoot, Brawl and Channel cannot be sent now (the command's own
        # refusal, "" when they may): Work it out is disabled with it, and Channel says which
        # channelling still may (the setup's, a daemon's leaving: no activation).
        # 7.3.2.3: once the turn is over, no shot, not even a stray one (the command's check).
        "shoot_blocked": activation.turn_over_words(state, p, "shoot")
        or ("" if stray_mine else shoot_words),
        # 5.6: after its shot strayed, only the stray shot on a new target goes on.
        "stray_only": bool(shoot_words) and stray_mine,
        # 7.2, 7.3, 7.2.3.2: already activated; a summoner whose daemon plays only defends.
        "attack_blocked": getattr(brawl.attack_refusal(state, p), "message", ""),
        # 7.2.1, 7.3.2: the hand-to-hand test of this phase (evasive, scenery) refused now.
        "hand_blocked": getattr(
            hand.hand_test_refusal(state, p, "scenery" if state["phase"] == "brawl" else "evasive"),
            "message",
            "",
        ),
        # 7.2.3.5: why the arcane test cannot be made now (the command's own refusal, ""
        # when it may): its Test buttons are disabled with it.
        "test_blocked": getattr(arcane_tests.arcane_test_refusal(p), "message", ""),
        # 7.2.3: Channel, a power, a summon are one choice per activation, not steps.
        "arcane_choice": activation.arcane_choice_words(state),
        "channel_blocked": activation.turn_over_words(state, p, "channel mana")
        or activation.activated_words(state, p, "channel mana")
        or (
            "Channelling needs an active movement token (7.2.3)."
            if p["movement"] != "active"
            else ""
        ),
        "summons": (summons := _summons_at_use(state, p)),
        "summon": summons[0] if summons else None,
        # 5.1.5: why no power or summon is offered, and where one comes from.
        "arcane_missing": arcane_missing(state, p),
        # 5.1.1, 6.4.2: every personal ability, an activated one with its fate cost.
        "ability_refs": abilities.ability_view(state, p),
        # An activated FURY is paid from fate with its ability button, not set free.
        "fury_paid": any(
            a.get("feature") == "FURY" and a["activation"] == "activated"
            for a in p.get("abilities") or []
        ),
        # 8.3: the strike form only when the pentacle may strike (the brawl phase).
        "can_strike": arcane.can_strike(state, p),
        # 7.2.3.2: the summoner's codes this daemon may take, until it has one.
        "assign_codes": [
            {"index": i, "name": c["name"], "in_hand": c == summoner.get("code")}
            for i, c in enumerate(codes_of(summoner))
        ]
        if summoner and p["arcane"] > 0 and not p.get("assigned")
        else [],
    }


#: The per-piece bases of the newest table states viewed in this process
#: (``_piece_bases``): ``(id(state), state's version, forms) -> (state, bases, commons)``,
#: ``commons`` the bases without the sheets' forms (``bases`` itself when ``forms`` is
#: False). The state is kept with its bases, so its ``id`` is not reused while the entry lives.
_VIEW_MEMO: dict[tuple[int, int, bool], tuple[DemlocState, list[dict], list[dict]]] = {}
_VIEW_MEMO_LOCK = threading.Lock()
#: States kept in ``_VIEW_MEMO`` (a command's fan-out views one state for every seat).
VIEW_MEMO_KEPT = 8


def _piece_bases(state: DemlocState, forms: bool) -> list[dict]:
    """What every seat's view shows of each piece, in ``state["order"]``: one dict a piece
    with the piece's fields and the figures the page shows (``view``'s per-piece part), the
    fields that depend on the seat (``mine``, ``editable``, ``counters_editable``) left as
    ``None`` placeholders for ``view`` to fill in a copy. Worked out once per state (its
    identity and ``version``) and ``forms`` in this process, so the four seats of a table
    (the fan-out of a command, docs/architecture.md "The live path") share one computation;
    the views built from them share the nested values too (callers must not change a view,
    ``tabletop.live.seat_view``). A state is never changed in place once viewed: a command
    folds a copy (KIT.md, section 1)."""
    key = (id(state), int(state.get("version") or 0), forms)
    with _VIEW_MEMO_LOCK:
        kept = _VIEW_MEMO.get(key)
        whole = None if forms else _VIEW_MEMO.get((*key[:2], True))
    if kept is not None and kept[0] is state:
        return kept[1]
    if whole is not None and whole[0] is state:
        # The acting phone's answer viewed this state with its forms first: the live view's
        # bases are the ones those were built on, before what only the forms show was added.
        bases = commons = whole[2]
    else:
        commons = [_piece_common_kept(state, pid) for pid in state["order"]]
        bases = [_with_sheet(state, c) for c in commons] if forms else commons
    with _VIEW_MEMO_LOCK:
        _VIEW_MEMO.pop(key, None)
        _VIEW_MEMO[key] = (state, bases, commons)
        while len(_VIEW_MEMO) > VIEW_MEMO_KEPT:
            del _VIEW_MEMO[next(iter(_VIEW_MEMO))]
    return bases


def _with_sheet(state: DemlocState, common: dict) -> dict:
    """``common`` (a ``_piece_common``) and what only its sheet's forms show, last
    (``_sheet_fields``; missions/_piece_acts.html)."""
    p = state["pieces"][common["id"]]
    summoner = state["pieces"].get(p.get("summoner") or "") if p["kind"] == "daemon" else None
    return {**common, **_sheet_fields(state, p, summoner)}


#: ``_piece_common``'s results in this process, by ``_common_key``: a command changes one or
#: two pieces, and every other piece's common view is the one worked out at an earlier state
#: (in either web process: the other one loads the state from its row, new objects each time).
_COMMONS: OrderedDict[tuple, dict] = OrderedDict()
#: Pieces' common views kept (an evening's 100 tables hold ~1,200-2,000 pieces).
COMMONS_KEPT = 2048
#: Common views worked out / found kept (tests, bench).
common_computes = 0
common_hits = 0


def _common_key(state: DemlocState, pid: str) -> tuple | None:
    """Exactly what ``_piece_common(state, pid)`` reads: the piece (its JSON text, key order
    and number types included), its player's name, its summoner's name, the turn and phase
    (``activation.is_activated``, ``arcane_tests.live_effects``) and the power it may defend
    against (``revert.defendable``). None when the piece is not JSON (worked out fresh)."""
    p = state["pieces"][pid]
    try:
        text = orjson.dumps(p)
        defend = orjson.dumps(revert.defendable(state, pid))
    except TypeError:
        return None
    summoner = state["pieces"][p["summoner"]]["name"] if p.get("summoner") else None
    return (pid, text, name(state, p["owner"]), summoner, state["turn"], state["phase"], defend)


def _piece_common_kept(state: DemlocState, pid: str) -> dict:
    """``_piece_common(state, pid)``, taken from the process's memory when the piece and what
    else it reads (``_common_key``) are as they were at a state already viewed. Callers must
    not change it (``_piece_bases``: views are built on copies)."""
    global common_computes, common_hits
    key = _common_key(state, pid)
    if key is None:
        return _piece_common(state, pid)
    with _VIEW_MEMO_LOCK:
        found = _COMMONS.get(key)
        if found is not None:
            _COMMONS.move_to_end(key)
            common_hits += 1
            return found
    common = _piece_common(state, pid)
    with _VIEW_MEMO_LOCK:
        common_computes += 1
        replaced = _COMMONS.get(key)  # another thread's, worked out meanwhile
        if replaced is not None:
            _SEAT_PIECES.pop(id(replaced), None)
        _COMMONS[key] = common
        _SEAT_PIECES[id(common)] = (common, {})
        while len(_COMMONS) > COMMONS_KEPT:
            _SEAT_PIECES.pop(id(_COMMONS.popitem(last=False)[1]), None)
    return common


def forget_commons() -> None:
    """Drop every kept piece view (``_COMMONS``, ``_SEAT_PIECES``, ``_VIEW_MEMO``) and sheet
    figure (``_NO_EFFECT``, ``_DIGESTS``): tests that compare with a fresh computation."""
    with _VIEW_MEMO_LOCK:
        _COMMONS.clear()
        _SEAT_PIECES.clear()
        _VIEW_MEMO.clear()
        _NO_EFFECT.clear()
        _DIGESTS.clear()


class SeatPiece(dict):
    """A piece as the live view (``view`` without the sheets' forms) shows it to one kind of
    seat: a kept common view (``_piece_common_kept``) with the seat's fields (``mine``,
    ``editable``, ``counters_editable``, and ``fate`` once the mission ended), and
    ``card_key``, the digest of what its card shows (``missions.jinja.card_digest``), when it
    was worked out already for the same common view shown alike: in another view of this
    state (the three other seats and a watcher see another Guild's card alike) or of an
    earlier one while the common view is kept (``_seat_piece``; ``keep_card_key``). Callers
    must not change it (a view is never changed: ``tabletop.live.seat_view``)."""

    __slots__ = ("card_key", "_keys", "_seat")
    card_key: bytes
    _keys: dict[tuple, bytes]
    _seat: tuple

    def kept_card_key(self) -> bytes | None:
        """``card_key``, or the one worked out since this piece was made for another view
        that shows it alike (kept with its common view), or None."""
        digest = getattr(self, "card_key", None)
        keys = getattr(self, "_keys", None)
        if digest is None and keys is not None:
            with _VIEW_MEMO_LOCK:
                digest = keys.get(self._seat)
            if digest is not None:
                self.card_key = digest
        return digest

    def keep_card_key(self, digest: bytes) -> None:
        """Set ``card_key``, kept for the next views that show this piece alike."""
        self.card_key = digest
        keys = getattr(self, "_keys", None)
        if keys is not None:
            with _VIEW_MEMO_LOCK:
                keys[self._seat] = digest


#: The card keys of each kept common view (by its ``id``: ``(common, {seat fields:
#: digest})``), dropped with it from ``_COMMONS``: at most a few a piece (its owner's, the
#: others', a table where anyone controls every piece's), a 16-byte digest each. Only the
#: digests: a ``SeatPiece`` kept for every kind of seat of every kept piece would be about
#: 2.3 KB each (5 MB a process at 100 tables), where each view's own copy lives as long as
#: the view (``tabletop.live.seat_view``).
_SEAT_PIECES: dict[int, tuple[dict, dict[tuple, bytes]]] = {}


def _seat_piece(common: dict, mine: bool, editable: bool, counters: bool,
                fate: str | None) -> SeatPiece:
    """``common`` with these seat fields as a ``SeatPiece``, with its card's key when it was
    worked out for ``common`` shown alike before (``common`` a kept common view,
    ``_COMMONS``). The base's placeholders keep their place in the dict (the order the page
    and the card cache's key see is the one a fresh dict had); ``fate`` comes last."""
    piece = SeatPiece(common)
    piece["mine"], piece["editable"], piece["counters_editable"] = mine, editable, counters
    if fate is not None:
        piece["fate"] = fate
    seat = (mine, editable, counters, fate)
    with _VIEW_MEMO_LOCK:
        kept = _SEAT_PIECES.get(id(common))
        if kept is None or kept[0] is not common:  # not a kept common view
            return piece
        piece._keys, piece._seat = kept[1], seat
        digest = kept[1].get(seat)
    if digest is not None:
        piece.card_key = digest
    return piece


def _piece_common(state: DemlocState, pid: str) -> dict:
    """Piece ``pid`` as every seat's view shows it (``_piece_bases``) without what only its
    sheet's forms show (``_with_sheet``)."""
    p = state["pieces"][pid]
    return {
        **p,
        "mine": None,  # per seat (``view``)
        # An ended mission shows its cards without controls (it only undoes): per seat.
        "editable": None,
        "player": name(state, p["owner"]),
        # A character out of play has left the game with its mana pool (5.1.1: killed,
        # it is "eliminated from the game"; escaped, dismissed): its card shows no mana
        # and its counters no + / − (every token command refuses it, ``not_in_play``).
        "shows_mana": p["arcane"] > 0 and in_play(p),
        "counters_editable": None,  # per seat (``view``)
        "seal_limit": possession_limit(p["arcane"]),
        "h2h_now": brawl.h2h_ability(p),
        # 5.1.1: the armor and hit tracks, one projection for bars, figures and circles.
        "tracks": tracks(p),
        # Activations (7.2), the summoner's level cap (7.2.3.2), the arcane
        # effect tokens a "cancel" test may remove and the power a "defend" test answers
        # (7.2.3.5), relics carried (7.2.1), possession by a card effect.
        "activated_now": activation.is_activated(state, p),
        "arcane_effects_live": [
            {**eff, "index": i} for i, eff in enumerate(arcane_tests.live_effects(state, p))
        ],
        "defend_power": (revert.defendable(state, pid) or {}).get("power"),
        "dignitary": bool(p.get("dignitary")),
        "refs": _refs("ability", p["features"]),
        "weapon_refs": [
            {
                **w,
                "index": i,
                "refs": _refs("weapon", w["features"]),
                # 5.1.4: its type in words ("Naked hands"), and whether it is the
                # character's favourite weapon type.
                "type_words": WEAPON_TYPE_WORDS.get(w["type"], w["type"].replace("_", " ")),
                "favourite": p.get("favourite") == w["type"],
            }
            for i, w in enumerate(p["weapons"])
        ],
        # 5.1.5: every Arcane Code the character holds, each with its powers.
        "code_refs": [
            {
                **c,
                "index": ci,
                "in_hand": c == p.get("code"),
                "power_refs": [
                    {**pw, "index": i, "refs": _refs("arcane", pw["effects"])}
                    for i, pw in enumerate(c.get("powers", []))
                ],
            }
            for ci, c in enumerate(codes_of(p))
        ],
        "pentacle_refs": _refs(
            "pentacle", ((p.get("code") or {}).get("pentacle") or {}).get("effects", [])
        ),
        "summoner_name": state["pieces"][p["summoner"]]["name"] if p.get("summoner") else None,
    }


#: A character's fate on the card of an ended game, by its status.
FATES = {
    "in_play": "in play at the end",
    "killed": "killed",
    "escaped": "escaped",
    "dismissed": "dismissed",
}


def view(state: DemlocState, seat: int | None, forms: bool = True) -> dict:
    """The whole table (public in DemLoc), with per-piece figures the page shows: dice to
    shoot and fight, the seal limit, and the player's own characters first. While a
    lifecycle mission is being prepared: ``{"setup": setup_rules.view(...), "me"}`` only.
    ``forms=False``: without what only a sheet's forms show and costs most to work out (each
    editable piece's ``brawl_targets``, 7.3.2.1: the dice of both sides against every
    possible defender), for the live region, whose cards load their forms when opened."""
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
    control_anyone = state["options"].get("control") == "anyone"
    open_table = seat is not None and state["ended"] is None
    pieces: list[dict] = []
    ended = state["ended"] is not None
    for base in _piece_bases(state, forms):
        mine = base["owner"] == seat
        editable = open_table and (mine or control_anyone)
        # The game is over (7 "ending the game"): a card says its character's fate, not a
        # movement token nobody moves any more.
        fate = FATES.get(base["status"], base["status"]) if ended else None
        if not forms:  # shared by the views that show it alike (``SeatPiece``)
            pieces.append(_seat_piece(base, mine, editable, editable and in_play(base), fate))
            continue
        # The base's placeholders keep their place in the dict (the order the page and the
        # card cache's key see is the one a fresh dict had).
        piece = {
            **base,
            "mine": mine,
            "editable": editable,
            "counters_editable": editable and in_play(base),
        }
        if fate is not None:
            piece["fate"] = fate
        pieces.append(piece)
    # 7.3.2.1: how many fighting dice each side rolls depends on both (broken hearts, HEAVY,
    # MONSTROUS): the brawl form names both counts for each defender it offers.
    for view_piece in pieces if forms else ():
        if view_piece["editable"] and view_piece["status"] == "in_play":
            attacker = state["pieces"][view_piece["id"]]
            view_piece["brawl_targets"] = [
                {
                    "id": t["id"],
                    "name": t["name"],
                    "player": t["player"],
                    "mine": brawl.brawl_dice(attacker, state["pieces"][t["id"]], True)[0],
                    "theirs": brawl.brawl_dice(state["pieces"][t["id"]], attacker, False)[0],
                }
                for t in pieces
                if not t["mine"] and t["status"] == "in_play"
            ]
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
    bound = ((setup or {}).get("guilds") or {}).get(str(seat)) or {}
    my_guild_id = int((bound.get("guild") or {}).get("id") or 0)
    out = {
        "me": seat,
        "players": [
            {
                **{k: v for k, v in p.items() if k != "pantheon"},
                "pantheon": [d["name"] for d in p["pantheon"]],
                "kabbalahs": sorted({d.get("kabbalah") or "" for d in p["pantheon"]}),
                "kill_list": kill_list(p),
                "name_whole": alike,
                "guild_whole": guild_alike,
            }
            for p, alike, guild_alike in zip(
                state["players"],
                names_alike([p["name"] for p in state["players"]]),
                names_alike([p.get("guild") or p["name"] for p in state["players"]]),
                strict=True,
            )
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
        # This seat's Agree to stop would end the mission (every other player agreed): what it
        # does to the turn in progress (option ``stop_turn_end``, 7.3.2.3), said on it.
        "stop_ends": _stop_ends(state, seat),
        "i_left": seat in (state.get("left") or []),  # missions.rules.leave
        # A Guild Master's own Guild may leave (a guest Guild's id is negative: no account).
        "can_leave": my_guild_id > 0 and seat not in (state.get("left") or []),
        "elimination": state["elimination"],
        "ended": state["ended"],
        "mission": mission,
        "pending": pending_view(state),
        # 7.2.3.5: another player's arcane power on my character, its defend test open.
        "power_on_me": power_on_me(state, seat),
        "pending_for_me": pending_for(state, seat),  # the page lands this phone on it
        "notice": notice_text(state, state.get("notice")),
        # A failed shot's notice is where the shooter's phone lands (its key: the version it
        # happened at, so a second stray shot is a new notice in the same place).
        "notice_land": _notice_land(state.get("notice")),
        # The log line the notice says again in full (a stray shot's, 5.6): the newest line under
        # the turn bar gives way to it (a new user read the stray shot twice on the shooter's
        # phone: the newest line, then the notice).
        "notice_line": _notice_line(state.get("notice")),
        "power_result": power_result(state),
        "test_result": arcane_test_result(state),
        # 6.4.2: the mission events of this turn, in words (the turn bar notice).
        "mission_events_now": [
            setup_script.event_text(ev, hidden)
            for ev in (event_notice["events"] if event_notice else [])
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
        "possessed": _possessed(state, pieces, seat),
        "my_fate": next((p["fate"] for p in state["players"] if p["seat"] == seat), None),
        # Table option ``kills``: the app counts the kills of the attacks it applies.
        "kills_by_app": counts_kills(state),
    }
    out["prompt"] = _prompt(state, out, seat)
    return out

"""Writes the stored DemLoc event logs that ``tests/missions/test_old_logs.py`` replays: run once
from the code of the day they were made, never to make a failing guard pass.

    .venv/bin/python -m tests.missions.old_logs.make

Each file is one table as the database keeps it: every event of its log in order (kit events,
undo and redo included), then what the code of that day folded and narrated from it: the
projection (``Ruleset.dump`` of ``tabletop.log.rebuild``) and the table log's lines
(``tabletop.log.narrated``: each event against the state before it) and the live view's lines
(``tabletop.log.recent_lines``: each event's narrator against the last state). The missions are played through the kit's pure step
(``tabletop.testing.Sim``) by the random players of the playout tests: the quick games of
``test_playouts`` (``tabletop.testing.playout``) and the Guild missions of
``test_mission_playouts`` (preparation, play steered to one ending, then the close as
``missions.services.mission_close`` sends it).

Write new files (a new name) when a new kind of event or mission appears; rewrite an existing one
only when a change of the rules is meant to change what an old table shows, and say so. When
only the words of the log are meant to change (a new line said by a fold), rewrite only the
expected lines from the events as stored, which stay as they are:

    .venv/bin/python -m tests.missions.old_logs.make --narration [NAME ...]
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (file, players, kind, mode, ending, seed): the Guild missions (6.4.1) of every kind and way
#: of ending (7.3.2.3): None as kind is a quick game (6.4.2, no preparation).
MISSIONS = (
    ("quick_2p_default", 2, None, None, None, 1),
    ("quick_3p_other_readings", 3, None, None, "variant", 2),
    ("objective_standard_2p_objective", 2, "objective", "standard", "objective", 3),
    ("turns_standard_3p_turn_limit", 3, "turns", "standard", "turn_limit", 4),
    ("control_standard_2p_control", 2, "control", "standard", "control", 5),
    ("waves_training_4p_surrender", 4, "waves", "training", "surrender", 6),
    ("relic_standard_3p_elimination", 3, "relic", "standard", "elimination", 7),
    ("objective_standard_4p_leaving", 4, "objective", "standard", "leaving", 8),
    ("quick_2p_scripted_arcane", 2, None, None, "scripted", 9),
)


def dump_log(sim) -> list[dict]:
    return [dict(e.__dict__) for e in sim.log]


def scripted(seed: int):
    """A quick game with what random players hardly ever tap (the arcane chapter 7.2.3, a
    stray shot 7.2.2, a disputed claim 7.3.2.3), then played out at random."""
    import copy

    from missions.rules import DemlocRuleset
    from missions.rules.roster import DEMO_GUILDS
    from missions.rules.shooting import shooting_dice
    from tabletop.testing import Sim

    guilds = copy.deepcopy(DEMO_GUILDS)
    vesna = next(c for c in guilds[0]["characters"] if c["name"] == "Vesna the Gray")
    vesna["code"]["pentacle"]["effects"] = ["ARCANE HIT 1"]
    sim = Sim(
        DemlocRuleset(),
        ["Ann", "Bob"],
        options={"turn_limit": "3"},
        content={"guilds": guilds},
        seed=f"old-log:{seed}",
    )

    def run(seat, type_, **data):
        return sim.send(seat, "demloc." + type_, data)

    def acting():
        return sim.state["play_order"][sim.state["acting_index"]]

    run(1, "mana.adjust", piece="s1-maud", colour="common", delta=1)
    run(1, "mana.adjust", piece="s1-maud", colour="dark", delta=1)
    run(1, "daemon.summon", piece="s1-maud", level=2, hearts=2)
    hag = next(p["id"] for p in sim.state["pieces"].values() if p["kind"] == "daemon")
    run(1, "daemon.assign", piece=hag, code=1, common=1, dark=0, seals=1)
    run(0, "mana.channel", piece="s0-vesna", common=1, dark=1, setup=True)
    run(0, "daemon.summon", piece="s0-vesna", level=1, hearts=1)
    seat = acting()
    pieces = sim.state["pieces"].values()
    shooter = next(
        p
        for p in pieces
        if p["owner"] == seat
        and p["status"] == "in_play"
        and any(w.get("range") for w in p["weapons"])
        and p["ranged"] < 6
    )
    weapon = next(i for i, w in enumerate(shooter["weapons"]) if w.get("range"))
    victim = next(
        p
        for p in pieces
        if p["owner"] != seat and p["status"] == "in_play" and p["kind"] != "daemon"
    )
    run(
        seat,
        "shot.propose",
        shooter=shooter["id"],
        weapon=weapon,
        target=victim["id"],
        test_roll=6,
        dice=[1] * shooting_dice(shooter),
    )
    while sim.state["phase"] == "strategic":
        run(acting(), "phase.next")
    run(0, "pentacle.strike", piece="s0-vesna", targets=["s1-bram"])
    sim.undo(0)
    sim.redo(0)
    while sim.state["phase"] != "end":
        run(acting(), "phase.next")
    run(0, "objective.achieve")
    run(1, "objective.answer", agree=False)
    run(0, "turn.next")
    rnd = random.Random(seed)
    for _ in range(600):
        if sim.finished:
            break
        offered = [(s, c) for s in range(2) for c in sim.ruleset.moves(sim.view(s), s)]
        s, command = rnd.choice(offered)
        sim.try_send(s, command.type, command.data)
    assert sim.finished
    return sim


def quick(players: int, variant: str | None, seed: int):
    from missions.rules import DemlocRuleset
    from tabletop.testing import playout
    from tests.missions.test_playouts import VARIANTS

    options = {"turn_limit": "3", **(VARIANTS[3] if variant else VARIANTS[0])}
    out = playout(
        DemlocRuleset(),
        players,
        seed,
        options=options,
        max_commands=600,
        undo_rate=0.05,
        must_finish=True,
        check_every=50,
    )
    return out.sim


def guild_mission(players: int, kind: str, mode: str, ending: str, seed: int):
    from missions.rules import DemlocRuleset, resolution
    from tabletop.testing import Sim
    from tests.missions.lifecycle_data import guild_payload, mission_option
    from tests.missions.test_mission_playouts import P, Plan, S, play, prepare
    from tests.missions.test_setup_playouts import CANDIDATES

    rnd = random.Random(f"old-log:{seed}")
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    options = {
        "bleeding": rnd.choice(["start", "end"]),
        "kills": rnd.choice(["app", "hand"]),
        "surrender": rnd.choice(["agreement", "loses"]),
        "equal_shot": "carry",
    }
    sim = Sim(
        DemlocRuleset(),
        names,
        options=options,
        content={"mission": mission_option(kind, mode)},
        seed=f"old-log:{seed}",
    )
    for seat in range(players):
        payload = guild_payload(seat, seat + 1, fame=10 * seat, feods=(60, 25, 40, 8)[seat])
        payload["seat"] = seat
        sim.send(None, S + "guild_bind", payload)
    if ending == "leaving":  # a Guild brought again (a fresh snapshot), one taken out and
        # another brought to its seat
        for seat, guild_id in ((1, 2), (players - 1, 9)):
            if seat == players - 1:
                sim.send(None, S + "guild_leave", {"seat": seat})
            payload = guild_payload(seat, guild_id, fame=12, feods=30)
            payload["seat"] = seat
            sim.send(None, S + "guild_bind", payload)
    if mode == "standard":
        sim.send(None, S + "raffle", {"candidates": CANDIDATES})
    prepare(sim, players, rnd)
    play(sim, players, Plan(kind, ending, players, rnd), rnd)
    result = resolution.compute(sim.state)
    summary = {  # missions.services._close_summary, every Guild a registered one, paid in full
        "winner": result["winner"],
        "winner_name": result["winner_name"],
        "how": result["how"],
        "applies": result["applies"],
        "guilds": [
            {
                **{k: g[k] for k in ("seat", "guild", "fame", "feods", "blood_stones")},
                "guest": False,
                "unpaid_feods": 0,
                "unpaid_blood_stones": 0,
            }
            for g in result["guilds"]
        ],
        "control_point": result["control_point"],
    }
    sim.send(None, P + "mission.close", {"result": summary})
    return sim


def narration_only(path: Path) -> None:
    """Rewrite the expected ``lines`` and ``live_lines`` of the stored log ``path`` as today's
    code narrates its events; the events, the head and the projection are kept byte for byte."""
    from missions.rules import DemlocRuleset
    from tabletop.log import LoggedEvent, narrated, rebuild, recent_lines

    text = path.read_text()
    cut = text.index(',\n "lines": [\n')
    log = [LoggedEvent(**e) for e in json.loads(text)["events"]]
    game = DemlocRuleset()
    state, meta = rebuild(game, log)
    lines = [[ln.version, ln.type, ln.text, ln.undone] for ln in narrated(game, log)]
    live = [
        [ln.version, ln.type, ln.text, ln.undone]
        for ln in recent_lines(game, state, log, set(meta.undone))
    ]
    parts = [text[:cut]]
    for key, rows in (("lines", lines), ("live_lines", live)):
        parts.append(f' "{key}": [\n' + ",\n".join(json.dumps(x) for x in rows) + "\n ]")
    path.write_text(",\n".join(parts) + "\n}\n")
    print(f"{path.name}: {len(lines)} lines narrated again")


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from tabletop.log import narrated, rebuild, recent_lines

    only = set(sys.argv[1:])
    if "--narration" in only:
        only.discard("--narration")
        for name, *_ in MISSIONS:
            if not only or name in only:
                narration_only(HERE / f"{name}.json")
        return
    for name, players, kind, mode, ending, seed in MISSIONS:
        if only and name not in only:
            continue
        if ending == "scripted":
            sim = scripted(seed)
        elif kind is None:
            sim = quick(players, ending, seed)
        else:
            sim = guild_mission(players, kind, mode, ending, seed)
        sim.assert_replay_equal()
        game = sim.ruleset
        state, meta = rebuild(game, sim.log)
        lines = [[ln.version, ln.type, ln.text, ln.undone] for ln in narrated(game, sim.log)]
        live = [
            [ln.version, ln.type, ln.text, ln.undone]
            for ln in recent_lines(game, state, sim.log, set(meta.undone))
        ]
        path = HERE / f"{name}.json"
        head = {
            "ruleset": "demloc",
            "seats": [s.name for s in sim.seats],
            "options": sim.options,
            "content": sim.content,
        }
        # One event or line a row; events in the order the rules wrote their data (a narrator
        # may list a dict in its order).
        parts = [f" {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in head.items()]
        parts.append(' "events": [\n' + ",\n".join(json.dumps(e) for e in dump_log(sim)) + "\n ]")
        parts.append(f' "state": {json.dumps(game.dump(state), sort_keys=True)}')
        for key, rows in (("lines", lines), ("live_lines", live)):
            parts.append(f' "{key}": [\n' + ",\n".join(json.dumps(x) for x in rows) + "\n ]")
        path.write_text("{\n" + ",\n".join(parts) + "\n}\n")
        ended = state.get("ended") or {}
        print(
            f"{path.name}: {len(sim.log)} events, ended {ended.get('reason')}, "
            f"closed {state.get('closed') is not None}"
        )


if __name__ == "__main__":
    main()

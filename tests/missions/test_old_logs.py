"""The old-log guard: DemLoc tables stored by earlier code still fold and read the same.

A table's event log is the truth about its game (docs/architecture.md, "The event-sourced
table"): a table opened last month is folded by today's code whenever it is replayed
(``manage.py replay_table``, ``tabletop.refold``) and its log page and battle report are
narrated from its events (the live view's latest lines by each event's narrator against the
current state). Each file of ``tests/missions/old_logs/`` is one stored log of a
kind of mission (quick games, Guild missions of every kind and mode ended every way, the arcane
chapter, undo and redo, Guilds leaving; 6.4, 6.4.1, 7, 7.3.2.3), written once by
``tests/missions/old_logs/make.py`` together with what the code of that day folded and
narrated from it. Today's code must fold every log to the same projection and narrate the same
lines, both ways: a refactoring that changes either changes what an old table shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from missions.rules import DemlocRuleset
from tabletop.log import LoggedEvent, narrated, rebuild, recent_lines

LOGS = sorted((Path(__file__).parent / "old_logs").glob("*.json"))


def load(path: Path) -> dict:
    stored = json.loads(path.read_text())
    stored["log"] = [LoggedEvent(**e) for e in stored["events"]]
    return stored


def test_the_stored_logs_cover_quick_games_and_guild_missions_of_every_kind():
    kinds = set()
    for path in LOGS:
        content = load(path)["content"] or {}
        mission = content.get("mission")
        kinds.add((mission["definition"]["kind"], mission["mode"]) if mission else "quick")
    assert {"quick", ("waves", "training")} <= kinds
    assert {k for k, _mode in kinds - {"quick"}} == {
        "objective",
        "turns",
        "control",
        "waves",
        "relic",
    }


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_folds_to_the_projection_it_folded_to_when_stored(path):
    stored = load(path)
    game = DemlocRuleset()
    state, _meta = rebuild(game, stored["log"])
    got = json.loads(json.dumps(game.dump(state), sort_keys=True))
    want = stored["state"]
    diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
    assert not diff, f"{path.name}: the projection differs in {diff}"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_narrates_the_lines_it_narrated_when_stored(path):
    stored = load(path)
    game = DemlocRuleset()
    got = [[ln.version, ln.type, ln.text, ln.undone] for ln in narrated(game, stored["log"])]
    assert len(got) == len(stored["lines"])
    for line, want in zip(got, stored["lines"], strict=True):
        assert line == want, f"{path.name}, version {want[0]}"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_reads_in_the_live_view_as_it_read_when_stored(path):
    stored = load(path)
    game = DemlocRuleset()
    state, meta = rebuild(game, stored["log"])
    got = [
        [ln.version, ln.type, ln.text, ln.undone]
        for ln in recent_lines(game, state, stored["log"], set(meta.undone))
    ]
    assert len(got) == len(stored["live_lines"])
    for line, want in zip(got, stored["live_lines"], strict=True):
        assert line == want, f"{path.name}, version {want[0]}"

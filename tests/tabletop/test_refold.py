"""Stored tables still load and replay after the toolkit move (constraints): logs
recorded by the code before it (DemLoc missions played by the old rules tests, kept as data)
fold with today's rules, their views render, and the refold of a stored table makes
``replay_table`` match again."""

import json
from pathlib import Path

import pytest

from tabletop.log import LoggedEvent, rebuild
from tabletop.models import Event, Table
from tabletop.refold import refold_tables
from tabletop.registry import get_ruleset
from tabletop.services import table_replay

OLD = json.loads((Path(__file__).parent / "data" / "demloc_logs_before_toolkit.json").read_text())


@pytest.mark.parametrize("index", range(len(OLD)))
def test_a_mission_log_recorded_before_the_toolkit_replays_with_todays_rules(index):
    game = get_ruleset("demloc")
    old = OLD[index]
    state, _meta = rebuild(game, [LoggedEvent(**e) for e in old["log"]])
    for seat in (0, 1, None):
        assert game.view(state, seat)
    new = json.loads(json.dumps(game.dump(state)))
    assert "log" not in new and len(json.dumps(new)) < len(json.dumps(old["state"]))
    for key in ("turn", "phase", "pieces", "players"):
        if key in old["state"]:
            assert key in new


@pytest.mark.django_db
def test_refolding_a_stored_table_of_the_old_shape_makes_its_replay_match():
    old = OLD[0]
    last = old["log"][-1]["version"]
    table = Table.objects.create(ruleset="demloc", status="playing", state=old["state"],
                                 meta={}, version=last)
    Event.objects.bulk_create(Event(table=table, **{k: v for k, v in e.items()}) for e in old["log"])
    assert not table_replay(table)["state_matches"]  # the stored projection has the old shape
    assert refold_tables(Table, Event) == (1, 0)
    table.refresh_from_db()
    assert table_replay(table)["state_matches"] and table_replay(table)["meta_matches"]

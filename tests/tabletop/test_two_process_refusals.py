"""A command is never refused on state older than the table's committed version: each web
process keeps its own cache of the tables it last wrote (``tabletop.services.SNAPSHOTS``), so
with two processes a cache is often behind the table. Random playouts of the four card games
are sent alternately through two such caches (the only per-process state a command's decision
reads: a process is its cache here; ``tests/tabletop/test_two_servers.py`` does the same
through two real uvicorn processes), and every refusal is checked against a fresh decision
(the same command decided on the committed row, in a transaction rolled back): 0 refusals
that a fresh decision would accept. ``PLAYOUT_SEEDS`` seeds per game (2 in ``make test``)."""

from __future__ import annotations

import os
import random

import pytest
from django.db import transaction

from tabletop import services
from tabletop.errors import TabletopError
from tabletop.models import Table
from tabletop.registry import get_ruleset
from tabletop.rules import Command

SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))
GAMES = [("espionage", 4), ("personimo", 3), ("realm", 3), ("personal_demons", 2)]


class _Undo(Exception):
    pass


def accepted_fresh(table_id: int, seat, command: Command) -> bool:
    """Whether ``command`` is accepted when decided on the committed row (no cache), in a
    transaction rolled back (nothing is kept)."""
    saved = services.SNAPSHOTS
    services.SNAPSHOTS = services.SnapshotCache(0)
    try:
        with transaction.atomic():
            services.run_command(table_id, seat, command)
            raise _Undo()
    except _Undo:
        return True
    except TabletopError:
        return False
    finally:
        services.SNAPSHOTS = saved


def next_move(game, table: Table, seats: int, rnd: random.Random):
    """A seat and one of the commands its page offers on the committed state, or None."""
    state = game.load(table.state)
    order = list(range(seats))
    rnd.shuffle(order)
    for number in order:
        offered = list(game.moves(game.view(state, number), number))
        if offered:
            return number, rnd.choice(offered)
    return None


def alternate_playout(make_table, monkeypatch, ruleset: str, players: int, seed: int,
                      steps: int = 60) -> dict:
    """Play ``steps`` random commands, the n-th through cache ``n % 2``; return the counts."""
    game = get_ruleset(ruleset)
    table, seats = make_table(ruleset, players=players)
    caches = [services.SnapshotCache(16), services.SnapshotCache(16)]
    rnd = random.Random(seed)
    out = {"sent": 0, "refused": 0, "stale_refusals": []}
    for n in range(steps):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        move = next_move(game, table, players, rnd)
        assert move is not None, f"stuck ({ruleset}, seed {seed}, step {n})"
        number, command = move
        if rnd.random() < 0.05:
            command = Command("table.undo")
        monkeypatch.setattr(services, "SNAPSHOTS", caches[n % 2])
        out["sent"] += 1
        try:
            services.run_command(table.pk, seats[number], command)
        except TabletopError as exc:
            out["refused"] += 1
            if accepted_fresh(table.pk, seats[number], command):
                out["stale_refusals"].append((n, command.type, exc.code))
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("ruleset,players", GAMES)
def test_no_refusal_on_another_process_s_past(make_table, monkeypatch, ruleset, players, seed):
    out = alternate_playout(make_table, monkeypatch, ruleset, players, seed)
    assert out["sent"] > 10
    assert out["stale_refusals"] == [], out


@pytest.mark.django_db
@pytest.mark.parametrize("undoer", [0, 1])
def test_undo_then_another_seat_rolls_the_same_roll_through_either_process(
    make_table, monkeypatch, undoer
):
    """Undoing a roll never re-rolls it, whoever rolls next (docs/playing.md "Undo"), also when
    the roll, the undo and the roll again go through different processes' caches."""
    caches = [services.SnapshotCache(16), services.SnapshotCache(16)]
    same = 0
    for n in range(3):
        table, seats = make_table(players=3)
        monkeypatch.setattr(services, "SNAPSHOTS", caches[n % 2])
        services.run_command(table.pk, seats[0], Command("counter.roll"))
        first = Table.objects.get(pk=table.pk).state["last"]["amount"]
        monkeypatch.setattr(services, "SNAPSHOTS", caches[(n + 1) % 2])
        services.run_command(table.pk, seats[undoer], Command("table.undo"))
        monkeypatch.setattr(services, "SNAPSHOTS", caches[n % 2])
        services.run_command(table.pk, seats[2], Command("counter.roll"))
        again = Table.objects.get(pk=table.pk).state["last"]
        assert again["seat"] == 2
        same += again["amount"] == first
    assert same == 3

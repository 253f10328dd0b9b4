"""Replay equals the stored projection after any sequence of commands (hypothesis)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import services
from tabletop.errors import TabletopError
from tabletop.rules import Command

commands = st.lists(
    st.one_of(
        st.tuples(
            st.integers(0, 2),
            st.integers(-10, 10).map(lambda n: Command("counter.add", {"amount": n})),
        ),
        st.tuples(st.integers(0, 2), st.just(Command("counter.roll"))),
        st.tuples(st.integers(0, 2), st.just(Command("counter.secret.redraw"))),
        st.tuples(st.integers(0, 2), st.just(Command("table.undo"))),
        st.tuples(st.integers(0, 2), st.just(Command("table.redo"))),
    ),
    min_size=1,
    max_size=40,
)


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=commands)
def test_replay_equals_projection_after_random_commands(make_table, script):
    """Besides: a refused command appends nothing, an applied one appends, and only what may be
    refused is (an undo or redo with nothing to take back, an amount of 0)."""
    table, seats = make_table(players=3)
    for seat_index, command in script:
        before = table.events.count()
        try:
            services.run_command(table, seats[seat_index], command)
        except TabletopError as exc:
            assert table.events.count() == before, (command, exc.code)
            assert command.type in ("table.undo", "table.redo") or command.data == {"amount": 0}, (
                command, exc.code)
        else:
            assert table.events.count() > before, command
    table.refresh_from_db()
    report = services.table_replay(table)
    assert report["state_matches"], report
    assert report["meta_matches"]
    assert table.events.count() == table.version


class _RolledBack(Exception):
    pass


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    script=st.lists(
        st.tuples(
            st.integers(0, 1),  # which process (web server, worker) sends it
            st.integers(0, 2),  # which seat
            st.sampled_from([*(Command("counter.add", {"amount": n}) for n in (-3, -1, 1, 2, 3, 5)),
                             Command("table.undo"), Command("table.redo")]),
            st.booleans(),  # sent inside a caller's transaction that then rolls back
        ),
        min_size=4,
        max_size=30,
    )
)
def test_two_processes_snapshots_never_decide_on_a_stale_state(make_table, monkeypatch, script):
    """The snapshot cache (``services.SNAPSHOTS``): two processes, each with its own cache of what it last
    wrote, send commands to one table in any order, some inside a caller's transaction that
    rolls back. Whatever each cache holds, no command is decided on a state that is not the
    committed one: the projection equals the replay of the events, and the committed adds sum
    to the counter when no undo moved it."""
    from django.db import transaction

    table, seats = make_table(players=3)
    caches = [services.SnapshotCache(16), services.SnapshotCache(16)]
    total, plain = 0, True
    for process, seat_index, command, roll_back in script:
        monkeypatch.setattr(services, "SNAPSHOTS", caches[process])
        try:
            if roll_back:
                with transaction.atomic():
                    services.run_command(table.pk, seats[seat_index], command)
                    raise _RolledBack()
            services.run_command(table.pk, seats[seat_index], command)
        except (TabletopError, _RolledBack):
            continue
        if command.type == "counter.add":
            total += command.data["amount"]
        else:
            plain = False
    table.refresh_from_db()
    report = services.table_replay(table)
    assert report["state_matches"], report
    assert report["meta_matches"]
    assert table.events.count() == table.version
    if plain:
        assert table.state["total"] == total

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
    table, seats = make_table(players=3)
    refused = 0
    for seat_index, command in script:
        try:
            services.run_command(table, seats[seat_index], command)
        except TabletopError:
            refused += 1
    table.refresh_from_db()
    report = services.table_replay(table)
    assert report["state_matches"], report
    assert report["meta_matches"]
    assert table.events.count() == table.version

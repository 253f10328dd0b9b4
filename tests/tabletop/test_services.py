"""The kit's one write path: run_command (docs/architecture.md, "The event-sourced table")."""

import pytest

from tabletop import registry, services
from tabletop.counter import CounterRuleset
from tabletop.decider import Topic
from tabletop.errors import Conflict, NotAllowed, RuleViolation
from tabletop.models import Event, Table
from tabletop.rules import Command


def add(n):
    return Command("counter.add", {"amount": n})


_marks = Topic("counter_marks")


@_marks.command("counter.mark", rebase=True)
def _mark(d, data):
    d.require(str(d.seat) not in d.state.get("marks", {}), "already_marked", "Marked already.")
    d.emit("counter.marked", {})


@_marks.evolver("counter.marked", label="set a mark")
def _marked(state, event):
    state.setdefault("marks", {})[str(event.seat)] = True


def test_start_deals_opening_events_and_moves_to_playing(make_table):
    table, seats = make_table(players=3)
    assert table.status == Table.Status.PLAYING
    types = list(table.events.values_list("type", flat=True))
    assert types == ["table.started", "counter.setup"]
    assert table.version == 2
    assert sorted(table.state["names"].values()) == ["P1", "P2", "P3"]


def test_only_the_host_starts_and_only_once(make_table):
    table, seats = make_table(players=2, start=False)
    with pytest.raises(NotAllowed) as exc:
        services.run_command(table, seats[1], Command("table.start"))
    assert exc.value.code == "host_only"
    services.run_command(table, seats[0], Command("table.start"))
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], Command("table.start"))
    assert exc.value.code == "already_started"


def test_commands_before_start_are_refused(make_table):
    table, seats = make_table(start=False)
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], add(1))
    assert exc.value.code == "not_started"
    assert not Event.objects.filter(table=table).exists()


def test_no_join_after_start_and_no_more_than_max_seats(make_table):
    table, _ = make_table(players=2)
    with pytest.raises(RuleViolation) as exc:
        services.seat_join(table=table, name="Late")
    assert exc.value.code == "table_started"
    lobby, _ = make_table(players=8, start=False)
    with pytest.raises(RuleViolation) as exc:
        services.seat_join(table=lobby, name="Ninth")
    assert exc.value.code == "table_full"


def test_a_broken_rule_appends_nothing(make_table):
    table, seats = make_table()
    for bad in ({"amount": 0}, {"amount": 11}, {"amount": "3x"}, {"amount": "²"}, {"amount": 2.5}, {"amount": True}, {}):
        with pytest.raises(RuleViolation) as exc:
            services.run_command(table, seats[0], Command("counter.add", bad))
        assert exc.value.code == "bad_amount"
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], Command("counter.fly"))
    assert exc.value.code == "unknown_command"
    table.refresh_from_db()
    assert table.version == 2 and table.events.count() == 2


def test_stale_expected_version_is_a_conflict(make_table):
    table, seats = make_table()
    services.run_command(table, seats[0], add(2), expected_version=2)
    with pytest.raises(Conflict) as exc:
        services.run_command(table, seats[1], add(3), expected_version=2)
    assert exc.value.code == "stale_version"
    # Player wording, no version numbers (a phone shows it in the sticky turn bar).
    assert exc.value.message == "Someone acted just before you: look, then tap again."
    table.refresh_from_db()
    assert table.state["total"] == 2 and table.version == 3


def test_same_idempotency_key_appends_once_and_returns_the_first_result(make_table):
    table, seats = make_table()
    first = services.run_command(table, seats[0], Command("counter.roll"), idempotency_key="tap-1")
    again = services.run_command(
        table, seats[0], Command("counter.roll"), idempotency_key="tap-1", expected_version=2
    )  # stale by now: still the first result
    assert (again.version, again.command_id, again.events) == (
        first.version,
        first.command_id,
        first.events,
    )
    assert again.replayed and not first.replayed
    assert table.events.filter(type="counter.rolled").count() == 1


def test_an_idempotency_key_cannot_be_reused_by_another_seat(make_table):
    table, seats = make_table()
    services.run_command(table, seats[0], add(1), idempotency_key="k")
    with pytest.raises(Conflict) as exc:
        services.run_command(table, seats[1], add(1), idempotency_key="k")
    assert exc.value.code == "idempotency_key_reused"


def test_undo_then_redo_restores_the_same_state(make_table):
    table, seats = make_table()
    services.run_command(table, seats[0], add(5))
    services.run_command(table, seats[1], Command("counter.roll"))
    table.refresh_from_db()
    before = table.state
    services.run_command(table, seats[0], Command("table.undo"))
    table.refresh_from_db()
    assert table.state["total"] == 5
    services.run_command(table, seats[0], Command("table.undo"))
    table.refresh_from_db()
    assert table.state["total"] == 0
    with pytest.raises(RuleViolation) as exc:  # the start is a barrier
        services.run_command(table, seats[0], Command("table.undo"))
    assert exc.value.code == "nothing_to_undo"
    services.run_command(table, seats[1], Command("table.redo"))
    services.run_command(table, seats[1], Command("table.redo"))
    table.refresh_from_db()
    assert table.state == before
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[1], Command("table.redo"))
    assert exc.value.code == "nothing_to_redo"


def test_a_new_command_after_undo_clears_redo(make_table):
    table, seats = make_table()
    services.run_command(table, seats[0], add(5))
    services.run_command(table, seats[0], Command("table.undo"))
    services.run_command(table, seats[0], add(1))
    with pytest.raises(RuleViolation):
        services.run_command(table, seats[0], Command("table.redo"))
    table.refresh_from_db()
    assert table.state["total"] == 1


def test_undo_and_send_again_never_rerolls(make_table, settings):
    # A different seed per command would give other dice; the tape must win.
    table, seats = make_table()
    services.run_command(table, seats[0], Command("counter.roll"))
    table.refresh_from_db()
    rolled = table.state["total"]
    for _ in range(5):
        services.run_command(table, seats[0], Command("table.undo"))
        services.run_command(table, seats[0], Command("counter.roll"))
        table.refresh_from_db()
        assert table.state["total"] == rolled
    rolls = list(table.events.filter(type="counter.rolled").values_list("data", flat=True))
    assert {r["amount"] for r in rolls} == {rolled}


def test_a_final_event_is_a_barrier_for_undo(make_table):
    table, seats = make_table()
    services.run_command(table, seats[0], add(3))
    services.run_command(table, seats[0], Command("counter.secret.redraw"))
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], Command("table.undo"))
    assert exc.value.code == "nothing_to_undo"


def test_replay_equals_the_stored_projection(make_table):
    table, seats = make_table(players=3)
    for n, seat in zip([1, -2, 7, 4], seats * 2, strict=False):
        services.run_command(table, seat, add(n))
    services.run_command(table, seats[2], Command("counter.roll"))
    services.run_command(table, seats[2], Command("table.undo"))
    services.run_command(table, seats[1], Command("counter.secret.redraw"))
    table.refresh_from_db()
    report = services.table_replay(table)
    assert report["state_matches"] and report["meta_matches"]
    assert report["events"] == table.version


def test_a_seat_of_another_table_cannot_act(make_table):
    table_a, seats_a = make_table()
    table_b, seats_b = make_table()
    with pytest.raises(NotAllowed) as exc:
        services.run_command(table_a, seats_b[0], add(1))
    assert exc.value.code == "not_your_table"


def test_replay_table_command_reports_ok(make_table, capsys):
    from django.core.management import call_command

    table, seats = make_table()
    services.run_command(table, seats[0], add(1))
    call_command("replay_table", str(table.pk))
    assert "OK" in capsys.readouterr().out
    Table.objects.filter(pk=table.pk).update(
        state={"total": 99, "secrets": {}, "names": {}, "last": None}
    )
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="MISMATCH"):
        call_command("replay_table", table.code)


def test_a_finished_game_refuses_commands_but_undo_reopens_it(make_table):
    table, seats = make_table()
    for _ in range(5):
        services.run_command(table, seats[0], add(10))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[1], add(1))
    assert exc.value.code == "game_over"
    services.run_command(table, seats[1], Command("table.undo"))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.state["total"] == 40


def test_host_changes_options_in_the_lobby_only(make_table):
    from tabletop.registry import get_ruleset

    game = get_ruleset("counter")
    game.options_schema = {"speed": {"label": "Speed", "choices": [["slow", "Slow"], ["fast", "Fast"]],
                                     "default": "slow"}}
    try:
        table, seats = make_table(start=False)
        assert table.options == {"speed": "slow"}
        with pytest.raises(NotAllowed):
            services.table_options_set(table=table, seat=seats[1], options={"speed": "fast"})
        with pytest.raises(RuleViolation) as exc:
            services.table_options_set(table=table, seat=seats[0], options={"speed": "warp"})
        assert exc.value.code == "bad_option"
        table = services.table_options_set(table=table, seat=seats[0], options={"speed": "fast"})
        assert table.options == {"speed": "fast"}
        services.run_command(table, seats[0], Command("table.start"))
        with pytest.raises(RuleViolation) as exc:
            services.table_options_set(table=table, seat=seats[0], options={"speed": "slow"})
        assert exc.value.code == "table_started"
    finally:
        game.options_schema = {}


def test_undo_own_only_lets_only_the_sender_undo(make_table):
    from tabletop.registry import get_ruleset

    game = get_ruleset("counter")
    game.undo_own_only = True
    try:
        table, seats = make_table()
        services.run_command(table, seats[0], add(4))
        with pytest.raises(NotAllowed) as exc:
            services.run_command(table, seats[1], Command("table.undo"))
        assert exc.value.code == "not_your_action" and "P1" in exc.value.message
        services.run_command(table, seats[0], Command("table.undo"))
        with pytest.raises(NotAllowed):
            services.run_command(table, seats[1], Command("table.redo"))
        services.run_command(table, seats[0], Command("table.redo"))
        table.refresh_from_db()
        assert table.state["total"] == 4
    finally:
        game.undo_own_only = False


class _RebaseCounter(CounterRuleset):
    """The kit's counter with one command marked ``rebase=True``: ``counter.mark`` sets the
    acting seat's own mark (independent of every other seat's), refused once it is set."""

    name = "counter_rebase"
    topics = (CounterRuleset.topics[0], _marks)


@pytest.fixture
def rebase_game(monkeypatch):
    monkeypatch.setitem(registry._RULESETS, _RebaseCounter.name, _RebaseCounter())


def test_a_stale_rebase_command_is_decided_on_the_new_state(make_table, rebase_game):
    """Two phones showing the same version: the second tap of a command marked ``rebase`` is
    decided on the state after the first (no ``stale_version``); the decider still checks it
    there (its own coded error when it no longer holds)."""
    table, seats = make_table("counter_rebase", players=2)
    shown = table.version
    services.run_command(table, seats[0], Command("counter.mark"), expected_version=shown)
    result = services.run_command(table, seats[1], Command("counter.mark"),
                                  expected_version=shown)
    assert result.version == shown + 2
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["marks"] == {"0": True, "1": True}
    with pytest.raises(RuleViolation) as exc:  # decided on the new state: already marked
        services.run_command(table, seats[1], Command("counter.mark"), expected_version=shown)
    assert exc.value.code == "already_marked"
    assert services.table_replay(fresh)["state_matches"]


def test_a_stale_unmarked_command_is_still_a_conflict(make_table, rebase_game):
    table, seats = make_table("counter_rebase", players=2)
    shown = table.version
    services.run_command(table, seats[0], Command("counter.mark"), expected_version=shown)
    for command in (add(1), Command("table.undo")):
        with pytest.raises(Conflict) as exc:
            services.run_command(table, seats[1], command, expected_version=shown)
        assert exc.value.code == "stale_version"
    with pytest.raises(Conflict) as exc:  # a version the table never reached is not rebased
        services.run_command(table, seats[1], Command("counter.mark"),
                             expected_version=table.version + 5)
    assert exc.value.code == "stale_version"
    assert Table.objects.get(pk=table.pk).version == shown + 1

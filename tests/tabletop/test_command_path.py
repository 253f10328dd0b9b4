"""The command path ("the live path at the speed of a plain insert"): what a tap
costs in SQL, optimistic concurrency instead of the row lock, and the hot API view answering
exactly what the DRF view answers (docs/architecture.md "The event-sourced table": one write path)."""

import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tabletop import services
from tabletop.errors import Conflict, RuleViolation
from tabletop.models import Event, Table
from tabletop.rules import Command
from tabletop.signals import command_applied, game_sender

pytestmark = pytest.mark.django_db


def post(client, url, body, token=None, raw=False):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(
        url, body if raw else json.dumps(body), content_type="application/json", **headers
    )


@pytest.fixture
def api_table(client):
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    guest = post(client, f"/api/tables/{host['code']}/join", {"name": "Ben"}).json()
    started = post(
        client, f"/api/tables/{host['code']}/commands", {"type": "table.start"},
        host["seat_token"],
    )
    assert started.status_code == 200, started.content
    return host["code"], host["seat_token"], guest["seat_token"]


@pytest.mark.django_db(transaction=True)  # outside a test transaction, as a server runs it
@pytest.mark.postgres  # the one-statement write is PostgreSQL's (SQLite: a transaction)
def test_a_tap_with_a_seat_token_is_two_statements_on_postgresql(client, api_table):
    """One query finds the seat, its table and the state to decide on; one statement appends
    the events and moves the projection, guarded by the version read (no BEGIN, no row lock,
    no COMMIT round trip). Before the command path was made one statement: eight, then six."""
    code, ann, _ben = api_table
    with CaptureQueriesContext(connection) as queries:
        response = post(client, f"/api/tables/{code}/commands",
                        {"type": "counter.add", "data": {"amount": 2}}, ann)
    assert response.status_code == 200 and response.json()["view"]["total"] == 2
    # Django logs a server-bound (prepared: tabletop.prepared) statement as "QUERY = '...' -
    # PARAMS = (...)"
    statements = [q["sql"].removeprefix("QUERY = '") for q in queries.captured_queries]
    assert len(statements) == 2, statements
    assert statements[0].startswith("SELECT") and "tabletop_seat" in statements[0]
    assert statements[1].startswith('WITH "moved" AS (UPDATE "tabletop_table"')
    assert 'INSERT INTO "tabletop_event"' in statements[1]


def _read_now(table):
    """A fresh copy of ``table`` and its row of ``READ_COLUMNS`` as the seat query reads it
    (the JSON columns as text): to offer later, once it is old."""
    copy = Table.objects.get(pk=table.pk)
    row = [json.dumps(getattr(copy, c)) if c in ("state", "meta", "options", "setup")
           else getattr(copy, c) for c in services.READ_COLUMNS]
    return copy, row


def test_a_command_decided_on_an_old_read_is_decided_again_on_the_new_state(make_table):
    """Optimistic concurrency: the write is guarded by the version read; when another command
    committed in between, nothing is written and the command is read and decided again."""
    table, seats = make_table(players=2)
    old, row = _read_now(table)
    services.run_command(table, seats[1], Command("counter.add", {"amount": 5}))
    old.first_read = tuple(row)  # as if read before the command above committed
    result = services.run_command(old, seats[0], Command("counter.add", {"amount": 1}))
    assert result.version == table.version + 1
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["total"] == 6 and old.state["total"] == 6
    assert list(fresh.events.values_list("version", flat=True)) == list(
        range(1, fresh.version + 1)
    )
    assert services.table_replay(fresh)["state_matches"]


def test_an_old_read_with_the_phones_expected_version_is_read_again_not_refused(make_table):
    table, seats = make_table(players=2)
    stale, row = _read_now(table)
    services.run_command(table, seats[1], Command("counter.add", {"amount": 5}))
    stale.first_read = tuple(row)
    result = services.run_command(stale, seats[0], Command("counter.add", {"amount": 1}),
                                  expected_version=table.version)
    assert result.version == table.version + 1
    with pytest.raises(Conflict) as exc:  # a phone that really is behind is still refused
        services.run_command(table, seats[0], Command("counter.add", {"amount": 1}),
                             expected_version=table.version - 1)
    assert exc.value.code == "stale_version"


def test_a_refused_command_leaves_the_callers_table_as_it_was(make_table):
    """The step folds a state in place: a refusal must not leave the caller's copy (which an
    htmx view renders next, with the error) half changed."""
    table, seats = make_table(players=2)
    before = (json.dumps(table.state), json.dumps(table.meta), table.version)
    with pytest.raises(RuleViolation):
        services.run_command(table, seats[0], Command("counter.add", {"amount": 99}))
    assert (json.dumps(table.state), json.dumps(table.meta), table.version) == before


def test_a_receiver_still_refuses_the_command_in_its_transaction(make_table):
    """A game with a ``command_applied`` receiver of its own is written in one transaction
    with the receiver: a receiver that raises leaves no event and the old projection."""
    table, seats = make_table(players=2)

    def refuse(sender, **kwargs):
        raise RuleViolation("held_elsewhere", "Refused by a receiver.")

    command_applied.connect(refuse, sender=game_sender("counter"), dispatch_uid="test.refuse")
    try:
        with pytest.raises(RuleViolation) as exc:
            services.run_command(table, seats[0], Command("counter.add", {"amount": 1}))
    finally:
        command_applied.disconnect(dispatch_uid="test.refuse", sender=game_sender("counter"))
    assert exc.value.code == "held_elsewhere"
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.version == table.version and fresh.state == table.state
    assert Event.objects.filter(table=table).count() == table.version


@pytest.mark.django_db(transaction=True)  # outside a test transaction, as a server runs it
@pytest.mark.postgres  # the one-statement write is PostgreSQL's (SQLite: a transaction)
def test_a_tap_on_a_table_this_process_wrote_last_is_one_statement(make_table):
    """``SNAPSHOTS``: the next command of a table decides on the projection this process just
    wrote, so the in-process append is one statement (no read), guarded by the version and the
    time of that write."""
    table, seats = make_table(players=2)
    services.run_command(table.pk, seats[0], Command("counter.add", {"amount": 1}))
    with CaptureQueriesContext(connection) as queries:
        result = services.run_command(table.pk, seats[1], Command("counter.add", {"amount": 2}))
    statements = [q["sql"].removeprefix("QUERY = '") for q in queries.captured_queries]
    assert len(statements) == 1, statements
    assert statements[0].startswith('WITH "moved" AS (UPDATE "tabletop_table"')
    assert 'AND "updated_at" = ' in statements[0]
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["total"] == 3 and fresh.version == result.version


def _cached(table):
    return services.SNAPSHOTS._rows.get(table.pk)


def test_a_snapshot_older_than_what_another_process_wrote_is_refused_and_read_again(make_table):
    """Another web server or worker wrote the table after this process cached it: the guarded
    write changes nothing, the entry is dropped and the command is decided on a fresh read."""
    table, seats = make_table(players=2)
    services.run_command(table.pk, seats[0], Command("counter.add", {"amount": 1}))
    old = _cached(table)
    assert old is not None and old[3] == Table.objects.get(pk=table.pk).version
    services.run_command(table.pk, seats[1], Command("counter.add", {"amount": 5}))
    services.SNAPSHOTS._rows[table.pk] = old  # as if the add of 5 was another process's
    result = services.run_command(table.pk, seats[0], Command("counter.add", {"amount": 1}))
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["total"] == 7 and fresh.version == result.version
    assert services.table_replay(fresh)["state_matches"]
    assert _cached(table)[3] == fresh.version


def test_a_snapshot_of_a_rolled_back_write_is_never_decided_on(make_table):
    """The worst case of a cache: this process holds a version that was rolled back, and the
    table reached that same version with other content since. The time of the write tells the
    two apart (``updated_at`` in the guard), so the command goes on from what was committed."""
    table, seats = make_table(players=2)
    add = lambda n: Command("counter.add", {"amount": n})  # noqa: E731
    services.run_command(table.pk, seats[0], add(1))
    with pytest.raises(RuntimeError), transaction.atomic():
        services.run_command(table.pk, seats[1], add(5))
        raise RuntimeError("the caller's transaction fails after the command")
    rolled_back = _cached(table)
    services.run_command(table.pk, seats[0], add(2))  # the cached version is refused: read again
    assert _cached(table)[3] == rolled_back[3]  # the same version, other content
    services.SNAPSHOTS._rows[table.pk] = rolled_back
    result = services.run_command(table.pk, seats[1], add(3))
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["total"] == 6 and fresh.version == result.version
    assert services.table_replay(fresh)["state_matches"]


def test_the_snapshot_cache_keeps_the_newest_tables_and_no_lobby(make_table):
    lobby, _ = make_table(players=2, start=False)
    cache, off = services.SnapshotCache(2), services.SnapshotCache(0)
    kept = []
    for _n in range(3):
        table, seats = make_table(players=2)
        services.run_command(table, seats[0], Command("counter.add", {"amount": 1}))
        snapshot = services.SNAPSHOTS.get(table.pk)
        text = {"state": json.dumps(snapshot.state), "meta": json.dumps(snapshot.meta)}
        cache.put(snapshot, text, snapshot.updated_at)
        off.put(snapshot, text, snapshot.updated_at)
        kept.append(table.pk)
    assert list(cache._rows) == kept[1:] and cache.get(kept[0]) is None
    assert off.get(kept[-1]) is None
    got = cache.get(kept[-1])
    got.state["total"] = 40  # a step folds in place: the next get is decoded afresh
    assert cache.get(kept[-1]).state["total"] == 1
    cache.put(services._read(lobby.pk), {"state": "null", "meta": "{}"}, None)
    assert lobby.pk not in cache._rows


def test_the_portable_write_path_appends_the_same_events(make_table, monkeypatch):
    """SQLite (the embedded default) writes with an UPDATE guarded by the version and a
    bulk INSERT in one transaction; on PostgreSQL it is the same as the one statement."""
    table, seats = make_table(players=2)
    monkeypatch.setattr(connection, "vendor", "portable")
    services.run_command(table, seats[0], Command("counter.add", {"amount": 4}))
    monkeypatch.undo()
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.state["total"] == 4 and fresh.version == table.version
    assert services.table_replay(fresh)["state_matches"]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "counter.add", "data": {"amount": 2}},
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": 2},
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": "2"},  # coerced
        {"type": " counter.add ", "data": {"amount": 2}},  # trimmed by CommandIn
        {"type": "counter.add", "data": {"amount": 99}},  # a broken rule
        {"type": "counter.add", "data": {"amount": "²"}},  # bad_number
        {"type": "counter.nope"},
        {"type": "counter.add", "data": None},  # CommandIn's field error
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": 1},  # stale
        {"type": "counter.add", "data": {"amount": 2}, "idempotency_key": ""},
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": True},
        {"type": ""},
        [],
    ],
)
def test_the_hot_view_answers_what_the_drf_view_answers(client, body):
    """The same body through the hot path (seat token) and through the DRF view (the session
    of a logged-in player at an equal table) gets the same status and the same JSON."""
    from django.contrib.auth.models import User  # noqa: PLC0415 - test-local

    answers = []
    for by_token in (True, False):
        user = User.objects.create_user(f"u{by_token}", password="pw-123456789")
        client.force_login(user)
        host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
        client.logout()
        post(client, f"/api/tables/{host['code']}/join", {"name": "Ben"})
        client.force_login(user)
        post(client, f"/api/tables/{host['code']}/commands", {"type": "table.start"},
             host["seat_token"])
        if not by_token:  # the DRF view takes the session (the test client skips CSRF)
            response = post(client, f"/api/tables/{host['code']}/commands", body)
        else:
            client.logout()
            response = post(client, f"/api/tables/{host['code']}/commands", body,
                            host["seat_token"])
        client.logout()
        answer = response.json()
        if isinstance(answer, dict):
            answer.pop("command_id", None)
            (answer.get("view") or {}).pop("my_secret", None)  # dealt at random per table
        answers.append((response.status_code, answer))
    assert answers[0] == answers[1], answers


def test_an_undo_decided_on_an_old_read_is_decided_again_not_a_500(make_table):
    """Kit undo (KIT.md; docs/architecture.md "The event-sourced table"): an undo whose read is older
    than a command that committed meanwhile folds the log of *its* read (the events up to the
    version it read), so its write is refused by the version guard and it is decided again.
    Before: the log was read whole at decision time, the undo's new event shared its version
    and command id with the command committed meanwhile, and the fold raised UnknownEvent (a
    500 when two phones tap undo and add at once)."""
    table, seats = make_table(players=2)
    services.run_command(table, seats[0], Command("counter.add", {"amount": 2}))
    old, row = _read_now(table)
    services.run_command(table, seats[1], Command("counter.add", {"amount": 5}))
    old.first_read = tuple(row)  # as if read before the second add committed
    result = services.run_command(old, seats[1], Command("table.undo"))
    fresh = Table.objects.get(pk=table.pk)
    assert result.version == fresh.version == table.version + 1
    assert fresh.state["total"] == 2  # the newest command (the 5) was undone
    assert services.table_replay(fresh)["state_matches"]


@pytest.mark.parametrize("text", ["a\u0000b", "\ud800"])
def test_text_the_database_cannot_store_is_refused_with_a_code_not_a_500(client, text):
    """Bad input: a clear coded error and nothing changed (the developers' guide). JSON
    carries NUL and lone surrogates; PostgreSQL's jsonb refuses them, so a command storing
    such a string (here Personal Demons' scoring reason) or such an idempotency key used to
    fail in the write with DataError: a 500 from the API (hot view and DRF view alike)."""
    host = post(client, "/api/tables/", {"ruleset": "personal_demons", "name": "Ann",
                                          "options": {"table": "physical"}}).json()
    code = host["code"]
    post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    started = post(client, f"/api/tables/{code}/commands", {"type": "table.start"},
                   host["seat_token"])
    assert started.status_code == 200, started.content
    version = Table.objects.get(code=code).version
    points = {"type": "pd.phys.points", "data": {"points": 6, "reason": text}}
    refused = post(client, f"/api/tables/{code}/commands", points, host["seat_token"])
    assert refused.status_code == 400 and refused.json()["code"] == "bad_command"
    with pytest.raises(RuleViolation) as exc:
        services.run_command(Table.objects.get(code=code), None,
                             Command("pd.phys.points", {"points": 6}), idempotency_key=text)
    assert exc.value.code == "bad_idempotency_key"
    assert Table.objects.get(code=code).version == version


@pytest.mark.parametrize(
    "body",
    [
        {"type": "counter.add", "data": {"amount": 1}},  # the hot path
        {"type": "counter.add", "data": {"amount": 1}, "expected_version": "2"},  # the DRF view
    ],
)
def test_a_logged_in_phone_acting_with_its_seat_token_needs_no_csrf_token_on_either_path(body):
    """Found by review: the hot path answered 200 where the DRF view answered 403 "CSRF
    Failed" to the same logged-in browser sending its ``X-Seat-Token``. The token is what it
    acts with, and no other site can make a browser send that header: both answer 200."""
    from django.contrib.auth.models import User  # noqa: PLC0415 - test-local
    from django.test import Client  # noqa: PLC0415 - test-local

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(User.objects.create_user("ann", password="pw-123456789"))
    host = post(Client(), "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    post(Client(), f"/api/tables/{host['code']}/join", {"name": "Ben"})
    post(Client(), f"/api/tables/{host['code']}/commands", {"type": "table.start"},
         host["seat_token"])
    response = post(browser, f"/api/tables/{host['code']}/commands", body, host["seat_token"])
    assert response.status_code == 200, response.content
    # Without the token the session still needs its CSRF token.
    refused = post(browser, f"/api/tables/{host['code']}/commands", body)
    assert refused.status_code == 403


@pytest.mark.django_db(transaction=True)  # outside a test transaction, as a server runs it
@pytest.mark.postgres
def test_an_htmx_demloc_tap_and_its_answer_are_four_statements(make_table):
    """The table page's tap (``POST /t/<code>/command/`` with the seat cookie) at a DemLoc
    table, answered with the live region: one query finds the seat and its table by the code
    and the cookie's seats (the table's JSON columns not decoded into the model: a DemLoc
    table's setup is its whole content), one statement appends and moves the projection, and
    the answer reads the seats and the newest log lines. Nothing else: no second read of the
    table, of the seat, or of anything that does not depend on the command. Before: six, a
    transaction (BEGIN, COMMIT) around every DemLoc write for the Guild holds' receiver, which
    acts only on preparation events, undo, redo and a Guild leaving
    (``tabletop.signals.applied_when``)."""
    from django.http import HttpResponse
    from django.test import Client

    from tabletop.live import seat_view
    from tabletop.seats import remember_seat

    table, seats = make_table("demloc", players=4)
    answer = HttpResponse()
    remember_seat(answer, seats[1])
    phone = Client()
    for name, morsel in answer.cookies.items():
        phone.cookies[name] = morsel.value
    piece = seat_view(table, seats[1])["my_pieces"][0]["id"]

    def tap(delta):
        return phone.post(f"/t/{table.code}/command/", {
            "type": "demloc.tokens.adjust", "d.piece": piece, "d.token": "bleeding",
            "d.delta": str(delta)}, HTTP_HX_REQUEST="true")

    assert tap(1).status_code == 200  # the templates, the connection's prepared statements
    with CaptureQueriesContext(connection) as queries:
        response = tap(-1)
    assert response.status_code == 200 and 'id="dl-turn"' in response.content.decode()
    statements = [q["sql"].removeprefix("QUERY = '") for q in queries.captured_queries]
    assert len(statements) == 4, "\n".join(s[:120] for s in statements)
    assert statements[0].startswith("SELECT") and '"code" = ' in statements[0]
    assert statements[1].startswith('WITH "moved" AS (UPDATE "tabletop_table"')
    assert "tabletop_seat" in statements[2] and "tabletop_event" in statements[3]

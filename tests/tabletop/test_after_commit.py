"""Committed work always answers success (docs/architecture.md "The event-sourced table"): a
database connection that dies right after a command's commit still gets a 200 with the new
version, and the command is in the log exactly once (PostgreSQL: a real backend terminated
with ``pg_terminate_backend`` from another connection)."""

import json

import psycopg
import pytest
from django.db import connection, transaction

from tabletop.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): a backend to terminate")


def post(client, url, body, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def _terminate(pid: int) -> None:
    params = connection.get_connection_params()
    keep = ("host", "port", "user", "password")
    with psycopg.connect(
        dbname=params["dbname"], **{k: params[k] for k in keep if k in params}
    ) as c:
        c.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_command_whose_connection_dies_after_commit_answers_200_and_counts_once(client):
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    table_id, token = host["code"], host["seat_token"]
    post(client, f"/api/tables/{table_id}/join", {"name": "Ben"})
    started = post(client, f"/api/tables/{table_id}/commands", {"type": "table.start"}, token)
    assert started.status_code == 200

    state = {"killed": False}

    def kill():
        state["killed"] = True
        _terminate(connection.connection.info.backend_pid)

    def kill_after_commit(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if 'INSERT INTO "tabletop_event"' in sql:
            # Kill the backend the moment the command's write has committed (its transaction's
            # commit; outside one, the write statement itself): whatever the answer still needs
            # from the database (if anything) meets a dead connection.
            transaction.on_commit(kill)
        return result

    with connection.execute_wrapper(kill_after_commit):
        response = post(
            client,
            f"/api/tables/{table_id}/commands",
            {"type": "counter.add", "data": {"amount": 2}, "idempotency_key": "tap-1"},
            token,
        )
    assert state["killed"], "the test never reached the commit"
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["replayed"] is False and body["version"] >= 2
    assert body["view"]["total"] == 2, "the answer carries the committed view"
    # The test shares the request's (dead) connection; a server drops it at the request's end
    # (Django's test client keeps it open on purpose).
    connection.close()
    assert Event.objects.filter(table__code=table_id, idempotency_key="tap-1").count() == 1
    again = post(
        client,
        f"/api/tables/{table_id}/commands",
        {"type": "counter.add", "data": {"amount": 2}, "idempotency_key": "tap-1"},
        token,
    )
    assert again.json()["replayed"] is True and again.json()["version"] == body["version"]


def test_a_replayed_tap_whose_connection_dies_before_its_view_is_read_answers_200(client):
    """A repeated idempotency key answers the first result; its view is read after the commit
    (the state may have moved on), so that read meets the dead connection: one retry on a fresh
    connection, 200 with the view, nothing appended twice."""
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    code, token = host["code"], host["seat_token"]
    post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    assert post(client, f"/api/tables/{code}/commands", {"type": "table.start"}, token).status_code == 200
    tap = {"type": "counter.add", "data": {"amount": 3}, "idempotency_key": "tap-2"}
    first = post(client, f"/api/tables/{code}/commands", tap, token).json()

    state = {"wrote": False, "killed": False}

    def kill_at_the_read_after_commit(execute, sql, params, many, context):
        # The repeated tap's write is refused by the unique idempotency key (nothing is
        # appended twice); the first read after that write (the first result, then the view)
        # meets a dead connection.
        if 'INSERT INTO "tabletop_event"' in sql:
            state["wrote"] = True
        elif state["wrote"] and not state["killed"] and sql.lstrip().startswith("SELECT"):
            state["killed"] = True
            _terminate(connection.connection.info.backend_pid)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(kill_at_the_read_after_commit):
        again = post(client, f"/api/tables/{code}/commands", tap, token)
    assert state["killed"], "the test never reached a read after the commit"
    assert again.status_code == 200, again.content
    body = again.json()
    assert body["replayed"] is True and body["version"] == first["version"]
    assert body["view"]["total"] == 3
    assert Event.objects.filter(table__code=code, idempotency_key="tap-2").count() == 1


def _page_table(client):
    """A started counter table and a page client holding seat 1 in its cookie."""
    from tabletop.models import Table
    from tabletop.seats import cookie_name

    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    code, token = host["code"], host["seat_token"]
    post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    assert post(client, f"/api/tables/{code}/commands", {"type": "table.start"}, token).status_code == 200
    client.cookies[cookie_name(Table.objects.get(code=code).pk)] = token
    return code


def _killing_reads_after_commit(kills: int, state: dict):
    """An execute wrapper that terminates the request's backend (for real) before each of the
    first ``kills`` statements after the command's write, wherever they run (the render's
    reads, a fresh connection's first read)."""

    def wrapper(execute, sql, params, many, context):
        if 'INSERT INTO "tabletop_event"' in sql:
            state["wrote"] = True
        elif state.get("wrote") and state["killed"] < kills:
            if connection.connection is not None:
                pid = connection.connection.info.backend_pid
                _terminate(pid)
                state["killed"] += 1
                state.setdefault("pids", []).append(pid)
        return execute(sql, params, many, context)

    return wrapper


@pytest.mark.parametrize("kills", [1, 2])
def test_the_page_s_tap_whose_connection_dies_before_the_render_never_answers_500(client, kills):
    """The page's command path (``tabletop.views.command``) renders the live region after the
    commit: the render's reads meet a dead backend. One death: the render is tried again on a
    fresh connection (200, the new total shown). Two: the answer says the tap was applied and
    htmx loads the page again (``HX-Refresh``); never a 500, the tap stored once."""
    code = _page_table(client)
    state = {"killed": 0}
    with connection.execute_wrapper(_killing_reads_after_commit(kills, state)):
        response = client.post(f"/t/{code}/command/",
                               {"type": "counter.add", "d.amount": "4", "idempotency_key": "p-1"},
                               HTTP_HX_REQUEST="true")
    assert state["killed"] == kills, "the fault never happened"
    assert len(set(state["pids"])) == kills  # each on its own backend
    assert response.status_code == 200, response.content[:300]
    text = response.content.decode()
    if kills == 1:
        assert 'id="live"' in text and response.get("HX-Refresh") is None
    else:
        assert response["HX-Refresh"] == "true" and "applied" in text
    connection.close()
    assert Event.objects.filter(table__code=code, idempotency_key="p-1").count() == 1

"""Committed work always answers success (DESIGN.md "The event-sourced table", issue 18): a
database connection that dies right after a command's commit still gets a 200 with the new
version, and the command is in the log exactly once (PostgreSQL: a real backend terminated
with ``pg_terminate_backend`` from another connection)."""

import json

import psycopg
import pytest
from django.db import connection

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

    state = {"appended": False, "killed": False}

    def kill_after_commit(execute, sql, params, many, context):
        if 'INSERT INTO "tabletop_event"' in sql:
            state["appended"] = True
        elif (
            state["appended"]
            and not state["killed"]
            and not connection.in_atomic_block
            and sql.lstrip().startswith("SELECT")
        ):
            # The command has committed: the next read is the answer's. Kill the backend.
            state["killed"] = True
            _terminate(connection.connection.info.backend_pid)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(kill_after_commit):
        response = post(
            client,
            f"/api/tables/{table_id}/commands",
            {"type": "counter.add", "data": {"amount": 2}, "idempotency_key": "tap-1"},
            token,
        )
    assert state["killed"], "the test never reached a read after the commit"
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["replayed"] is False and body["version"] >= 2
    assert Event.objects.filter(table__code=table_id, idempotency_key="tap-1").count() == 1
    again = post(
        client,
        f"/api/tables/{table_id}/commands",
        {"type": "counter.add", "data": {"amount": 2}, "idempotency_key": "tap-1"},
        token,
    )
    assert again.json()["replayed"] is True and again.json()["version"] == body["version"]

"""``config.dbpool.check_pooled``: the pool's check on every connection it hands out looks at
the socket and asks the server only when something arrived (dead
connections still never reach a request). Real PostgreSQL backends, terminated with
``pg_terminate_backend`` from another connection."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.dbpool import check_pooled

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


class Counting(psycopg.Connection):
    """A psycopg connection that counts the statements sent through ``execute``."""

    sent = 0

    def execute(self, *args, **kwargs):
        self.sent += 1
        return super().execute(*args, **kwargs)


@pytest.fixture
def conninfo():
    params = connection.get_connection_params()
    keep = ("host", "port", "user", "password", "dbname")
    return {k: params[k] for k in keep if k in params}


def _terminate(conninfo, pid: int) -> None:
    with psycopg.connect(**conninfo, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _readable_soon(conn, seconds: float = 5.0) -> None:
    import select

    poller = select.poll()
    poller.register(conn.pgconn.socket, select.POLLIN)
    assert poller.poll(int(seconds * 1000)), "the server's close never arrived"


def test_a_healthy_connection_is_handed_out_without_a_round_trip(conninfo):
    with Counting.connect(**conninfo, autocommit=True) as conn:
        conn.execute("SELECT 1")
        sent = conn.sent
        for _ in range(5):
            check_pooled(conn)
        assert conn.sent == sent


def test_a_terminated_backend_is_refused_by_the_check(conninfo):
    conn = Counting.connect(**conninfo, autocommit=True)
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    _terminate(conninfo, pid)
    _readable_soon(conn)
    with pytest.raises(psycopg.OperationalError):
        check_pooled(conn)
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        check_pooled(conn)  # closed


def test_something_that_arrived_while_idle_is_asked_about_and_a_live_connection_passes(conninfo):
    with Counting.connect(**conninfo, autocommit=True) as conn, \
            psycopg.connect(**conninfo, autocommit=True) as other:
        conn.execute("LISTEN dbpool_test")
        other.execute("NOTIFY dbpool_test")
        _readable_soon(conn)
        sent = conn.sent
        check_pooled(conn)  # the library's empty query: the connection answers
        assert conn.sent == sent + 1


def test_the_pool_replaces_a_terminated_connection_before_handing_it_out(conninfo):
    text = " ".join(f"{k}={v}" for k, v in conninfo.items())
    with ConnectionPool(text, min_size=1, max_size=1, check=check_pooled,
                        kwargs={"autocommit": True}) as pool:
        with pool.connection() as conn:
            pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        _terminate(conninfo, pid)
        time.sleep(0.2)
        with pool.connection() as conn:
            assert conn.execute("SELECT pg_backend_pid()").fetchone()[0] != pid


def _terminate_pids(conninfo, pids) -> int:
    with psycopg.connect(**conninfo, autocommit=True) as other:
        rows = other.execute(
            "SELECT pg_terminate_backend(pid) FROM unnest(%s::integer[]) AS pid", [list(pids)]
        ).fetchall()
    return sum(1 for (killed,) in rows if killed)


def test_a_pool_whose_every_connection_was_terminated_answers_at_once(conninfo):
    """A PostgreSQL restart terminates every idle pooled connection: the next request gets a
    new one at once (psycopg_pool's own check loop waits 1, 2, 4... s between dead ones, so
    with 10 dead connections the request waited its whole 10 s timeout and failed)."""
    text = " ".join(f"{k}={v}" for k, v in conninfo.items())
    with ConnectionPool(text, min_size=10, max_size=10, timeout=10.0, check=check_pooled,
                        kwargs={"autocommit": True}) as pool:
        pool.wait(10)
        held = [pool.getconn() for _ in range(10)]
        pids = [c.execute("SELECT pg_backend_pid()").fetchone()[0] for c in held]
        for c in held:
            pool.putconn(c)
        assert _terminate_pids(conninfo, pids) == 10  # the fault really happened
        time.sleep(0.3)  # the server's close reaches the idle sockets
        started = time.monotonic()
        for _ in range(3):  # three requests in a row, each as soon as the last one ended
            with pool.connection() as conn:
                assert conn.execute("SELECT pg_backend_pid()").fetchone()[0] not in pids
        took = time.monotonic() - started
        assert took < 1.0, f"{took:.1f} s for three requests after the restart"

        # Again, with eight requests at once (a busy server's threads).
        pool.wait(10)
        held = [pool.getconn() for _ in range(10)]
        pids = [c.execute("SELECT pg_backend_pid()").fetchone()[0] for c in held]
        for c in held:
            pool.putconn(c)
        assert _terminate_pids(conninfo, pids) == 10
        time.sleep(0.3)

        def request() -> float:
            t0 = time.monotonic()
            with pool.connection() as conn:
                assert conn.execute("SELECT pg_backend_pid()").fetchone()[0] not in pids
            return time.monotonic() - t0

        with ThreadPoolExecutor(8) as threads:
            waits = list(threads.map(lambda _: request(), range(8)))
        assert max(waits) < 1.0, waits


def _backends(conninfo, spare: int) -> dict[int, str]:
    """Backends of the test database but this test's own (``spare``) and the asking one, by pid,
    each with what it is doing (for the failure's message)."""
    with psycopg.connect(**conninfo, autocommit=True) as other:
        rows = other.execute(
            "SELECT pid, coalesce(application_name, '') || ' ' || coalesce(state, '') || ' '"
            " || left(coalesce(query, ''), 80) FROM pg_stat_activity WHERE datname = %s"
            " AND pid <> %s AND pid <> pg_backend_pid()", [conninfo["dbname"], spare],
        ).fetchall()
    return dict(rows)


@pytest.mark.django_db(transaction=True)
def test_a_request_gives_its_connection_back_before_its_response_is_sent(conninfo, make_table):
    """Django's ASGI handler gives the request's connection back at ``request_finished``, once
    the body went out: under load each request held a pooled connection while the event loop
    sent it, and the pool ran dry (the soak's 5xx, docs/operations.md "Recovery").
    ``config.dbpool.ReleaseConnectionMiddleware`` gives it back before. The real handler, a real
    view reading the table, a client that has not taken the body yet: no backend is left."""
    import asyncio

    from django.core.handlers.asgi import ASGIHandler

    from tabletop.seats import seat_token

    table, seats = make_table()
    token = seat_token(seats[0])
    connection.ensure_connection()
    own = connection.connection.info.backend_pid
    # A backend an earlier test of this process left open (another test's thread) is not this
    # request's: only the backends that appear during the request count.
    before = set(_backends(conninfo, own))
    seen: dict = {}

    async def receive():
        if not seen.get("asked"):
            seen["asked"] = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never leaves

    async def send(message):
        if message["type"] == "http.response.start":
            seen["status"] = message["status"]
        elif message["type"] == "http.response.body" and "backends" not in seen:
            # The body is about to go out (a slow phone, a busy loop): count what is held.
            counts = []
            for _ in range(10):
                now = await asyncio.to_thread(_backends, conninfo, own)
                counts.append({pid: what for pid, what in now.items() if pid not in before})
                if not counts[-1]:
                    break
                await asyncio.sleep(0.1)
            seen["backends"] = counts

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": f"/api/tables/{table.code}/view",
        "raw_path": f"/api/tables/{table.code}/view".encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 40000), "server": ("testserver", 80),
        "headers": [(b"host", b"testserver"), (b"x-seat-token", token.encode())],
    }
    asyncio.run(ASGIHandler()(scope, receive, send))
    assert seen["status"] == 200
    assert seen["backends"] and seen["backends"][-1] == {}, seen["backends"]

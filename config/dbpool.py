"""The check psycopg's pool runs on every connection it hands out (``config/settings.py``).

``psycopg_pool.ConnectionPool.check_connection`` sends an empty query and waits for the
answer: one more round trip to PostgreSQL on every request, as many as a one-row insert costs
(about 45% of the time a served table command spent in its view, py-spy). What it
catches is a connection whose server end is gone while it sat in the pool: a restarted
PostgreSQL, a terminated backend, an idle timeout. Each of those makes the server write its
last words (an error) and close the socket, so the socket turns readable: ``check_pooled``
looks at the socket without waiting (``poll`` with no timeout) and runs the library's round
trip only when something arrived or the connection is no longer usable. A healthy idle
connection has nothing to read, and costs no round trip. What neither check can see is a
server that vanished without closing (a black-holed network): the library's empty query would
block there too, until TCP gives up.

A dead connection is rarely alone: a PostgreSQL restart (or an operator's
``pg_terminate_backend``) ends every idle connection of the pool at once. psycopg_pool's own
loop, handing out one idle connection after another, waits between two that fail the check
(1, 2, 4 s: its reconnection backoff), so with ten dead connections a request waited its
whole timeout and failed (``PoolTimeout`` after 10 s). So the first dead connection found
makes ``check_pooled`` check every other idle connection of the pool at once
(``ConnectionPool.check``: the dead ones are discarded and replaced by new connections made
in the pool's background workers); the request then waits only for a new connection (a few
milliseconds), and never meets a second dead one.
"""

from __future__ import annotations

import select

import psycopg
from psycopg_pool import ConnectionPool


def check_pooled(conn: psycopg.Connection) -> None:
    """Return quietly when ``conn`` looks alive; raise (``psycopg.OperationalError``) when it
    is not, so the pool discards it and hands out another. No round trip unless the server
    wrote something while the connection was idle (see the module docstring)."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the pooled connection is closed")
    try:
        fd = conn.pgconn.socket
    except Exception as exc:  # no socket (psycopg raises OperationalError): not usable
        raise psycopg.OperationalError("the pooled connection has no socket") from exc
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    if poller.poll(0):
        # an error, a notice or the end of the connection arrived: ask the server
        try:
            ConnectionPool.check_connection(conn)
        except psycopg.Error:
            _sweep(conn)
            raise


def _sweep(conn: psycopg.Connection) -> None:
    """``conn`` was dead: check every idle connection of its pool now (``ConnectionPool.check``
    discards the dead ones and starts replacing them), so the request asking for a connection
    meets no second dead one and waits for no backoff (see the module docstring)."""
    pool = getattr(conn, "_pool", None)  # set by the pool on the connection it hands out
    if isinstance(pool, ConnectionPool):
        pool.check()

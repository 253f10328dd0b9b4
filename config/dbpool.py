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
        ConnectionPool.check_connection(conn)

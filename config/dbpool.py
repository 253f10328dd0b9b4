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
from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.db import connections
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


class ReleaseConnectionMiddleware:
    """Give the request's database connection back (to the pool) as soon as its response is
    made, before the response is sent.

    Django gives it back on ``request_finished``, which its ASGI handler sends only after the
    whole body went out to the client (and after two more hops between the event loop and the
    request's thread): under load every request held a pooled connection while it waited for
    the loop, a burst of requests beyond the pool's size then waited for connections (up to the
    pool's 10 s timeout, then a 500 ``PoolTimeout``), heartbeats were answered late, phones
    reconnected, and each reconnect asked for connections again: the soak's collapse
    (docs/operations.md "Recovery"). First in ``MIDDLEWARE`` (everything after it, the session
    save included, has used the database by then). A connection inside a transaction is left
    alone (a test's, or a caller's ``atomic``); a query after this (a streamed body) takes a
    connection again, given back at ``request_finished`` as before.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        response = self.get_response(request)
        release_connections()
        return response

    async def __acall__(self, request):
        response = await self.get_response(request)
        # In the request's thread (thread-sensitive), where the view's connection lives.
        await sync_to_async(release_connections)()
        return response


def release_connections() -> None:
    """Close (with the pool: give back) this thread's database connections that are not inside
    a transaction, as ``request_finished`` does (``close_if_unusable_or_obsolete``: with
    ``CONN_MAX_AGE`` 0, the pool's setting, every one)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()

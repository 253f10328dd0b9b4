"""Prepared statements for the command path (the live path at the speed of an insert).

Django's PostgreSQL backend binds parameters on the client (psycopg's ``ClientCursor``): the
values are spliced into the SQL text, so PostgreSQL parses and plans every statement again.
For the two statements of a table command (the seat and table read, the one-statement write)
that planning was about 0.2 ms of the database's CPU each, and the splicing about 35 us of
ours. The loop of ``bench/append.py --floor`` (the same two statements through bare psycopg, one
thread) did 1,014 commands/s with ``prepare=False`` and 1,750 prepared, one after the other on
the same machine (2026-12-01, once: a before/after, not a benchmark of record).

``cursor()`` is ``connection.cursor()`` except that on PostgreSQL the cursor binds on the
server and prepares each statement (psycopg's ``prepare=True``: the first execution on a
connection prepares it, the next ones only send the values). It is wrapped by Django like any
cursor: database errors are Django's (``IntegrityError`` and the rest), and
``connection.queries`` / ``CaptureQueriesContext`` see the statements. Only statements whose
parameters all have a type PostgreSQL can infer belong here (casts such as ``%s::jsonb``
where it cannot). Other backends (the embedded SQLite default) get ``connection.cursor()``.

A prepared statement lives as long as its connection (psycopg keeps at most
``prepared_max``, 100, per connection). A migration that changes a prepared statement's
columns needs the processes restarted (a deploy does); a transaction-pooling PgBouncer in
front of PostgreSQL would need ``cursor()`` to fall back to ``connection.cursor()``.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

try:
    from django.db.backends.postgresql.base import ServerBindingCursor
except Exception:  # no psycopg 3 installed: only SQLite is used
    ServerBindingCursor = None


if ServerBindingCursor is not None:

    class PreparedCursor(ServerBindingCursor):
        """Django's server-binding psycopg cursor whose statements are prepared."""

        def execute(self, query, params=None, *, prepare=True, binary=None):
            return super().execute(query, params, prepare=prepare, binary=binary)


def cursor(db=None):
    """A cursor of ``db`` (a Django connection; the default one when None): prepared,
    server-bound on PostgreSQL (see the module docstring), else ``db.cursor()``. Use it as
    ``with cursor() as c: ...``. Raises what ``db.cursor()`` raises (``django.db`` errors)."""
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]  # one look-up of this thread's connection
    if db.vendor != "postgresql" or ServerBindingCursor is None:
        return db.cursor()
    # What BaseDatabaseWrapper._cursor does, with our cursor class in place of create_cursor's.
    db.close_if_health_check_failed()
    db.ensure_connection()
    with db.wrap_database_errors:
        return db._prepare_cursor(PreparedCursor(db.connection))

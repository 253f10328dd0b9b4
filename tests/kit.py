"""The kit's pytest plugin (``tests/conftest.py`` loads it): what the tests of every app share.

- ``phone(table, seat=None, headers=())``: a phone's websocket on the table
  (``/ws/tables/<code>/`` of ``config.asgi``, this site's origin, the seat's cookie when a seat
  is given), connected; the caller disconnects it.
- ``refusal(fn, *args, **kwargs)``: ``fn(*args, **kwargs)`` must raise a ``TabletopError``;
  returns it. ``refused(code, fn, *args, **kwargs)``: the same, and its code is ``code``.
- ``refused_unchanged(sim, seat, type_, data=None)``: a ``tabletop.testing.Sim`` refuses the
  command and is left as it was (state, undo history, log); returns the error.
  ``sim_table(sim)``: what it compares.
- ``race(n, action, catch=Exception, timeout=60)``: ``action(i)`` for ``i`` in ``0..n-1`` in
  ``n`` threads released together (real concurrent transactions, each thread its own
  connection, closed after); returns each outcome, or the ``catch`` exception it raised.
- the ``postgres`` marker: a test marked ``@pytest.mark.postgres`` is skipped, with the reason,
  unless the test database is PostgreSQL (real concurrent transactions, server-side statements).
- an ``async`` test that reaches the database must be transactional
  (``@pytest.mark.django_db(transaction=True)``), else it fails at set-up: what it runs through
  ``sync_to_async`` uses another thread's connection, which commits outside the test's
  transaction, and the rows it writes stay for the next test on the same worker.
"""

from __future__ import annotations

import inspect
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tabletop.errors import TabletopError

ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


async def phone(table, seat=None, headers=()) -> WebsocketCommunicator:
    """A connected websocket phone at ``table``: a guest in ``seat`` (its seat cookie), or a
    watcher when ``seat`` is None; ``headers`` are added (``(name, value)`` bytes pairs)."""
    from config.asgi import application
    from tabletop.seats import cookie_name, seat_token

    sent = [*ORIGIN, *headers]
    if seat is not None:
        token = await sync_to_async(seat_token)(seat)
        sent.append((b"cookie", f"{cookie_name(table.pk)}={token}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.code}/", headers=sent)
    connected, _ = await comm.connect()
    assert connected, "the table's socket refused the phone"
    return comm


def refusal(fn, *args, **kwargs) -> TabletopError:
    """Call ``fn``; it must refuse (a ``TabletopError``). Returns the error."""
    with pytest.raises(TabletopError) as exc:
        fn(*args, **kwargs)
    return exc.value


def refused(code: str, fn, *args, **kwargs) -> TabletopError:
    """Call ``fn``; it must refuse with ``code`` (a ``TabletopError``). Returns the error."""
    error = refusal(fn, *args, **kwargs)
    assert error.code == code, f"refused with {error.code!r}, not {code!r}: {error}"
    return error


def sim_table(sim) -> str:
    """What a refusal must leave as it was on a ``tabletop.testing.Sim``: its state, its undo
    history and the length of its log, as one text to compare."""
    return json.dumps([sim.state, sim.meta.dump(), len(sim.log)], sort_keys=True)


def refused_unchanged(sim, seat, type_: str, data: dict | None = None) -> TabletopError:
    """``sim.send(seat, type_, data)`` must refuse, leaving the table as it was: its state, its
    undo history and its log (a refusal changes nothing). Returns the error."""
    before = sim_table(sim)
    error = refusal(sim.send, seat, type_, data)
    assert sim_table(sim) == before, f"the refused {type_} ({error.code}) changed the table"
    return error


def race(n: int, action, catch: type[BaseException] | tuple = Exception, timeout: float = 60):
    """``[outcome of action(i) or the exception of type catch it raised, ...]`` for ``i`` in
    ``0..n-1``, run in ``n`` threads that start together (a barrier); each closes its database
    connections when done. Another exception is raised in its thread (and its outcome is None)."""
    from django.db import connections

    barrier = threading.Barrier(n)
    outcomes: list = [None] * n

    def run(i):
        try:
            barrier.wait()
            outcomes[i] = action(i)
        except catch as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return outcomes


def untransactional_async_db_test(item) -> bool:
    """True when ``item`` is an ``async`` test that reaches the database (the ``db`` fixture or
    a ``django_db`` marker) without being transactional (the ``transactional_db`` or
    ``live_server`` fixture, or ``django_db(transaction=True)``)."""
    if not inspect.iscoroutinefunction(getattr(item, "function", None)):
        return False
    names = set(item.fixturenames)
    marker = item.get_closest_marker("django_db")
    if marker is None and "db" not in names:
        return False
    if names & {"transactional_db", "live_server"}:
        return False
    return not (marker is not None and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)))


def pytest_runtest_setup(item):
    if untransactional_async_db_test(item):
        pytest.fail(
            "an async test that reaches the database must be marked "
            "@pytest.mark.django_db(transaction=True): its sync_to_async calls commit on "
            "another thread's connection, outside the test's transaction (tests/kit.py)",
            pytrace=False,
        )
    if item.get_closest_marker("postgres") is None:
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): real concurrent transactions")

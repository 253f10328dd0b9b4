"""The kit's pytest plugin (``tests/conftest.py`` loads it): what the tests of every app share.

- ``phone(table, seat=None, headers=())``: a phone's websocket on the table
  (``/ws/tables/<code>/`` of ``config.asgi``, this site's origin, the seat's cookie when a seat
  is given), connected; the caller disconnects it.
- ``refused(code, fn, *args, **kwargs)``: ``fn(*args, **kwargs)`` must raise a ``TabletopError``
  with ``code``; returns the error (its message, status and fields to check further).
- the ``postgres`` marker: a test marked ``@pytest.mark.postgres`` is skipped, with the reason,
  unless the test database is PostgreSQL (real concurrent transactions, server-side statements).
"""

from __future__ import annotations

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


def refused(code: str, fn, *args, **kwargs) -> TabletopError:
    """Call ``fn``; it must refuse with ``code`` (a ``TabletopError``). Returns the error."""
    with pytest.raises(TabletopError) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code, f"refused with {exc.value.code!r}, not {code!r}: {exc.value}"
    return exc.value


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") is None:
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): real concurrent transactions")

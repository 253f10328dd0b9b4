"""config/request_threads.py: each HTTP request's thread-sensitive code runs in one thread
lent for it, and the next request is lent the same thread instead of a new one."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started
from django.db import connection

from config import asgi as config_asgi
from config.asgi import application
from config.request_threads import LentRequestThreads
from tabletop.models import Table


async def _get(app, path="/"):
    return await HttpCommunicator(app, "GET", path).get_response(timeout=5)


def _threads_app(seen: list):
    """An ASGI app whose request makes two thread-sensitive calls and notes their threads."""

    async def app(scope, receive, send):
        await receive()
        first = await sync_to_async(threading.get_ident)()
        second = await sync_to_async(threading.get_ident)()
        seen.append((first, second))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


async def test_a_request_runs_in_one_thread_and_the_next_is_lent_the_same():
    seen: list = []
    app = LentRequestThreads(_threads_app(seen))
    for _ in range(3):
        assert (await _get(app))["status"] == 200
    assert all(first == second for first, second in seen)
    assert len({first for first, _ in seen}) == 1  # one thread served all three, in turn
    assert len(app.idle) == 1
    name = app.idle[0].submit(lambda: threading.current_thread().name).result()
    assert name.startswith("request")  # a lent thread, not asgiref's process-wide one


async def test_a_request_that_raises_gives_its_thread_back():
    async def app(scope, receive, send):
        await receive()
        await sync_to_async(threading.get_ident)()
        raise ValueError("the view broke")

    lent = LentRequestThreads(app)
    with pytest.raises(ValueError):
        await _get(lent)
    assert len(lent.idle) == 1 and lent.idle[0].busy == 0


async def test_requests_at_once_each_have_a_thread_of_their_own():
    both = threading.Barrier(2, timeout=5)  # broken (an error) if the two shared one thread

    async def app(scope, receive, send):
        await receive()
        await sync_to_async(both.wait)()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    lent = LentRequestThreads(app, keep=1)
    answers = await asyncio.gather(_get(lent), _get(lent))
    assert [a["status"] for a in answers] == [200, 200]
    assert len(lent.idle) == 1  # the second executor was shut down, not kept


async def test_a_thread_still_busy_when_its_request_ends_is_not_lent_again():
    release = threading.Event()
    seen: list = []

    async def app(scope, receive, send):
        await receive()
        seen.append(await sync_to_async(threading.get_ident)())
        if len(seen) == 1:  # a call still running when the request ends (a cancelled await)
            waiting = asyncio.ensure_future(sync_to_async(release.wait)())
            await asyncio.sleep(0.05)
            waiting.cancel()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    lent = LentRequestThreads(app)
    try:
        await _get(lent)
        assert lent.idle == []
        await _get(lent)
        assert seen[0] != seen[1]  # the second request did not queue behind the first's wait
    finally:
        release.set()


async def test_a_websocket_passes_through_without_a_lent_thread():
    seen: list = []

    async def app(scope, receive, send):
        seen.append(SyncToAsync.thread_sensitive_context.get(None))

    await LentRequestThreads(app)({"type": "websocket"}, None, None)
    assert seen == [None]


@pytest.mark.django_db(transaction=True)
async def test_the_served_application_lends_its_threads_to_django_requests():
    """Through config.asgi's application: Django's request signals run in the lent thread, a
    table is written, and a second request is served by the first one's thread."""
    threads: list = []

    def note(**kwargs):
        threads.append(threading.current_thread())

    request_started.connect(note, dispatch_uid="lent-threads-test")
    request_finished.connect(note, dispatch_uid="lent-threads-test")
    try:
        for name in ("Ann", "Bob"):
            body = json.dumps({"ruleset": "counter", "name": name}).encode()
            communicator = HttpCommunicator(
                application, "POST", "/api/tables/", body=body,
                headers=[(b"content-type", b"application/json"), (b"host", b"testserver"),
                         (b"content-length", str(len(body)).encode())],
            )
            answer = await communicator.get_response(timeout=10)
            await communicator.wait(timeout=10)  # the request done (request_finished sent)
            assert answer["status"] == 201, answer["body"]
    finally:
        request_started.disconnect(dispatch_uid="lent-threads-test")
        request_finished.disconnect(dispatch_uid="lent-threads-test")
    assert len(threads) == 4 and len(set(threads)) == 1
    assert threads[0].name.startswith("request")
    assert await _tables() == 2
    # The thread outlives the requests; their database connection does not (each request
    # closes its thread's connection at its end: the next one opens or borrows its own).
    lent = config_asgi.http_app
    assert lent.idle and lent.idle[-1].submit(lambda: connection.connection).result() is None


@sync_to_async
def _tables() -> int:
    """How many tables were written, read on a connection closed again (the test database
    is dropped after the test)."""
    try:
        return Table.objects.count()
    finally:
        connection.close()

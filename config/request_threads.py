"""Each HTTP request's thread, lent from a set of idle ones instead of started anew
(docs/architecture.md "The live path").

Django's ASGI handler runs a request's synchronous code (the middlewares, the view, the
``request_started``/``request_finished`` receivers) in one thread of its own:
``ThreadSensitiveContext`` makes a one-thread executor for each request and, on leaving, joins
that thread from another new thread (asgiref 3.13, so that the loop never blocks on the join).
That is two thread starts and a join for every request, the bare insert's included: about
0.5 ms of a web process's CPU a request on this project's 2-core machine (docs/performance.md
"DemLoc at an evening's scale", the sitting of 2026-12-08).

asgiref's ``ThreadSensitiveContext(executor=...)`` takes an executor that its caller owns and
keeps. This ASGI wrapper lends each HTTP request an idle one-thread executor for the whole
request, so every thread-sensitive call of one request still runs in one thread, as Django
requires. It takes the executor back when the request is done. Django's own
``ThreadSensitiveContext`` inside finds the context set and does nothing.

A lent thread serves one request after another, so what is per thread now outlives a request.
Django's database connections are per thread (``connections`` is thread-critical): a request
starts and ends by closing its thread's connection (``close_old_connections`` on
``request_started`` and ``request_finished``, ``CONN_MAX_AGE`` 0, the pool's setting: closing
gives it back to the pool), so the next request in the thread opens or borrows its own. With
a ``CONN_MAX_AGE`` above 0, up to ``keep`` threads a process would keep a connection each.

An executor that still has work when its request ends is not lent again but shut down
(without waiting): a request whose task was cancelled (the server shutting down) while its
view ran. A client that goes away does not end the request early: Django's
``request_finished`` receivers queue behind the view in the same thread. At most ``keep``
idle executors are kept; when more requests than that run at once, the extra executors are
shut down on return. A task started by a request that makes a thread-sensitive call after its
request ended raises ``RuntimeError`` (asgiref: the context's executor is the caller's), where
before it was given a new thread.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext


class RequestExecutor(ThreadPoolExecutor):
    """A one-thread executor that counts the calls it has not finished (``busy``)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._lock = threading.Lock()
        self.busy = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        with self._lock:
            self.busy += 1
        try:
            future = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return future

    def _done(self, _future) -> None:
        with self._lock:
            self.busy -= 1


class LentRequestThreads:
    """ASGI middleware: each ``http`` request runs its thread-sensitive code (its whole Django
    handling) in a thread lent for that request; other scopes (websockets) pass through.

    ``app``: the ASGI application to wrap; ``keep``: the most idle executors kept (each is one
    parked thread, about 8 MiB of virtual stack and little resident memory)."""

    def __init__(self, app, keep: int = 32):
        self.app = app
        self.keep = keep
        self.idle: list[RequestExecutor] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        executor = self.idle.pop() if self.idle else RequestExecutor()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            if executor.busy == 0 and len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)

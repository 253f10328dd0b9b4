"""The shared cache (Django's ``default``: Redis in production) as one object per process.

``django.core.cache.cache`` is a proxy to a cache object kept per asyncio context (asgiref's
``Local``, restored into the caller's context after each ``sync_to_async``): the gate's
throttles, read when a phone's websocket connects, made a cache object for that socket, with
its own Redis connection pool and connection, kept for as long as the socket was open: about
30 KiB of the server's memory a phone and one Redis client each (docs/performance.md "DemLoc
at an evening's scale"), and a new Redis connection for each HTTP request through the gate.
``process_cache()`` is made once and shared by every thread and task of the process
(redis-py's pool is thread-safe); a change of ``CACHES`` (a test's ``settings``) makes it
again.
"""

from __future__ import annotations

import threading

from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.signals import setting_changed

_lock = threading.Lock()
_cache: BaseCache | None = None


def process_cache() -> BaseCache:
    """The ``default`` cache, one object for the whole process."""
    global _cache
    cache = _cache
    if cache is None:
        with _lock:
            if _cache is None:
                _cache = caches.create_connection(DEFAULT_CACHE_ALIAS)
            cache = _cache
    return cache


def _forget(setting: str, **_kwargs) -> None:
    global _cache
    if setting == "CACHES":
        with _lock:
            _cache = None


setting_changed.connect(_forget)

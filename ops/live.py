"""Process-local counters that the operations page reads through the cache (Redis when there
is one: every process's figures; the embedded default's local cache: this process only).

- ``socket_opened(table_id)`` / ``socket_closed(table_id)``: called by the table consumer; the
  open sockets per table of this process are published every few seconds.
- ``RecentErrors``: a logging handler keeping this process's ERROR records of the last hour.

Each process publishes under its own key (``ops:proc:<host>:<pid>``) and lists itself in
``ops:procs``; entries expire, so a killed process drops out within a minute.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import defaultdict, deque

from django.core.cache import cache

PROCESS = f"{socket.gethostname()}:{os.getpid()}"
PUBLISH_EVERY = 5.0  # seconds
TTL = 60  # seconds a process's figures stay without a refresh

_lock = threading.Lock()
_sockets: dict[int, int] = defaultdict(int)
_errors: deque = deque(maxlen=200)
_published = 0.0


def socket_opened(table_id: int) -> None:
    """Count an open socket (no I/O: safe on the event loop); published by ``heartbeat``."""
    global _published
    with _lock:
        _sockets[table_id] += 1
        _published = 0.0


def socket_closed(table_id: int) -> None:
    global _published
    with _lock:
        _sockets[table_id] -= 1
        if _sockets[table_id] <= 0:
            _sockets.pop(table_id, None)
        _published = 0.0


def heartbeat_due() -> bool:
    """True (once per ``PUBLISH_EVERY``, sooner after a socket opened or closed) when this
    process's figures are due: the caller then runs ``publish_now`` off the event loop. No I/O
    (the consumer asks on the loop, on pings)."""
    global _published
    with _lock:
        now = time.monotonic()
        if now - _published < PUBLISH_EVERY:
            return False
        _published = now
        return True


def publish_now() -> None:
    """Publish this process's figures (cache I/O: off the event loop)."""
    _maybe_publish(force=True)


def heartbeat() -> None:
    """Publish this process's figures if due (every 5 s; sooner after a socket opened or
    closed). Does cache I/O: the consumer calls it off the event loop, on pings."""
    _maybe_publish()


def _maybe_publish(force: bool = False) -> None:
    global _published
    now = time.monotonic()
    if not force and now - _published < PUBLISH_EVERY:
        return
    _published = now
    cutoff = time.time() - 3600
    with _lock:
        figures = {
            "sockets": dict(_sockets),
            "errors": [e for e in _errors if e["at"] >= cutoff],
            "at": time.time(),
        }
    try:
        cache.set(f"ops:proc:{PROCESS}", figures, TTL)
        procs = cache.get("ops:procs") or {}
        procs = {p: t for p, t in procs.items() if t > time.time() - TTL}
        procs[PROCESS] = time.time()
        cache.set("ops:procs", procs, 24 * 3600)
    except Exception:  # noqa: BLE001 - figures for operators must never break a request
        pass


def snapshot() -> list[dict]:
    """Every live process's figures: ``[{"process", "sockets" {table_id: n}, "errors", "at"}]``."""
    _maybe_publish(force=True)
    try:
        procs = cache.get("ops:procs") or {}
        found = cache.get_many([f"ops:proc:{p}" for p in procs])
    except Exception:  # noqa: BLE001
        return []
    return [{"process": key.removeprefix("ops:proc:"), **value} for key, value in found.items()]


class RecentErrors(logging.Handler):
    """Keeps ERROR records of this process (time, logger, message) for the operations page."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            with _lock:
                _errors.append(
                    {
                        "at": record.created,
                        "logger": record.name,
                        "message": record.getMessage()[:300],
                    }
                )
        except Exception:  # noqa: BLE001
            pass
        # Published with the next refresh (never from inside a logging call: no recursion).

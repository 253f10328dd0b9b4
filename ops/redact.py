"""Secrets never reach the server's log (docs/operations.md, "Serving it safely").

A seat's move link ``/rejoin/<signed token>/`` hands its seat to whoever opens it; Django logs
the path of a refused request (CSRF: ``Forbidden (CSRF token missing.): /rejoin/eyJ...``, a 404,
a 400), so ``RedactSecrets`` (a ``logging.Filter`` on every handler of ``LOGGING``) replaces the
token in a record's message and arguments with ``…`` before any handler writes it.

``OneLine`` (on the ``django.security.DisallowedHost`` logger) keeps a refused request's record
to one line: a request with a ``Host`` that is not in ``ALLOWED_HOSTS`` is a 400 that Django
logs at ERROR with the whole traceback of ``request.get_host()``; a scanner sends many."""

from __future__ import annotations

import logging
import re

_SECRET_PATH = re.compile(r"(/rejoin/)[^/\s?#\"']+")


def redact(text: str) -> str:
    """``text`` with every move-link token replaced by ``…``."""
    return _SECRET_PATH.sub(r"\1…", text)


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and string arguments (``redact``); keeps every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


class OneLine(logging.Filter):
    """Drops a record's traceback (``exc_info``, ``exc_text``, ``stack_info``) and logs it at
    WARNING: a client's mistake that the server refused, not a server error (the operations
    page's recent errors keep ERROR records only). Keeps every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        if record.levelno > logging.WARNING:
            record.levelno = logging.WARNING
            record.levelname = logging.getLevelName(logging.WARNING)
        return True

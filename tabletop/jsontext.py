"""JSON text on the command path, through orjson, with the standard library's
meaning (pure: no Django).

A command decodes the state and meta it decides on and encodes what it writes, and the fan-out
decodes what the command committed: about a sixth of a command's CPU with the standard
library's ``json`` (``bench/append.py``), several times less with orjson. ``dumps`` and
``loads`` give the values ``json.dumps``/``json.loads`` give for every value this kit stores;
where orjson refuses or reads otherwise what the standard library takes (a key that is not a
string, an integer beyond 64 bits, ``NaN``), they fall back to the standard library, so nothing that worked
before raises now. The text is compact (no spaces): PostgreSQL's ``jsonb`` keeps no spacing
anyway. ``NaN`` and infinities are encoded by the standard library as before (``NaN``, which
``jsonb`` refuses: ``services._check_command_shape`` never lets one in).
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any

import orjson


def _finite(value: Any) -> bool:
    """False when a float in ``value`` is NaN or infinite (orjson would write ``null``)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True


def dumps(value: Any) -> str:
    """``value`` as JSON text, the values of ``json.dumps(value)`` (dict order kept, tuples as
    arrays, non-string keys as strings). Raises ``TypeError``/``ValueError`` as ``json.dumps``
    does for what JSON cannot hold."""
    try:
        text = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError: non-str keys, big ints, other types
        return json.dumps(value)
    if b"null" in text and not _reads_back(text, value) and not _finite(value):
        return json.dumps(value)
    return text.decode()


def _reads_back(text: bytes, value: Any) -> bool:
    """True when ``text`` reads back as ``value``: then no float in it was NaN or infinite
    (orjson writes those ``null``, and ``None`` equals neither). A C-speed check (a DemLoc
    state: about 0.1 ms, against 0.3 ms for ``_finite``'s walk); False also when ``value``
    holds tuples (they read back as lists), for which ``_finite`` decides."""
    try:
        return bool(orjson.loads(text) == value)
    except orjson.JSONDecodeError:
        return False


# 19 digits or more: maybe an integer beyond 64 bits, which orjson would read as a float.
# Found by mapping every digit to "0" and everything else to " " (bytes.translate, C speed:
# about 10 us on a DemLoc state where the regular expression [0-9]{19} took 150 us).
_DIGITS_ONLY = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * 19


def _long_number(text: str | bytes | bytearray) -> bool:
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    return _LONG_RUN in raw.translate(_DIGITS_ONLY)


def loads(text: str | bytes | bytearray) -> Any:
    """The value of JSON ``text`` (as ``json.loads``). Raises ``ValueError`` on bad JSON."""
    if _long_number(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN text, integers beyond 64 bits, ...: the slow path
        return json.loads(text)


#: The newest values written by ``dumps_kept``, by their text (this process only).
_KEPT: dict[str, Any] = {}
_KEPT_LOCK = threading.Lock()
#: How many ``dumps_kept`` values a process keeps (a few table states: about 20 KB each).
KEPT = 64


def dumps_kept(value: Any) -> str:
    """``dumps(value)``, and ``value`` kept under that text when the text reads back as it
    (no tuple, no key that is not a string, no NaN): a ``loads_kept`` of the same text in
    this process (the fan-out of the state a command just committed,
    ``tabletop.fanout.with_row``) then gives ``value`` itself, not a copy decoded again, so
    what was worked out from it (a DemLoc state's per-piece view, ``missions.rules.view``) is
    shared. The value must not change afterwards (a committed state never does)."""
    try:
        raw = orjson.dumps(value)
    except TypeError:  # as ``dumps``: the standard library's text, never kept
        return json.dumps(value)
    back = _reads_back(raw, value)  # the check ``dumps`` makes of a text with nulls, made once
    if not back and b"null" in raw and not _finite(value):
        return json.dumps(value)
    text = raw.decode()
    if back:
        with _KEPT_LOCK:
            _KEPT.pop(text, None)
            _KEPT[text] = value
            while len(_KEPT) > KEPT:
                del _KEPT[next(iter(_KEPT))]
    return text


def loads_kept(text: str) -> Any:
    """The value ``dumps_kept`` kept under ``text`` (equal text: the same value, in the same
    key order), else ``loads(text)``. Callers must not change it."""
    with _KEPT_LOCK:
        found = _KEPT.get(text, _KEPT)
    return loads(text) if found is _KEPT else found

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
import re
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
    if b"null" in text and not _finite(value):
        return json.dumps(value)
    return text.decode()


# 19 digits or more: maybe an integer beyond 64 bits, which orjson would read as a float.
_LONG_NUMBER = re.compile(r"[0-9]{19}")
_LONG_NUMBER_BYTES = re.compile(rb"[0-9]{19}")


def loads(text: str | bytes | bytearray) -> Any:
    """The value of JSON ``text`` (as ``json.loads``). Raises ``ValueError`` on bad JSON."""
    if isinstance(text, str):
        long_number = _LONG_NUMBER.search(text) is not None
    else:
        long_number = _LONG_NUMBER_BYTES.search(text) is not None
    if long_number:
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN text, integers beyond 64 bits, ...: the slow path
        return json.loads(text)

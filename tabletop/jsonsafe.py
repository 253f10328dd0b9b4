"""JSON from outside, bounded: a body nested thousands of levels deep (a few KB) makes
Python's parser raise ``RecursionError``, and a few hundred levels still break whatever walks
the value later (storing, copying, rendering). Every JSON we read from a client goes through
``loads_bounded`` (the DRF parser ``BoundedJSONParser``, the page command form)."""

from __future__ import annotations

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32  # levels of arrays/objects; commands and forms need 3 or 4


class JSONTooDeep(ValueError):
    """The JSON nests arrays/objects deeper than ``MAX_DEPTH``."""


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise ``JSONTooDeep`` if ``text`` opens more than ``max_depth`` arrays/objects at once
    (brackets inside strings do not count). Linear, no recursion."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise JSONTooDeep(f"JSON nested deeper than {max_depth} levels")
        elif ch in "]}":
            depth -= 1


def loads_bounded(text: str | bytes, max_depth: int = MAX_DEPTH):
    """``json.loads`` that refuses (``JSONTooDeep``, a ``ValueError``) nesting deeper than
    ``max_depth``; malformed JSON raises ``ValueError`` as usual."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    check_depth(text, max_depth)
    return json.loads(text)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with ``MAX_DEPTH``: too deep is a 400 ``parse_error``."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", "utf-8")
        try:
            text = stream.read().decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError("The body is not valid UTF-8.") from exc
        try:
            return loads_bounded(text)
        except JSONTooDeep as exc:
            raise ParseError(f"The JSON is nested too deeply (at most {MAX_DEPTH} levels).") from exc
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc

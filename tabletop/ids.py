"""Numbers that come in from outside (form fields, JSON bodies, URL parts), with ranges.

The digits rule lives in one place, ``tabletop.decider.parse_int`` (ASCII digits only: "²" and
"١٢" pass ``str.isdigit`` but are no number of ours); this module adds ranges to it. Every id is
a database primary key, 1..``MAX_ID`` (2**63 - 1, PostgreSQL's BIGINT): a larger one would
crash the database driver, so it is refused before any query. Pure (no Django).
"""

from __future__ import annotations

from tabletop.decider import parse_int as _parse_int
from tabletop.errors import RuleViolation

MAX_ID = 2**63 - 1


def parse_int(value, *, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """``value`` read by ``tabletop.decider.parse_int`` and within ``minimum``..``maximum``;
    ``None`` for anything else. Never raises."""
    number = _parse_int(value)
    if number is None:
        return None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        return None
    return number


def parse_id(value) -> int | None:
    """``value`` as a row id in 1..``MAX_ID``, else ``None`` (no sign; ids may have 19 ASCII
    digits, one more than ``parse_int`` reads)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("-") or len(text) > 19:
            return None
        if len(text) == 19:
            if not (text.isascii() and text.isdigit()):
                return None
            return int(text) if int(text) <= MAX_ID else None
    elif isinstance(value, int) and not isinstance(value, bool):
        return value if 1 <= value <= MAX_ID else None
    return parse_int(value, minimum=1, maximum=MAX_ID)


def _odd_digits(text: str) -> bool:
    body = text.strip().lstrip("-")
    return bool(body) and body.isdigit() and not body.isascii()


def odd_number_path(value, depth: int = 0) -> str | None:
    """Where in ``value`` (command data: dicts, lists, strings) a string of non-ASCII digits
    sits ("²", "١٢", "１"), as a dotted path; ``None`` when there is none. Such strings pass
    ``str.isdigit`` but break ``int()`` or read as another number, so the kit refuses them
    before any game sees them (the games read numbers with ``parse_int``)."""
    if depth > 64:
        return None
    if isinstance(value, str):
        return "" if _odd_digits(value) else None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        if isinstance(key, str) and _odd_digits(key):
            return str(key)
        found = odd_number_path(item, depth + 1)
        if found is not None:
            return f"{key}.{found}".rstrip(".")
    return None


def plain_numbers(data):
    """``data`` (command data) unchanged, unless it holds a string of non-ASCII digits
    (``odd_number_path``): then ``RuleViolation("bad_number")`` naming where. The one check of
    both command parsers (the page's form, ``tabletop.views.parse_command_form``, and the
    API's JSON body, ``tabletop.api.CommandIn``)."""
    odd = odd_number_path(data)
    if odd is not None:
        raise RuleViolation("bad_number", f"{odd or 'A value'}: numbers are written with 0-9.")
    return data

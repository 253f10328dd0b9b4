"""Seat names that cannot pass for one another (pure: no Django).

A name is cleaned (``clean_name``: Unicode NFKC, invisible format characters such as the
zero-width space removed, runs of spaces made one) and refused next to a name that looks the
same (``names_clash``): equal after case folding, or confusable character by character under
Unicode's confusables table (the ``confusables`` library: Cyrillic "А" for Latin "A", "0" for
"O", "rn" for "m").
"""

from __future__ import annotations

import unicodedata

from confusables import is_confusable

from tabletop.errors import RuleViolation

MAX_NAME = 40


def clean_name(name) -> str:
    """``name`` as it will be shown: NFKC-normalised, without format (Cf) or control
    characters, single spaces, 1..``MAX_NAME`` characters.
    Raises ``RuleViolation("bad_name")`` when nothing is left or it is too long."""
    text = unicodedata.normalize("NFKC", str(name or ""))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc", "Co", "Cs"))
    clean = " ".join(text.split())
    if not clean:
        raise RuleViolation("bad_name", "Please give a name for your seat.")
    if len(clean) > MAX_NAME:
        raise RuleViolation("bad_name", f"Names are at most {MAX_NAME} characters.")
    return clean


def _key(name: str) -> str:
    return clean_name(name).casefold()


def names_clash(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` would look alike at the table (see the module docstring)."""
    ka, kb = _key(a), _key(b)
    return ka == kb or is_confusable(ka, kb) or is_confusable(a.strip(), b.strip())

"""Plurals said as a person would (found by a new user: "1 arcane dice", "1 fighting dice",
"2 heart token(s)", "1 mercenary kill(s)"): templates use Django's ``pluralize``, pure rules
code ``tabletop.rules.counted`` (the same choice: singular for exactly 1)."""

import re
from pathlib import Path

import pytest
from django.template.defaultfilters import pluralize

from tabletop.rules import counted

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_counted_chooses_as_django_pluralize(n):
    assert counted(n, "heart token") == f"{n} heart token{pluralize(n)}"
    assert counted(n, "arcane die", "arcane dice") == f"{n} arcane di{pluralize(n, 'e,ce')}"


def test_one_of_each():
    assert counted(1, "mercenary kill") == "1 mercenary kill"
    assert counted(2, "heart token") == "2 heart tokens"
    assert counted(1, "fighting die", "fighting dice") == "1 fighting die"


def test_no_line_or_page_says_a_count_with_s_in_brackets_nor_a_number_of_dice_unpluralized():
    """Every f-string of the Python sources and every template: no "{n} thing(s)", and no
    "{{ n }} arcane dice" / "{n} fighting dice" without a plural choice."""
    found = []
    sources = [
        p
        for d in ("missions", "tabletop", "guilds", "frontend", "ops")
        for p in (ROOT / d).rglob("*")
        if p.suffix in (".py", ".html") and "migrations" not in p.parts
    ]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for line_no, line in enumerate(text.splitlines(), 1):
            if re.search(r"[}\d] [\w ]*\w\(s\)", line) or re.search(
                r"\}\}? (arcane |fighting )?dice\b", line
            ):
                found.append(f"{path.relative_to(ROOT)}:{line_no}: {line.strip()[:100]}")
    assert found == []

"""Plurals said as a person would (found by a new user: "1 arcane dice", "1 fighting dice",
"2 heart token(s)", "1 mercenary kill(s)"): templates use Django's ``pluralize``, pure rules
code ``tabletop.rules.counted`` (the same choice: singular for exactly 1)."""

import io
import re
import tokenize
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


#: A word with its plural left to the reader: "card(s)", "match(es)", "part(ies)".
BRACKETED = re.compile(r"[A-Za-z]\((s|es|ies)\)")
#: A count printed before a noun it does not pluralize ("{{ p.cost }} feods" for 1 feod); a
#: count after "/" or a dash is a capacity or a range ("2/6 weapons", "1–4 players").
NOUNS = "feods|daemons|players|personalities|attractions|cards|tokens|kills|souls|mercenaries|followers"
UNPLURALIZED = re.compile(r"(?<![/–-])\{\{ ?[^}|]+? ?\}\} (" + NOUNS + r")\b")


def sources(*suffixes):
    return [
        p
        for d in ("missions", "tabletop", "guilds", "frontend", "ops", "config")
        for p in (ROOT / d).rglob("*")
        if p.suffix in suffixes and "migrations" not in p.parts and "vendor" not in p.name
    ]


def python_strings(path):
    """(line, text) of every string literal of a Python file, f-strings' text parts included
    (tokenize: a comment or a call such as ``claim_of(s)`` is not text a person reads)."""
    kinds = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(t.start[0], t.string) for t in tokens if t.type in kinds]


def template_text(path):
    """(line, text) of a template's lines, its comments blanked (``{# #}``, ``{% comment %}``)."""
    text = path.read_text(encoding="utf-8")
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731 (keeps the line numbers)
    text = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", blank, text, flags=re.S)
    text = re.sub(r"\{#.*?#\}", blank, text)
    return list(enumerate(text.splitlines(), 1))


def script_strings(path):
    """(line, text) of the quoted strings of a page script (its code, such as ``two(s)``, is
    not read)."""
    quoted = re.compile(r"\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'")
    return [(n, q) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for q in quoted.findall(line)]


def test_no_string_a_person_reads_leaves_the_plural_in_brackets():
    """Every string literal of the Python sources (tokenized: log lines and refusals included),
    every template and every page script: no "table(s)", "match(es)"; a count takes its noun
    through ``counted`` or ``pluralize``."""
    found = []
    for path in sources(".py"):
        found += [f"{path.relative_to(ROOT)}:{n}: {t[:80]}" for n, t in python_strings(path)
                  if BRACKETED.search(t)]
    for path in sources(".html", ".txt", ".js"):
        lines = template_text(path) if path.suffix != ".js" else script_strings(path)
        found += [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}" for n, line in lines
                  if BRACKETED.search(line)]
    assert found == []


def test_no_template_prints_a_count_before_a_plural_it_does_not_choose():
    """A count that may be 1 ("{{ p.cost }} feods", "{{ game.min_seats }} players") takes
    ``pluralize``: "1 feod", "needs at least 1 player"."""
    found = [
        f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
        for path in sources(".html", ".txt")
        for n, line in template_text(path)
        for m in UNPLURALIZED.finditer(line)
    ]
    assert found == []


def test_the_scan_sees_a_bracketed_plural_in_an_f_string(tmp_path):
    """The tokenizer reads the text of an f-string, not its expressions nor comments."""
    path = tmp_path / "x.py"
    path.write_text('n = 2\nclaim_of(s)  # code(s)\nline = f"{n} table(s) left"\n')
    assert [n for n, t in python_strings(path) if BRACKETED.search(t)] == [3]
    assert UNPLURALIZED.search("at least {{ game.min_seats }} players.")
    assert not UNPLURALIZED.search("{{ weapons|length }}/{{ capacity }} weapons")

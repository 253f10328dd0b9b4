"""The section table of docs/demloc-sections.md against the DemLoc rulebook: every
section of chapters 5-8 DONE, or not carried with a written reason; no row
partial).

The rulebook is ``shared/rules/demloc-rulebook.txt`` beside the checkout (looked up in the
checkout's parent folders, like the Decktet list of ``tests/personimo/test_cards.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "demloc-sections.md"
STATUSES = {"DONE", "NOT CARRIED"}
SECTION_RE = re.compile(r"(?<![\d.])([5-8](?:\.\d+)+)(?!\d)")
CHAPTER_RE = re.compile(r"^([5-8])\. \S", re.MULTILINE)
TEST_RE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
FILE_RE = re.compile(r"`([\w/]+\.(?:py|html|js|css|md))(?:::(\w+))?`")
QUOTE_RE = re.compile(r'Rulebook: "([^"]+)"')


def _rulebook() -> str:
    for parent in ROOT.parents:
        path = parent / "shared" / "rules" / "demloc-rulebook.txt"
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.skip("shared/rules/demloc-rulebook.txt is not beside the checkout")


def _squash(text: str) -> str:
    return " ".join(text.split())


def rulebook_sections(text: str) -> set[str]:
    """Every section number of chapters 5-8 the rulebook prints (headings, the numbers in
    brackets such as "(7.2.2.2)", and its cross-references), plus the chapters themselves."""
    return set(SECTION_RE.findall(text)) | set(CHAPTER_RE.findall(text))


def table_rows(markdown: str) -> list[dict]:
    """The rows of the section table: ``{"section", "part", "status", "where", "cell"}``."""
    rows = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[5-8](\.\d+)*", cells[0]):
            rows.append(
                dict(zip(("section", "part", "status", "where", "cell"), cells, strict=True))
            )
    return rows


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return table_rows(TABLE.read_text(encoding="utf-8"))


def test_every_section_of_chapters_5_to_8_has_a_row_done_or_with_a_reason(rows):
    text = _rulebook()
    sections = rulebook_sections(text)
    assert {"5.1.1", "6.4.2", "7.2.2.1", "7.2.3.4", "7.3.2.3", "8.4", "5", "8"} <= sections
    covered = {r["section"] for r in rows}
    assert sorted(sections - covered) == []  # a section without a row
    assert sorted(covered - sections) == []  # a row for a section the rulebook does not have
    bad = [(r["section"], r["part"], r["status"]) for r in rows if r["status"] not in STATUSES]
    assert bad == []  # every row is DONE or NOT CARRIED: none partial, none open


def test_every_part_is_named_once(rows):
    keys = [(r["section"], r["part"]) for r in rows]
    assert len(keys) == len(set(keys))
    assert all(r["part"] for r in rows)


def test_done_rows_name_tests_that_exist(rows):
    missing = []
    for r in rows:
        if r["status"] != "DONE":
            continue
        tests = TEST_RE.findall(r["cell"])
        assert tests, f"{r['section']} {r['part']}: a DONE row names its tests"
        for path, name in tests:
            file = ROOT / path
            if not file.exists() or not re.search(
                rf"^(async )?def {name}\(", file.read_text(encoding="utf-8"), re.MULTILINE
            ):
                missing.append(f"{path}::{name}")
    assert missing == []


def test_the_code_named_exists(rows):
    missing = []
    for r in rows:
        if r["status"] == "DONE":
            assert r["where"] not in ("", "—"), f"{r['section']} {r['part']}: where is it done?"
        for path, symbol in FILE_RE.findall(r["where"]):
            file = ROOT / path
            if not file.exists():
                missing.append(path)
            elif symbol and not re.search(
                rf"^\s*(def|class) {symbol}\b|^{symbol}\b.*=",
                file.read_text(encoding="utf-8"),
                re.MULTILINE,
            ):
                missing.append(f"{path}::{symbol}")
    assert missing == []


def test_rows_not_carried_give_a_reason_and_quote_the_rulebook(rows):
    text = _squash(_rulebook())
    for r in rows:
        if r["status"] != "NOT CARRIED":
            continue
        quotes = QUOTE_RE.findall(r["cell"])
        reason = QUOTE_RE.sub("", r["cell"]).strip()
        assert quotes and len(reason) > 20, f"{r['section']} {r['part']}: reason and quote"
        for quote in quotes:
            assert _squash(quote) in text, f"{r['section']}: not in the rulebook: {quote!r}"


def test_the_parsers_see_a_missing_row_and_a_bad_status():
    """The table test can fail: a rulebook section without a row, an open row."""
    sections = rulebook_sections("7.2.3.4 Special blood pact rule\n8. Appendix\n")
    assert sections == {"7.2.3.4", "8"}
    rows = table_rows("| 8 | Appendix | OPEN | — | later |\n| x | not a row | DONE | a | b |\n")
    assert [(r["section"], r["status"]) for r in rows] == [("8", "OPEN")]
    assert sections - {r["section"] for r in rows} == {"7.2.3.4"}

"""Every reference in the repository resolves inside it (docs/architecture.md: a newcomer with
only the checkout finds what a comment cites). No code, template or doc cites a file outside
the checkout (a sibling folder, a machine's path, notes that are not in the repository) or a
bare tracker number ("issue 12": a comment says the reason instead); and every section named
in quotes after one of the repository's documents (``docs/architecture.md "The live path"``,
``README "Where to read next"``) is a heading, or a paragraph's bold lead, of that document.

The one place a path beside the checkout may stand is where a test reads a file from there
(``READS_BESIDE``): the DemLoc rulebook and the Decktet list are not ours to copy in."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The repository's own folders and top-level files whose text is read (not the virtualenv,
#: caches or what the tests write).
FOLDERS = ("bench", "bin", "config", "docs", "frontend", "guilds", "missions", "ops", "tabletop",
           "tests", ".ci")
TOP_FILES = ("README.md", "Makefile", "pyproject.toml", "manage.py")
SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".conf", ".cfg", ".sh", ""}
SKIP_PARTS = {"__pycache__", "migrations", "old_logs"}

#: Files that read a file beside the checkout, and the one path each may name.
READS_BESIDE = {
    "tests/missions/test_demloc_sections.py": "shared/rules/demloc-rulebook.txt",
    "tests/personimo/test_cards.py": "shared/data/decktet.csv",
    "README.md": "shared/data/decktet.csv",
}

# Spelled in pieces so this file does not match itself.
OUTSIDE = re.compile(
    r"(?<![\w)/.])\.\./[\w.-]|/wor" r"k/|/ho" r"me/\w|\bshared/(?:rules|data)/"
    r"|\b(?:STY" r"LE|SETUP-NO" r"TES|DES" r"IGN)\.md\b"
)
ISSUE = re.compile(r"\biss" r"ues?\s*#?\d+", re.IGNORECASE)

#: How a document is named where it is cited, and its file.
DOCUMENTS = {
    "docs/architecture.md": "docs/architecture.md",
    "docs/operations.md": "docs/operations.md",
    "docs/playing.md": "docs/playing.md",
    "docs/performance.md": "docs/performance.md",
    "docs/performance-history.md": "docs/performance-history.md",
    "docs/demloc-sections.md": "docs/demloc-sections.md",
    "tabletop/KIT.md": "tabletop/KIT.md",
    "KIT.md": "tabletop/KIT.md",
    "README.md": "README.md",
    "README": "README.md",
}
# A document's name, then optionally a closing backtick, a comma or colon and an opening
# bracket, then a quoted name: the section cited. A comment's line break may fall inside.
CITED = re.compile(
    r"(?<![\w/-])(" + "|".join(re.escape(d) for d in sorted(DOCUMENTS, key=len, reverse=True))
    + r')`?[,:]?\s*\(?\s*"([^"]{2,80})"'
)
# A section named after a document without quotes ("docs/architecture.md, live sync", "README,
# Performance"): a reader cannot tell the name from the prose, and nothing holds it to the
# headings.
UNQUOTED = re.compile(
    r"(?<![\w/-])(?:(?:docs/)?[a-z-]+\.md|README)`?(?:,\s+(?![\"(])\w|\s+[A-Z][a-z])"
)
COMMENT_BREAK = re.compile(r"\s*\n\s*(?:#|//|\*|<!--)?\s*")


def repository_files() -> list[Path]:
    found = [ROOT / name for name in TOP_FILES]
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and not SKIP_PARTS & set(path.relative_to(ROOT).parts)
                and not path.name.endswith(".min.js")
            ):
                found.append(path)
    assert len(found) > 300
    return found


def section_names(document: str) -> list[str]:
    """The headings of ``document`` and the bold leads of its paragraphs and list items,
    lower case, with single spaces."""
    names = []
    for line in (ROOT / document).read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#+\s+(.*)", line)
        bold = re.match(r"\s*(?:[-*]\s+|\d+\.\s+)?\*\*([^*]+)\*\*", line)
        for match in (heading, bold):
            if match:
                names.append(" ".join(match.group(1).replace("`", "").split()).lower())
    return names


def test_sections_are_read_from_the_documents():
    names = section_names("docs/architecture.md")
    assert "the live path" in names and "glossary" in names
    assert "the thumb bar" in section_names("docs/playing.md")


def _where(path: Path, text: str, at: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, at) + 1}"


def test_nothing_cites_a_path_outside_the_repository_or_an_issue_number():
    found = []
    for path in repository_files():
        rel = str(path.relative_to(ROOT))
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        allowed = READS_BESIDE.get(rel)
        for match in OUTSIDE.finditer(text):
            if allowed and allowed in text[match.start() : match.start() + len(allowed) + 3]:
                continue
            found.append(f"{_where(path, text, match.start())}: {match.group(0)}")
        for match in ISSUE.finditer(text):
            found.append(f"{_where(path, text, match.start())}: {match.group(0)}")
    assert found == []


def test_every_cited_section_is_a_heading_of_its_document():
    names = {doc: section_names(doc) for doc in set(DOCUMENTS.values())}
    found = []
    for path in repository_files():
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CITED.finditer(text):
            cited = " ".join(COMMENT_BREAK.sub(" ", match.group(2)).replace("`", "").split())
            if not any(name.startswith(cited.lower()) for name in names[DOCUMENTS[match.group(1)]]):
                found.append(f"{_where(path, text, match.start())}: {match.group(1)} \"{cited}\"")
        for match in UNQUOTED.finditer(text):
            found.append(f"{_where(path, text, match.start())}: {match.group(0)}")
    assert found == []


def test_the_scan_finds_what_it_is_for():
    """The patterns catch each kind of stale reference (a scan that matches nothing passes)."""
    stale = [
        "see " + "../shared/rules/x.txt",
        "(STY" + "LE.md 5)",
        "the old fix (iss" + "ue 31)",
    ]
    assert all(OUTSIDE.search(s) or ISSUE.search(s) for s in stale)
    cited = CITED.search('docs/architecture.md, "The live\n    # region"')
    assert cited is not None
    assert " ".join(COMMENT_BREAK.sub(" ", cited.group(2)).split()) == "The live region"
    assert UNQUOTED.search("(docs/architecture.md, live sync)")
    assert UNQUOTED.search("(docs/architecture.md Interfaces)")
    assert UNQUOTED.search("(README, Performance)")
    assert not UNQUOTED.search('(docs/architecture.md, "The live path")')
    assert not UNQUOTED.search("the map of docs/architecture.md's arrows")

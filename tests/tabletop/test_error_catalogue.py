"""The error vocabulary (STYLE.md 5): every code raised anywhere in the project
is in the catalogue ``tabletop/error_codes.py`` with one class (one HTTP status), and is
asserted by some test. The raised codes are read from the source (the first argument of
``RuleViolation``/``NotAllowed``/``NotFound``/``Conflict``, the code of ``require``, and every
``code=`` keyword), so a new code cannot slip past the catalogue."""

import re
from pathlib import Path

from tabletop.error_codes import CATALOGUE, codes_raised_in
from tabletop.errors import TabletopError

ROOT = Path(__file__).resolve().parents[2]


def raised_codes() -> dict[str, set[tuple[str, str]]]:
    """``{code: {(class name, "file:line")}}`` for every code raised in the project's code
    (``tabletop.error_codes.codes_raised_in`` over everything but tests, benchmarks, the venv)."""
    sources = [
        p
        for p in ROOT.iterdir()
        if not p.name.startswith(".")
        and p.name not in ("tests", "bench")
        and (p.is_dir() or p.suffix == ".py")
    ]
    return codes_raised_in(*sources)


def test_every_raised_code_is_catalogued_with_one_class():
    found = raised_codes()
    missing = sorted(set(found) - set(CATALOGUE))
    assert not missing, f"add these codes to tabletop/error_codes.py: {missing}"
    wrong = {
        code: sorted(uses)
        for code, uses in found.items()
        if {cls for cls, _ in uses} != {CATALOGUE[code][0].__name__}
    }
    assert not wrong, f"one class (one HTTP status) per code: {wrong}"
    stale = sorted(set(CATALOGUE) - set(found))
    assert not stale, f"catalogued but never raised: {stale}"


def test_catalogue_entries_are_well_formed():
    for code, (cls, message) in CATALOGUE.items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code), code
        assert issubclass(cls, TabletopError) and message, code


def test_every_raised_code_is_asserted_by_a_test():
    tests = "\n".join(
        p.read_text() for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name
    )
    untested = {c for c in raised_codes() if not re.search(rf"[\"']{re.escape(c)}[\"']", tests)}
    assert untested == set(), f"codes asserted by no test (write one): {sorted(untested)}"

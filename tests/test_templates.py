"""Django's ``{# ... #}`` comment is one line only: one that spans lines is printed on the page
(it was, above DemLoc's turn notices). Every template's ``{#`` closes on its own line."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_template_comment_spans_lines():
    found = []
    templates = [p for p in ROOT.glob("*/**/templates/**/*.html") if ".venv" not in p.parts]
    assert len(templates) > 20
    for path in templates:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for opened in re.finditer(r"\{#", line):
                if "#}" not in line[opened.end():]:
                    found.append(f"{path.relative_to(ROOT)}:{n}")
    assert found == []

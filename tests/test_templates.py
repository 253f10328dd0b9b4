"""Checks over every template. Django's ``{# ... #}`` comment is one line only: one that spans
lines is printed on the page (it was, above DemLoc's turn notices), so every template's ``{#``
closes on its own line. No template asks through the browser's own dialog (``hx-confirm``): a
tap that cannot be taken back asks for a second tap in place (``data-two-step``, tabletop/KIT.md
"Where the page lands")."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def templates() -> list[Path]:
    """Every HTML template of the project's apps (not the installed packages')."""
    found = [p for p in ROOT.glob("*/**/templates/**/*.html") if ".venv" not in p.parts]
    assert len(found) > 20
    return found


def test_no_template_comment_spans_lines():
    found = []
    for path in templates():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for opened in re.finditer(r"\{#", line):
                if "#}" not in line[opened.end():]:
                    found.append(f"{path.relative_to(ROOT)}:{n}")
    assert found == []


def test_no_template_opens_the_browsers_confirm_dialog():
    """A native dialog on a phone covers the page and leaves the thumb elsewhere; every confirm
    is the in-place second tap (``data-two-step``), with its text on the button."""
    dialogs = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in templates()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "hx-confirm" in line or "confirm(" in line
    ]
    assert dialogs == []
    two_step = [p for p in templates() if "data-two-step=" in p.read_text()]
    assert len(two_step) >= 10, two_step  # the confirms of every game and Guild page


#: A count printed straight before a plural noun ("{{ capacity }} weapons": "1 weapons"), or a
#: "(s)" ("2 heart token(s)"): the number takes its noun through ``pluralize`` (Django's
#: filter, also in the Jinja2 environment of the live region: tabletop/jinja.py) or, in pure
#: rules code, ``tabletop.rules.counted``.
PLURAL_AFTER_COUNT = re.compile(
    r"\{\{[^}]*\}\}\s?(?:arcane |fighting |heart |broken heart |mercenary )?"
    r"(?:tokens|kills|dice|hearts|points|turns|characters|feods|cards|seals|mercenaries|"
    r"followers|weapons|codes|slots|miniatures)\b"
)


def test_no_template_writes_a_count_with_a_fixed_plural_or_an_s_in_brackets():
    """Found by a new user: "1 arcane dice", "2 heart token(s)", "1 mercenary kill(s)"."""
    found = []
    every = templates() + [
        p for p in ROOT.glob("*/**/jinja2/**/*.html") if ".venv" not in p.parts
    ]
    for path in every:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            text = re.sub(r"\{#.*?#\}", "", line)
            if "(s)" in re.sub(r"\{[{%].*?[}%]\}", "", text) or PLURAL_AFTER_COUNT.search(text):
                found.append(f"{path.relative_to(ROOT)}:{n}")
    assert found == []

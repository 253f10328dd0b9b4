"""Event and command type names (KIT.md "Naming events and commands"): every event type a game
registers is ``<game>.<noun>.<verb-ish>`` (lowercase words of letters and ``_``, three parts
joined by dots) and, like every command type, is written out whole in the game's source, so
``grep -rn '"demloc.damage.assigned"'`` finds where it is registered, emitted and compared.

A stored table keeps the type names it was played with (docs/architecture.md, "The
event-sourced table"), so a name is never changed to fit the rule: the two that predate it stay
as they are and are listed here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tabletop.registry import all_rulesets

EVENT_RE = re.compile(r"[a-z][a-z_]*\.[a-z][a-z_]*\.[a-z][a-z_]*")
#: The game part of a type where it is not the ruleset's name (Personal Demons' since its
#: first table).
SHORT = {"personal_demons": "pd"}
#: Event types older than the rule (the kit's counter example, two parts): stored tables hold them.
OLDER = {"counter.added", "counter.rolled", "counter.setup"}


def source_of(ruleset) -> str:
    """The text of every Python file of the ruleset's package (its module when it is one file)."""
    module = sys.modules[type(ruleset).__module__]
    path = Path(module.__file__)
    files = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def games():
    return [r for r in all_rulesets() if getattr(r, "registry", None) is not None]


def test_every_game_at_the_table_is_walked():
    assert {r.name for r in games()} >= {
        "demloc",
        "personimo",
        "realm",
        "personal_demons",
        "espionage",
        "counter",
    }


@pytest.mark.parametrize("ruleset", games(), ids=lambda r: r.name)
def test_every_event_type_is_game_noun_verb_in_lowercase_and_dots(ruleset):
    game = SHORT.get(ruleset.name, ruleset.name)
    wrong = [
        t
        for t in ruleset.registry.evolvers
        if t not in OLDER and not (EVENT_RE.fullmatch(t) and t.split(".")[0] == game)
    ]
    assert not wrong, f"{ruleset.name}: {wrong}"


@pytest.mark.parametrize("ruleset", games(), ids=lambda r: r.name)
def test_every_event_and_command_type_is_spelled_whole_in_the_source(ruleset):
    source = source_of(ruleset)
    types = [*ruleset.registry.evolvers, *ruleset.registry.commands]
    missing = [t for t in types if f'"{t}"' not in source and f"'{t}'" not in source]
    assert not missing, f"{ruleset.name}: not written out whole: {missing}"

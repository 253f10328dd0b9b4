"""A greyed Undo says why in the game's words (docs/architecture.md, "The event-sourced table":
"A command that shows something hidden is final: undo stops there"): every event a game may
append as final (a barrier to undo) has its few words for the button (``Ruleset.final_words``,
"Guild brought", "card drawn"), and the refusal of an Undo tapped anyway says the reason in a
sentence (``Ruleset.final_reasons``, ``tabletop.log.barrier_words``). The final events are found
in each game's source (every ``NewEvent``/``emit`` call whose ``final`` is not ``False``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tabletop.log import LoggedEvent, barrier_words
from tabletop.registry import all_rulesets
from tabletop.rules import BaseRuleset
from tabletop.testing import Sim

#: The width of the Undo button at 360 px (a third of the toolbar): its words fit in it.
WORDS_MAX = 18


def games():
    return [r for r in all_rulesets() if getattr(r, "registry", None) is not None]


def _files(ruleset) -> list[Path]:
    path = Path(sys.modules[type(ruleset).__module__].__file__)
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


def final_event_types(ruleset) -> set[str]:
    """The event types the game's source appends as final: the first argument of each
    ``NewEvent(...)`` or ``<decision>.emit(...)`` call given ``final=<not False>`` (or a third
    positional argument), a string literal or a module constant holding one."""
    constants: dict[str, str] = {}
    calls: list[ast.Call] = []
    for path in _files(ruleset):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        constants[target.id] = node.value.value
            if isinstance(node, ast.Call):
                calls.append(node)
    found = set()
    for call in calls:
        name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        if name not in ("NewEvent", "emit") or not call.args:
            continue
        final = next((k.value for k in call.keywords if k.arg == "final"), None)
        if final is None and len(call.args) >= 3:
            final = call.args[2]
        if final is None or (isinstance(final, ast.Constant) and final.value is False):
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.add(first.value)
        elif isinstance(first, ast.Name) and first.id in constants:
            found.add(constants[first.id])
    return found


def test_the_scan_finds_the_barriers_of_each_game():
    """The scan is not empty where the rules say there is a barrier: a Guild brought and the
    mission opened (DemLoc 6.4.1), the market dealt (Personimo), a card drawn (the Realm)."""
    by_name = {r.name: final_event_types(r) for r in games()}
    assert {"demloc.setup.guild_bound", "demloc.mission.opened"} <= by_name["demloc"]
    assert "demloc.setup.stage_advanced" in by_name["demloc"]  # final=<expression>
    assert "personimo.market.dealt" in by_name["personimo"]  # a module constant
    assert "realm.cards.drawn" in by_name["realm"]


@pytest.mark.parametrize("ruleset", games(), ids=lambda r: r.name)
def test_every_final_event_has_words_for_the_greyed_undo(ruleset):
    words = ruleset.final_words
    missing = sorted(final_event_types(ruleset) - set(words))
    assert missing == [], f"{ruleset.name}: final events without words for Undo: {missing}"
    too_long = {t: w for t, w in words.items() if len(w) > WORDS_MAX}
    assert too_long == {}


@pytest.mark.parametrize("ruleset", games(), ids=lambda r: r.name)
def test_the_refusal_of_undo_at_a_barrier_says_the_reason_in_a_sentence(ruleset):
    """``barrier_words`` (the refusal "Nothing to undo: ...") gives the game's reason for each
    final event: ``final_reasons`` when the event hid nothing (a Guild brought is no secret),
    else its words and "(it showed hidden information)"."""
    for type_ in sorted(final_event_types(ruleset)):
        log = [
            LoggedEvent(version=1, type="table.started", data={}, seat=0, command_id=1,
                        command_type="table.start", final=True),
            LoggedEvent(version=2, type=type_, data={}, seat=0, command_id=2,
                        command_type="x.y.z", final=True),
        ]
        reason = barrier_words(ruleset, log)
        expected = ruleset.final_reasons.get(type_) or (
            f"{ruleset.final_words[type_]} (it showed hidden information)")
        assert reason == expected, type_
        assert reason and "cards shown" not in reason


def test_demloc_undo_after_a_guild_is_brought_says_so():
    """DemLoc 6.4.1: a Guild brought to the mission is a barrier (only its Guild Master takes it
    out); the greyed Undo says "Guild brought", the refusal why."""
    from missions.rules import DemlocRuleset

    game = DemlocRuleset()
    assert game.final_words["demloc.setup.guild_bound"] == "Guild brought"
    assert "Guild Master" in game.final_reasons["demloc.setup.guild_bound"]


def test_a_game_without_words_falls_back_to_cards_shown():
    """The kit's default for a game that names nothing (a new game, before it does)."""
    assert BaseRuleset.final_words == {} and BaseRuleset.final_reasons == {}


def test_counter_undo_refusal_names_the_secret_number():
    """The kit's example: Undo after a secret redraw is refused with the game's words."""
    from tabletop.counter import CounterRuleset
    from tabletop.errors import RuleViolation

    sim = Sim(CounterRuleset(), ["Ann"])
    sim.send(0, "counter.secret.redraw", {})
    with pytest.raises(RuleViolation) as refused:
        sim.undo(0)
    assert refused.value.code == "nothing_to_undo"
    assert "number drawn (it showed hidden information)" in str(refused.value)


@pytest.mark.parametrize("ruleset", games(), ids=lambda r: r.name)
def test_every_undo_word_fits_the_button(ruleset):
    """An enabled Undo says what it takes back (``Ruleset.undo_words``), a word or two."""
    too_long = {t: w for t, w in ruleset.undo_words.items() if len(w) > WORDS_MAX}
    assert too_long == {}


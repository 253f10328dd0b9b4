"""Rules reference content (DemLoc rulebook 6.4.2 "consulting the rules ... through the use of
keywords": every chapter 2-8 in our own words, 8.1-8.4 one entry per standard feature), its
page, and a property of the damage steps (5.1.1: carry-over makes damage additive)."""

import re
from pathlib import Path

from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from missions.models import MissionDefinition
from missions.rules import OPTIONS_SCHEMA
from missions.rules.cards import card_from_data
from missions.rules.damage import assign_damage, new_piece
from missions.rules.reference import ENTRIES, GROUPS, grouped, reference_key, search, search_text

SECTION = re.compile(r"^\d+(\.\d+)*$")
TABLE = Path(__file__).resolve().parents[2] / "docs" / "demloc-sections.md"


def table_sections() -> set[str]:
    """The section numbers of docs/demloc-sections.md (checked against the rulebook by
    ``test_demloc_sections``)."""
    text = TABLE.read_text(encoding="utf-8")
    return set(re.findall(r"^\| ([5-8](?:\.\d+)*) \|", text, re.MULTILINE))


STANDARD = {
    "weapon": [
        "BACKSTACK",
        "DEFENSIVE 1",
        "UNSTOPPABLE 1",
        "PERFORATING",
        "HEAVY 1",
        "BLOODING 1",
        "SHIELD 1",
        "POISONOUS 1",
    ],
    "arcane": [
        "CARE 1",
        "HIT 1",
        "ARCANE HIT 1",
        "STUNNING",
        "REPAIR 1",
        "POISON 1",
        "VIGOR 1",
        "WEAKNESS 1",
    ],
    "pentacle": ["SHIELD 1", "DEFENSIVE 1", "MONSTROUS 1", "ARCANE HIT 1", "HIT 1"],
    "ability": ["MONSTRUOUS 1", "FLY 2", "FURY"],
}


def test_every_standard_feature_of_8_1_to_8_4_has_an_entry():
    for kind, features in STANDARD.items():
        for feature in features:
            assert reference_key(kind, feature), (kind, feature)
    assert reference_key("weapon", "DRAGON BREATH 2") is None  # unique features: on the card


def cited(entry: dict) -> list[str]:
    return [s.strip() for s in entry["section"].split(",")]


def test_every_chapter_of_the_rulebook_has_entries():
    """Chapters 2, 3, 4 and every section of chapters 5-8 the section table lists (the same
    list the table test checks against the rulebook) is explained by at least one entry; a
    chapter's opening counts when one of its sections is. The misprinted cross-references
    7.12 and 7.14 are not sections."""
    sections = {s for e in ENTRIES for s in cited(e)}
    assert {"2", "2.1", "3", "4"} <= sections
    wanted = table_sections() - {"7.12", "7.14"}
    assert {"5.1.1", "6.2", "6.4.1", "7.1.1", "7.2.3.4", "7.3.2.3", "8.4"} <= wanted
    missing = [
        s
        for s in sorted(wanted)
        if s not in sections and not any(c.startswith(s + ".") for c in sections)
    ]
    assert missing == []


def test_keyword_search():
    """6.4.2: search by keyword; every word must match, in the title, the section or the text."""
    assert [e["key"] for e in search("poison")] == [
        e["key"] for e in ENTRIES if "poison" in search_text(e)
    ]
    poison = {e["key"] for e in search("poison")}
    assert {"weapon-poisonous", "arcane-poison", "reading-bleeding-poison"} <= poison
    assert [e["key"] for e in search("BACKSTACK")] == ["weapon-backstack"]
    assert {"escape", "possession"} <= {e["key"] for e in search("escape")}
    assert [e["key"] for e in search("escape dignitary")] == ["escape"]
    assert {e["key"] for e in search("first player")} >= {"first-player", "reading-first-player"}
    assert {e["key"] for e in search("7.2.3.5")} == {"arcane-test", "possession", "reading-free"}
    assert search("no such words here") == []
    assert search("") == ENTRIES


def test_entries_are_unique_grouped_and_cite_a_section():
    keys = [e["key"] for e in ENTRIES]
    assert len(keys) == len(set(keys))
    assert all(e["section"] and len(e["text"]) > 40 for e in ENTRIES)
    assert all(SECTION.match(s) for e in ENTRIES for s in cited(e))
    assert {e["group"] for e in ENTRIES} == set(GROUPS)
    assert sum(len(entries) for _, entries in grouped()) == len(ENTRIES)


def test_the_page_carries_every_entry_and_the_table_options_defaults(client, db):
    """The page holds every entry with its search text (the search runs in the page, from a
    static script: the CSP allows no inline script) and every table option with its default
    read from the ruleset; the count names them and the entries of "What a mission pays" (how
    it adds up, the default amounts, one per active mission: ``test_reference_pays``)."""
    html = client.get(reverse("missions:reference")).content.decode()
    for e in ENTRIES:
        assert f'id="{e["key"]}" data-search="{search_text(e)}"' in html.replace("&#x27;", "'")
    assert "<script>" not in html  # no inline script: the CSP allows none
    # The static file, by its name or its hashed name (ServeStatic's manifest).
    assert re.search(r'<script src="/static/missions/reference(\.[0-9a-f]+)?\.js" defer>', html)
    for name, spec in OPTIONS_SCHEMA.items():
        if spec.get("hidden"):
            continue
        assert f'id="option-{name}"' in html
        default = dict(spec["choices"])[spec["default"]]
        assert f'<li>{default} <strong class="badge">default</strong></li>' in html.replace(
            "&#x27;", "'"
        )
    options = len(OPTIONS_SCHEMA) - sum(1 for s in OPTIONS_SCHEMA.values() if s.get("hidden"))
    pays = 2 + MissionDefinition.objects.filter(is_active=True).count()
    assert f"{len(ENTRIES) + options + pays} entries." in html
    assert html.count('class="card ref-entry"') == len(ENTRIES) + options + pays


def test_the_search_script_is_a_static_file():
    script = (
        Path(__file__).resolve().parents[2] / "missions" / "static" / "missions" / "reference.js"
    )
    text = script.read_text(encoding="utf-8")
    assert "data-search" in text and 'addEventListener("input"' in text


@given(st.integers(0, 12), st.integers(0, 12), st.integers(1, 8), st.integers(1, 6))
def test_damage_in_two_steps_equals_damage_at_once(a, b, armor, hit):
    piece = new_piece(card_from_data({"id": "x", "name": "X", "armor": armor, "hit": hit}), 0)
    once, _ = assign_damage(piece, a + b)
    first, _ = assign_damage(piece, a)
    twice, _ = assign_damage(first, b)
    if once["status"] == "in_play":
        assert once == twice
    else:
        assert twice["status"] == "killed"

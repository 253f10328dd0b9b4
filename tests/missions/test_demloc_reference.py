"""Rules reference content (DemLoc rulebook 6.4.2 "consulting the rules", 8.1-8.4) and a
property of the damage steps (5.1.1: carry-over makes damage additive)."""

from hypothesis import given
from hypothesis import strategies as st

from missions.rules.cards import card_from_data
from missions.rules.damage import assign_damage, new_piece
from missions.rules.reference import ENTRIES, reference_key, search

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


def test_keyword_search():
    assert [e["key"] for e in search("poison")] == [
        e["key"] for e in ENTRIES if "poison" in (e["title"] + e["text"]).lower()
    ]
    assert {e["key"] for e in search("first player")} >= {"first-player"}
    assert search("no such words here") == []


def test_entries_are_unique_and_cite_a_section():
    keys = [e["key"] for e in ENTRIES]
    assert len(keys) == len(set(keys))
    assert all(e["section"] and len(e["text"]) > 40 for e in ENTRIES)


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

"""What a follower's snapshot becomes at the table, pure (DemLoc rulebook 5.1.2: printed
weapons with their damages and range, the arcane reference code; 8.4 FURY)."""

from missions.rules.cards import card_from_data
from missions.rules.guildcards import follower_card

CODE = {
    "name": "Codex of Ash",
    "kabbalah": "Ash Cult",
    "summoning": {"white": 1, "black": 1},
    "pentacle": {"name": "Ash ring", "effects": [{"standard": "shield", "x": 1}]},
    "powers": [
        {"name": "Cinders", "white": 1, "black": 0, "effects": [{"standard": "hit", "x": 1}]}
    ],
}


def witch(**over):
    return {
        "name": "Hedge witch",
        "level": 1,
        "arcane_ability": 1,
        "abilities": [{"standard": "fury", "x": None, "activation": "activated", "fate_cost": 2}],
        "primary_weapon": ["Crossbow", "bows", 3, "", 1, 8],
        "secondary_weapon": ["Knife", "knife", 1, "", None, None],
        "codes": [CODE],
        **over,
    }


def test_a_printed_crossbow_shoots_at_its_range_and_brawls_with_its_second_damage_5_1_2():
    card = card_from_data(follower_card(witch(), "g1"))
    bow, knife = card["weapons"]
    assert (bow["damage"], bow["brawl_damage"], bow["range"]) == (3, 1, 8)
    assert (knife["damage"], knife["brawl_damage"], knife["range"]) == (1, 1, None)


def test_an_older_snapshot_without_the_second_damage_keeps_the_old_defaults_5_1_2():
    card = card_from_data(follower_card(witch(primary_weapon=["Bow", "bows", 2, ""]), "g1"))
    assert (card["weapons"][0]["brawl_damage"], card["weapons"][0]["range"]) == (2, 6)


def test_an_arcane_follower_brings_its_reference_code_without_summoning_5_1_2():
    card = card_from_data(follower_card(witch(), "g1"))
    assert card["code"]["name"] == "Codex of Ash" and card["code"]["summon_cost"] is None
    assert [p["name"] for p in card["code"]["powers"]] == ["Cinders"]
    plain = card_from_data(follower_card(witch(arcane_ability=0), "g1"))
    assert plain.get("code") is None


def test_fury_on_a_card_reaches_the_table_8_4():
    card = card_from_data(follower_card(witch(), "g1"))
    assert "FURY" in card["features"]

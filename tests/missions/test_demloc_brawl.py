"""Hand-to-hand calculator (DemLoc rulebook 7.3.2, 7.3.2.1, 7.3.2.2, 8.1-8.4)."""

import pytest

from missions.rules.brawl import attack_effect, brawl_dice, defence_effect, resolve_brawl
from missions.rules.cards import card_from_data
from missions.rules.damage import new_piece
from tabletop.errors import RuleViolation

SWORD = {"name": "Sword", "type": "swords", "damage": 3}
DAGGER = {"name": "Dagger", "type": "knife", "damage": 1}


def fighter(name="A", h2h=2, weapons=(SWORD, DAGGER), **extra):
    data = {
        "id": name,
        "name": name,
        "hit": 3,
        "armor": 4,
        "h2h": h2h,
        "weapons": list(weapons),
        **extra,
    }
    return new_piece(card_from_data(data), 0)


@pytest.mark.parametrize(
    ("difference", "effect"),
    [
        (0, (0, 0, 0)),
        (1, (1, 0, 0)),
        (2, (1, 1, 0)),
        (3, (2, 1, 0)),
        (4, (2, 2, 0)),
        (5, (2, 2, 1)),
        (9, (2, 2, 1)),
    ],
)
def test_attack_effect_table(difference, effect):
    # 7.3.2.2 table of hand-to-hand fight effects, attack column.
    assert attack_effect(difference) == effect


@pytest.mark.parametrize(
    ("difference", "damage"), [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (7, 5)]
)
def test_defence_effect_table(difference, damage):
    # 7.3.2.2 defence column: 1..5 general damages.
    assert defence_effect(difference) == damage


@pytest.mark.parametrize(
    ("attack_dice", "damage", "hearts"),
    [
        ([3, 3], 0, 0),  # 6 vs 6: tie
        ([3, 4], 3, 0),  # by 1: primary 3
        ([4, 4], 4, 0),  # by 2: 3 + 1
        ([4, 5], 7, 0),  # by 3: 3x2 + 1
        ([5, 5], 8, 0),  # by 4: 3x2 + 1x2
        ([6, 5], 8, 1),  # by 5: 3x2 + 1x2 and a broken heart
    ],
)
def test_attacker_wins_by_each_difference(attack_dice, damage, hearts):
    result = resolve_brawl(fighter("A"), fighter("D"), attack_dice, [3, 3])
    assert (result.loser_damage, result.broken_hearts) == (damage, hearts)


def test_defender_wins_deals_general_damage():
    # 7.3.2.2: defender by 3: 3 general damages.
    result = resolve_brawl(fighter("A"), fighter("D"), [1, 2], [3, 3])
    assert (result.winner, result.difference, result.loser_damage) == ("defender", 3, 3)


def test_attack_modifiers_add_up():
    # 7.3.2.1: third attacker +2, from behind +2, favourite weapon +1, UNSTOPPABLE 1.
    a = fighter("A", favourite="swords", weapons=[SWORD | {"features": ["UNSTOPPABLE 1"]}])
    result = resolve_brawl(a, fighter("D"), [1, 1], [6, 6], attack_order=3, from_behind=True)
    assert result.attack_total == 2 + 2 + 2 + 1 + 1


def test_defensive_weapon_adds_to_defence():
    # 8.1 DEFENSIVE x.
    d = fighter("D", weapons=[SWORD | {"features": ["DEFENSIVE 2"]}])
    assert resolve_brawl(fighter("A"), d, [1, 1], [1, 1]).defence_total == 4


def test_broken_hearts_heavy_and_monstrous_remove_dice_at_least_one():
    # 7.3.2.1: -1 die per broken heart; 8.1 HEAVY defending; 8.4 MONSTROUS opponent; >= 1 die.
    d = {**fighter("D", h2h=3, weapons=[SWORD | {"features": ["HEAVY 1"]}]), "broken_hearts": 1}
    assert brawl_dice(d, fighter("A"), attacking=False)[0] == 1
    monster = fighter("M", features=["MONSTROUS 1"])
    assert brawl_dice(fighter("A", h2h=2), monster, attacking=True)[0] == 1
    assert brawl_dice(fighter("A", h2h=1), monster, attacking=True)[0] == 1
    # A MONSTROUS character ignores another's MONSTROUS.
    assert (
        brawl_dice(fighter("B", h2h=2, features=["MONSTROUS 1"]), monster, attacking=True)[0] == 2
    )


def test_charge_adds_an_enhanced_die():
    # 7.3.2: a charge gives an enhanced fighting die, entered last.
    result = resolve_brawl(fighter("A"), fighter("D"), [2, 2, 9], [3, 3], charge=True)
    assert result.attack_total == 13
    with pytest.raises(RuleViolation):
        resolve_brawl(fighter("A"), fighter("D"), [2, 2], [3, 3], charge=True)


def test_fury_doubles_the_dice_not_the_bonuses():
    # 8.4 FURY: the fighting dice result doubled, excluding bonuses.
    a = {**fighter("A", favourite="swords"), "fury": 2}
    assert resolve_brawl(a, fighter("D"), [3, 2], [1, 1]).attack_total == 10 + 1


def test_vigor_weakness_and_possession_change_the_dice():
    # 8.2 VIGOR/WEAKNESS; 7.2.3 a possessed character fights with hand-to-hand 1.
    assert brawl_dice({**fighter("A"), "vigor": 2}, fighter("D"), True)[0] == 4
    assert brawl_dice({**fighter("A"), "weakness": 5}, fighter("D"), True)[0] == 1
    assert brawl_dice({**fighter("A", h2h=4), "possessed": True}, fighter("D"), False)[0] == 1


def test_two_handed_weapon_has_no_secondary():
    axe = {"name": "Axe", "type": "axes", "damage": 4, "two_handed": True}
    result = resolve_brawl(fighter("A", weapons=[axe, DAGGER]), fighter("D"), [4, 4], [3, 3])
    assert result.loser_damage == 4


def test_attack_order_starts_at_the_first_attacker():
    """7.3.2.1 "Multiple fights": the first attacker is number 1 (+0), the second +1, ...; the
    calculator refuses an order below 1 (the table command reads 1..8)."""
    with pytest.raises(RuleViolation) as err:
        resolve_brawl(fighter("A"), fighter("D"), [3, 3], [3, 3], attack_order=0)
    assert err.value.code == "bad_order"

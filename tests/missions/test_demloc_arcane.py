"""Arcane: seals, possession, mana, powers (DemLoc rulebook 6.4.1, 6.4.2, 7.2.3, 7.2.3.1,
7.2.3.5, 8.2), summoning draws (7.2.3.2) and the first-player draw (7)."""

import random

import pytest

from missions.rules.arcane import apply_effect, channel, pay
from missions.rules.cards import card_from_data
from missions.rules.damage import add_seals, is_over_seal_limit, new_piece
from missions.rules.possession import free_possessed_modifier
from missions.rules.summoning import check_hearts, daemon_candidates
from missions.rules.turns import (
    clockwise_from,
    draw_first_player,
    first_player_odds,
    first_player_weights,
)
from tabletop.dice import Dice
from tabletop.errors import RuleViolation


def mage(arcane=2, level=2, **extra):
    data = {
        "id": "m",
        "name": "Vesna",
        "hit": 4,
        "armor": 5,
        "arcane": arcane,
        "level": level,
        **extra,
    }
    return new_piece(card_from_data(data), 0)


@pytest.mark.parametrize(
    ("seals", "arcane", "exceeded", "reaches"),
    [
        (1, 0, False, True),
        (2, 1, True, True),
        (2, 2, False, True),
        (3, 2, True, True),
        (3, 3, False, True),
        (4, 4, False, True),
        (5, 4, True, True),
        (1, 2, False, False),
    ],
)
def test_seal_limit_exceeded_or_reached(seals, arcane, exceeded, reaches):
    # 7.2.3 "exceeded" (default) and 6.4.2 "reaches": the table option.
    assert is_over_seal_limit(seals, arcane, "exceeded") is exceeded
    assert is_over_seal_limit(seals, arcane, "reaches") is reaches


def test_crossing_the_limit_possesses_and_empties_the_mana():
    # 7.2.3: arcane 2 bears 2 seals; the third possesses (after exhausting its mana).
    p = {**mage(), "mana": {"common": 1, "dark": 1}}
    p, _ = add_seals(p, 2)
    assert not p["possessed"]
    p, lines = add_seals(p, 1)
    assert p["possessed"] and p["mana"] == {"common": 0, "dark": 0}
    p, _ = add_seals(p, -3)
    assert p["seals"] == 0 and p["possessed"]  # removing seals does not free


def test_seals_in_the_setup_have_no_effect():
    # 6.4.1: broken seals rolled in the characters choice phase have no effect.
    p, _ = channel(mage(arcane=1), 0, 0, 1, setup=True)
    assert p["seals"] == 0 and not p["possessed"]


def test_channel_limits_dice_to_the_arcane_ability_and_needs_an_active_token():
    # 7.2.3: arcane ability 2 = 2 arcane dice; the token must be active.
    p, _ = channel(mage(), 1, 1, 0, setup=False)
    assert p["mana"] == {"common": 1, "dark": 1}
    with pytest.raises(RuleViolation) as err:
        channel(p, 1, 0, 0, setup=False)
    assert err.value.code == "too_many_dice"
    with pytest.raises(RuleViolation) as err:
        channel({**mage(), "movement": "exhausted"}, 1, 0, 0, setup=False)
    assert err.value.code == "not_active"


def test_exhausted_caster_pays_one_extra_mana_per_level():
    # 7.2.3.1: exhausted: one additional mana per level (level 2: 2).
    p = {**mage(), "mana": {"common": 2, "dark": 1}, "movement": "exhausted"}
    with pytest.raises(RuleViolation) as err:
        pay(p, {"common": 1, "dark": 0})
    assert err.value.code == "bad_extra"
    p, _ = pay(p, {"common": 1, "dark": 0}, {"common": 1, "dark": 1})
    assert p["mana"] == {"common": 0, "dark": 0}
    with pytest.raises(RuleViolation) as err:
        pay(mage(), {"common": 1, "dark": 0})
    assert err.value.code == "not_enough_mana"


def test_standard_effects():
    # 8.2: HIT armor first, ARCANE HIT hit factor, CARE, REPAIR, STUNNING, VIGOR, WEAKNESS, POISON.
    t = mage()
    assert apply_effect(t, "HIT 2")[0]["armor_damage"] == 2
    assert apply_effect(t, "ARCANE HIT 2")[0]["hit_damage"] == 2
    hurt = {**t, "broken_hearts": 2, "broken_armor": 2}
    assert apply_effect(hurt, "CARE 1")[0]["broken_hearts"] == 1
    assert apply_effect(hurt, "REPAIR 3")[0]["broken_armor"] == 0
    assert apply_effect(t, "STUNNING")[0]["movement"] == "exhausted"
    assert apply_effect(t, "VIGOR 2")[0]["vigor"] == 2
    assert apply_effect(t, "WEAKNESS 1")[0]["weakness"] == 1
    assert apply_effect(t, "POISON 1")[0]["poison"] == 1
    dead = {**t, "status": "killed", "broken_hearts": 3}
    assert apply_effect(dead, "CARE 1")[0]["broken_hearts"] == 3  # not on eliminated characters


def test_free_possessed_modifier_option():
    # 7.2.3.5: +3 to the die as printed (default), or read as a help.
    assert free_possessed_modifier("penalty") == (3, 0)
    assert free_possessed_modifier("bonus") == (0, 3)


PANTHEON = [
    {"name": "Imp", "kabbalah": "ash", "level": 1},
    {"name": "Ember", "kabbalah": "ash", "level": 2},
    {"name": "Hag", "kabbalah": "brine", "level": 1},
]


def test_daemon_draw_falls_back_to_lower_levels():
    # 7.2.3.2: no daemon of that level: drawn from the lower hierarchy.
    assert daemon_candidates(PANTHEON, "ash", 2) == (2, [PANTHEON[1]])
    assert daemon_candidates(PANTHEON, "brine", 3) == (1, [PANTHEON[2]])
    with pytest.raises(RuleViolation) as err:
        daemon_candidates(PANTHEON, "bone", 3)
    assert err.value.code == "no_daemon"


@pytest.mark.parametrize("hearts", [0, 4])
def test_daemon_hearts_are_1_to_3(hearts):
    with pytest.raises(RuleViolation):
        check_hearts(hearts)


def test_first_player_weights_make_the_previous_first_player_less_likely():
    # 7: previous first player less likely: weight 1 against 2.
    assert first_player_weights([0, 1], None) == [1, 1]
    assert first_player_weights([0, 1, 2], 1) == [2, 1, 2]
    assert [round(p, 3) for _, p in first_player_odds([0, 1], 0)] == [0.333, 0.667]


def test_first_player_draw_frequencies():
    dice = Dice(random.Random(7))
    draws = [draw_first_player(dice, [0, 1], 0) for _ in range(3000)]
    assert 0.28 < draws.count(0) / 3000 < 0.39


def test_clockwise_order_from_the_first_player():
    assert clockwise_from([0, 1, 2, 3], 2) == [2, 3, 0, 1]


def test_a_powers_result_line_says_what_it_changed_this_phase_7_2_3_5():
    """After "Use <power>" the caster's Arcane section shows the power's result line, where the
    tap lands (docs/playing.md): the power, its target and each field it changed (as recorded
    for a defend test, 7.2.3.5); "no effect" when it changed nothing; gone the next phase."""
    from missions.rules.view import power_result

    state = {
        "turn": 2,
        "phase": "strategic",
        "pieces": {"v": {"name": "Vesna"}, "b": {"name": "Bram"}},
        "last_power": {
            "caster": "v", "target": "b", "power": "Cinder touch", "version": 14,
            "turn": 2, "phase": "strategic",
            "changes": {"hit_damage": [0, 2], "armor_damage": [1, 3]},
        },
    }
    assert power_result(state) == {
        "caster": "v",
        "key": 14,
        "text": "Cinder touch on Bram: armor damage 1 → 3, hit damage 0 → 2.",
    }
    state["last_power"]["changes"] = {}
    assert power_result(state)["text"] == "Cinder touch on Bram: no effect."
    state["phase"] = "brawl"
    assert power_result(state) is None

"""Damage, tokens, bleeding, poison, possession ticks (DemLoc rulebook 5.1.1, 6.4.2, 7.2.3,
7.3.2.2, 8.1, 8.2)."""

import pytest

from missions.rules.cards import card_from_data, possession_limit
from missions.rules.damage import (
    add_broken_hearts,
    add_poison,
    adjust_tokens,
    assign_damage,
    bleed,
    new_piece,
    poison_tick,
    possession_tick,
    remove_damage,
)
from tabletop.errors import RuleViolation


def piece(armor=4, hit=3, **extra):
    return new_piece(
        card_from_data({"id": "x", "name": "Rook", "armor": armor, "hit": hit, **extra}), 0
    )


def test_general_damage_fills_the_armor_step_first():
    # 6.4.2: generic damage can be absorbed by the armor; armor factor 4.
    p, _ = assign_damage(piece(), 3)
    assert (p["armor_damage"], p["broken_armor"], p["hit_damage"]) == (3, 0, 0)


def test_reaching_the_armor_factor_places_a_broken_armor_token_and_carries_over():
    # 5.1.1: each time damage reaches the armor factor (4), a broken armor token; 6 = 4 + 2.
    p, lines = assign_damage(piece(), 6)
    assert (p["broken_armor"], p["armor_damage"]) == (1, 2)
    assert "broken armor token 1/3" in " ".join(lines)


def test_three_broken_armor_tokens_send_the_rest_to_the_hit_factor():
    # 5.1.1: with 3 broken armor tokens all damage goes to the hit factor: 12 on armor 4 + 2.
    p, _ = assign_damage(piece(), 14)
    assert (p["broken_armor"], p["armor_damage"], p["hit_damage"], p["broken_hearts"]) == (
        3,
        0,
        2,
        0,
    )


def test_hit_goes_straight_to_the_hit_factor_and_reaching_it_breaks_a_heart():
    # 6.4.2 "hit (directly to his life)"; 5.1.1 hit factor 3: 4 hits = 1 broken heart + 1.
    p, _ = assign_damage(piece(), 4, "hit")
    assert (p["armor_damage"], p["broken_armor"], p["broken_hearts"], p["hit_damage"]) == (
        0,
        0,
        1,
        1,
    )


def test_three_broken_hearts_kill_and_the_excess_is_lost():
    # 5.1.1: 3 broken heart tokens: killed. Hit factor 3: 9 hits kill, 20 too.
    p, lines = assign_damage(piece(), 20, "hit")
    assert p["status"] == "killed" and p["broken_hearts"] == 3
    assert lines[-1] == "Rook is killed."


def test_armor_factor_zero_absorbs_nothing():
    p, _ = assign_damage(piece(armor=0), 2)
    assert (p["broken_armor"], p["hit_damage"]) == (0, 2)


def test_remove_damage_only_down_to_zero():
    # 6.4.2: only damage already assigned can be removed, until 0.
    p, _ = assign_damage(piece(), 2)
    p, _ = remove_damage(p, 5, "armor")
    assert p["armor_damage"] == 0
    p2, lines = remove_damage(p, 1, "hit")
    assert p2["hit_damage"] == 0 and lines == []


def test_assign_damage_does_not_mutate_its_input():
    original = piece()
    assign_damage(original, 10)
    assert original["armor_damage"] == 0 and original["broken_armor"] == 0


def test_tokens_are_clamped_to_their_range():
    # 6.4.2: tokens removed only down to 0; at most 3 broken armor tokens.
    p, _ = adjust_tokens(piece(), "bleeding", -2)
    assert p["bleeding"] == 0
    p, _ = adjust_tokens(piece(), "broken_armor", 5)
    assert p["broken_armor"] == 3
    p, _ = adjust_tokens(piece(), "broken_hearts", 3)
    assert p["status"] == "killed"


def test_bleeding_deals_as_many_hits_as_tokens():
    # 6.4.2: a bleeding character receives as many hits as bleeding tokens (2 on hit factor 3).
    p, _ = adjust_tokens(piece(), "bleeding", 2)
    p, _ = bleed(p)
    assert (p["hit_damage"], p["armor_damage"]) == (2, 0)
    p, _ = bleed(p)
    assert (p["broken_hearts"], p["hit_damage"]) == (1, 1)


def test_poison_grows_one_token_a_turn_and_kills_above_the_hit_factor():
    # 6.4.2: one new poison token each turn; killed when tokens exceed the hit factor (3).
    p, _ = add_poison(piece(), 2)
    p, _ = poison_tick(p)
    assert p["poison"] == 3 and p["status"] == "in_play"  # 3 is not above 3
    p, lines = poison_tick(p)
    assert p["poison"] == 4 and p["status"] == "killed"


def test_no_new_poison_tokens_while_poisoned():
    # 8.1 POISONOUS, 8.2 POISON: only if the target has no tokens yet.
    p, _ = add_poison(piece(), 1)
    p, lines = add_poison(p, 2)
    assert p["poison"] == 1 and "already poisoned" in lines[0]
    p, _ = add_poison(p, 2, exception=True)
    assert p["poison"] == 3


def test_possession_breaks_hearts_then_armor_until_death():
    # 7.2.3: a broken heart each turn; after 3 (those before count), broken armor up to 3: dead.
    p = {**piece(), "possessed": True, "broken_hearts": 1}
    states = []
    for _ in range(5):
        p, _ = possession_tick(p)
        states.append((p["broken_hearts"], p["broken_armor"], p["status"]))
    assert states == [
        (2, 0, "in_play"),
        (3, 0, "in_play"),
        (3, 1, "in_play"),
        (3, 2, "in_play"),
        (3, 3, "killed"),
    ]


def test_daemon_dies_at_its_own_heart_tokens():
    # 7.2.3.2: the daemon's 1-3 heart tokens are the broken hearts it bears.
    d = new_piece(
        card_from_data({"id": "d", "name": "Imp", "kind": "daemon", "hit": 2}), 1, heart_limit=1
    )
    d, _ = add_broken_hearts(d, 1)
    assert d["status"] == "killed"


@pytest.mark.parametrize(("arcane", "limit"), [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4)])
def test_possession_limit_by_arcane_ability(arcane, limit):
    # 7.2.3 "daemon possessed": 0/1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4.
    assert possession_limit(arcane) == limit


def test_bad_card_is_refused():
    with pytest.raises(RuleViolation) as err:
        card_from_data({"id": "x", "name": "Nobody", "hit": 0})
    assert err.value.code == "bad_card"
    with pytest.raises(RuleViolation) as err:
        card_from_data({"id": "x", "name": "Odd", "hit": 2, "features": ["SHIELD -1"]})
    assert err.value.code == "bad_feature"


def test_the_card_tracks_show_tokens_and_damage_from_one_projection_5_1_1():
    # 5.1.1: armor 2 = 2 damage a broken armor token, 3 tokens at most; hit 3 = 3 damage a
    # broken heart. Malve's brawl: 4 damage (2 broken armor tokens) and 1 broken heart (7.3.2.2).
    from missions.rules.damage import tracks

    p, _ = assign_damage(piece(armor=2, hit=3), 4)
    p, _ = add_broken_hearts(p, 1)
    t = tracks(p)
    assert {k: (v["tokens"], v["limit"], v["step"], v["taken"], v["capacity"]) for k, v in t.items()} == {
        "armor": (2, 3, 0, 4, 6),
        "hit": (1, 3, 0, 3, 9),
    }
    assert t["armor"]["words"] == (
        "Armor 2: 2 of 3 broken armor tokens, 0/2 damage toward the next (4/6)."
    )
    # A step part-filled counts too; an armor factor of 0 has no armor track.
    t = tracks(assign_damage(piece(armor=0, hit=3), 1)[0])
    assert (t["armor"]["capacity"], t["hit"]["taken"], t["hit"]["step"]) == (0, 1, 1)
    assert tracks(assign_damage(piece(armor=4), 14)[0])["armor"]["words"].startswith(
        "Armor 4: all 3 broken armor tokens placed (12/12)"
    )

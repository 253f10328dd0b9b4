"""Shooting calculator (DemLoc rulebook 7.2.1 ability test, 7.2.2.3 modifiers, 7.2.2.4
hitting, 5.6 out-of-control card, 8.1 PERFORATING and SHIELD, 8.3 SHIELD pentacle)."""

import pytest

from missions.rules.cards import card_from_data
from missions.rules.damage import new_piece
from missions.rules.shooting import ability_test, out_of_control, resolve_shot, shooting_dice
from tabletop.dice import Dice
from tabletop.errors import RuleViolation

BOW = {"name": "Bow", "type": "bows", "damage": 3, "range": 6}


def shooter(**extra):
    data = {"id": "s", "name": "Korr", "hit": 3, "armor": 4, "ranged": 2, "weapons": [BOW], **extra}
    return new_piece(card_from_data(data), 0)


def target(**extra):
    data = {"id": "t", "name": "Guard", "hit": 3, "armor": 5, "impact": 1, **extra}
    return new_piece(card_from_data(data), 1)


def test_ability_test_passes_at_or_under_the_ability():
    # 7.2.1: a d6 equal to or less than the ability passes.
    assert ability_test(3, 3).passed
    assert not ability_test(4, 3).passed


def test_fate_points_lower_the_roll_never_below_1():
    # 7.2.1: each fate point lowers the die by 1, never below 1.
    assert ability_test(5, 3, fate=2).result == 3 and ability_test(5, 3, fate=2).passed
    assert ability_test(2, 3, fate=4).result == 1


def test_ability_test_refuses_a_roll_off_the_die():
    with pytest.raises(RuleViolation) as err:
        ability_test(7, 3)
    assert err.value.code == "bad_roll"


def test_lower_than_armor_no_effect():
    # 7.2.2.4: attack 4 < armor 5: no effect.
    result = resolve_shot(shooter(), target(), BOW | {"features": []}, [1, 3])
    assert (result.total, result.outcome, result.damage) == (4, "none", 0)


def test_equal_to_armor_weapon_damage_to_the_armor():
    # 7.2.2.4: attack 5 = armor 5: the weapon damage (3) goes to the armor.
    result = resolve_shot(shooter(), target(), BOW | {"features": []}, [2, 3])
    assert (result.outcome, result.damage) == ("armor", 3)


def test_greater_than_armor_damage_plus_difference_minus_impact_resistance():
    # 7.2.2.4: attack 8 > armor 5: (3 + 3) - impact resistance 1 = 5 to the hit factor.
    result = resolve_shot(shooter(), target(), BOW | {"features": []}, [4, 4])
    assert (result.outcome, result.damage) == ("hit", 5)
    assert "(3 + 3) - 1 = 5" in result.lines[-1]


def test_perforating_ignores_impact_resistance():
    # 8.1 PERFORATING: (3 + 3) - 0 = 6.
    result = resolve_shot(shooter(), target(), BOW | {"features": ["PERFORATING"]}, [4, 4])
    assert result.damage == 6


def test_three_broken_armor_tokens_equal_counts_as_greater_without_impact_resistance():
    # 7.2.2.4: equal with 3 broken armor tokens is treated as greater; the note: no impact resistance.
    t = {**target(), "broken_armor": 3}
    result = resolve_shot(shooter(), t, BOW | {"features": []}, [2, 3])
    assert (result.outcome, result.damage) == ("hit", 3)


def test_shield_adds_to_the_armor_factor():
    # 8.1 SHIELD x: 6 against armor 5 + SHIELD 1 = 6: equal.
    t = target(
        weapons=[{"name": "Buckler", "type": "shields", "damage": 1, "features": ["SHIELD 1"]}]
    )
    result = resolve_shot(shooter(), t, BOW | {"features": []}, [3, 3])
    assert (result.armor, result.outcome) == (6, "armor")


def test_pentacle_shield_counts_only_after_summoning():
    # 8.3 SHIELD x on the summoning pentacle.
    code = {"name": "C", "powers": [], "pentacle": {"name": "P", "effects": ["SHIELD 2"]}}
    t = target(code=code)
    assert resolve_shot(shooter(), t, BOW | {"features": []}, [3, 3]).armor == 5
    t["asset"] = "post_summoning"
    assert resolve_shot(shooter(), t, BOW | {"features": []}, [3, 3]).armor == 7


def test_modifiers_table():
    # 7.2.2.3: favourite +1, partial cover -1 each, exhausted -1 (not positioned).
    s = shooter(favourite="bows")
    s["movement"] = "exhausted"
    result = resolve_shot(s, target(), BOW | {"features": []}, [3, 3], cover=2)
    assert result.total == 6 + 1 - 2 - 1


def test_positioned_shot_uses_an_enhanced_die_and_needs_an_active_token():
    # 7.2.2.2: positioned shooting: one enhanced die replaces a fighting die.
    result = resolve_shot(shooter(), target(), BOW | {"features": []}, [3, 8], positioned=True)
    assert result.total == 11
    s = {**shooter(), "movement": "exhausted"}
    with pytest.raises(RuleViolation) as err:
        resolve_shot(s, target(), BOW | {"features": []}, [3, 8], positioned=True)
    assert err.value.code == "not_active"


def test_broken_hearts_remove_dice():
    # 7.2.2.3: -1 fighting die per broken heart token (ranged 2, 1 broken heart: 1 die).
    s = {**shooter(), "broken_hearts": 1}
    assert shooting_dice(s) == 1
    with pytest.raises(RuleViolation) as err:
        resolve_shot(s, target(), BOW | {"features": []}, [3, 3])
    assert err.value.code == "bad_dice"


class FixedSource:
    def __init__(self, values):
        self.values = list(values)

    def randrange(self, n):
        return self.values.pop(0)


def test_out_of_control_rolls_again_on_10_and_5_means_no_effect():
    # 5.6: 10 is rolled again; 5: no effect.
    ooc = out_of_control(Dice(FixedSource([9, 9, 4])))  # d10 = 10, 10, 5
    assert ooc == {"rolls": [10, 10, 5], "result": 5, "direction": None}
    ooc = out_of_control(Dice(FixedSource([7])))  # 8: far side
    assert ooc["direction"].startswith("far")


def test_a_stray_shot_notice_clears_at_the_next_turn_7_2_2():
    """Found by a new user: the "Stray shot!" notice stayed through later turns and the end.
    It is about the shot just made (7.2.2, 5.6), so the next turn clears it."""
    from .demloc_sim import acting, finish_turn, new_sim, run

    sim = new_sim()
    seat = acting(sim)
    pieces = sim.state["pieces"].values()
    shooter = next(
        p
        for p in pieces
        if p["owner"] == seat
        and p["status"] == "in_play"
        and any(w.get("range") for w in p["weapons"])
        and p["ranged"] < 6
    )
    weapon = next(i for i, w in enumerate(shooter["weapons"]) if w.get("range"))
    victim = next(p for p in pieces if p["owner"] != seat and p["status"] == "in_play")
    run(
        sim,
        seat,
        "shot.propose",
        shooter=shooter["id"],
        weapon=weapon,
        target=victim["id"],
        test_roll=6,
        dice=[1] * shooting_dice(shooter),  # a wrong count is refused even when it strays
    )
    assert sim.state["notice"]["kind"] == "stray"
    finish_turn(sim)
    run(sim, 0, "turn.next")
    assert sim.state["notice"] is None


def test_ability_test_refuses_negative_fate_points():
    """7.2.1 "Details about the ability test": fate points are spent, never given back (the
    table commands read 0..6; the calculator refuses a negative count itself)."""
    with pytest.raises(RuleViolation) as err:
        ability_test(3, 4, fate=-1)
    assert err.value.code == "bad_fate"


def test_a_stray_shot_says_what_happened_and_each_one_is_a_new_landing_5_6():
    """The shooter's phone lands on the notice of a failed shot (docs/playing.md "A live table:
    where a tap lands"): the view says who shot at whom and that the test failed, and gives a
    landing key that differs for a second stray shot (a new notice in the same place)."""
    from missions.rules.view import view

    from .demloc_sim import acting, new_sim, run

    sim = new_sim()
    keys = []
    for seat in (acting(sim), 1 - acting(sim)):  # one shooter each (a shot activates it, 7.2)
        pieces = list(sim.state["pieces"].values())
        shooter = next(
            p
            for p in pieces
            if p["owner"] == seat and any(w.get("range") for w in p["weapons"]) and p["ranged"] < 6
        )
        weapon = next(i for i, w in enumerate(shooter["weapons"]) if w.get("range"))
        victim = next(p for p in pieces if p["owner"] != seat)
        run(sim, seat, "shot.propose", shooter=shooter["id"], weapon=weapon,
            target=victim["id"], test_roll=6, dice=[1] * shooting_dice(shooter))
        shown = view(sim.state, seat)
        assert shown["notice"].startswith(
            f"{shooter['name']}'s shot at {victim['name']} missed: the test failed. Stray shot!"
        )
        keys.append(shown["notice_land"])
    assert keys[0] and keys[1] and keys[0] != keys[1]


# ------------------------------------------------------------------ the shot event carries numbers
def test_7_2_2_a_proposed_shot_records_its_numbers_and_the_log_and_page_word_them():
    """A shot's event carries what it was worked out from (the test die, the fighting dice,
    each modifier, the target's armor and impact resistance: ``shot_steps``), no English; the
    replayed log, the live view's narrator and the page's proposal word the same arithmetic,
    which ``resolve_shot`` gave when it was proposed. Korr (ranged 3) shoots Bram behind one
    element of cover."""
    from tabletop.log import recent_lines

    from .demloc_sim import new_sim, run

    t = new_sim()
    korr, bram = t.state["pieces"]["s0-korr"], t.state["pieces"]["s1-bram"]
    worked = resolve_shot(korr, bram, korr["weapons"][0], [2, 2, 1], cover=1)
    (event,) = run(t, 0, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=3,
                   dice=[2, 2, 1], cover=1)
    assert "lines" not in event.data
    assert event.data["test"] == {"roll": 3, "modifier": 0, "ability": korr["ranged"]}
    assert (event.data["steps"]["dice"], event.data["steps"]["cover"]) == ([2, 2, 1], 1)
    assert event.data["steps"]["armor"] == bram["armor"]
    words = [f"Ranged weapon test: rolled 3 against Ranged weapon {korr['ranged']}: passed",
             *worked.lines]
    told = " ".join(["Shot: Korr Halfhand at Bram Oakjaw.", *words])
    assert t.lines()[-1] == told
    latest = recent_lines(t.ruleset, t.state, t.log[-1:], set())
    assert latest[0].text == told
    assert t.ruleset.view(t.state, 1)["pending"]["lines"] == words

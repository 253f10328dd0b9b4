"""Pure rules of the individual game, no database (DemLoc rulebook 5.1.1, 5.1.4, 5.1.5, 6.2)."""


from guilds import rules
from guilds.rules import Enlisted, Held, LimitBonus
from tests.kit import refused

# 5.1.4 weapon grip: two-handed only on top with nothing below; two one-handed; primary = top.


def test_first_one_handed_weapon_goes_to_the_top_space():
    assert rules.choose_slot([], two_handed=False, slot=None) == rules.PRIMARY


def test_second_one_handed_weapon_goes_below():
    held = [Held(rules.PRIMARY, False)]
    assert rules.choose_slot(held, two_handed=False, slot=None) == rules.SECONDARY


def test_two_handed_weapon_only_in_the_top_space():
    refused("two_handed_needs_top", rules.choose_slot, [], True, rules.SECONDARY)
    assert rules.choose_slot([], two_handed=True, slot=None) == rules.PRIMARY


def test_two_handed_weapon_needs_nothing_else_held():
    held = [Held(rules.PRIMARY, False)]
    refused("two_handed_needs_free_hands", rules.choose_slot, held, True, None)


def test_nothing_goes_below_a_two_handed_weapon():
    held = [Held(rules.PRIMARY, True)]
    refused("hands_full", rules.choose_slot, held, False, None)
    refused("hands_full", rules.choose_slot, held, False, rules.SECONDARY)


def test_a_third_one_handed_weapon_does_not_fit():
    held = [Held(rules.PRIMARY, False), Held(rules.SECONDARY, False)]
    refused("hands_full", rules.choose_slot, held, False, None)


def test_occupied_space_and_lower_space_before_top_are_refused():
    refused("slot_occupied", rules.choose_slot, [Held(rules.PRIMARY, False)], False, rules.PRIMARY)
    refused("primary_slot_empty", rules.choose_slot, [], False, rules.SECONDARY)
    refused("bad_slot", rules.choose_slot, [], False, "belt")


# 5.1.1 dormitory: slots, a number per type and per level, raised by buildings and city control.


def test_dormitory_level_1_limits():
    limits = rules.dormitory_limits(1)
    assert limits.slots == 4
    assert limits.per_type == {"hunter": 2, "belligerent": 2, "sorcerer": 2, "miserable": 2}
    assert 1 not in limits.per_level  # level 1: the slots alone
    assert limits.per_level[2] == 2 and limits.per_level[4] == 0


def test_upgrading_the_dormitory_raises_every_limit():
    low, high = rules.dormitory_limits(1), rules.dormitory_limits(2)
    assert high.slots > low.slots
    assert all(high.per_type[t] > low.per_type[t] for t in rules.MERCENARY_TYPES)
    assert all(high.per_level[lv] >= low.per_level[lv] for lv in low.per_level)


def test_city_control_bonuses_raise_limits_and_never_below_zero():
    limits = rules.dormitory_limits(
        1,
        [
            LimitBonus("slots", 2),
            LimitBonus("type", 1, "sorcerer"),
            LimitBonus("level", 1, "4"),
            LimitBonus("level", -5, "3"),
        ],
    )
    assert limits.slots == 6
    assert limits.per_type["sorcerer"] == 3 and limits.per_type["hunter"] == 2
    assert limits.per_level[4] == 1
    assert limits.per_level[3] == 0


def test_enlist_checks_slots_then_type_then_level():
    limits = rules.dormitory_limits(1)
    four = [
        Enlisted("hunter", 1),
        Enlisted("belligerent", 1),
        Enlisted("sorcerer", 1),
        Enlisted("miserable", 1),
    ]
    refused("slots_full", rules.check_enlist, limits, four, Enlisted("sorcerer", 1), 0)
    two_hunters = [Enlisted("hunter", 1), Enlisted("hunter", 1)]
    refused("type_limit_reached", rules.check_enlist, limits, two_hunters, Enlisted("hunter", 1), 0)
    one_level_3 = [Enlisted("hunter", 3)]
    refused("level_limit_reached", rules.check_enlist, limits, one_level_3, Enlisted("miserable", 3), 100)
    rules.check_enlist(limits, two_hunters, Enlisted("miserable", 1), 0)


def test_a_guild_must_be_famous_enough_for_higher_levels():
    # 6.3: "if his Guild is famous enough and the dormitory is large enough".
    limits = rules.dormitory_limits(1)
    refused("fame_too_low", rules.check_enlist, limits, [], Enlisted("hunter", 2), 9)
    rules.check_enlist(limits, [], Enlisted("hunter", 2), rules.FAME_FOR_LEVEL[2])


# 6.2 item 4: building upgrades.


def test_upgrade_costs_grow_and_top_levels_ask_blood_stones():
    costs = [rules.upgrade_cost("dormitory", lv) for lv in range(1, rules.MAX_BUILDING_LEVEL)]
    assert [c.feods for c in costs] == sorted(c.feods for c in costs)
    assert costs[0].blood_stones == 0 and costs[-1].blood_stones > 0


def test_no_upgrade_past_the_top_level_or_of_unknown_buildings():
    refused("building_max_level", rules.upgrade_cost, "armory", rules.MAX_BUILDING_LEVEL)
    refused("unknown_building", rules.upgrade_cost, "tavern", 1)


def test_every_building_level_has_its_effects():
    for kind in rules.BUILDING_KINDS:
        for level in range(1, rules.MAX_BUILDING_LEVEL + 1):
            assert rules.building_effects(kind, level)


# 5.1.5: arcane codes for characters with arcane ability above 0, as many as that ability.


def test_arcane_codes_only_for_arcane_ability_above_zero():
    refused("no_arcane_ability", rules.check_code_assign, 0, 0)


def test_a_character_holds_as_many_codes_as_its_arcane_ability():
    rules.check_code_assign(2, 1)
    refused("codes_full", rules.check_code_assign, 2, 2)
    assert rules.arcane_code_capacity(3) == 3


def test_codes_are_read_in_any_case_with_or_without_dashes():
    assert rules.normalize_code(" ab cd-efgh ijkl ") == "ABCD-EFGH-IJKL"
    assert rules.normalize_code("---") == ""


def test_level_1_is_open_to_a_guild_of_negative_fame_5_1_1_6_3():
    # Our rule (guilds.rules.ALWAYS_OPEN_LEVEL): a Guild that lost its first standard
    # mission (-2 fame) can still rebuild from level-1 mercenaries; higher levels need fame.
    limits = rules.dormitory_limits(1)
    rules.check_enlist(limits, [], Enlisted("hunter", 1), -2)
    rules.check_enlist(limits, [], Enlisted("hunter", 1), -1000)
    refused("fame_too_low", rules.check_enlist, limits, [], Enlisted("hunter", 2), -2)
    full = [Enlisted(t, 1) for t in ("hunter", "belligerent", "sorcerer", "miserable")]
    refused("slots_full", rules.check_enlist, limits, full, Enlisted("hunter", 1), -2)


def test_home_areas_are_where_the_guild_holds_points_at_most_two_5_1_1():
    # Point 8 (our numbers, guilds.rules): >= 1 point makes an area home; 2 count.
    assert rules.home_areas({}) == []
    assert rules.home_areas({"Docks": 1}) == ["Docks"]
    assert rules.home_areas({"Docks": 1, "Ashen Market": 3, "Old Town": 2}) == [
        "Ashen Market",
        "Old Town",
    ]
    limits = rules.dormitory_limits(1, rules.home_area_bonuses(["Docks", "Old Town"]))
    base = rules.dormitory_limits(1)
    assert all(limits.per_type[t] == base.per_type[t] + 2 for t in rules.MERCENARY_TYPES)
    assert limits.per_level[2] == base.per_level[2] + 2
    assert limits.per_level[3] == base.per_level[3] and limits.slots == base.slots

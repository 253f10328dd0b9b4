"""The binding check (rulebook "Performing the Binding Ritual", "Aces", "Vessels", "Realm
Wardens", "The Mimics", "Curses", FAQ "Curse Combinations")."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.realm.rules import cards as C

SKULLS_ARE_8 = {"op": "suit_as_rank", "suit": "S", "rank": "8"}
EIGHTS_ARE_3 = {"op": "rank_as_rank", "from": "8", "to": "3"}
NO_3S = {"op": "cannot_play_rank", "rank": "3"}


def cover(assignment):
    return {(a["corner"], a["card"]) for a in assignment}


def test_component_counts_match_the_rulebook():
    # "Components": 54 Ritual Cards (Ace-10 of 4 suits, 3 Wardens each, 2 Mimics), 8 Vessels
    assert len(C.RITUAL_DECK) == 54 == len(set(C.RITUAL_DECK))
    assert len(C.VESSELS) == 8
    assert sum(1 for c in C.RITUAL_DECK if C.printed(c)[1] == "A") == 4
    assert sum(1 for c in C.RITUAL_DECK if C.printed(c)[1] in C.WARDEN_RANKS) == 12
    assert sum(1 for c in C.RITUAL_DECK if C.is_mimic(c)) == 2


def test_one_card_per_corner_binds():
    assignment = C.solve_binding(["D", "2", "V", "9"], ["7D", "2C", "3V", "9S"])
    assert cover(assignment) == {("D", "7D"), ("2", "2C"), ("V", "3V"), ("9", "9S")}


def test_two_of_daggers_meets_the_dagger_and_the_2():
    # rulebook: "if you have the 2 of Daggers, you can use that card to meet ... both"
    assignment = C.solve_binding(["D", "2", "V", "9"], ["2D", "9V"])
    assert cover(assignment) == {("D", "2D"), ("2", "2D"), ("V", "9V"), ("9", "9V")}


def test_a_card_never_meets_two_suits_or_two_ranks():
    assert C.solve_binding(["D", "D", "2", "3"], ["2D", "3C"]) is None
    assert C.solve_binding(["D", "D", "2", "3"], ["2D", "3D"]) is not None
    assert C.solve_binding(["2", "2", "V", "C"], ["2V", "9C"]) is None


def test_the_matcher_backtracks_over_an_ambiguous_first_choice():
    # 7D could take D and 7, but then 9D meets nothing: the only full assignment gives the
    # Dagger to 9D and only the 7 to 7D
    corners = ["D", "7", "S", "2"]
    assignment = C.solve_binding(corners, ["7D", "2S", "9D"])
    assert cover(assignment) == {("D", "9D"), ("7", "7D"), ("S", "2S"), ("2", "2S")}
    assignment = C.solve_binding(["D", "7", "D", "9"], ["7D", "9D"])
    assert cover(assignment) == {("D", "7D"), ("7", "7D"), ("D", "9D"), ("9", "9D")}
    assignment = C.solve_binding(["D", "7", "S", "D"], ["7S", "2D", "3D"])
    assert cover(assignment) == {("D", "2D"), ("7", "7S"), ("S", "7S"), ("D", "3D")}


def test_impossible_sets_fail():
    assert C.solve_binding(["D", "2", "V", "9"], ["7D", "2C", "3V"]) is None  # no 9
    assert C.solve_binding(["D", "2", "V", "9"], ["7D", "2C", "3V", "9S", "4C"]) is None  # 5 cards
    assert C.solve_binding(["D", "2", "V", "9"], []) is None
    # a useless extra card is not part of a ritual
    assert C.solve_binding(["D", "2", "V", "9"], ["2D", "9V", "5C"]) is None


def test_an_ace_becomes_any_numeric_rank_and_keeps_its_suit():
    # rulebook "Aces": any rank 2-10, suit unchanged
    assignment = C.solve_binding(["D", "7", "V", "10"], ["AD", "AV"])
    by_card = {a["card"]: (a["suit"], a["rank"]) for a in assignment}
    assert sorted(by_card.values()) == [("D", "7"), ("V", "10")] or sorted(by_card.values()) == [
        ("D", "10"),
        ("V", "7"),
    ]
    assert C.solve_binding(["C", "7", "V", "10"], ["AD", "AV"]) is None  # suit stays Daggers
    # a declared Ace rank is kept
    assert (
        C.solve_binding(
            ["D", "7", "V", "10"], ["AD", "AV"], {"AD": {"rank": "7"}, "AV": {"rank": "7"}}
        )
        is None
    )


def test_a_vessel_is_exactly_its_declared_suit_and_rank():
    # rulebook "Vessels": any suit and numeric rank, declared when played
    vessel = {"vessel-1": {"suit": "C", "rank": "9"}}
    assignment = C.solve_binding(["D", "2", "C", "9"], ["2D", "vessel-1"], vessel)
    assert cover(assignment) == {("D", "2D"), ("2", "2D"), ("C", "vessel-1"), ("9", "vessel-1")}
    wrong = {"vessel-1": {"suit": "C", "rank": "8"}}
    assert C.solve_binding(["D", "2", "C", "9"], ["2D", "vessel-1"], wrong) is None


def test_undeclared_or_badly_declared_vessels_are_refused():
    with pytest.raises(RuleViolation) as info:
        C.check_declarations(["vessel-1"], {})
    assert info.value.code == "vessel_undeclared"
    for bad in (
        {"suit": "X", "rank": "9"},
        {"suit": "C", "rank": "A"},
        {"suit": "C", "rank": "11"},
    ):
        with pytest.raises(RuleViolation) as info:
            C.check_declarations(["vessel-1"], {"vessel-1": bad})
        assert info.value.code == "bad_declaration"
    with pytest.raises(RuleViolation) as info:
        C.check_declarations(["AD"], {"AD": {"rank": "J"}})
    assert info.value.code == "bad_declaration"
    assert C.check_declarations(
        ["vessel-2", "AD"], {"vessel-2": {"suit": "S", "rank": 4}, "AD": {"rank": "6"}}
    ) == {"vessel-2": {"suit": "S", "rank": "4"}, "AD": {"rank": "6"}}


def test_wardens_meet_suit_corners_but_no_rank():
    # rulebook "Realm Wardens": they can satisfy suit requirements
    assert C.solve_binding(["S", "4", "D", "5"], ["KS", "4D", "5C"]) is not None
    assert cover(C.solve_binding(["S", "4", "D", "5"], ["ES", "SD", "4C", "5V"])) == {
        ("S", "ES"),
        ("D", "SD"),
        ("4", "4C"),
        ("5", "5V"),
    }
    assert C.solve_binding(["S", "4", "D", "5"], ["ES", "4D", "KC"]) is None  # nothing is a 5


def test_mimics_meet_nothing():
    assert C.card_options("mimic-1", None, []) == []
    assert C.solve_binding(["D", "2", "V", "9"], ["2D", "9V", "mimic-1"]) is None


def test_faq_curse_chain_skulls_become_3s_and_cannot_be_played():
    # FAQ "Curse Combinations": Skulls are 8s + 8s are 3s + no 3s => Skulls are 3s, unplayable
    chain = [SKULLS_ARE_8, EIGHTS_ARE_3, NO_3S]
    assert C.transform("S", "5", chain[:2]) == ("S", "3")
    assert C.card_options("5S", None, chain) == []
    assert C.card_options("AS", None, chain) == []  # an Ace of Skulls is a Skull too
    assert C.solve_binding(["S", "8", "C", "4"], ["5S", "8C", "4C"], effects=chain) is None
    # an 8 of Candles is a 3 now, and 3s cannot be played either
    assert C.card_options("8C", None, chain) == []
    # the same cards bind without the curses
    assert C.solve_binding(["S", "8", "C", "4"], ["5S", "8C", "4C"]) is not None


def test_curse_order_does_not_matter_and_each_applies_once():
    assert C.transform("S", "5", [EIGHTS_ARE_3, SKULLS_ARE_8]) == ("S", "3")
    cycle = [
        {"op": "rank_as_rank", "from": "8", "to": "3"},
        {"op": "rank_as_rank", "from": "3", "to": "8"},
    ]
    assert C.transform("D", "8", cycle) == ("D", "8")  # 8 -> 3 -> 8, then both are spent


def test_skulls_are_8s_lets_a_skull_meet_an_8_corner():
    # "Your Skulls are all 8s": a 5 of Skulls meets Skull and 8
    assignment = C.solve_binding(["S", "8", "C", "4"], ["5S", "4C"], effects=[SKULLS_ARE_8])
    assert cover(assignment) == {("S", "5S"), ("8", "5S"), ("C", "4C"), ("4", "4C")}
    # ...and no longer meets a 5 corner
    assert C.solve_binding(["S", "5", "C", "4"], ["5S", "4C"], effects=[SKULLS_ARE_8]) is None


def test_suit_change_and_forbidden_suit():
    candles_daggers = {"op": "suit_as_suit", "from": "C", "to": "D"}
    assert C.solve_binding(["D", "2", "V", "9"], ["2C", "9V"], effects=[candles_daggers])
    no_virgins = {"op": "cannot_play_suit", "suit": "V"}
    assert C.solve_binding(["D", "2", "V", "9"], ["2D", "9V"], effects=[no_virgins]) is None


def test_an_ace_avoids_a_forbidden_rank():
    no_7 = {"op": "cannot_play_rank", "rank": "7"}
    assert C.solve_binding(["D", "7", "V", "9"], ["AD", "9V"], effects=[no_7]) is None
    assert C.solve_binding(["D", "6", "V", "9"], ["AD", "9V"], effects=[no_7]) is not None


def test_curses_apply_to_a_declared_vessel():
    vessel = {"vessel-1": {"suit": "S", "rank": "5"}}
    assert (
        C.solve_binding(["S", "8", "C", "4"], ["vessel-1", "4C"], vessel, [SKULLS_ARE_8])
        is not None
    )


def test_hand_size_curse():
    assert C.hand_size([]) == 5
    assert C.hand_size([{"op": "hand_size", "size": 4}, {"op": "hand_size", "size": 6}]) == 4


def test_parity_follows_the_faq():
    assert C.parity("2D") == "even" and C.parity("9V") == "odd" and C.parity("10S") == "even"
    for neither in ("AD", "ED", "SD", "KD", "mimic-1", "vessel-3"):
        assert C.parity(neither) is None


def test_pact_progress_counts_corners_and_exceeding_counts():
    lust = [{"kind": "suit", "suit": "V", "at_least": 3}]
    bound = [
        {"corners": ["V", "V", "10", "4"], "personal": False, "lasting": True},
        {"corners": ["V", "V", "6", "9"], "personal": True, "lasting": False},
    ]
    assert C.pact_met(lust, bound)  # 4 Virgins fulfil Lust (FAQ "Pact Demands")
    assert not C.pact_met(lust, bound[:1])
    progress = C.pact_progress(
        [
            {"kind": "rank_sum", "at_least": 30},
            {"kind": "personal", "at_least": 1},
            {"kind": "lasting", "at_least": 2},
            {"kind": "distinct_suits", "at_least": 1},
            {"kind": "parity", "parity": "even", "at_least": 3},
            {"kind": "rank", "rank": "10", "at_least": 1},
        ],
        bound,
    )
    assert [(p["have"], p["met"]) for p in progress] == [
        (29, False),
        (1, True),
        (1, False),
        (1, True),
        (3, True),
        (1, True),
    ]


def test_content_validation_rejects_bad_shapes():
    with pytest.raises(ValueError):
        C.validate_effects([{"op": "explode"}])
    with pytest.raises(ValueError):
        C.validate_effects([{"op": "suit_as_rank", "suit": "X", "rank": "8"}])
    with pytest.raises(ValueError):
        C.validate_conditions([])
    with pytest.raises(ValueError):
        C.validate_conditions([{"kind": "suit", "suit": "V"}])
    with pytest.raises(ValueError):
        C.validate_demon({"id": "x", "name": "X", "curse": "c", "corners": ["D", "2", "V"]})
    with pytest.raises(ValueError):
        C.validate_demon({"id": "x", "name": "X", "curse": "c", "corners": ["D", "2", "V", "A"]})
    with pytest.raises(ValueError):  # a one-time curse cannot carry lasting effects
        C.validate_demon(
            {
                "id": "x",
                "name": "X",
                "curse": "c",
                "corners": ["D", "2", "V", "3"],
                "lasting": False,
                "effects": [NO_3S],
            }
        )


def test_demo_content_is_valid_and_large_enough():
    from tabletop.realm.content import demo_content

    content = demo_content()
    assert len(content["demons"]) >= 19
    assert len(content["pacts"]) >= 8
    assert len(content["afflictions"]) == 12
    for demon in content["demons"]:
        C.validate_demon(demon)
    for pact in content["pacts"]:
        C.validate_conditions(pact["conditions"])
    assert sum(1 for p in content["pacts"] if p["acolyte"]) == 2  # two sides of one card


def test_a_failed_ritual_says_why():
    corners = ["D", "2", "V", "9"]
    assert C.explain_failure(corners, ["7D", "2C", "3V"]) == (
        "Still missing for this ritual: a card for 9. Binding needs every ritual requirement"
        " on the Demon's corners met this turn."
    )
    assert C.explain_failure(corners, ["2D", "9V", "5C"]) == (
        "These cards meet no requirement: 5 of Candles."
    )
    assert "at most one suit" in C.explain_failure(["D", "D", "2", "3"], ["2D", "3C"])
    chain = [SKULLS_ARE_8, EIGHTS_ARE_3, NO_3S]
    assert C.explain_failure(["S", "8", "C", "4"], ["5S", "4C"], effects=chain) == (
        "Still missing for this ritual: a card for Skulls and 8. Binding needs every ritual"
        " requirement on the Demon's corners met this turn."
    )

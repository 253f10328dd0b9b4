"""Personimo rules, "Scoring" and the "Bonus Points" variants, worked through by hand."""

import pytest

from tabletop.personimo.rules.scoring import (
    AGE_OF_BADGERS,
    BONUSES,
    ScoringOptions,
    score_district,
    score_table,
)

from .test_placement import district


def hood(result, suit, cell):
    return next(
        h for h in result["neighborhoods"] if h["suit"] == suit and list(cell) in h["cells"]
    )


# The Island (Suns, Waves, Wyrms) at the centre.
#   row 1: .       Mountain(Moons) Mountain(Suns) .       .
#   row 2: Diplomat(Moons) Diplomat(Suns) ISLAND  Sea(Waves) Sea(Waves)
#   row 3: .       .       Lunatic(Waves) .        .
#   row 4: .       .       Lunatic(Moons) .        .
# Waves: Island + Sea x2 + Lunatic = 4 blocks, joined only through the headquarters; scoring
#   cards: the Sea (attraction) and the Lunatic (personality, bottom suit Waves): 4 x 2 = 8.
# Suns: Island + Diplomat + Mountain = 3 blocks; the Diplomat is a personality and an attraction
#   and counts twice: 3 x 2 = 6. Its Moons block scores nothing (not its bottom suit).
# Moons: Diplomat + Mountain (2 blocks, 0 cards) = 0, the Lunatic's Moons block alone = 0.
# Wyrms: the Island alone = 0. Total 14.
WORKED = district(
    ("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]),
    ("lunatic/1", [(3, 2), (4, 2)], ["Waves", "Moons"]),
    ("diplomat/1", [(2, 1), (2, 0)], ["Suns", "Moons"]),
    ("mountain/1", [(1, 1), (1, 0)], ["Suns", "Moons"]),
)


def test_worked_district_neighborhoods_and_total():
    result = score_district(WORKED)
    waves = hood(result, "Waves", (2, 2))
    assert (waves["blocks"], waves["scoring"], waves["points"]) == (4, 2, 8)
    assert waves["text"] == "4 x 2 = 8"
    suns = hood(result, "Suns", (2, 2))
    assert (suns["blocks"], suns["cards"], suns["points"]) == (3, ["diplomat/1"] * 2, 6)
    assert hood(result, "Moons", (2, 0))["points"] == 0
    assert hood(result, "Moons", (4, 2))["blocks"] == 1
    assert hood(result, "Wyrms", (2, 2))["blocks"] == 1
    assert (result["base"], result["total"]) == (14, 14)
    assert (result["largest"], result["personalities"], result["attractions"]) == (4, 2, 2)
    assert result["crowns"] == 1


def test_headquarters_counts_once_in_each_of_its_suits():
    result = score_district(WORKED)
    with_hq = [h for h in result["neighborhoods"] if [2, 2] in h["cells"]]
    assert sorted(h["suit"] for h in with_hq) == ["Suns", "Waves", "Wyrms"]
    assert sum(h["blocks"] for h in result["neighborhoods"]) == 9 + 2  # 9 blocks, HQ 3 times


def test_multi_suited_scoring_card_counts_only_for_its_bottom_suit():
    # The Merchant (Leaves, Knots; personality and 9) with Leaves joining two Aces of Leaves and
    # Knots alone: Knots 1 x 2 = 2, Leaves 5 x 0 = 0.
    d = district(
        ("merchant/1", [(2, 3), (2, 4)], ["Leaves", "Knots"]),
        ("ace-of-leaves/1", [(1, 3), (0, 3)], ["Leaves", "Leaves"]),
        ("ace-of-leaves/2", [(3, 3), (4, 3)], ["Leaves", "Leaves"]),
    )
    result = score_district(d)
    assert hood(result, "Knots", (2, 4))["text"] == "1 x 2 = 2"
    assert hood(result, "Leaves", (2, 3))["text"] == "5 x 0 = 0"
    assert result["total"] == 2


def test_a_neighborhood_without_a_personality_or_attraction_scores_zero():
    d = district(("ace-of-waves/1", [(2, 3), (2, 4)], ["Waves", "Waves"]),
                 ("cave/1", [(3, 2), (4, 2)], ["Waves", "Wyrms"]))  # fmt: skip
    result = score_district(d)
    assert hood(result, "Waves", (2, 2))["text"] == "4 x 0 = 0"
    assert result["total"] == 0
    assert result["largest"] == 4


@pytest.mark.parametrize(
    ("name", "suits", "bottom"),
    [("diplomat/1", ["Suns", "Moons"], "Suns"), ("merchant/1", ["Knots", "Leaves"], "Knots"),
     ("bard/1", ["Suns", "Suns"], "Suns"), ("huntress/1", ["Moons", "Moons"], "Moons")],
)  # fmt: skip
def test_the_four_double_scoring_personalities_count_twice(name, suits, bottom):
    result = score_district(district((name, [(0, 0), (0, 1)], suits)))
    assert hood(result, bottom, (0, 0))["scoring"] == 2


def test_head_start_personality_scores_for_knots_in_the_headquarters():
    # The Consul (Moons, Waves, Knots) with the Windfall (Crown of Knots) beside it:
    # Knots = 3 blocks, the Consul 1 + the Windfall 1: 3 x 2 = 6.
    d = district(("windfall/1", [(2, 3), (2, 4)], ["Knots", "Knots"]), hq="consul/1")
    result = score_district(d)
    assert hood(result, "Knots", (2, 2))["text"] == "3 x 2 = 6"
    assert result["total"] == 6
    assert result["personalities"] == 1


def test_a_location_headquarters_is_not_a_scoring_card():
    assert score_district(district(hq="borderland/1"))["total"] == 0


def test_lucky_nines_nines_double_and_the_merchant_triple():
    d = district(
        ("pact/1", [(2, 3), (2, 4)], ["Moons", "Suns"]),
        ("merchant/1", [(1, 2), (0, 2)], ["Leaves", "Knots"]),
    )
    plain = score_district(d)
    lucky = score_district(d, ScoringOptions(lucky_nines=True))
    assert hood(plain, "Suns", (2, 4))["scoring"] == 1
    assert hood(lucky, "Suns", (2, 4))["scoring"] == 2
    assert hood(plain, "Knots", (0, 2))["scoring"] == 2
    assert hood(lucky, "Knots", (0, 2))["scoring"] == 3


def test_detraction_moves_the_lowest_attraction_rank():
    # The Castle is a 7 (Suns, Knots): an attraction from 7 up, not at 8.
    d = district(("castle/1", [(2, 3), (2, 4)], ["Suns", "Knots"]))
    assert score_district(d)["total"] == 0
    assert score_district(d, ScoringOptions(attraction_min=7))["total"] == 1
    # Crowns only: the Pact (9) no longer scores.
    pact = district(("pact/1", [(2, 3), (2, 4)], ["Moons", "Suns"]))
    assert score_district(pact, ScoringOptions(attraction_min=10))["total"] == 0


# --- tiebreakers -----------------------------------------------------------------------------


def test_equal_scores_break_on_the_largest_neighborhood():
    # Both score 3 (the Sea beside the Borderland's Waves: 3 x 1); the second also has a
    # 4-block Moons neighborhood that scores nothing but is the largest.
    base = [("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"])]
    one = district(*base, hq="borderland/1")
    two = district(*base, ("ace-of-moons/1", [(0, 0), (0, 1)], ["Moons", "Moons"]),
                   ("ace-of-moons/2", [(1, 0), (1, 1)], ["Moons", "Moons"]), hq="borderland/1")  # fmt: skip
    results = score_table([one, two])
    assert [r["total"] for r in results] == [3, 3]
    assert [r["place"] for r in results] == [2, 1]


def test_then_on_most_personalities():
    # Waves 3 blocks x 1 each: the Lunatic (personality) against the Sea (attraction).
    hq = {"hq": "window/1", "at": (0, 0)}
    person = district(("lunatic/1", [(4, 3), (4, 4)], ["Moons", "Waves"]),
                      ("ace-of-waves/1", [(3, 4), (2, 4)], ["Waves", "Waves"]), **hq)  # fmt: skip
    place = district(("sea/1", [(4, 4), (3, 4)], ["Waves", "Waves"]),
                     ("cave/1", [(2, 4), (2, 3)], ["Waves", "Wyrms"]), **hq)  # fmt: skip
    results = score_table([place, person])
    assert [(r["total"], r["largest"]) for r in results] == [(3, 3), (3, 3)]
    assert [r["place"] for r in results] == [2, 1]


WINDOW = {"hq": "window/1", "at": (0, 0)}


def test_then_on_most_attractions():
    # Both 8 with a 4-block largest neighborhood and no personality: two Seas in one Waves
    # neighborhood (4 x 2) against the Sea (4 x 1), the Windfall (2 x 1) and the Calamity
    # (2 x 1): three attractions beat two.
    two = district(("sea/1", [(4, 3), (4, 4)], ["Waves", "Waves"]),
                   ("sea/2", [(3, 3), (3, 4)], ["Waves", "Waves"]), **WINDOW)  # fmt: skip
    three = district(
        ("sea/1", [(4, 3), (4, 4)], ["Waves", "Waves"]),
        ("ace-of-waves/1", [(3, 3), (3, 4)], ["Waves", "Waves"]),
        ("windfall/1", [(0, 3), (0, 4)], ["Knots", "Knots"]),
        ("calamity/1", [(2, 0), (3, 0)], ["Wyrms", "Wyrms"]),
        **WINDOW,
    )
    results = score_table([two, three])
    assert [(r["total"], r["largest"], r["personalities"]) for r in results] == [(8, 4, 0)] * 2
    assert [r["attractions"] for r in results] == [2, 3]
    assert [r["place"] for r in results] == [2, 1]


def test_then_on_most_crowns():
    # Both 4 x 1 = 4 with one attraction: the Sea (a Crown) against the Mill (an 8).
    crown = district(("sea/1", [(4, 3), (4, 4)], ["Waves", "Waves"]),
                     ("ace-of-waves/1", [(3, 3), (3, 4)], ["Waves", "Waves"]), **WINDOW)  # fmt: skip
    mill = district(
        ("mill/1", [(4, 4), (4, 3)], ["Leaves", "Waves"]),
        ("ace-of-leaves/1", [(3, 4), (2, 4)], ["Leaves", "Leaves"]),
        ("forest/1", [(1, 4), (1, 3)], ["Leaves", "Moons"]),
        **WINDOW,
    )
    results = score_table([mill, crown])
    key = [(r["total"], r["largest"], r["personalities"], r["attractions"]) for r in results]
    assert key == [(4, 4, 0, 1)] * 2
    assert [r["crowns"] for r in results] == [0, 1]
    assert [r["place"] for r in results] == [2, 1]


def test_full_tie_shares_the_place():
    d = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]))
    assert [r["place"] for r in score_table([d, d, district()])] == [1, 1, 3]


# --- bonus points ----------------------------------------------------------------------------


def full_district(hq_at=(2, 2)):
    """A complete 5x5 district: the Island and 12 Aces filling the rest by rows."""
    cells = [(r, c) for r in range(5) for c in range(5) if (r, c) != hq_at]
    suits = ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"]
    cards = []
    for i in range(12):
        a, b = cells[2 * i], cells[2 * i + 1]
        suit = suits[i % 6]
        cards.append((f"ace-of-{suit.lower()}/{1 + i // 6}", [a, b], [suit, suit]))
    return district(*cards, at=hq_at)


def test_age_of_badgers_complete_district_and_centre_headquarters():
    opts = ScoringOptions(bonus=AGE_OF_BADGERS)
    result = score_district(full_district(), opts)
    assert {b["name"]: b["points"] for b in result["bonuses"]} == {"complete": 5, "centre": 5}
    assert result["total"] == result["base"] + 10
    off_centre = score_district(full_district((0, 1)), opts)
    assert {b["name"] for b in off_centre["bonuses"]} == {"complete"}


def test_corner_headquarters_needs_an_unambiguous_position():
    opts = ScoringOptions(bonus=frozenset({"corner"}))
    assert score_district(full_district((4, 4)), opts)["bonuses"][0]["points"] == 10
    # Three blocks wide: the position is ambiguous, no bonus.
    small = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]), at=(2, 2))
    assert score_district(small, opts)["bonuses"] == []


def test_rows_of_three_four_five_including_diagonals():
    opts = ScoringOptions(bonus=frozenset({"row"}))
    three = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]))  # Island + 2 Waves
    assert score_district(three, opts)["bonuses"][0]["points"] == 5
    diagonal = district(
        ("lunatic/1", [(1, 1), (1, 0)], ["Waves", "Moons"]),
        ("lunatic/2", [(3, 3), (3, 4)], ["Waves", "Moons"]),
        ("cave/1", [(4, 4), (4, 3)], ["Waves", "Wyrms"]),
        ("cave/2", [(0, 0), (0, 1)], ["Waves", "Wyrms"]),
    )  # (0,0) (1,1) HQ(2,2) (3,3) (4,4): five Waves on the diagonal
    assert score_district(diagonal, opts)["bonuses"][0]["points"] == 15
    four = district(
        ("lunatic/1", [(1, 1), (1, 0)], ["Waves", "Moons"]),
        ("lunatic/2", [(3, 3), (3, 4)], ["Waves", "Moons"]),
        ("cave/1", [(4, 4), (4, 3)], ["Waves", "Wyrms"]),
    )
    assert score_district(four, opts)["bonuses"][0]["points"] == 10


def test_box_of_four_and_suit_run_across():
    opts = ScoringOptions(bonus=frozenset({"box", "run"}))
    box = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]),
                   ("sea/2", [(1, 3), (1, 4)], ["Waves", "Waves"]))  # fmt: skip
    assert {b["name"] for b in score_district(box, opts)["bonuses"]} == {"box"}
    run = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]),
                   ("sea/2", [(2, 1), (2, 0)], ["Waves", "Waves"]))  # fmt: skip
    assert {b["name"]: b["points"] for b in score_district(run, opts)["bonuses"]} == {"run": 10}


def test_largest_neighborhood_per_suit_with_second_place_above_three_players():
    waves3 = district(("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"]))
    waves2 = district(("sea/1", [(0, 3), (0, 4)], ["Waves", "Waves"]))
    lone = district(hq="window/1")
    opts = ScoringOptions(bonus=frozenset({"largest"}))
    # Island: Suns, Waves, Wyrms; Window: Suns, Leaves, Knots. Three players, first place only:
    # Waves 3 (waves3); Suns 1 all three tie; Wyrms 1 waves3 and waves2 tie; Leaves and Knots
    # 1 lone. waves3: 5+5+5 = 15, waves2: Suns 5 + Waves? no (2 < 3) + Wyrms 5 = 10, lone 15.
    three = score_table([waves3, waves2, lone], opts)
    assert [b["points"] for r in three for b in r["bonuses"]] == [15, 10, 15]
    four = score_table([waves3, waves2, lone, district(hq="rite/1")], opts)
    # With four players Waves second place (waves2, 2 blocks) gets 2 more.
    assert four[1]["bonuses"][0]["points"] == 12


def test_every_bonus_has_a_label():
    assert set(BONUSES) == {"complete", "centre", "corner", "row", "box", "run", "largest"}

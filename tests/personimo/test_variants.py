"""Personimo variants as table options ("Variants", "The Deck", "District Size Variants")."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import (
    normalize_options,
    orientations,
    placement_error,
    sort_market,
)
from tabletop.personimo.rules.cards import SUITS, card
from tabletop.personimo.rules.scoring import BONUSES, ScoringOptions, score_district

from .sims import actor, finish, new, see, send, set_up
from .test_placement import district


def handled(game):
    return [len(d["cards"]) + len(d["discards"]) for d in game.state["districts"]]


def claim_row(game):
    while game.state["phase"] == "claim":
        send(game, actor(game)["seat"], "claim", {"index": see(game)["claimable"][0]})


def test_there_are_four_lights_carries_the_unpicked_card_forward():
    # Four players: a five-card first market, then four new cards and the carried one.
    game = new(4, seed=3, options={"market": "four_lights"})
    assert len(game.state["row"]) == 5
    assert game.state["seasons"] == 12
    claim_row(game)
    carried = [c for c in game.log[2].data["cards"] if c not in
               [x["card"] for x in game.state["old_row"]]]  # fmt: skip
    assert len(carried) == 1
    assert carried[0] in game.log[-1].data["cards"]
    assert (len(game.state["row"]), game.log[-1].data["dealt"]) == (5, 4)
    assert game.state["discard"] == []
    finish(game, seed=3)
    assert handled(game) == [12] * 4


def test_fives_a_crowd_deals_one_card_more_and_discards_it():
    game = new(5, seed=1, options={"market": "fives_crowd"})
    assert (len(set_up(game)["deck"]), len(game.state["row"])) == (72, 6)
    claim_row(game)
    assert len(game.state["discard"]) == 1
    finish(game, seed=1)
    assert handled(game) == [12] * 5


@pytest.mark.parametrize(("players", "deck", "row"), [(3, 36, 6), (4, 48, 8)])
def test_its_drafty_in_here_two_tokens_each_and_a_double_market(players, deck, row):
    game = new(players, seed=2, options={"market": "drafty"})
    tokens = game.state["tokens"]
    assert tokens == tokens[:players] + tokens[:players][::-1]
    assert (len(set_up(game)["deck"]), len(game.state["row"])) == (deck, row)
    assert game.state["seasons"] == 6
    finish(game, seed=2)
    assert handled(game) == [12] * players


def test_the_soothsayer_shows_the_next_market_before_choosing():
    game = new(2, seed=4, options={"soothsayer": "yes"})
    preview = game.log[2].data["preview"]
    assert len(preview) == 4 and len(game.state["deck"]) == 16
    assert [c["id"] for c in see(game, 1)["preview"]] == preview
    claim_row(game)
    assert game.log[-1].data["cards"] == preview
    finish(game, seed=4)
    assert handled(game) == [12, 12]


def test_seven_by_seven_for_two_players_uses_48_cards_on_a_larger_grid():
    game = new(2, seed=5, options={"district": "7"})
    assert (len(set_up(game)["deck"]), game.state["size"]) == (48, 7)
    assert game.state["seasons"] == 12
    assert game.state["districts"][0]["hq"]["cell"] == [3, 3]
    assert len(see(game, 0)["districts"][0]["grid"]) == 7
    finish(game, seed=5)
    assert handled(game) == [24, 24]


def test_seven_by_seven_solitaire_the_waning_with_a_double_deck():
    game = finish(new(1, seed=6, options={"district": "7"}), seed=6)
    assert game.state["seasons"] == 24
    assert handled(game) == [24]


def test_personality_paralysis_lets_a_card_score_in_its_larger_neighborhood():
    # The Diplomat (Moons, Suns): Suns alone on one block, Moons joined to two Aces of Moons.
    d = district(
        ("diplomat/1", [(0, 0), (0, 1)], ["Suns", "Moons"]),
        ("ace-of-moons/1", [(0, 2), (0, 3)], ["Moons", "Moons"]),
    )
    assert score_district(d)["total"] == 1 * 2
    assert score_district(d, ScoringOptions(paralysis=True))["total"] == 3 * 2


@pytest.mark.parametrize(
    ("options", "players"),
    [({"market": "fives_crowd"}, 2), ({"market": "drafty"}, 5), ({"market": "four_lights"}, 3),
     ({"market": "four_lights"}, 1), ({"district": "7"}, 4),
     ({"district": "7", "market": "drafty"}, 3), ({"district": "6"}, 3), ({"district": "9"}, 3),
     ({"district": "jacynimo"}, 5), ({"extra_cards": "both"}, 1)],
)  # fmt: skip
def test_variants_outside_their_player_counts_are_refused(options, players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options(options, players)
    assert exc.value.code == "variant_unsupported"


def test_courting_danger_shuffles_the_other_pawns_and_courts_into_the_deck():
    # Two players, single deck: 24 cards and the 8 Pawns and Courts less the 2 start cards.
    game = new(2, seed=7, options={"extra_cards": "courting_danger"})
    deck = set_up(game)["deck"]
    starts = set_up(game)["start_cards"]
    extended = {c for c in deck if card(c).deck == "extended"}
    assert len(deck) == 30 and len(extended) == 6 and not extended & set(starts)
    assert game.state["seasons"] == 8  # 4 + 4 x 6 + a last row of 2
    finish(game, seed=7)
    assert sum(handled(game)) == 30 - len(game.state["discard"]) + sum(
        len(d["discards"]) for d in game.state["districts"])  # fmt: skip


def test_a_drawn_pawn_covers_two_blocks_with_two_distinct_of_its_suits():
    # The Light Keeper (Suns, Waves, Knots): six ways, never one suit twice.
    assert orientations("light-keeper/1") == [
        ("Suns", "Waves"), ("Suns", "Knots"), ("Waves", "Suns"), ("Waves", "Knots"),
        ("Knots", "Suns"), ("Knots", "Waves"),
    ]  # fmt: skip
    # It scores as a personality for Knots only when Knots is on one of its blocks.
    with_knots = district(("light-keeper/1", [(2, 3), (2, 4)], ["Waves", "Knots"]))
    without = district(("light-keeper/1", [(2, 3), (2, 4)], ["Waves", "Suns"]))
    assert score_district(with_knots)["total"] == 1
    assert score_district(without)["total"] == 0


def test_excuses_wild_the_excuse_takes_any_one_suit_and_sorts_between_7s_and_8s():
    assert orientations("excuse/1") == [(s, s) for s in SUITS]
    row = ["mill/1", "excuse/1", "castle/1", "ace-of-moons/1"]
    assert sort_market(row) == ["ace-of-moons/1", "castle/1", "excuse/1", "mill/1"]
    game = new(4, seed=8, options={"extra_cards": "excuses_wild"})
    assert len(set_up(game)["deck"]) == 50  # one Excuse per deck of the double Decktet
    finish(game, seed=8)
    assert game.state["phase"] == "over"


def test_six_by_six_two_players_34_cards_and_a_two_square_headquarters():
    # "a pool of 34 cards drawn from the base deck"; the headquarters covers two squares.
    game = new(2, seed=9, options={"district": "6"})
    assert len(set_up(game)["deck"]) == 34
    assert len(set_up(game)["set_aside"]) == 2
    assert game.state["seasons"] == 9  # 8 rows of 4, then the last 2 cards
    hq = game.state["districts"][0]["hq"]
    assert (hq["cell"], hq["cell2"]) == ([2, 2], [2, 3])
    assert [c for c in see(game, 0)["districts"][0]["grid"][2] if c.get("hq")] != []
    finish(game, seed=9)
    # 8 rows of 4 and a last row of 2 (taken by the first two tokens of the old row); 34 blocks
    # and the two headquarters squares fill the 36.
    assert sum(handled(game)) == 34 and max(handled(game)) <= 18


def test_six_by_six_headquarters_suits_are_chosen_to_score_most():
    # The Island (Suns, Waves, Wyrms) on two squares with the Sea (Waves) beside the second:
    # Waves shared by both squares gives a Waves neighborhood of 4 blocks: 4 x 1 = 4.
    d = district(("sea/1", [(2, 4), (2, 5)], ["Waves", "Waves"]))
    d["hq"]["cell2"] = [2, 3]
    result = score_district(d, ScoringOptions(size=6))
    assert result["total"] == 4
    assert "Waves" in result["hq_suits"][0] and "Waves" in result["hq_suits"][1]
    d["hq"]["suits"] = [["Suns", "Wyrms"], ["Waves", "Wyrms"]]
    assert score_district(d, ScoringOptions(size=6))["total"] == 3


def test_next_to_either_headquarters_square_no_suit_needs_to_match():
    d = district(("sea/1", [(2, 4), (2, 5)], ["Waves", "Waves"]))
    d["hq"]["cell2"] = [2, 3]
    assert placement_error(d, [(1, 3), (0, 3)], ["Moons", "Leaves"], 6) is None
    assert placement_error(d, [(1, 4), (0, 4)], ["Moons", "Leaves"], 6) == "no_suit_match"


def test_jacynimo_deals_15_cards_a_player_onto_a_4x4_tableau():
    game = new(2, seed=10, options={"district": "jacynimo"})
    assert len(set_up(game)["deck"]) == 30
    assert game.state["size"] == 4
    assert game.state["districts"][0]["hq"]["cell"] == [1, 1]
    finish(game, seed=10)
    # 7 rows of 4 and a last row of 2, taken by the first two tokens of the old row.
    assert sum(handled(game)) == 30 and max(handled(game)) <= 16
    for d in game.state["districts"]:
        assert all(len(p["cells"]) == 1 for p in d["cards"])


def jacynimo(*cards):
    """A Jacynimo tableau: the Island at (1,1) and ``(card, (r, c))`` squares."""
    return {"hq": {"card": "island/1", "cell": [1, 1]}, "squares": 1, "discards": [],
            "cards": [{"card": c, "cells": [list(cell)], "suits": list(card(c).suits)}
                      for c, cell in cards]}  # fmt: skip


def test_jacynimo_placement_one_suit_of_the_new_card_must_match_a_neighbour():
    d = jacynimo(("forest/1", (1, 2)))  # Moons, Leaves
    assert placement_error(d, [(0, 2)], ["Suns", "Knots"], 4) == "no_suit_match"  # the Castle
    assert placement_error(d, [(0, 2)], ["Moons", "Suns"], 4) is None  # the Mountain
    assert placement_error(d, [(0, 1)], ["Suns", "Knots"], 4) is None  # beside the headquarters
    assert placement_error(d, [(3, 3)], ["Moons", "Suns"], 4) == "not_touching"


def test_jacynimo_neighborhoods_are_cards_sharing_a_suit_scored_for_bottom_suits():
    # Island (Suns, Waves, Wyrms) - the Cave (Waves, Wyrms) - the Darkness (9: Waves, Wyrms;
    # scores for Wyrms): Wyrms 3 squares x 1 = 3; Waves 3 x 0 = 0. The Diplomat (Moons, Suns;
    # 2 for Suns) above the Island: Suns 2 squares x 2 = 4. Total 7.
    d = jacynimo(("cave/1", (1, 2)), ("darkness/1", (1, 3)), ("diplomat/1", (0, 1)))
    result = score_district(d, ScoringOptions(size=4))
    hoods = {(h["suit"], h["blocks"]): h["points"] for h in result["neighborhoods"]}
    assert hoods[("Wyrms", 3)] == 3 and hoods[("Waves", 3)] == 0 and hoods[("Suns", 2)] == 4
    assert result["total"] == 7


def test_age_of_goblins_draws_three_bonus_options_and_scores_them():
    game = new(2, seed=12, options={"bonus": "goblins"})
    chosen = set_up(game)["options"]["bonus_set"]
    assert len(set(chosen)) == 3 and set(chosen) <= set(BONUSES)
    finish(game, seed=12)
    for result in game.state["results"]:
        assert {b["name"] for b in result["bonuses"]} <= set(chosen)
    game.assert_replay_equal()


def test_thorny_crowns_is_refused_too():
    with pytest.raises(RuleViolation) as exc:
        new(1, options={"solitaire": "thorny_crowns"})
    assert exc.value.code == "variant_unsupported"
    assert "missing" in exc.value.message


def test_urban_sprawl_has_no_grid_limit_and_every_touching_pair_must_match():
    game = new(2, seed=13, options={"district": "sprawl"})
    hq = game.state["districts"][0]["hq"]["cell"]
    assert hq == [24, 24]
    finish(game, seed=13)
    assert sum(handled(game)) == 24
    d = {**district(("sea/1", [(24, 25), (24, 26)], ["Waves", "Waves"]), at=(24, 24)),
         "sprawl": True}  # fmt: skip
    # The Mountain (Moons, Suns) above the Island and the Sea: Suns over the Island matches,
    # Moons over the Sea does not - refused, although one pair matches.
    assert placement_error(d, [(23, 24), (23, 25)], ["Suns", "Moons"], 49) == "no_suit_match"
    # A second Sea above the first: both touching pairs are Waves.
    assert placement_error(d, [(23, 25), (23, 26)], ["Waves", "Waves"], 49) is None
    # Beside the headquarters a block needs one of its suits.
    assert placement_error(d, [(24, 23), (24, 22)], ["Moons", "Leaves"], 49) == "no_suit_match"
    assert placement_error(d, [(24, 23), (24, 22)], ["Wyrms", "Knots"], 49) is None
    # The page shows only the built blocks and two rings around them.
    grid = see(game, 0)["districts"][0]["grid"]
    assert len(grid) < 49 and len(grid[0]) < 49


def test_nine_by_nine_two_players_80_cards_with_8_extended_ones():
    game = new(2, seed=14, options={"district": "9"})
    deck = set_up(game)["deck"]
    assert len(deck) == 80 and len(set(deck)) == 80
    assert sum(card(c).deck == "extended" for c in deck) == 8
    assert not set(deck) & set(set_up(game)["start_cards"])
    assert (game.state["size"], game.state["seasons"]) == (9, 20)
    assert game.state["districts"][0]["hq"]["cell"] == [4, 4]
    finish(game, seed=14)
    assert handled(game) == [40, 40]  # 80 blocks and the headquarters fill 81

"""The rulebook's remaining variants, offered or refused with the reason.

Rulebook sections: "Variants" (The Tournament, Detraction, Five's a Crowd, Between Two
Districts), "The Deck" (Uneventful, Unknotted, Knot Eventful, The Unbalancing, Don Giovanni),
"District Size Variants" (Teamwork), "Solitaire" (the score ratings, 7x7x3, 6x6x3).
"""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import OPTIONS_SCHEMA, normalize_options
from tabletop.personimo.rules.cards import all_cards, card
from tabletop.personimo.rules.options import REFUSED, scoring_options, uneventful, unknotted
from tabletop.personimo.rules.scoring import (
    ScoringOptions,
    is_attraction,
    score_district,
    score_table,
    weight,
)
from tabletop.personimo.rules.view import rating

from .sims import finish, new, see, send, set_up
from .test_placement import district

# --- The Tournament ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game_no", "order"), [(1, [0, 1, 2]), (2, [1, 2, 0]), (3, [2, 0, 1]),
                                                (4, [0, 1, 2])])  # fmt: skip
def test_the_tournament_rotates_the_first_turn_order_game_by_game(game_no, order):
    # "Play a series of games, with rotating player order on the first turn instead of random
    # player order."
    options = {"first_order": "tournament", "tournament_game": str(game_no)}
    for seed in range(3):  # not random: the same whatever the dice
        assert new(3, seed=seed, options=options).state["tokens"] == order


def test_the_tournament_with_two_players_inverts_the_rotated_order():
    # Two players: "randomly assign an order to one token each, then invert it" (ABBA).
    game = new(2, options={"first_order": "tournament", "tournament_game": "2"})
    assert game.state["tokens"] == [1, 0, 0, 1]


# --- Detraction --------------------------------------------------------------------------------


def test_detraction_adjusts_the_lowest_attraction_rank_up_or_down():
    # "Detraction: Adjust the minimum rank for attractions (up or down)": Ace to Crown.
    ranks = [c[0] for c in OPTIONS_SCHEMA["attraction_min"]["choices"]]
    assert ranks == [str(n) for n in range(1, 11)]
    assert not is_attraction("ace-of-moons/1")
    aces = scoring_options(normalize_options({"attraction_min": "1"}, 2))
    assert is_attraction("ace-of-moons/1", aces)
    assert not is_attraction("mill/1", ScoringOptions(attraction_min=9))  # the Mill is an 8
    assert is_attraction("battle/1", ScoringOptions(attraction_min=4))  # the Battle is a 4
    assert not is_attraction("battle/1", ScoringOptions(attraction_min=5))
    # Down to 4: the Battle (Wyrms, Knots) scores for Knots, its bottom suit.
    d = district(("battle/1", [(2, 3), (2, 4)], ["Wyrms", "Knots"]))
    assert score_district(d)["total"] == 0
    assert score_district(d, ScoringOptions(attraction_min=4))["total"] == 1


# --- Five's a Crowd ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deck", "row"), [(3, 48, 4), (4, 60, 5), (5, 72, 6)])
def test_fives_a_crowd_at_other_player_counts(players, deck, row):
    # "Deal a six-card market for five players as you would a four-card market for three
    # players. This can be done with other player counts as well." Three players: the rules'
    # own four-card market.
    game = new(players, seed=3, options={"market": "fives_crowd"})
    assert (len(set_up(game)["deck"]), len(game.state["row"]), game.state["seasons"]) == (
        deck,
        row,
        12,
    )


@pytest.mark.parametrize("players", [1, 2, 6])
def test_fives_a_crowd_is_refused_where_the_deck_cannot_follow_with_the_reason(players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"market": "fives_crowd"}, players)
    assert exc.value.code == "variant_unsupported"
    assert "other player counts as well" in exc.value.message


# --- The Deck: Unknotted, Knot Eventful, The Unbalancing ------------------------------------


def test_unknotted_sets_aside_non_scoring_knots_then_wyrms_instead_of_the_events():
    # "Unknotted: When removing cards from the deck, don't remove events as in the Uneventful
    # rules above. Instead, remove non-scoring Knots, Wyrms, Leaves, etc., in reverse suit order."
    opts = normalize_options({"trim": "unknotted"}, 2)
    removed = unknotted(opts)
    assert len(removed) == 12 and len(set(removed)) == 12
    assert all(weight(k) == 0 for k in removed)
    knots = [
        k
        for k, c in all_cards().items()
        if c.deck == "base" and "Knots" in c.suits and not weight(k)
    ]
    assert set(knots) <= set(removed)  # all non-scoring Knots go first
    assert "ace-of-knots" in removed and "ace-of-moons" not in removed
    game = new(2, seed=1, options={"trim": "unknotted"})
    assert sorted(set_up(game)["set_aside"]) == sorted(f"{k}/1" for k in removed)
    events = [c for c in set_up(game)["deck"] if card(c).event]
    assert len(events) > 1  # the events stay in the deck


def test_unknotted_follows_detraction_up_to_crowns():
    # "You may want to Detraction up to 9 or 10 (Crowns only) as well": the 8s and 9s of Knots
    # score nothing then and are set aside among the first.
    removed = unknotted(normalize_options({"trim": "unknotted", "attraction_min": "10"}, 2))
    assert {"betrayal", "darkness"} <= set(removed)  # an 8 of Knots, a 9 of Wyrms
    assert "betrayal" not in unknotted(normalize_options({"trim": "unknotted"}, 2))


def test_knot_eventful_one_deck_uneventful_the_other_unknotted():
    # "With a double deck, configure one deck as in Uneventful and the other as in Unknotted."
    game = new(4, seed=2, options={"trim": "knot_eventful"})
    aside = set_up(game)["set_aside"]
    assert sorted(c for c in aside if c.endswith("/1")) == sorted(f"{k}/1" for k in uneventful())
    assert sorted(c for c in aside if c.endswith("/2")) == sorted(
        f"{k}/2" for k in unknotted(game.state["options"])
    )
    assert len(set_up(game)["deck"]) == 48


@pytest.mark.parametrize("players", [1, 2, 5, 6])
def test_knot_eventful_needs_two_trimmed_decks(players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"trim": "knot_eventful"}, players)
    assert exc.value.code == "variant_unsupported"


def test_the_unbalancing_removes_base_cards_at_random_but_keeps_the_huntress():
    # "Remove base cards from the deck at random to get to the needed number of cards. You may
    # not want to remove the Huntress ... (You may remove it when playing the Personality
    # Paralysis variant.)"
    seen = set()
    for seed in range(12):
        aside = set_up(new(2, seed=seed, options={"trim": "unbalancing"}))["set_aside"]
        assert len(aside) == 12 and "huntress/1" not in aside
        seen.add(tuple(sorted(aside)))
    assert len(seen) > 1
    with_paralysis = [
        set_up(new(2, seed=s, options={"trim": "unbalancing", "paralysis": "yes"}))["set_aside"]
        for s in range(40)
    ]
    assert any("huntress/1" in a for a in with_paralysis)


@pytest.mark.parametrize("players", [1, 6])
def test_another_trim_is_refused_where_setup_sets_nothing_aside(players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"trim": "unknotted"}, players)
    assert exc.value.code == "variant_unsupported"


# --- refused with the reason and the rulebook's words --------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "players", "quote"),
    [
        ("district", "between_two", 3, "Each architect is assigned two districts"),
        ("extra_cards", "don_giovanni", 2, "the suit of the colored middle counting for both squares"),
        ("solitaire", "6x6x3", 1, "place two starting Pawns or Crowns to cover four squares total"),
        ("solitaire", "thorny_crowns", 1, "restricted thus:"),
    ],
)  # fmt: skip
def test_variants_the_app_cannot_offer_are_refused_with_the_reason_and_the_quote(
    option, value, players, quote
):
    assert value in {c[0] for c in OPTIONS_SCHEMA[option]["choices"]}
    assert quote in OPTIONS_SCHEMA[option]["help"].replace("\u201c", "").replace("\u201d", "")
    with pytest.raises(RuleViolation) as exc:
        new(players, options={option: value})
    assert exc.value.code == "variant_unsupported"
    assert "not offered" in exc.value.message or "missing" in exc.value.message


def test_every_refused_variant_has_a_reason():
    assert all(len(reason) > 40 for reason in REFUSED.values())


# --- solitaire ratings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("district_opt", "total", "verdict"),
    [("5", 50, "Architect of the Year"), ("5", 49, "respectable"), ("5", 35, "respectable"),
     ("5", 34, "tar-and-feathering"), ("7", 120, "winning"), ("7", 119, "Not a win"),
     ("sprawl", 80, None)],
)  # fmt: skip
def test_solitaire_scores_are_rated(district_opt, total, verdict):
    # "A score of 50 or more gets you declared Architect of the Year, while a score of less
    # than 35 may result in an unfortunate tar-and-feathering incident." 7x7x3: "A winning
    # scores is 120 or more."
    state = {"results": [{"total": total}], "options": {"district": district_opt}}
    got = rating(state)
    assert (got is None) if verdict is None else (verdict in got)


def test_a_finished_solitaire_game_shows_its_rating_and_a_table_game_none():
    solo = finish(new(1, seed=3), seed=3)
    assert see(solo, 0)["rating"]
    assert finish(new(2, seed=3), seed=3).view(0)["rating"] is None


# --- Teamwork ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deck", "row"), [(4, 48, 4), (6, 72, 6)])
def test_teamwork_teams_of_two_share_a_7x7_district(players, deck, row):
    # "Teamwork: Teams of two players can also collaborate on one 7x7 district per team.
    # Teammates get different architect tokens and take their own turns as if they were
    # playing individually." Two teams: 7x7's 48 cards; three: 72 (24 cards a district).
    game = new(players, seed=5, options={"district": "teamwork"})
    assert game.state["teams"] == [s // 2 for s in range(players)]
    assert len(game.state["districts"]) == players // 2 and game.state["size"] == 7
    assert (len(set_up(game)["deck"]), len(game.state["row"])) == (deck, row)
    assert len(game.state["tokens"]) == players  # a token each
    first = game.state["actor"]["seat"]
    send(game, first, "claim", {"index": 0})
    finish(game, seed=5)
    teams = game.state["teams"]
    for seat, result in enumerate(game.state["results"]):
        mate = seat ^ 1
        assert result["total"] == game.state["results"][mate]["total"]
        assert result["team"] == f"P{2 * teams[seat] + 1} & P{2 * teams[seat] + 2}"
    view = see(game, 3)
    assert view["districts"][0]["mine"] and view["districts"][0]["name"] == "P3 & P4"
    assert sum(d["mine"] for d in view["districts"]) == 1
    game.assert_replay_equal()


def test_teammates_place_into_their_shared_district():
    game = new(4, seed=6, options={"district": "teamwork"})
    while game.state["phase"] == "claim":
        seat = game.state["actor"]["seat"]
        send(game, seat, "claim", {"index": see(game, seat)["claimable"][0]})
    seat = game.state["actor"]["seat"]
    placement = see(game, seat)["placing"]["legal"][0]
    send(game, seat, "place", placement)
    district = game.state["districts"][seat // 2]
    assert district["cards"][-1]["cells"] == placement["cells"]
    assert see(game, seat ^ 1)["districts"][0]["grid"] == see(game, seat)["districts"][0]["grid"]


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (5, {}), (4, {"market": "drafty"})]
)
def test_teamwork_needs_teams_of_two_and_the_7x7_deck(players, options):
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"district": "teamwork", **options}, players)
    assert exc.value.code == "variant_unsupported"


def test_six_by_six_largest_neighborhood_counts_the_headquarters_suits_as_assigned():
    # 6x6: "The headquarters card should be placed to cover two squares, with one suit
    # (eventually) assigned to each square and the third suit assigned to both squares";
    # "Score 5 points for having the largest neighborhood in a suit". A's Window spreads Suns over
    # both squares (Leaves and Knots one square each); B's Window shares Knots, which joins its
    # Ace of Knots into a neighborhood of four. Suns: A's 2 beats B's 1; Leaves: 1 each, shared;
    # Knots: B. (Counting every headquarters suit on both squares gave B the Suns tie too.)
    a = {"hq": {"card": "window/1", "cell": [0, 0], "cell2": [0, 1]}, "cards": [], "discards": []}
    b = {
        "hq": {"card": "window/1", "cell": [0, 0], "cell2": [0, 1]},
        "cards": [{"card": "ace-of-knots", "cells": [[1, 1], [2, 1]], "suits": ["Knots", "Knots"]}],
        "discards": [],
    }
    results = score_table([a, b], ScoringOptions(bonus=frozenset({"largest"}), size=6))
    assert results[0]["hq_suits"] == [["Leaves", "Suns"], ["Knots", "Suns"]]
    assert results[1]["hq_suits"] == [["Suns", "Knots"], ["Leaves", "Knots"]]
    assert [r["total"] for r in results] == [10, 10]

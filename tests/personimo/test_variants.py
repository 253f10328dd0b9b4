"""Personimo variants as table options ("Variants", "The Deck", "District Size Variants")."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import UNSUPPORTED, normalize_options
from tabletop.personimo.scoring import ScoringOptions, score_district

from .play import Game, play_out
from .test_placement import district


def handled(game):
    return [len(d["cards"]) + len(d["discards"]) for d in game.state["districts"]]


def claim_row(game):
    while game.state["phase"] == "claim":
        game.send(game.actor["seat"], "claim", {"index": game.view()["claimable"][0]})


def test_there_are_four_lights_carries_the_unpicked_card_forward():
    # Four players: a five-card first market, then four new cards and the carried one.
    game = Game(4, seed=3, options={"market": "four_lights"})
    assert len(game.state["row"]) == 5
    assert game.state["seasons"] == 12
    claim_row(game)
    carried = [c for c in game.log[1].data["cards"] if c not in
               [x["card"] for x in game.state["old_row"]]]  # fmt: skip
    assert len(carried) == 1
    assert carried[0] in game.log[-1].data["cards"]
    assert (len(game.state["row"]), game.log[-1].data["dealt"]) == (5, 4)
    assert game.state["discard"] == []
    play_out(game, seed=3)
    assert handled(game) == [12] * 4


def test_fives_a_crowd_deals_one_card_more_and_discards_it():
    game = Game(5, seed=1, options={"market": "fives_crowd"})
    assert (len(game.log[0].data["deck"]), len(game.state["row"])) == (72, 6)
    claim_row(game)
    assert len(game.state["discard"]) == 1
    play_out(game, seed=1)
    assert handled(game) == [12] * 5


@pytest.mark.parametrize(("players", "deck", "row"), [(3, 36, 6), (4, 48, 8)])
def test_its_drafty_in_here_two_tokens_each_and_a_double_market(players, deck, row):
    game = Game(players, seed=2, options={"market": "drafty"})
    tokens = game.state["tokens"]
    assert tokens == tokens[:players] + tokens[:players][::-1]
    assert (len(game.log[0].data["deck"]), len(game.state["row"])) == (deck, row)
    assert game.state["seasons"] == 6
    play_out(game, seed=2)
    assert handled(game) == [12] * players


def test_the_soothsayer_shows_the_next_market_before_choosing():
    game = Game(2, seed=4, options={"soothsayer": "yes"})
    preview = game.log[1].data["preview"]
    assert len(preview) == 4 and len(game.state["deck"]) == 16
    assert [c["id"] for c in game.view(1)["preview"]] == preview
    claim_row(game)
    assert game.log[-1].data["cards"] == preview
    play_out(game, seed=4)
    assert handled(game) == [12, 12]


def test_seven_by_seven_for_two_players_uses_48_cards_on_a_larger_grid():
    game = Game(2, seed=5, options={"district": "7"})
    assert (len(game.log[0].data["deck"]), game.state["size"]) == (48, 7)
    assert game.state["seasons"] == 12
    assert game.state["districts"][0]["hq"]["cell"] == [3, 3]
    assert len(game.view(0)["districts"][0]["grid"]) == 7
    play_out(game, seed=5)
    assert handled(game) == [24, 24]


def test_seven_by_seven_solitaire_the_waning_with_a_double_deck():
    game = play_out(Game(1, seed=6, options={"district": "7"}), seed=6)
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
    [({"district": "6"}, 2), ({"district": "9"}, 2), ({"district": "sprawl"}, 3),
     ({"district": "jacynimo"}, 2), ({"extra_cards": "courting_danger"}, 2),
     ({"extra_cards": "excuses_wild"}, 4)],
)  # fmt: skip
def test_unsupported_variants_are_refused_with_their_reason(options, players):
    with pytest.raises(RuleViolation) as exc:
        Game(players, options=options)
    assert exc.value.code == "variant_unsupported"
    assert exc.value.message == UNSUPPORTED[next(iter(options.values()))]


@pytest.mark.parametrize(
    ("options", "players"),
    [({"market": "fives_crowd"}, 2), ({"market": "drafty"}, 5), ({"market": "four_lights"}, 3),
     ({"market": "four_lights"}, 1), ({"district": "7"}, 4),
     ({"district": "7", "market": "drafty"}, 3)],
)  # fmt: skip
def test_variants_outside_their_player_counts_are_refused(options, players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options(options, players)
    assert exc.value.code == "variant_unsupported"

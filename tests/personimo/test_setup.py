"""Personimo rules, "Setup" and "The Market": decks, start cards, token order, market sizes."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import (
    DEALT,
    RACE_ORDER,
    SET_UP,
    START_CARDS,
    build_deck,
    normalize_options,
)
from tabletop.personimo.rules.cards import card

from .sims import actor, finals, new, see, set_up


@pytest.mark.parametrize(
    ("players", "deck", "row", "seasons"),
    [
        (1, 36, 3, 12),
        (2, 24, 4, 6),
        (3, 48, 4, 12),
        (4, 48, 4, 12),
        (5, 60, 5, 12),
        (6, 72, 6, 12),
    ],  # fmt: skip
)
def test_deck_market_and_seasons_by_player_count(players, deck, row, seasons):
    # Setup step 3: 24 cards for two players, 48 for three or four, 60 for five, 72 for six;
    # "The Market": 4 cards for two to four players, 5 for five, 6 for six; "Game Play": twelve
    # turns (six for two players). Solitaire: the whole base deck, three cards a round.
    game = new(players, seed=players)
    assert game.log[1].type == SET_UP
    assert len(set_up(game)["deck"]) == deck
    assert len(game.log[2].data["cards"]) == row
    assert game.state["seasons"] == seasons
    assert len(game.state["deck"]) == deck - row


def test_two_player_deck_sets_aside_the_2s_and_all_events_but_the_market():
    deck, aside = build_deck(2, normalize_options({}, 2))
    assert len(aside) == 12
    names = {card(c).name for c in deck}
    assert "the Market" in names
    assert not any(card(c).rank == "2" for c in deck)
    assert not any(card(c).event for c in deck if card(c).name != "the Market")
    assert all(c.endswith("/1") for c in deck)


def test_five_players_set_aside_from_only_one_of_the_two_decks():
    deck, aside = build_deck(5, normalize_options({}, 5))
    assert len(aside) == 12
    assert all(c.endswith("/1") for c in aside)
    assert sum(c.endswith("/2") for c in deck) == 36


def test_six_players_use_the_full_double_base_deck():
    deck, aside = build_deck(6, normalize_options({}, 6))
    assert (len(deck), aside) == (72, [])
    assert len(set(deck)) == 72


def test_threes_company_uses_one_whole_base_deck_and_a_three_card_market():
    game = new(3, options={"deck": "threes_company"})
    assert len(set_up(game)["deck"]) == 36
    assert len(game.state["row"]) == 3
    assert game.state["seasons"] == 12


def test_threes_company_is_refused_for_four_players():
    with pytest.raises(RuleViolation) as exc:
        new(4, options={"deck": "threes_company"})
    assert exc.value.code == "variant_unsupported"


@pytest.mark.parametrize("seed", range(8))
def test_two_players_have_two_tokens_each_in_abba_order(seed):
    tokens = new(2, seed=seed).state["tokens"]
    assert tokens in ([0, 1, 1, 0], [1, 0, 0, 1])


def test_token_order_is_random_but_covers_every_seat_once():
    orders = {tuple(new(4, seed=s).state["tokens"]) for s in range(12)}
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert len(orders) > 1


@pytest.mark.parametrize("players", [2, 3, 6])
def test_start_cards_are_the_pawn_and_court_locations(players):
    game = new(players, seed=3)
    starts = set_up(game)["start_cards"]
    assert len(set(starts)) == players
    assert {card(s).key for s in starts} <= set(START_CARDS["locations"])
    for district, start in zip(game.state["districts"], starts, strict=True):
        assert district["hq"] == {"card": start, "cell": [2, 2]}


def test_the_kickoff_allows_the_harvest_and_the_rite():
    seen = set()
    for seed in range(20):
        seen |= {card(s).key for s in set_up(new(2, seed, {"start_cards": "kickoff"}))["start_cards"]}  # fmt: skip
    assert {"harvest", "rite"} <= seen


def test_the_head_start_uses_personalities_that_score_for_knots():
    game = new(2, seed=1, options={"start_cards": "head_start"})
    for start in set_up(game)["start_cards"]:
        assert card(start).personality
        assert card(start).bottom_suit == "Knots"


def test_the_head_start_with_two_players_has_enough_cards_but_not_single_deck_for_four():
    # A double Decktet (4 players) has two copies of the three personalities: 6 >= 4.
    assert len(set_up(new(4, options={"start_cards": "head_start"}))["start_cards"]) == 4


def test_the_race_orders_the_first_round_by_start_card():
    for seed in range(6):
        game = new(3, seed, {"first_order": "race", "start_cards": "kickoff"})
        starts = set_up(game)["start_cards"]
        ranks = [RACE_ORDER.index(card(starts[s]).key) for s in game.state["tokens"]]
        assert ranks == sorted(ranks)


def test_first_row_is_dealt_sorted_and_final():
    game = new(4, seed=5)
    assert game.log[2].type == DEALT
    assert finals(game) == [False, True]
    assert game.state["phase"] == "claim"
    assert actor(game) == {"seat": game.state["tokens"][0], "action": "claim", "slot": None}


def test_thorny_crown_is_refused_because_its_text_is_missing():
    with pytest.raises(RuleViolation) as exc:
        new(1, options={"solitaire": "thorny_crown"})
    assert exc.value.code == "variant_unsupported"


@pytest.mark.parametrize("players", [0, 7])
def test_player_count_outside_one_to_six_is_refused(players):
    with pytest.raises(RuleViolation) as exc:
        normalize_options({}, players)
    assert exc.value.code == "bad_player_count"


def test_unknown_option_value_is_refused():
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"market_sort": "alphabetical"}, 2)
    assert exc.value.code == "bad_option"


def test_view_hides_the_deck_order_and_the_set_aside_cards():
    game = new(2, seed=2)
    view = see(game, 0)
    assert "deck" not in view
    assert view["deck_count"] == 20
    assert view["set_aside"] is None
    assert game.state["deck"][0] not in repr(view)


def test_the_reveal_shows_the_set_aside_cards():
    view = new(2, seed=2, options={"reveal": "yes"}).view(0)
    assert len(view["set_aside"]) == 12

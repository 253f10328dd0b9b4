"""Personimo rules, "The Market" and "Turn Order": sorting, claiming, the unchosen card."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import CLAIMED, DEALT, sort_market
from tabletop.personimo.rules.cards import card

from .sims import actor, finals, new, see, send


def names(cards):
    return [card(c).name for c in cards]


def test_ascending_rank_aces_low_crowns_high():
    row = ["sea/1", "mill/1", "ace-of-knots/1", "forest/1"]
    assert names(sort_market(row)) == ["Ace of Knots", "the Forest", "the Mill", "the Sea"]


def test_ties_by_natural_suit_order_castle_before_cave():
    # "e.g., put the Castle before the Cave": Suns (Castle) comes before Waves (Cave).
    row = ["cave/1", "castle/1", "chance-meeting/1"]
    assert names(sort_market(row)) == ["the Chance Meeting", "the Castle", "the Cave"]


def test_aces_tie_by_suit_order():
    row = ["ace-of-knots/1", "ace-of-moons/1", "ace-of-waves/1"]
    assert names(sort_market(row)) == ["Ace of Moons", "Ace of Waves", "Ace of Knots"]


def test_personalities_move_to_the_end_keeping_their_order():
    row = ["bard/1", "ace-of-knots/1", "sailor/1", "castle/1", "diplomat/1"]
    assert names(sort_market(row)) == [
        "Ace of Knots", "the Castle", "the Sailor", "the Diplomat", "the Bard"
    ]  # fmt: skip


def test_two_copies_of_a_card_sit_together():
    row = ["pact/2", "mill/1", "pact/1", "sea/2"]
    assert sort_market(row) == ["mill/1", "pact/1", "pact/2", "sea/2"]


def test_incognito_leaves_personalities_in_rank_order():
    row = ["bard/1", "ace-of-knots/1", "sailor/1", "castle/1", "diplomat/1"]
    assert names(sort_market(row, "incognito")) == [
        "Ace of Knots", "the Sailor", "the Castle", "the Diplomat", "the Bard"
    ]  # fmt: skip


def test_recognition_sorts_personalities_by_scoring_suit_then_the_other_suit():
    # Bottom suits: the Sailor Leaves, the Diplomat Suns (other Moons), the Bard Suns (no other),
    # the Lunatic Waves: Suns (Bard, then Diplomat), Waves, Leaves.
    row = ["sailor/1", "diplomat/1", "lunatic/1", "ace-of-knots/1", "bard/1"]
    assert names(sort_market(row, "recognition")) == [
        "Ace of Knots", "the Bard", "the Diplomat", "the Lunatic", "the Sailor"
    ]  # fmt: skip


def test_inception_puts_scoring_cards_last_and_sorts_both_parts_by_suit():
    # Non-scoring: the Mountain (Moons|Suns: bottom Suns), Ace of Moons (Moons), the Cave
    # (Waves|Wyrms: Wyrms). Scoring: the Pact (bottom Suns), the Sea (Waves), the Sailor (Leaves).
    row = ["sailor/1", "pact/1", "cave/1", "mountain/1", "sea/1", "ace-of-moons/1"]
    assert names(sort_market(row, "inception")) == [
        "Ace of Moons", "the Mountain", "the Cave", "the Pact", "the Sea", "the Sailor"
    ]  # fmt: skip


def test_claims_follow_the_token_order():
    game = new(4, seed=7)
    tokens = game.state["tokens"]
    for n, seat in enumerate(tokens):
        assert actor(game)["seat"] == seat
        other = next(s for s in range(4) if s != seat)
        with pytest.raises(RuleViolation) as exc:
            send(game, other, "claim", {"index": n})
        assert exc.value.code == "not_your_turn"
        send(game, seat, "claim", {"index": n})
    assert [x["seat"] for x in game.state["old_row"]] == tokens


def test_a_claimed_card_cannot_be_claimed_again():
    game = new(3, seed=1)
    first = actor(game)["seat"]
    send(game, first, "claim", {"index": 2})
    with pytest.raises(RuleViolation) as exc:
        send(game, actor(game)["seat"], "claim", {"index": 2})
    assert exc.value.code == "already_claimed"


@pytest.mark.parametrize("index", [-1, 4, "1.5", "first", None])
def test_claim_index_must_be_in_the_row(index):
    game = new(2, seed=1)
    with pytest.raises(RuleViolation) as exc:
        send(game, actor(game)["seat"], "claim", {"index": index})
    assert exc.value.code == "bad_index"


def test_three_players_discard_the_unchosen_fourth_card_and_a_new_row_is_dealt():
    game = new(3, seed=4)
    row = [x["card"] for x in game.state["row"]]
    for index in (3, 0, 1):
        send(game, actor(game)["seat"], "claim", {"index": index})
    assert game.state["discard"] == [row[2]]
    assert game.log[-1].type == DEALT and finals(game)[-1]
    assert game.state["phase"] == "turn"
    assert len(game.state["row"]) == 4


def test_turn_order_is_the_order_of_tokens_in_the_old_row():
    # "In ascending token order (as they appear in the old market row)": the seat that took the
    # cheapest card places first in the next turn, whatever the claim order was.
    game = new(2, seed=9)
    first, second = game.state["tokens"][:2]
    send(game, first, "claim", {"index": 3})
    send(game, second, "claim", {"index": 0})
    send(game, second, "claim", {"index": 1})
    send(game, first, "claim", {"index": 2})
    assert [x["seat"] for x in game.state["old_row"]] == [second, second, first, first]
    assert actor(game) == {"seat": second, "action": "place", "slot": 0}


def test_a_player_places_before_claiming_and_claims_after():
    game = new(2, seed=9)
    for index in range(4):
        send(game, actor(game)["seat"], "claim", {"index": index})
    seat = actor(game)["seat"]
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "claim", {"index": 0})
    assert exc.value.code == "wrong_step"
    legal = see(game)["placing"]["legal"]
    send(game, seat, "place", legal[0])
    assert actor(game) == {"seat": seat, "action": "claim", "slot": 0}
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "place", legal[1])
    assert exc.value.code == "wrong_step"
    send(game, seat, "claim", {"index": 0})
    assert game.log[-1].type == CLAIMED


def test_the_waning_allows_each_position_once_per_three_rounds():
    game = new(1, seed=2)
    assert see(game, 0)["claimable"] == [0, 1, 2]
    send(game, 0, "claim", {"index": 0})
    for expected, pick in (([1, 2], 2), ([1], 1), ([0, 1, 2], 1), ([0, 2], 0)):
        send(game, 0, "place", see(game, 0)["placing"]["legal"][0])
        assert see(game, 0)["claimable"] == expected
        send(game, 0, "claim", {"index": pick})
    send(game, 0, "place", see(game, 0)["placing"]["legal"][0])
    with pytest.raises(RuleViolation) as exc:
        send(game, 0, "claim", {"index": 1})
    assert exc.value.code == "position_used"

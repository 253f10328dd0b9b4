"""Every variant deals each player what their district holds.

Rulebook: "Setup" step 3 and "Game Play" (twelve cards each on 5x5: 24 blocks), "District Size
Variants" (7x7: "a pool of 48 or 72 base cards" for two or three players, 48 blocks = 24
cards; 6x6: "a pool of 34 cards", 17 each; 9x9: "a pool of 80 cards", 40 each), "Jacynimo"
("The deck consists of 15 cards per player": a 4x4 tableau less the headquarters), "Solitaire".
"""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import normalize_options

from .sims import finish, new, set_up

#: Cards a player's district holds: (side x side less the headquarters' squares) / squares a card.
HOLDS = {"5": 12, "7": 24, "6": 17, "9": 40, "jacynimo": 15, "sprawl": 12, "teamwork": 24}

CASES = [
    *[(p, {}) for p in range(1, 7)],
    *[(p, {"district": "7"}) for p in (1, 2, 3)],
    (2, {"district": "6"}),
    (2, {"district": "9"}),
    (4, {"district": "teamwork"}),
    (6, {"district": "teamwork"}),
    *[(p, {"district": "jacynimo"}) for p in (2, 3, 4)],
    *[(p, {"district": "sprawl"}) for p in (1, 2, 4)],
    (3, {"deck": "threes_company"}),
    *[(p, {"market": "fives_crowd"}) for p in (3, 4, 5)],
    *[(p, {"market": "drafty"}) for p in (3, 4)],
    *[(p, {"market": "four_lights"}) for p in (2, 4, 5, 6)],
    *[(p, {"trim": t}) for p in (2, 5) for t in ("unknotted", "unbalancing")],
    (4, {"trim": "knot_eventful"}),
    (2, {"district": "7", "trim": "knot_eventful"}),
]


def handled(game):
    return [len(d["cards"]) + len(d["discards"]) for d in game.state["districts"]]


@pytest.mark.parametrize(("players", "options"), CASES, ids=[f"{p}p-{o}" for p, o in CASES])
def test_each_player_gets_what_their_district_holds(players, options):
    game = finish(new(players, seed=players, options=options), seed=players)
    holds = HOLDS[game.state["options"]["district"]]
    assert handled(game) == [holds] * len(game.state["districts"])


def test_seven_by_seven_with_three_players_deals_24_cards_each_from_72():
    # "7x7: Two or three players may play on a 7x7 grid instead of 5x5, using a pool of 48 or
    # 72 base cards": 72 / 3 = 24 cards, the 48 blocks of a 7x7 district; no fourth card is
    # discarded (a three-card market, as in Three's Company).
    game = new(3, seed=4, options={"district": "7"})
    assert len(set_up(game)["deck"]) == 72
    assert (len(game.state["row"]), game.state["seasons"]) == (3, 24)
    finish(game, seed=4)
    assert handled(game) == [24, 24, 24]
    # Only cards that fitted nowhere are discarded: no market card is left unchosen.
    assert sorted(game.state["discard"]) == sorted(
        c for d in game.state["districts"] for c in d["discards"]
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_short_last_row_is_shared_out_six_by_six_gives_17_each(seed):
    # 6x6: "a pool of 34 cards": eight rows of four and a last row of two; both players get
    # one of the last two whoever took the cheaper cards of the row before (17 each).
    game = finish(new(2, seed=seed, options={"district": "6"}), seed=seed)
    assert handled(game) == [17, 17]


def test_courting_danger_shares_the_extra_cards_out_evenly():
    # Courting Danger with two players: 24 + 6 Pawns and Courts = 30 cards, 15 each (some
    # are discarded: a 5x5 district holds 12).
    game = finish(new(2, seed=7, options={"extra_cards": "courting_danger"}), seed=7)
    assert handled(game) == [15, 15]


def test_jacynimo_solitaire_is_refused_fifteen_cards_would_fill_a_third():
    with pytest.raises(RuleViolation) as exc:
        normalize_options({"district": "jacynimo"}, 1)
    assert exc.value.code == "variant_unsupported"
    assert "15 cards per player" in exc.value.message

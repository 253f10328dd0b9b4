"""Personimo rules, "Card Placement" and "Assigning Suits"."""

import copy

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import (
    DISCARDED,
    PLACED,
    SHIFTED,
    legal_placements,
    placeable_anywhere,
    placement_error,
)

from .sims import actor, new, see, send


def district(*cards, hq="island/1", at=(2, 2)):
    """A district: headquarters ``hq`` at ``at`` and ``(card, cells, suits)`` placements."""
    return {
        "hq": {"card": hq, "cell": list(at)},
        "cards": [
            {"card": c, "cells": [list(x) for x in cells], "suits": list(s)}
            for c, cells, s in cards
        ],  # fmt: skip
        "discards": [],
    }


SEA = ("sea/1", [(2, 3), (2, 4)], ["Waves", "Waves"])
FOREST_ABOVE = ("forest/1", [(0, 3), (0, 4)], ["Moons", "Leaves"])


def test_next_to_the_headquarters_no_suit_needs_to_match():
    # The Island is Suns, Waves, Wyrms; the Forest is Moons and Leaves.
    d = district()
    assert placement_error(d, [(2, 3), (2, 4)], ["Moons", "Leaves"], 5) is None
    assert placement_error(d, [(1, 2), (0, 2)], ["Leaves", "Moons"], 5) is None


def test_touching_another_card_needs_a_matching_pair():
    d = district(SEA)
    assert placement_error(d, [(1, 3), (1, 4)], ["Moons", "Leaves"], 5) == "no_suit_match"
    assert placement_error(d, [(1, 3), (1, 4)], ["Moons", "Waves"], 5) is None
    assert placement_error(d, [(1, 3), (1, 4)], ["Waves", "Moons"], 5) is None


def test_one_matching_pair_is_enough_when_touching_two_cards():
    # The Mill (Waves|Leaves) between the Forest (Moons, Leaves) and the Sea (Waves, Waves):
    # Leaves on (1,3) and Waves on (1,4) gives three mismatched pairs and one match.
    d = district(SEA, FOREST_ABOVE)
    assert placement_error(d, [(1, 3), (1, 4)], ["Leaves", "Waves"], 5) is None
    assert placement_error(d, [(1, 3), (1, 4)], ["Suns", "Knots"], 5) == "no_suit_match"


def test_bounds_occupied_touching_and_shape():
    d = district(SEA)
    assert placement_error(d, [(2, 4), (2, 5)], ["Moons", "Suns"], 5) == "outside"
    assert placement_error(d, [(-1, 2), (0, 2)], ["Moons", "Suns"], 5) == "outside"
    assert placement_error(d, [(2, 3), (1, 3)], ["Waves", "Waves"], 5) == "occupied"
    assert placement_error(d, [(2, 2), (1, 2)], ["Waves", "Waves"], 5) == "occupied"
    assert placement_error(d, [(0, 0), (0, 1)], ["Moons", "Suns"], 5) == "not_touching"
    assert placement_error(d, [(1, 1), (0, 0)], ["Moons", "Suns"], 5) == "not_adjacent_cells"
    assert placement_error(d, [(1, 1), (1, 1)], ["Moons", "Suns"], 5) == "not_adjacent_cells"


def test_legal_placements_around_a_lone_headquarters():
    # 4 blocks touch the headquarters, each in 3 dominoes that avoid it: 12 dominoes, two suit
    # orders for a two-suited card, one for a Crown.
    d = district()
    assert len(legal_placements(d, "mountain/1", 5)) == 24
    assert len(legal_placements(d, "sea/1", 5)) == 12
    assert {"cells": [[2, 3], [2, 4]], "suits": ["Suns", "Moons"]} in legal_placements(
        d, "mountain/1", 5
    )


def test_every_listed_placement_is_legal_and_every_other_is_not():
    d = district(SEA, FOREST_ABOVE)
    legal = legal_placements(d, "cave/1", 5)
    for r in range(5):
        for c in range(4):
            for suits in (["Waves", "Wyrms"], ["Wyrms", "Waves"]):
                entry = {"cells": [[r, c], [r, c + 1]], "suits": suits}
                ok = placement_error(d, [(r, c), (r, c + 1)], suits, 5) is None
                assert (entry in legal) == ok


# A corner headquarters whose two neighbours on the grid are built with Waves: a Suns|Knots
# card fits only after shifting the layout away from the corner.
CORNERED = district(
    ("sea/1", [(3, 4), (2, 4)], ["Waves", "Waves"]),
    ("sea/2", [(4, 3), (4, 2)], ["Waves", "Waves"]),
    at=(4, 4),
)
# The headquarters' four neighbours built with Waves and Moons, five blocks wide: no shift
# helps a Suns|Knots card.
BOXED_IN = district(
    ("sea/1", [(1, 2), (1, 1)], ["Waves", "Waves"]),
    ("sea/2", [(3, 2), (3, 3)], ["Waves", "Waves"]),
    ("lunatic/1", [(2, 1), (2, 0)], ["Moons", "Waves"]),
    ("lunatic/2", [(2, 3), (2, 4)], ["Moons", "Waves"]),
)


def placing(d, card_id, players=2):
    """A game where the first placer holds ``card_id`` and owns district ``d``."""
    game = new(players, seed=11)
    for index in range(len(game.state["tokens"])):
        send(game, actor(game)["seat"], "claim", {"index": index})
    seat = actor(game)["seat"]
    game.state["districts"][seat] = copy.deepcopy(d)
    game.state["old_row"][actor(game)["slot"]]["card"] = card_id
    return game, seat


def test_layout_shifts_to_make_room():
    game, seat = placing(CORNERED, "castle/1")
    view = see(game, seat)["placing"]
    assert view["legal"] == []
    assert (view["needs_shift"], view["must_discard"]) == (True, False)
    assert view["shifts"] == {"up": True, "down": False, "left": True, "right": False}
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "shift", {"dr": 1, "dc": 0})
    assert exc.value.code == "bad_shift"
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "discard")
    assert exc.value.code == "placement_possible"
    send(game, seat, "shift", {"dr": 0, "dc": -1})
    assert game.log[-1].type == SHIFTED
    assert game.state["districts"][seat]["hq"]["cell"] == [4, 3]
    assert game.state["districts"][seat]["cards"][0]["cells"] == [[3, 3], [2, 3]]
    send(game, seat, "place", {"cells": [[3, 4], [4, 4]], "suits": ["Suns", "Knots"]})
    assert game.log[-1].type == PLACED


@pytest.mark.parametrize("shift", [{"dr": 1, "dc": 1}, {"dr": 0, "dc": 0}, {"dr": "up"}])
def test_a_shift_is_one_step(shift):
    game, seat = placing(CORNERED, "castle/1")
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "shift", shift)
    assert exc.value.code == "bad_shift"


def test_a_card_that_cannot_be_placed_anywhere_is_discarded():
    assert not placeable_anywhere(BOXED_IN, "castle/1", 5)
    game, seat = placing(BOXED_IN, "castle/1")
    view = see(game, seat)["placing"]
    assert (view["legal"], view["must_discard"]) == ([], True)
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "place", {"cells": [[0, 0], [0, 1]], "suits": ["Suns", "Knots"]})
    assert exc.value.code == "must_discard"
    send(game, seat, "discard")
    assert game.log[-1].type == DISCARDED
    assert game.state["districts"][seat]["discards"] == ["castle/1"]
    assert "castle/1" in game.state["discard"]
    assert actor(game)["action"] == "claim"


def test_a_placeable_card_may_not_be_discarded():
    game, seat = placing(BOXED_IN, "cave/1")
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "discard")
    assert exc.value.code == "placement_possible"


def test_place_checks_the_suit_assignment():
    game, seat = placing(district(), "mountain/1")
    for suits in (None, ["Moons", "Moons"], ["Suns", "Waves"], "Moons"):
        with pytest.raises(RuleViolation) as exc:
            send(game, seat, "place", {"cells": [[2, 3], [2, 4]], "suits": suits})
        assert exc.value.code == "bad_suits"


def test_a_single_suited_card_needs_no_suit_assignment():
    game, seat = placing(district(), "sea/1")
    send(game, seat, "place", {"cells": [[2, 3], [2, 4]]})
    assert game.log[-1].data["suits"] == ["Waves", "Waves"]


@pytest.mark.parametrize("cells", [None, [[1, 2]], "a1", [[1, 2], [1, "x"]], [[0, 0, 0], [1, 1]]])
def test_place_needs_two_cells(cells):
    game, seat = placing(district(), "mountain/1")
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "place", {"cells": cells, "suits": ["Moons", "Suns"]})
    assert exc.value.code == "bad_cells"


def test_illegal_place_changes_nothing_and_says_why():
    game, seat = placing(district(SEA), "forest/1")
    before = copy.deepcopy(game.state)
    with pytest.raises(RuleViolation) as exc:
        send(game, seat, "place", {"cells": [[1, 3], [1, 4]], "suits": ["Moons", "Leaves"]})
    assert exc.value.code == "no_suit_match"
    assert "match" in exc.value.message
    assert game.state == before

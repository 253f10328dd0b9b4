"""Turn cadence and the first-player draw. DemLoc rulebook 7 ("First player playing"), 7.1,
7.2, 7.3, 7.3.2.3 (game turn end and ending the game), 6.4.2 ("next turn").
"""

from __future__ import annotations

STRATEGIC = "strategic"
BRAWL = "brawl"
TURN_END = "end"

PHASES = {
    STRATEGIC: "Strategic phase: free movement, shooting, arcane",
    BRAWL: "Brawl phase: engaging movement, hand-to-hand",
    TURN_END: "Turn over: all movement tokens back to active, then Next turn",
}

#: 7: "whoever was the first player in the previous turn will be less likely to be drawn".
#: Our weights: the previous first player 1, every other player 2 (turn 1: everybody 1).
PREVIOUS_FIRST_WEIGHT = 1
OTHER_WEIGHT = 2


def first_player_weights(seats: list[int], previous: int | None) -> list[int]:
    """Draw weights for ``seats`` (in table order): 1 for ``previous`` first player, 2 for the
    others; all 1 when there is no previous first player. E.g. 2 players: 1/3 and 2/3; 3
    players: 1/5, 2/5, 2/5; 4 players: 1/7 and 2/7 each."""
    if previous is None:
        return [1 for _ in seats]
    return [PREVIOUS_FIRST_WEIGHT if s == previous else OTHER_WEIGHT for s in seats]


def first_player_odds(seats: list[int], previous: int | None) -> list[tuple[int, float]]:
    """``[(seat, probability), ...]`` of the next draw, probabilities summing to 1."""
    weights = first_player_weights(seats, previous)
    total = sum(weights)
    return [(s, w / total) for s, w in zip(seats, weights, strict=True)]


def draw_first_player(rng, seats: list[int], previous: int | None) -> int:
    """Draw the first player of a turn with ``rng`` (``first_player_weights``)."""
    return seats[rng.weighted_index(first_player_weights(seats, previous))]


def clockwise_from(seats: list[int], first: int) -> list[int]:
    """``seats`` in playing order starting with ``first`` (clockwise = table order, 7)."""
    i = seats.index(first)
    return seats[i:] + seats[:i]


#: The order in which "Next turn" applies its effects (6.4.2, 7.2.3, 7.3.2.3, 8.1-8.4).
TURN_ORDER_TEXT = (
    "End of the turn, in this order: bleeding (if the table plays it at the end), poison (if "
    "at the end), FURY's broken heart, VIGOR and WEAKNESS expire, movement tokens back to "
    "active (not for a character summoning a daemon), the objective counter. Then the first "
    "player is drawn, and the start of the new turn: bleeding (if at the start), poison (if at "
    "the start), possession (a broken heart or armor token and an out-of-control direction for "
    "each possessed character). Total elimination is checked last."
)

"""Personal Demons error codes no other test provokes, through the pure step
a table command takes."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.testing import Sim

from .cards import NAMES, R, cmd, game, with_cards


def test_setup_is_for_one_to_four_players():
    """Rulebook "Setup" (and "Solo Meditation"): 1 to 4 players; a fifth seat is refused."""
    g = Sim(R, [*NAMES[:4], "Eve"], seed=1, content=with_cards(), start=False)
    with pytest.raises(RuleViolation) as exc:
        g.send(0, "table.start")
    assert exc.value.code == "bad_seats"
    assert g.state is None and not g.log


@pytest.mark.parametrize("points", [0, 51, -51, "many"])
def test_scoring_assistant_points_are_minus_50_to_50_not_0(points):
    """Rulebook "Scoring" at a physical table: points the assistant does not count."""
    g = game(2, options={"table": "physical"})
    before = g.version
    with pytest.raises(RuleViolation) as exc:
        cmd(g, 0, "pd.phys.points", points=points)
    assert exc.value.code == "bad_points"
    assert g.version == before


def test_keeper_keeps_only_when_there_is_a_choice():
    """Courage clarification "Keeper": keeping cards needs the Keeper's choice to be open."""
    g = game(2)
    before = g.version
    with pytest.raises(RuleViolation) as exc:
        cmd(g, 0, "pd.keeper.keep", keep=[])
    assert exc.value.code == "no_choice"
    assert g.version == before


def test_bonus_action_refusals_place_nothing_undrawn_own_cards_only_decline_once():
    """Rulebook "Bonus Action": a summoned card is placed only once drawn, a Personal Demon
    summoned only from one's own, and a decline is given once."""
    from .test_rules import three_players_at_bonus

    g = three_players_at_bonus()
    a = g.state["bonus_order"][0]
    for type_, data, code in (
        ("pd.drawn.place", {"space": [1, 1]}, "nothing_drawn"),
        ("pd.bonus.personal", {"card": "not-mine", "space": [1, 1]}, "not_yours"),
    ):
        before = g.version
        with pytest.raises(RuleViolation) as exc:
            cmd(g, a, type_, **data)
        assert exc.value.code == code
        assert g.version == before
    cmd(g, a, "pd.bonus.decline")
    with pytest.raises(RuleViolation) as exc:
        cmd(g, a, "pd.bonus.decline")
    assert exc.value.code == "already_declined"


def test_a_card_is_placed_on_a_space_of_two_numbers():
    """Rulebook "Summoning Phase": a card is placed on a space given as row and column."""
    from .test_rules import p, solo

    g = solo()
    before = g.version
    with pytest.raises(RuleViolation) as exc:
        cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[1])
    assert exc.value.code == "bad_space"
    assert g.version == before


def test_summon_royal_needs_a_card_in_the_royal_piles():
    """Rulebook "Bonus Action" (Summon Royal): with both Royal piles empty nothing is drawn and
    no sin is paid."""
    from .cards import content, p
    from .test_rules import PLAIN

    cards = [c for c in content(round1=PLAIN) if c["deck"] != "royal"]
    g = game(2, setup={"cards": cards})
    for s in range(2):
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=p(g, s)["candidates"][:2])
    for s in range(2):
        cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=[0, 0])
    for s in range(2):
        cmd(g, s, "pd.card.reveal", face_up=True)
    a = g.state["bonus_order"][0]
    sins, before = dict(p(g, a)["sins"]), g.version
    with pytest.raises(RuleViolation) as exc:
        cmd(g, a, "pd.bonus.royal", sin="hate")
    assert exc.value.code == "deck_empty"
    assert g.version == before and p(g, a)["sins"] == sins

"""A Guild mission's definition sets its own turn limit, whether it is shown and the turns to
hold a control objective (7, 6.4.2; ``setup_stages.opening_events``): the lobby must not offer
them as table options the host could change for nothing (found by a new user: "Turn limit 4"
chosen, the mission played "Turn 1 / 6"). A quick game keeps them."""

from tabletop.live import option_rows
from tabletop.registry import get_ruleset

FIXED = {"turn_limit", "turn_limit_hidden", "objective_turns"}


def test_a_guild_missions_lobby_does_not_offer_the_options_its_definition_sets():
    game = get_ruleset("demloc")
    rows = {r["key"] for r in option_rows(game, {}, {"mission": {"id": 1, "definition": {}}})}
    assert not rows & FIXED
    assert "activations" in rows  # the readings of the rules stay the table's choice


def test_a_quick_game_offers_its_turn_limit():
    game = get_ruleset("demloc")
    rows = {r["key"] for r in option_rows(game, {}, {})}
    assert FIXED <= rows

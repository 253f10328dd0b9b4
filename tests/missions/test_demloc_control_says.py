"""What a DemLoc control says, read as a new player reads it on a phone: the turn bar's fate
badge is the reader's own (6.4.2: each player's fate points), the mana refusal of the
preparation says what was wrong (6.4.1), an arcane test's result line is at its Test form
(7.2.3.5), and a Summon button the rules would refuse is disabled with the first reason
(7.2, 7.2.3.2)."""

from django.template import engines


def _turn_bar(**view) -> str:
    base = {"ended": None, "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
            "me": 0, "prompt": None, "turn": 1, "turn_limit": 6, "phase": "strategic",
            "phase_label": "Strategic", "first_name": "Bob", "my_turn": False,
            "acting_name": "Bob", "my_fate": 3, "last_turn": False, "next_odds": []}
    return engines["jinja2"].env.get_template("missions/live/dl-turn.html").render(
        view={**base, **view}, table={"code": "ABCDEF"})


def test_the_turn_bars_fate_badge_is_mine_while_another_guild_acts_6_4_2():
    """Found by a new user: "Bob is acting. fate 3" read as Bob's fate; the badge is the
    reader's own fate points, and says so whoever is acting."""
    html = _turn_bar()
    assert "</strong> is acting." in html
    assert 'id="dl-my-fate" title="your fate points">your fate 3</span>' in html
    assert 'id="dl-my-fate" title="your fate points">your fate 2</span>' in _turn_bar(
        my_turn=True, my_fate=2)

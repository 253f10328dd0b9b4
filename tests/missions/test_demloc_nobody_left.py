"""Nobody on the board, nobody wins (DemLoc rulebook 7.3.2.3 "total elimination": the game is won
by the last player with characters in play; 6.4.1 resolution). Found by the mission playouts
(``test_mission_playouts``: 2 players, seed 0): when the last characters of both sides died at
once, the app gave the win "on kills" to a Guild with no character left. Pure: the kit's Sim."""

from missions.rules import resolution

from .demloc_sim import finish_turn, run
from .test_demloc_ending import two


def test_7_3_2_3_both_sides_wiped_out_by_the_last_turn_s_poison_is_a_draw_whatever_the_kills():
    # Vesna (s0-m11) and Maud (s1-m21), hit factor 4 each, hold 4 poison tokens: at the end of
    # the turn each gains one (8.2) and 5 > 4 kills both (6.4.2). Ann counted a kill before.
    t = two("turns", turn_limit=1)
    run(t, 0, "kill.count", kind="mercenary", level=1, delta=1)
    run(t, 0, "tokens.adjust", piece="s0-m11", token="poison", delta=4)
    run(t, 1, "tokens.adjust", piece="s1-m21", token="poison", delta=4)
    finish_turn(t)
    run(t, 0, "mission.end")
    pieces = t.state["pieces"]
    assert pieces["s0-m11"]["status"] == pieces["s1-m21"]["status"] == "killed"
    result = resolution.compute(t.state)
    assert (result["winner"], result["how"]) == (None, "draw")
    assert all("Defeat" not in " ".join(g["lines"]) for g in result["guilds"])
    assert result["control_point"]["change"] in ("none", "stays")


def test_7_3_2_3_both_sides_wiped_out_by_the_last_turn_s_poison_with_fame_kills_too():
    t = two("turns", turn_limit=1, options={"kills_win": "fame"})
    run(t, 1, "kill.count", kind="mercenary", level=2, delta=1)
    run(t, 0, "tokens.adjust", piece="s0-m11", token="poison", delta=4)
    run(t, 1, "tokens.adjust", piece="s1-m21", token="poison", delta=4)
    finish_turn(t)
    run(t, 1, "mission.end")
    assert resolution.winner_of(t.state) == (None, "draw")

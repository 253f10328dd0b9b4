"""At a physical table: cadence, sin gauges, Courage limit and the scoring assistant
(rulebook "Summoning Phase", "Sin", "Three Courage maximum", "Scoring")."""

import pytest

from tabletop.errors import TabletopError

from .cards import R, cmd, game

PHYSICAL = {"table": "physical"}


def everyone_ready(g):
    for s in range(len(g.state["players"])):
        cmd(g, s, "pd.phys.ready")


def refused(code, fn, *args, **kwargs):
    with pytest.raises(TabletopError) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code


def test_the_leader_keeps_the_cadence_of_six_steps_and_passes_the_leader_card():
    g = game(3, options=PHYSICAL)
    leader = g.state["leader"]
    assert (g.state["round"], g.state["turn"], g.state["step"]) == (1, 1, "place")
    assert g.view(0)["prompt"] == "Tell all players to pick and place a card."
    cmd(g, 0, "pd.phys.ready")
    refused("already_ready", cmd, g, 0, "pd.phys.ready")
    assert g.view(1)["waiting_names"] == ["Ben", "Cat"]
    cmd(g, 1, "pd.phys.ready")
    cmd(g, 2, "pd.phys.ready")
    assert g.state["step"] == "reveal"
    for step in ("sin", "seal", "bonus", "pass"):
        everyone_ready(g)
        assert g.state["step"] == step
    everyone_ready(g)
    assert (g.state["turn"], g.state["step"], g.state["leader"]) == (2, "place", (leader + 1) % 3)


def test_sin_gauges_cap_at_six_and_costs_come_from_one_gauge():
    g = game(2, options=PHYSICAL)
    cmd(g, 0, "pd.phys.sin", sin="hate", amount=4)
    cmd(g, 0, "pd.phys.sin", sin="hate", amount=3)
    assert g.state["players"][0]["sins"]["hate"] == 6
    cmd(g, 0, "pd.phys.sin", sin="want", amount=1)
    refused("not_enough_sin", cmd, g, 0, "pd.phys.pay", sin="want", amount=2)
    cmd(g, 0, "pd.phys.pay", sin="hate", amount=4)
    assert g.state["players"][0]["sins"] == {"glut": 0, "hate": 2, "want": 1}
    refused("bad_sin", cmd, g, 0, "pd.phys.sin", sin="hell")


def test_courage_limit_is_shown_above_three():
    g = game(2, options=PHYSICAL)
    for _ in range(3):
        cmd(g, 1, "pd.phys.courage", delta=1)
    assert g.view(1)["self"]["courage_over"]
    cmd(g, 1, "pd.phys.courage", delta=-1)
    assert not g.view(1)["self"]["courage_over"]


def test_scoring_assistant_with_the_rulebook_example_and_three_rounds():
    g = game(2, options=PHYSICAL)
    refused("wrong_step", cmd, g, 0, "pd.phys.seal", values=[0, 3, 2])
    for _ in range(6 * 6):
        everyone_ready(g)
    assert g.state["step"] == "scoring"
    cmd(g, 0, "pd.phys.seal", values=[0, 3, 2])
    cmd(g, 0, "pd.phys.seal", values="1+3+4")
    cmd(g, 0, "pd.phys.seal", values=[1, 1, 4])
    cmd(g, 0, "pd.phys.points", points=6, reason="Knight")
    assert g.state["players"][0]["score"] == 5 + 8 + 6 + 6
    refused("bad_values", cmd, g, 0, "pd.phys.seal", values=[1, 2, 3, 4, 5])
    everyone_ready(g)
    assert g.state["step"] == "end"
    everyone_ready(g)
    assert (g.state["round"], g.state["turn"], g.state["step"]) == (2, 1, "place")
    for _ in range(2):
        for _ in range(6 * 6):
            everyone_ready(g)
        cmd(g, 1, "pd.phys.points", points=25)
        everyone_ready(g)
        if g.state["step"] == "end":
            everyone_ready(g)
    assert g.state["step"] == "over" and R.is_finished(g.state)
    assert g.view(0)["winner_names"] == ["Ben"]
    refused("game_over", cmd, g, 0, "pd.phys.ready")

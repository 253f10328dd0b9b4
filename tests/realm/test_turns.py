"""Setup, the turn (Draw, Act, Reset, Purge) and the deck (rulebook "Setup", "Sequence of a Turn",
"Ritual Cards")."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.realm.rules import OPENED
from tabletop.realm.rules import cards as C
from tabletop.testing import Sim

from .deals import CONTENT, R, deal, end, hand, refused


def opened(n, seed, options=None):
    """A table set up by the real ``setup`` with the demo content: (events, state)."""
    sim = Sim(R, n, options=options, content=CONTENT, seed=seed)
    sim.assert_replay_equal()
    return [e for e in sim.log if e.type != "table.started"], sim.state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_five_each_and_the_first_player_draws_to_six(n):
    events, st = opened(n, seed=n)
    first = st["first"]
    # "Starting Hand": 5 each; "Step 1 - Draw": the first player draws 1, then up to 6
    assert [len(p["hand"]) for k, p in enumerate(st["players"]) if k != first] == [5] * (n - 1)
    assert len(st["players"][first]["hand"]) == 6
    assert len(st["deck"]) == 54 - 5 * n - 1
    assert st["turn"] == first and st["phase"] == "act"
    # one Active Demon, a Personal Demon each from the bottom, the rest below the Portal
    assert st["active"] is not None
    assert len(st["demon_deck"]) == 19 - 1 - n
    assert events[0].type == OPENED
    opening = events[0].data
    personal = [p["personal"] for p in st["players"]]
    assert len(set(personal + [st["active"]])) == n + 1
    assert len(st["vessels"]) == 8
    assert opening["content"]["demons"]["d01"]["name"] == "Ossuarch"  # content travels along
    all_cards = st["deck"] + [c for p in st["players"] for c in p["hand"]]
    assert sorted(all_cards) == sorted(C.RITUAL_DECK)


def test_setup_picks_a_random_first_player_and_shuffles():
    firsts = {opened(4, seed)[1]["first"] for seed in range(12)}
    assert len(firsts) > 1
    assert opened(2, 1)[1]["deck"] != opened(2, 2)[1]["deck"]


def test_setup_refuses_five_players_and_too_little_content():
    # rulebook "Overview": 2 to 4 players; the demons must cover the Active and Personal Demons
    with pytest.raises(RuleViolation) as info:
        Sim(R, 5, content=CONTENT)
    assert info.value.code == "seats"
    with pytest.raises(RuleViolation) as info:
        Sim(R, 2, content={"demons": [], "pacts": [], "afflictions": []})
    assert info.value.code == "content"
    with pytest.raises(RuleViolation) as info:  # setup reads no database: no content, no game
        Sim(R, 2)
    assert info.value.code == "content"


def test_draw_step_draws_one_then_up_to_six():
    # rulebook "Step 1 - Draw": a hand of 3 draws 3; a hand of 7 still draws 1
    g = deal([["2D", "3D", "4D", "5D", "6D"], ["2V", "3V", "4V"]], deck_top=["9C", "9S"])
    assert hand(g, 0) == ["2D", "3D", "4D", "5D", "6D", "9C"]
    end(g, 0, discard=["2D"])
    assert len(hand(g, 0)) == 5
    assert len(hand(g, 1)) == 6  # 3 + 3
    g2 = deal([["2D", "3D", "4D", "5D", "6D", "7D", "8D"], ["2V"]])
    assert len(hand(g2, 0)) == 8


def test_reset_discards_down_to_exactly_five_or_draws_up():
    g = deal([["2D", "3D", "4D", "5D", "6D", "7D", "8D"], ["2V", "3V", "4V", "5V", "6V"]])
    assert len(hand(g, 0)) == 8
    assert refused(g, 0, "realm.turn.end", dict(discard=["2D", "3D"])) == "discard_count"
    assert refused(g, 0, "realm.turn.end", dict(discard=["2D", "3D", "9S"])) == "not_in_hand"
    assert refused(g, 0, "realm.turn.end", dict(discard=["2D", "2D", "3D"])) == "bad_cards"
    end(g, 0, ["2D", "3D", "4D"])
    assert {"5D", "6D", "7D", "8D"} <= set(hand(g, 0))
    assert len(hand(g, 0)) == 5 and {"2D", "3D", "4D"} <= set(g.state["discard"])
    assert g.state["turn"] == 1


def test_reset_draws_up_to_five_after_a_ritual():
    g = deal([["5C", "7C", "2S", "3S", "4S"], ["2V", "3V", "4V", "5V", "6V"]])
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    g.send(1, "realm.ritual.pass")  # Mother Wick: "Draw 2 cards"
    assert len(hand(g, 0)) == 4 + 2
    end(g, 0, [hand(g, 0)[0]])
    assert len(hand(g, 0)) == 5


def test_purge_discards_the_hand_draws_as_many_and_ends_the_turn():
    g = deal(
        [["2D", "3D", "4D", "5D", "6D"], ["2V", "3V", "4V", "5V", "6V"]],
        deck_top=["9C", "10C", "10D", "10S", "10V", "9D", "9S"],
    )
    assert len(hand(g, 0)) == 6
    g.send(0, "realm.turn.purge")
    assert hand(g, 0) == ["10C", "10D", "10S", "10V", "9D", "9S"]
    assert g.state["discard"][-6:] == ["2D", "3D", "4D", "5D", "6D", "9C"]
    assert refused(g, 0, "realm.vessel.summon", dict(cards=["10C", "10D", "10S"])) == "turn_over"
    assert refused(g, 0, "realm.turn.purge") == "turn_over"
    end(g, 0, ["9D"])
    assert len(hand(g, 0)) == 5 and g.state["turn"] == 1


def test_purge_is_refused_after_an_action():
    g = deal([["2D", "3D", "4D", "5D", "6D"], ["2V", "3V", "4V", "5V", "6V"]])
    g.send(0, "realm.vessel.summon", dict(cards=["2D", "3D", "4D"]))
    assert refused(g, 0, "realm.turn.purge") == "already_acted"


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    g = deal([["2D", "3D", "4D", "5D", "6D"], ["2V", "3V", "4V", "5V", "6V"]], deck_size=2)
    assert len(g.state["deck"]) == 1
    before = len(g.state["discard"])
    g.send(0, "realm.turn.purge")  # discard 6, draw 6: 1 from the deck, then a new deck
    types = [r.type for r in g.records()[-4:]]
    assert "realm.deck.reshuffled" in types
    assert len(hand(g, 0)) == 6
    assert len(g.state["discard"]) == 0  # the whole pile became the new deck
    assert len(g.state["deck"]) == before + 6 - 5
    total = (
        len(g.state["deck"])
        + len(g.state["discard"])
        + sum(len(p["hand"]) for p in g.state["players"])
    )
    assert total == 54


def test_only_the_current_player_acts():
    g = deal([["2D", "3D", "4D", "5D", "6D"], ["2V", "3V", "4V", "5V", "6V"]])
    assert refused(g, 1, "realm.turn.end") == "not_your_turn"
    assert refused(g, 1, "realm.vessel.summon", dict(cards=["2V", "3V", "4V"])) == "not_your_turn"
    assert refused(g, None, "realm.turn.end") == "not_seated"
    assert refused(g, 0, "realm.nonsense") == "unknown_command"
    assert refused(g, 0, "personimo.card.place") == "unknown_command"


def test_reset_refills_the_personal_demon_then_the_active_demon_from_below_the_portal():
    g = deal(
        [["7D", "9D", "5C", "7C", "9S"], ["2V", "3V", "4V", "5V", "6V"]],
        active="d04",
        personal=["d07", "d06"],
        below=["d05", "d08", "d09"],
    )
    # Knife-Saint Vorn (D D 7 9) is seat 0's Personal Demon
    assert refused(g, 0, "realm.demon.bind", dict(target="personal", cards=["7D", "9S"])) == "ritual_fails"
    assert refused(g, 1, "realm.demon.bind", dict(target="personal", cards=["7D", "9D"])) == "not_your_turn"
    g.send(0, "realm.demon.bind", dict(target="personal", cards=["7D", "9D"]))
    g.send(1, "realm.ritual.pass")
    assert g.state["players"][0]["personal"] is None
    assert len(hand(g, 1)) == 6  # "Each opponent draws 1 card"
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    g.send(1, "realm.ritual.pass")
    assert g.state["active"] is None
    assert [b["demon"] for b in g.state["players"][0]["bound"]] == ["d07", "d04"]
    assert [b["personal"] for b in g.state["players"][0]["bound"]] == [True, False]
    assert refused(g, 0, "realm.demon.bind", dict(target="active", cards=["9S"])) == "no_demon"
    end(g, 0, hand(g, 0)[5:])
    assert g.state["players"][0]["personal"] == "d05"  # the card below the Portal first
    assert g.state["active"] == "d08"
    assert g.state["demon_deck"] == ["d09"]


def test_affliction_only_demons_are_left_out_without_afflictions_unless_kept():
    # rulebook "Afflictions": "Some Demon curses relate only to Affliction Cards ... If you aren't
    # playing with Afflictions, you may choose not to play with these Demons. If you still do,
    # their curses may have no effect."
    only = {d["id"] for d in CONTENT["demons"] if d["affliction_only"]}
    assert only == {"d20", "d21"}
    in_play = lambda options: set(opened(2, 5, options)[0][0].data["content"]["demons"])  # noqa: E731
    assert not only & in_play({})  # the default leaves them out
    assert not only & in_play({"affliction_demons": "leave-out"})
    assert only <= in_play({"affliction_demons": "keep"})
    assert only <= in_play({"afflictions": "on"})  # with Afflictions they are always in
    assert only <= in_play({"afflictions": "on", "affliction_demons": "leave-out"})
    schema = R.options_schema["affliction_demons"]
    assert [c[0] for c in schema["choices"]] == ["leave-out", "keep"] and "Afflictions" in schema["help"]

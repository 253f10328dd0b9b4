"""Whole Personimo games played by the pure rules: "Game Play" to the end, and replay."""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.dice import make_dice
from tabletop.errors import NotFound, RuleViolation
from tabletop.personimo.rules import (
    DEALT,
    ENDED,
    OPTIONS_SCHEMA,
    normalize_options,
    score_results,
)

from .sims import RULES, actor, finish, new, send, set_up


def cards_handled(game, seat):
    district = game.state["districts"][seat]
    return len(district["cards"]) + len(district["discards"])


@pytest.mark.parametrize(("players", "each"), [(1, 12), (2, 12), (3, 12), (4, 12), (5, 12),
                                               (6, 12)])  # fmt: skip
def test_a_full_game_gives_every_player_twelve_cards(players, each):
    # 2 players: 24 cards, two tokens each, six turns; 3-6 players: twelve turns, one card each;
    # solitaire: twelve rounds of three cards, one kept.
    game = finish(new(players, seed=players), seed=players)
    assert [cards_handled(game, s) for s in range(players)] == [each] * players
    assert game.state["deck"] == []
    assert game.state["season"] == game.state["seasons"]
    assert game.log[-1].type == ENDED
    assert game.state["results"] == score_results(game.state)


def test_every_card_of_the_deck_is_placed_or_discarded():
    game = finish(new(3, seed=8), seed=8)
    deck = set_up(game)["deck"]
    placed = [p["card"] for d in game.state["districts"] for p in d["cards"]]
    assert sorted(placed + game.state["discard"]) == sorted(deck)
    assert len(game.state["discard"]) >= 12  # the unchosen fourth card of each of 12 rows


def test_nothing_is_accepted_after_the_game_ended():
    game = finish(new(2, seed=3), seed=3)
    with pytest.raises(RuleViolation) as exc:
        send(game, 0, "claim", {"index": 0})
    assert exc.value.code == "game_over"


def test_a_spectator_cannot_act_and_unknown_commands_are_refused():
    # The kit's codes (KIT.md section 1): a spectator is NotFound("not_seated").
    game = new(2, seed=1)
    with pytest.raises(NotFound) as exc:
        send(game, None, "claim", {"index": 0})
    assert exc.value.code == "not_seated"
    with pytest.raises(NotFound) as exc:
        send(game, 2, "claim", {"index": 0})
    assert exc.value.code == "not_seated"
    with pytest.raises(RuleViolation) as exc:
        send(game, actor(game)["seat"], "pass")
    assert exc.value.code == "unknown_command"


def test_the_final_view_shows_each_neighborhoods_arithmetic_and_the_winner():
    game = finish(new(2, seed=5), seed=5)
    view = RULES.view(game.state, 0)
    assert view["phase"] == "over"
    mine = view["districts"][0]
    assert mine["mine"] and mine["seat"] == 0
    for hood in mine["score"]["neighborhoods"]:
        assert hood["text"] == f"{hood['blocks']} x {hood['scoring']} = {hood['points']}"
    assert sorted(r["place"] for r in view["results"])[0] == 1


UNSUPPORTED_VALUES = {"thorny_crown", "thorny_crowns", "teamwork", "between_two", "don_giovanni",
                      "6x6x3"}


@st.composite
def tables(draw):
    """A player count and table options that the rules accept for it."""
    players = draw(st.integers(1, 6))
    options = {
        name: draw(
            st.sampled_from([c[0] for c in spec["choices"] if c[0] not in UNSUPPORTED_VALUES])
        )
        for name, spec in OPTIONS_SCHEMA.items()
    }
    for name in ("market", "district", "extra_cards", "deck", "trim", "start_cards", None):
        try:
            normalize_options(options, players)
            break
        except RuleViolation:
            if name is None:
                raise
            options[name] = OPTIONS_SCHEMA[name]["default"]
    return players, options


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 10**6))
def test_random_legal_play_always_finishes_and_replay_equals_the_incremental_state(table, seed):
    players, options = table
    game = finish(new(players, seed=seed, options=options), seed=seed)
    assert len(game.log) < 3000
    game.assert_replay_equal()
    assert RULES.load(RULES.dump(game.state)) == game.state
    deck = set_up(game)["deck"]
    placed = [p["card"] for d in game.state["districts"] for p in d["cards"]]
    assert sorted(placed + game.state["discard"]) == sorted(deck)
    assert game.state["season"] == game.state["seasons"]
    # Only a deal that shows cards is final.
    for record in game.log[1:]:
        assert record.final == (record.type == DEALT and record.data["dealt"] > 0)


def test_a_refused_command_changes_nothing():
    # Every write is one transaction: a refused command leaves the table as it was.
    game = new(4, seed=2)
    pick = random.Random(2)
    for _ in range(60):
        frozen = copy.deepcopy(game.state)
        seat = actor(game)["seat"]
        other = (seat + 1) % 4
        assert game.try_send(other, "personimo.claim", {"index": 0}) == "not_your_turn"
        assert game.state == frozen
        command = pick.choice(RULES.moves(game.view(seat), seat))
        # decide works on its own copy: the state it is given is never changed.
        RULES.decide(game.state, command, seat, make_dice("decide"))
        assert game.state == frozen
        game.send(seat, command.type, command.data)
    game.assert_replay_equal()


def test_the_log_is_narrated_from_events_and_the_state_holds_no_prose():
    game = finish(new(2, seed=5), seed=5)
    lines = game.lines()
    assert lines[1].startswith("Set up with 24 cards")
    assert any(" claimed " in line for line in lines)
    assert any(" placed " in line for line in lines)
    assert lines[-1].startswith("Game over:")
    assert "log" not in game.state


@pytest.mark.parametrize("options", [{}, {"soothsayer": "yes"}])
def test_no_view_shows_an_undealt_or_set_aside_card(options):
    # docs/architecture.md: hidden information appears in no view. The deck's order and the set-aside
    # cards are hidden (unless The Reveal); every dealt card carries its instance id.
    game = new(4, seed=21, options=options)
    pick = random.Random(21)
    for _ in range(40):
        hidden = set(game.state["deck"]) | set(game.state["set_aside"])
        for seat in (0, 1, 2, 3, None):
            shown = json.dumps(RULES.view(game.state, seat))
            assert not [c for c in hidden if f'"{c}"' in shown]
        seat = actor(game)["seat"]
        command = pick.choice(RULES.moves(game.view(seat), seat))
        game.send(seat, command.type, command.data)


def test_a_spectator_sees_the_table_but_no_actions():
    game = new(3, seed=4)
    view = RULES.view(game.state, None)
    assert view["you"] is None and not view["your_turn"]
    assert view["placing"] is None and view["claimable"] == []
    assert len(view["districts"]) == 3 and not any(d["mine"] for d in view["districts"])

"""Properties over random games: replay equals the incremental state, and no view shows
another seat's hidden cards (docs/architecture.md "The event-sourced table": hidden information)."""

import copy
import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tabletop.decider import copy_json
from tabletop.dice import make_dice
from tabletop.rules import Command  # noqa: F401 - the moves are Commands
from tabletop.testing import Sim

from .cards import NAMES, R, with_cards


def sealy(card):
    """Blue and purple corners only: most sigils complete, many seals form, get removed,
    re-form and score (and all-purple ones need a colour)."""
    n = int(card["id"].split("-")[1])
    return {"sigils": ["purple" if (n >> i) & 1 else "blue" for i in range(4)]}


SEALY = with_cards(round1=sealy, round2=sealy, round3=sealy, fragment=sealy, royal=sealy)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def hidden_from(state, viewer):
    """Card ids that ``viewer`` (a seat or None) must not see."""
    hidden = set()
    for seat, p in enumerate(state["players"]):
        if seat == viewer:
            continue
        hidden |= set(p["hand"]) | set(p["candidates"]) | set(p["personal"])
        hidden |= {x["card"] for x in p["board"]["placements"] if not x["face_up"]}
    return hidden


def check_views(game):
    state = game.state
    for viewer in [None, *range(len(state["players"]))]:
        view = R.view(state, viewer)
        seen = set(strings(view))
        leaked = hidden_from(state, viewer) & seen
        assert not leaked, f"seat {viewer} sees {leaked}"
        for other in view["players"]:
            if other["seat"] != viewer:
                assert "reveal" not in other and "hand" not in other
        json.dumps(view)


def offered(sim, rnd):
    """A random command among those the pages offer (``PersonalDemonsRuleset.moves``)."""
    moves = [
        (seat, c)
        for seat in range(len(sim.state["players"]))
        for c in R.moves(sim.view(seat), seat)
    ]
    assert moves, f"stuck: {sim.state['phase']} {sim.state['step']}"
    return rnd.choice(moves)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(players=3, seed=7332, length=179, sealy_content=True)  # many Courage cards at once
@example(players=4, seed=1158, length=212, sealy_content=True)  # this turn's card discarded
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    length=st.integers(20, 400),
    sealy_content=st.booleans(),
)
def test_replay_equals_incremental_state_and_views_hide_other_seats_cards(
    players, seed, length, sealy_content
):
    game = Sim(R, NAMES[:players], seed=seed, content=SEALY if sealy_content else with_cards())
    catalog = json.dumps(game.state["catalog"], sort_keys=True)
    rnd = random.Random(seed)
    for step in range(length):
        if game.state["phase"] == "over":
            break
        seat, command = offered(game, rnd)
        snapshot = copy_json(game.state)
        before = copy.deepcopy(snapshot)
        try:
            R.decide(snapshot, command, seat, make_dice(step))  # decide never mutates its input
        except Exception:  # noqa: BLE001 - the Sim below reports the same error with its code
            pass
        assert snapshot == before
        game.try_send(seat, command.type, command.data)
        # The catalog is content shared between copies (``PersonalDemonsRuleset.copy``): no
        # fold may change it.
        if step % 50 == 0:
            assert json.dumps(game.state["catalog"], sort_keys=True) == catalog
        if step % 7 == 0:
            check_views(game)
    game.assert_replay_equal()
    stored = json.loads(json.dumps(R.dump(game.state)))
    assert R.load(stored) == game.state
    check_views(game)


def test_every_event_is_json_and_labelled():
    game = Sim(R, NAMES[:3], seed=5, content=with_cards())
    rnd = random.Random(5)
    for _ in range(300):
        if game.finished:
            break
        seat, command = offered(game, rnd)
        game.try_send(seat, command.type, command.data)
    for event in game.log:
        json.dumps(event.data)
        assert event.type == "table.started" or event.type in R.event_labels

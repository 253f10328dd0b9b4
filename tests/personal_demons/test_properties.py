"""Properties over random games: replay equals the incremental state, and no view shows
another seat's hidden cards (STYLE.md 12; DESIGN.md "hidden information")."""

import copy
import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tabletop.rules import EventRecord

from .cards import ruleset
from .play import Game, bot_command


def sealy(card):
    """Blue and purple corners only: most sigils complete, many seals form, get removed,
    re-form and score (and all-purple ones need a colour)."""
    n = int(card["id"].split("-")[1])
    return {"sigils": ["purple" if (n >> i) & 1 else "blue" for i in range(4)]}


SEALY = ruleset(round1=sealy, round2=sealy, round3=sealy, fragment=sealy, royal=sealy)


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
        view = game.rs.view(state, viewer)
        seen = set(strings(view))
        leaked = hidden_from(state, viewer) & seen
        assert not leaked, f"seat {viewer} sees {leaked}"
        for other in view["players"]:
            if other["seat"] != viewer:
                assert "reveal" not in other and "hand" not in other
        json.dumps(view)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(players=3, seed=7332, length=179, sealy_content=True)  # five Courage cards at once
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    length=st.integers(20, 400),
    sealy_content=st.booleans(),
)
def test_replay_equals_incremental_state_and_views_hide_other_seats_cards(
    players, seed, length, sealy_content
):
    game = Game(players, seed, ruleset=SEALY if sealy_content else None)
    rnd = random.Random(seed)
    for step in range(length):
        if game.state["phase"] == "over":
            break
        moves = [(s, bot_command(game.state, s, rnd)) for s in range(players)]
        moves = [(s, m) for s, m in moves if m]
        seat, (type_, data) = rnd.choice(moves)
        snapshot = game.state
        before = copy.deepcopy({k: v for k, v in snapshot.items() if k != "catalog"})
        catalog = json.dumps(snapshot["catalog"], sort_keys=True) if step % 50 == 0 else None
        game.cmd(seat, type_, **data)
        # decide and evolve never mutate their input
        assert {k: v for k, v in snapshot.items() if k != "catalog"} == before
        assert catalog is None or json.dumps(snapshot["catalog"], sort_keys=True) == catalog
        if step % 7 == 0:
            check_views(game)
    rebuilt = game.rs.fold([EventRecord(r.type, r.data, r.seat, r.version) for r in game.records])
    assert rebuilt == game.state
    stored = json.loads(json.dumps(game.rs.dump(game.state)))
    assert game.rs.load(stored) == game.state
    check_views(game)


def test_every_event_is_json_and_labelled():
    game = Game(3, 5)
    rnd = random.Random(5)
    for _ in range(300):
        moves = [(s, bot_command(game.state, s, rnd)) for s in range(3)]
        moves = [(s, m) for s, m in moves if m]
        if not moves:
            break
        seat, (type_, data) = rnd.choice(moves)
        game.cmd(seat, type_, **data)
    for record in game.records:
        json.dumps(record.data)
        assert record.type in game.rs.event_labels

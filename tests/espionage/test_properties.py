"""Properties over random games (hypothesis): replay equals the incremental projection, and no
view shows another seat's faction, soul values or face-down duel cards (docs/architecture.md "The
event-sourced table": hidden information exists only in its owner's view)."""

import copy

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.espionage.rules import OUTCOMES, EspionageRuleset
from tabletop.rules import Command, NewEvent
from tabletop.testing import Sim

R = EspionageRuleset()
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


class Dealt(EspionageRuleset):
    """The real rules with a given ``espionage.game.prepared`` (a stacked deal)."""

    def __init__(self, prepared):
        self.prepared = prepared

    def setup(self, options, seats, rng):
        return [NewEvent("espionage.game.prepared", copy.deepcopy(self.prepared), final=True)]


CARDS = [
    {"kind": "troop", "damage": d, "symbol": s}
    for d in (1, 3, 5, 9)
    for s in ("rock", "paper", "scissors")
] + [{"kind": "dummy"}, {"kind": "action", "name": "damage_plus_2"}]
ACTIONS = ["rps", "reverse", "negate", "damage_plus_3"]


def next_command(state, draw):
    """A legal command for the current state (mostly) or a random probe (sometimes)."""
    if draw(st.integers(0, 19)) == 0:  # a random, probably illegal, probe
        seat = draw(st.sampled_from([None, *range(len(state["players"]))]))
        kind = draw(
            st.sampled_from(
                [
                    "duel.challenge",
                    "duel.card",
                    "duel.actions",
                    "duel.confirm",
                    "hand.change",
                    "action.record",
                ]
            )
        )
        data = draw(
            st.sampled_from(
                [
                    {},
                    {"opponent": 1},
                    CARDS[0],
                    {"cards": ["rps"]},
                    {"outcome": "tie"},
                    {"card": "heal", "target": 0, "health": 1},
                ]
            )
        )
        return seat, Command(f"espionage.{kind}", data)
    duel = state["duel"]
    active = state["active"]
    if duel is None:
        living = [n for n, p in enumerate(state["players"]) if not p["eliminated"]]
        choice = draw(st.integers(0, 15))
        if choice == 0:
            return active, Command("espionage.hand.change")
        if choice == 1:
            target = draw(st.sampled_from(living))
            health = (
                -1 if state["players"][target]["health"] == 5 else draw(st.sampled_from([-1, 1]))
            )
            return active, Command(
                "espionage.action.record", {"card": "heal", "target": target, "health": health}
            )
        opponent = draw(st.sampled_from([n for n in living if n != active]))
        return active, Command("espionage.duel.challenge", {"opponent": opponent})
    pair = (duel["initiator"], duel["opponent"])
    if duel["stage"] == "cards":
        seat = pair[0 if duel["cards"][0] is None else 1]
        return seat, Command("espionage.duel.card", draw(st.sampled_from(CARDS)))
    if duel["stage"] == "actions":
        seat = pair[1 if duel["actions"][1] is None else 0]
        cards = draw(st.lists(st.sampled_from(ACTIONS), max_size=2, unique=True))
        if draw(st.booleans()):
            cards = [c for c in cards if c == "rps"]
        return seat, Command("espionage.duel.actions", {"cards": cards})
    seat = draw(st.sampled_from(pair))
    outcome = duel["by_cards"] if draw(st.integers(0, 3)) else draw(st.sampled_from(OUTCOMES))
    return seat, Command("espionage.duel.confirm", {"outcome": outcome})


def play_random_game(data, players, seed, max_steps=200):
    """Set up and play through the pure step (``Sim``); returns (prepared event data,
    [(seat, command)] accepted, the Sim, [state after each accepted command, stored and read
    back as the kit does])."""
    sim = Sim(R, NAMES[:players], seed=seed)
    opening = next(e for e in sim.log if e.type == "espionage.game.prepared")
    script, states = [], [copy.deepcopy(sim.state)]
    for _ in range(max_steps):
        if sim.state["phase"] != "playing":
            break
        seat, command = next_command(sim.state, data.draw)
        before, version = copy.deepcopy(sim.state), sim.version
        if sim.try_send(seat, command.type, command.data) is not None:
            assert (
                sim.state == before and sim.version == version
            )  # a refused command changes nothing
            continue
        script.append((seat, command))
        states.append(copy.deepcopy(sim.state))
    return opening.data, script, sim, states


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_replay_equals_incremental_projection(data, players, seed):
    _, _, sim, states = play_random_game(data, players, seed)
    sim.assert_replay_equal()
    hypothesis.event(f"end: {(states[-1]['result'] or {}).get('reason', 'none')}")
    hypothesis.event(f"reveals: {states[-1]['reveals_done']}")
    health = [p["health"] for p in states[-1]["players"]]
    assert all(0 <= h <= 5 for h in health)
    total_drawn = sum(len(p["souls"]) for p in states[-1]["players"])
    assert (
        total_drawn
        + len(states[-1]["soul_deck"])
        + len((states[-1]["result"] or {}).get("bonus", []))
        == {3: 14, 4: 18, 5: 22, 6: 26}[players]
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_no_view_depends_on_another_seats_secrets(data, players, seed):
    """Non-interference: deal the other seats different factions and put other soul values
    where the observer does not draw, replay the same commands: while those seats are not
    revealed and the game goes on, the observer's view (log included) is the same."""
    prepared, script, sim, _ = play_random_game(data, players, seed)
    observer = data.draw(st.integers(0, players - 1))
    # deck positions the observer draws from
    position, mine = 0, set()
    for record in sim.records():
        if record.type == "espionage.soul.drawn":
            if record.data["seat"] == observer:
                mine.add(position)
            position += 1
    other = copy.deepcopy(prepared)
    others = [n for n in range(players) if n != observer]
    factions = data.draw(st.permutations([prepared["factions"][n] for n in others]))
    for n, faction in zip(others, factions, strict=True):
        other["factions"][n] = faction
    free = [i for i in range(len(prepared["soul_deck"])) if i not in mine]
    values = data.draw(st.permutations([prepared["soul_deck"][i] for i in free]))
    for i, value in zip(free, values, strict=True):
        other["soul_deck"][i] = value
    changed = [n for n in range(players) if other["factions"][n] != prepared["factions"][n]]

    def fold_script(opening):
        table = Sim(Dealt(opening), NAMES[:players])
        yield table.state
        for seat, command in script:
            if table.state["phase"] != "playing":
                return
            table.send(seat, command.type, command.data)
            yield table.state

    for real, fake in zip(fold_script(prepared), fold_script(other), strict=False):
        if "playing" not in (real["phase"], fake["phase"]) or real["phase"] != fake["phase"]:
            break
        if any(s["players"][n]["revealed"] for s in (real, fake) for n in changed):
            break
        assert R.view(real, observer) == R.view(fake, observer)
        assert R.view(real, None) == R.view(fake, None)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_face_down_duel_cards_stay_with_their_owner(data, players, seed):
    """How to Play 3-4: combat and limited action cards are played face down; before the
    reveal only their owner sees them (the number of face-down cards is public)."""
    _, _, _, states = play_random_game(data, players, seed)
    for state in states:
        duel = state["duel"]
        if duel is None or duel["revealed"]:
            continue
        for side, owner in enumerate((duel["initiator"], duel["opponent"])):
            if duel["cards"][side] is None:
                continue
            swapped = copy.deepcopy(state)
            swapped["duel"]["cards"][side] = (
                {"kind": "troop", "damage": 4, "symbol": "paper"}
                if (duel["cards"][side].get("damage") != 4)
                else {"kind": "dummy", "damage": 0, "symbol": None, "name": None}
            )
            if duel["actions"][side] is not None:
                swapped["duel"]["actions"][side] = ["divert"] * len(duel["actions"][side])
            for seat in [None, *range(players)]:
                if seat == owner:
                    assert R.view(swapped, seat) != R.view(state, seat)
                else:
                    assert R.view(swapped, seat) == R.view(state, seat)

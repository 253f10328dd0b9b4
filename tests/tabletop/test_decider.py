"""The decider toolkit (tabletop/decider.py) and the pure step/driver (tabletop/log.py,
tabletop/testing.py): one dispatch, one data reader, one copy policy, narration from events.
No database."""

import json

import pytest

from tabletop.counter import CounterRuleset
from tabletop.decider import ANYONE, HOST, Data, DeciderRuleset, Topic, UnknownEvent, parse_int
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.rules import EventRecord, NewEvent
from tabletop.testing import Sim, playout


@pytest.mark.parametrize(
    "raw, expected",
    [(3, 3), ("3", 3), (" -12 ", -12), ("²", None), ("１", None), ("1.5", None), (2.5, None),
     (True, None), ("", None), (None, None), ("1e3", None), (10**30, None), ("9" * 30, None)],
)
def test_parse_int_takes_only_ascii_whole_numbers(raw, expected):
    assert parse_int(raw) == expected


def test_data_readers_raise_coded_violations():
    data = Data({"n": "7", "flag": "on", "pick": "b", "card": "s1-m7", "many": ["1", 2], "bad": "²"})
    assert data.int("n", lo=1, hi=10) == 7
    assert data.bool("flag") is True and data.bool("absent") is False
    assert data.choice("pick", ["a", "b"]) == "b"
    assert data.id("card") == "s1-m7"
    assert data.ints("many", lo=0) == [1, 2]
    assert data.int("absent", default=None) is None
    for call in (lambda: data.int("n", hi=5, code="too_big"), lambda: data.int("bad", code="too_big"),
                 lambda: data.int("absent", code="too_big")):
        with pytest.raises(RuleViolation) as exc:
            call()
        assert exc.value.code == "too_big"
    with pytest.raises(RuleViolation) as exc:
        data.id("pick", code="bad_card") if False else Data({"card": "<script>"}).id("card", code="bad_card")
    assert exc.value.code == "bad_card"
    with pytest.raises(RuleViolation):
        Data({"x": {"$": 1}}).bool("x")


def _game():
    topic = Topic("t")

    @topic.command("t.go")
    def go(d, data):
        d.emit("t.went", {"n": data.int("n", lo=1, hi=3)})
        d.require(d.state["n"] <= 5, "too_many", "Too many.")

    @topic.command("t.host", policy=HOST)
    def host(d, data):
        d.emit("t.went", {"n": 1})

    @topic.command("t.look", policy=ANYONE, reveals=True, after_end=True)
    def look(d, data):
        d.emit("t.looked", {}, final=True)

    @topic.evolver("t.went", label="went")
    def went(state, event):
        state["n"] += event.data["n"]

    @topic.evolver("t.looked", label="looked")
    def looked(state, event):
        state["looks"] += 1

    @topic.narrator("t.went")
    def say(event, state):
        return f"{state['names'][event.seat]} went {event.data['n']}."

    class Game(DeciderRuleset):
        name, title, min_seats, max_seats = "t", "T", 2, 3
        topics = (topic,)

        def initial_state(self):
            return {"n": 0, "looks": 0, "names": []}

        def setup(self, options, seats, rng):
            return [NewEvent("t.set", {"names": [s.name for s in seats]})]

        def is_finished(self, state):
            return state["n"] >= 4

        def view(self, state, seat):
            return {"n": state["n"]}

    setup = Topic("setup")

    @setup.evolver("t.set", label="sat down")
    def set_(state, event):
        state["names"] = list(event.data["names"])

    Game.topics = (topic, setup)
    Game.__init_subclass__()  # rebuild the registry with both topics
    return Game


def test_kit_refuses_spectators_unknown_commands_and_finished_games_with_one_code_each():
    Game = _game()
    game = Game()
    assert game.final_commands == frozenset({"t.look"})
    assert game.event_labels["t.went"] == "went"
    sim = Sim(game, 2)
    cases = [(None, "t.go", {"n": 1}, NotFound, "not_seated"),
             (5, "t.go", {"n": 1}, NotFound, "not_seated"),
             (1, "t.host", {}, NotAllowed, "host_only"),
             (0, "t.fly", {}, RuleViolation, "unknown_command"),
             (0, "t.go", {"n": "²"}, RuleViolation, "bad_data")]
    for seat, type_, data, cls, code in cases:
        with pytest.raises(cls) as exc:
            sim.send(seat, type_, data)
        assert exc.value.code == code
    sim.send(0, "t.go", {"n": 3})
    sim.send(1, "t.go", {"n": 2})
    assert sim.finished
    with pytest.raises(RuleViolation) as exc:
        sim.send(0, "t.go", {"n": 1})
    assert exc.value.code == "game_over"


def test_a_refused_command_leaves_the_state_untouched_even_after_partial_emits():
    game = _game()()
    state = {"n": 3, "looks": 0, "names": ["A", "B"]}
    before = json.dumps(state)
    from tabletop.dice import make_dice
    from tabletop.rules import Command

    with pytest.raises(RuleViolation) as exc:
        game.decide(state, Command("t.go", {"n": 3}), 0, make_dice(1))
    assert exc.value.code == "too_many" and json.dumps(state) == before


def test_unknown_events_are_a_loud_error():
    game = _game()()
    with pytest.raises(UnknownEvent):
        game.evolve(game.initial_state(), EventRecord("t.mystery", {}))


def test_registering_a_type_twice_fails_at_import_time():
    a, b = Topic("a"), Topic("b")
    a.evolver("x.e", label="e")(lambda s, e: None)
    b.evolver("x.e", label="e")(lambda s, e: None)
    with pytest.raises(ValueError):

        class Twice(DeciderRuleset):
            topics = (a, b)


def test_narration_is_computed_from_events_and_never_stored():
    game = _game()()
    sim = Sim(game, ["Ann", "Bob"])
    sim.send(0, "t.go", {"n": 1})
    assert "Ann went 1." in sim.lines()
    assert "went" not in json.dumps(sim.state)  # no prose in the projection


def test_undo_then_the_same_command_by_another_seat_reuses_the_roll():
    """docs/architecture.md: undo is never a re-roll, whoever sends the command again."""
    sim = Sim(CounterRuleset(), 3, seed=11)
    sim.send(0, "counter.roll")
    first = sim.state["total"]
    sim.undo(1)
    sim.send(2, "counter.roll")
    assert sim.state["total"] == first


@pytest.mark.parametrize("seats", [1, 2, 4, 8])
def test_counter_random_playouts(seats):
    def perturb(state, seat, rnd):
        for key in state["secrets"]:
            if key != str(seat):
                state["secrets"][key] = rnd.randint(1, 100)
        return state

    for seed in range(5):
        out = playout(CounterRuleset(), seats, seed, max_commands=150, perturb=perturb,
                      conserved=lambda s: sorted(s["names"]))
        assert out.commands > 0


def _counter_secrets_changed(state, seat, rnd):
    for key in state["secrets"]:
        if key != str(seat):
            state["secrets"][key] = state["secrets"][key] % 100 + 1
    return state


def test_a_playout_catches_a_view_that_shows_a_secret_to_the_watcher():
    """The watcher (seat None: a spectator, a public screen) holds no secret: a view that
    shows it one seat's secret number fails the playout's secrecy check."""

    class Leaky(CounterRuleset):
        def view(self, state, seat):
            out = super().view(state, seat)
            if seat is None:
                out["my_secret"] = state["secrets"].get("0")
            return out

    with pytest.raises(AssertionError, match="seat None sees another seat's secret"):
        playout(Leaky(), 2, 0, max_commands=5, perturb=_counter_secrets_changed)
    playout(CounterRuleset(), 2, 0, max_commands=5, perturb=_counter_secrets_changed)


def test_undo_reaches_back_a_bounded_number_of_commands_and_meta_stays_bounded():
    """The kit's undo bookkeeping does not grow with the game: undo reaches back
    UNDO_DEPTH commands."""
    from tabletop.log import UNDO_DEPTH

    sim = Sim(CounterRuleset(), 2, seed=3)
    for i in range(UNDO_DEPTH + 30):
        sim.send(i % 2, "counter.add", {"amount": 1 if i % 2 else -1})
    size = len(json.dumps(sim.meta.dump()))
    for _ in range(UNDO_DEPTH + 30):
        sim.send(0, "counter.add", {"amount": 1 if _ % 2 else -1})
    assert len(json.dumps(sim.meta.dump())) <= size * 1.1  # only the ids get longer
    undone = 0
    while sim.try_send(0, "table.undo") is None:
        undone += 1
    assert undone == UNDO_DEPTH
    sim.assert_replay_equal()


def test_a_command_marked_rebase_is_rebase_ok_and_others_are_not():
    """``rebase=True`` on a command is the game's word that a stale ``expected_version`` may
    be decided on the newer state (tabletop.decider, "Rebase"); unmarked commands, kit
    commands and unknown types never are."""
    notes = Topic("notes")

    @notes.command("notes.mine", rebase=True)
    def mine(d, data):
        d.emit("notes.noted", {})

    @notes.command("notes.shared")
    def shared(d, data):
        d.emit("notes.noted", {})

    notes.evolver("notes.noted", label="noted")(lambda state, event: None)

    class Notes(DeciderRuleset):
        name = "notes"
        topics = (notes,)

    game = Notes()
    assert game.rebase_ok("notes.mine") is True
    assert game.rebase_ok("notes.shared") is False
    assert not any(game.rebase_ok(t) for t in ("table.undo", "table.redo", "table.start", "x"))
    assert not any(CounterRuleset().rebase_ok(t) for t in CounterRuleset.registry.commands)
    with pytest.raises(ValueError):
        Topic("kit").command("table.undo", rebase=True)


def _telling_game():
    """A game whose folds say the log's lines (``folds_narrate``) and whose one consequence
    (``after_fold``) is said too: a pile of 3 or more topples."""
    from tabletop.decider import say

    topic = Topic("pile")

    @topic.command("pile.stone.add")
    def add(d, data):
        d.emit("pile.stone.added", {"n": data.int("n", lo=1, hi=3)})

    @topic.evolver("pile.stone.added", label="added stones")
    def added(state, event):
        state["pile"] += event.data["n"]
        say(f"{event.data['n']} stones: the pile is {state['pile']} high.")

    @topic.narrator("pile.stone.added")
    def said(event, state):
        return f"{event.data['n']} stones."

    class Pile(DeciderRuleset):
        name, title, min_seats, max_seats = "pile", "Pile", 2, 2
        topics = (topic,)
        folds_narrate = True

        def initial_state(self):
            return {"pile": 0, "toppled": 0, "version": 0}

        def setup(self, options, seats, rng):
            return []

        def view(self, state, seat):
            return dict(state)

        def after_fold(self, state, event):
            if state["pile"] >= 3:
                state["toppled"] += 1
                state["pile"] = 0
                say("The pile topples.")
            state["version"] = event.version

        def holds(self, state, event):
            return state["version"] >= event.version

    return Pile()


def test_after_fold_runs_on_every_fold_and_what_folds_say_is_the_replayed_log():
    from tabletop.log import recent_lines

    game = _telling_game()
    sim = Sim(game, 2)
    sim.send(0, "pile.stone.add", {"n": 2})
    sim.send(1, "pile.stone.add", {"n": 2})  # the consequence runs while deciding too
    assert sim.state["toppled"] == 1 and sim.state["pile"] == 0
    assert sim.lines()[-2:] == [
        "2 stones: the pile is 2 high.",
        "2 stones: the pile is 4 high. The pile topples.",
    ]
    # The live view's latest lines: the state holds the events, so the narrators speak.
    latest = recent_lines(game, sim.state, sim.log[-2:], set())
    assert [line.text for line in latest] == ["2 stones.", "2 stones."]
    sim.assert_replay_equal()


def test_an_undone_event_is_told_by_folding_a_copy_or_by_its_narrator_when_it_does_not_fit():
    game = _telling_game()
    sim = Sim(game, 2)
    sim.send(0, "pile.stone.add", {"n": 1})
    sim.undo(0)
    assert sim.state["pile"] == 0
    assert sim.lines()[-2] == "1 stones: the pile is 1 high."  # undone, told all the same
    broken = {"toppled": 0, "version": 0}  # no pile: the fold raises KeyError
    event = sim.log[-2].record()
    assert game.narrate(event, broken) == "1 stones."


def test_say_outside_the_kit_listening_does_nothing_and_nested_listeners_hear_their_own():
    from tabletop.decider import listening, say

    say("nobody hears this")
    with listening() as outer:
        say("one")
        with listening() as inner:
            say("two", "three")
        say("four")
    assert outer == ["one", "four"] and inner == ["two", "three"]

"""Demon Espionage rules, pure (no database), played through the kit's one pure driver
``tabletop.testing.Sim``. Sections cite demon-espionage-rulebook.txt."""

import copy
from collections import Counter

import pytest

from tabletop.dice import make_dice
from tabletop.errors import RuleViolation
from tabletop.espionage.rules import (
    INITIATOR,
    OPPONENT,
    REBEL,
    SHADOW,
    TIE,
    EspionageRuleset,
    check_copies,
    duel_outcome,
    minority_faction,
    parse_actions,
    parse_card,
    score,
)
from tabletop.rules import NewEvent, SeatInfo
from tabletop.testing import Sim
from tests.kit import refused_unchanged

R = EspionageRuleset()
R_, S_ = REBEL, SHADOW
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


class Stacked(EspionageRuleset):
    """The real rules with a stacked deal: ``prepared`` replaces fields of the shuffled
    ``espionage.game.prepared`` (as if the players had shuffled the faction and soul cards into
    this order); options are still checked by the real setup."""

    def __init__(self, **prepared):
        self.prepared = prepared

    def setup(self, options, seats, rng):
        event = super().setup(options, seats, rng)[0]
        return [NewEvent(event.type, {**event.data, **self.prepared}, final=True)]


def game(factions, deck, first=0, **options):
    """A table of ``len(factions)`` players (Ann, Ben, ...) with a known deal and soul deck."""
    ruleset = Stacked(factions=list(factions), soul_deck=list(deck), first=first)
    return Sim(ruleset, NAMES[: len(factions)], options=options)


def act(sim, seat, type_, **data):
    """One command through the pure step; returns its events (``LoggedEvent``)."""
    return sim.send(seat, f"espionage.{type_}", data)


def troop(damage, symbol="rock"):
    return {"kind": "troop", "damage": damage, "symbol": symbol}


DUMMY = {"kind": "dummy"}


def duel(sim, initiator, opponent, card_i, card_o, actions_i=(), actions_o=()):
    """A whole duel: challenge, both cards, the opponent's then the initiator's actions.
    Returns the events of the last command."""
    act(sim, initiator, "duel.challenge", opponent=opponent)
    act(sim, initiator, "duel.card", **card_i)
    act(sim, opponent, "duel.card", **card_o)
    act(sim, opponent, "duel.actions", cards=list(actions_o))
    return act(sim, initiator, "duel.actions", cards=list(actions_i))


def types(events):
    return [event.type for event in events]


def refused(sim, seat, type_, **data):
    """The code of a refused command, checking that it changed nothing."""
    return refused_unchanged(sim, seat, f"espionage.{type_}", data).code


def setup_state(players, seed=1, **options):
    sim = Sim(R, players, options=options, seed=seed)
    return sim.state, [e for e in sim.log if e.type != "table.started"]


# ---- Preparation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "ones", "twos", "threes", "total", "reveal_cards", "reveals", "per_faction"),
    [
        (3, 8, 5, 1, 14, 1, 1, 2),
        (4, 10, 6, 2, 18, 1, 1, 2),
        (5, 13, 7, 2, 22, 1, 2, 3),
        (6, 15, 8, 3, 26, 2, 2, 3),
    ],
)
def test_setup_by_player_count(
    players, ones, twos, threes, total, reveal_cards, reveals, per_faction
):
    """Preparation: faction, combat (Reveal) and soul card tables; 5 health each."""
    for seed in range(8):
        state, events = setup_state(players, seed)
        assert len(events) == 1 and events[0].final
        assert Counter(state["soul_deck"]) == {1: ones, 2: twos, 3: threes}
        assert len(state["soul_deck"]) == total
        assert state["reveal_cards"] == reveal_cards
        assert state["reveals_required"] == reveals
        factions = Counter(p["faction"] for p in state["players"])
        assert sum(factions.values()) == players
        assert max(factions.values()) <= per_faction  # dealt from per_faction of each
        assert all(p["health"] == 5 and p["souls"] == [] for p in state["players"])
        assert 0 <= state["active"] < players


def test_setup_shuffles_factions_souls_and_first_player():
    """Preparation: cards are shuffled; the first player is random."""
    states = [setup_state(4, seed)[0] for seed in range(30)]
    assert len({tuple(s["soul_deck"]) for s in states}) > 20
    assert len({tuple(p["faction"] for p in s["players"]) for s in states}) > 3
    assert {s["active"] for s in states} == {0, 1, 2, 3}
    # 4 players: 2 Shadow and 2 Rebel, every card dealt.
    assert all(Counter(p["faction"] for p in s["players"]) == {R_: 2, S_: 2} for s in states)
    # 3 players: 2+2 shuffled, one left over, so always 2 against 1.
    threes = [setup_state(3, seed)[0] for seed in range(20)]
    assert all(
        sorted(Counter(p["faction"] for p in s["players"]).values()) == [1, 2] for s in threes
    )


@pytest.mark.parametrize("players", [2, 7])
def test_setup_refuses_other_player_counts(players):
    """Preparation: the tables cover 3 to 6 players."""
    with pytest.raises(RuleViolation) as excinfo:
        R.setup({}, tuple(SeatInfo(n, f"P{n}") for n in range(players)), make_dice(1))
    assert excinfo.value.code == "bad_player_count"
    sim = Sim(R, players, start=False)
    assert sim.try_send(0, "table.start") == (
        "not_enough_players" if players < 3 else "bad_player_count"
    )


def test_setup_refuses_unknown_option():
    with pytest.raises(RuleViolation) as excinfo:
        setup_state(4, tie_break="coin")
    assert excinfo.value.code == "bad_option"


# ---- Referee ------------------------------------------------------------------------------------


def test_higher_damage_wins_by_default():
    """How to Play 5 / Troop Cards: by default the highest damage points win."""
    assert duel_outcome(troop(7), troop(4), rps=False) == INITIATOR
    assert duel_outcome(troop(2), troop(9), rps=False) == OPPONENT
    assert duel_outcome(parse_card(DUMMY), troop(1), rps=False) == OPPONENT


def test_same_damage_is_a_tie():
    """Important notes: same damage point: nobody takes damage or draws a soul."""
    assert duel_outcome(troop(6, "rock"), troop(6, "paper"), rps=False) == TIE
    assert duel_outcome(parse_card(DUMMY), parse_card(DUMMY), rps=False) == TIE


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("rock", "scissors", INITIATOR),
        ("scissors", "paper", INITIATOR),
        ("paper", "rock", INITIATOR),
        ("scissors", "rock", OPPONENT),
        ("paper", "scissors", OPPONENT),
        ("rock", "paper", OPPONENT),
        ("rock", "rock", TIE),
    ],
)
def test_rps_symbols_decide_when_rps_is_played(mine, theirs, expected):
    """Troop Cards: the R.P.S symbol is only activated when the R.P.S card is played; the
    damage points then do not matter (1 beats 9). Same icon: a tie."""
    assert duel_outcome(troop(1, mine), troop(9, theirs), rps=True) == expected


def test_rps_symbol_beats_dummy_corpse():
    """Rulebook silent: the Dummy Corpse has no symbol, any symbol beats it."""
    assert duel_outcome(parse_card(DUMMY), troop(1, "paper"), rps=True) == OPPONENT
    assert duel_outcome(parse_card(DUMMY), parse_card(DUMMY), rps=True) == TIE


def test_parse_card_shapes_and_errors():
    assert parse_card({"kind": "troop", "damage": "7", "symbol": "paper"})["damage"] == 7
    assert parse_card({"kind": "action", "name": "damage_plus_3"})["damage"] == 3
    assert parse_card({"kind": "action", "name": "divert", "damage": 4})["damage"] == 4
    for bad in [
        {"kind": "troop", "damage": 10, "symbol": "rock"},
        {"kind": "troop", "damage": 0, "symbol": "rock"},
        {"kind": "troop", "damage": 5},
        {"kind": "troop", "damage": 5, "symbol": "lizard"},
        {"kind": "action", "name": "divert"},
        {"kind": "action", "name": "joker", "damage": 2},
        {"kind": "spell"},
        {},
    ]:
        with pytest.raises(RuleViolation) as excinfo:
            parse_card(bad)
        assert excinfo.value.code == "bad_card"


def test_parse_actions_accepts_lists_strings_and_counts():
    assert parse_actions({"cards": ["reverse", "rps"]}) == ["reverse", "rps"]
    assert parse_actions({"cards": "rps, negate"}) == ["negate", "rps"]
    assert parse_actions({"rps": 1, "damage_plus_2": "2", "negate": 0}) == [
        "damage_plus_2",
        "damage_plus_2",
        "rps",
    ]
    assert parse_actions({}) == []
    with pytest.raises(RuleViolation) as excinfo:
        parse_actions({"cards": ["ace"]})
    assert excinfo.value.code == "bad_action"


def test_copies_are_limited_by_the_box():
    """Card Pieces: 2 Negate; Preparation: 1 Reveal card kept with 3-5 players."""
    check_copies(None, ["negate", "negate"], reveal_cards=1)
    for card, actions, reveals in [
        (None, ["negate"] * 3, 1),
        (None, ["reveal", "reveal"], 1),
        (parse_card({"kind": "action", "name": "damage_plus_3"}), ["damage_plus_3"] * 4, 2),
    ]:
        with pytest.raises(RuleViolation) as excinfo:
            check_copies(card, actions, reveals)
        assert excinfo.value.code == "too_many_copies"
    check_copies(None, ["reveal", "reveal"], reveal_cards=2)


# ---- Turns and duels ----------------------------------------------------------------------------

DECK4 = [2, 1, 3, 1, 2, 1, 1, 2, 1, 3, 1, 2, 1, 1, 2, 1, 2, 1]  # 10 x 1, 6 x 2, 2 x 3


def four(first=0, **options):
    assert Counter(DECK4) == {1: 10, 2: 6, 3: 2}
    return game([R_, S_, R_, S_], DECK4, first=first, **options)


def test_duel_winner_draws_a_soul_and_loser_loses_one_health():
    """How to Play 3-8: Ann 7 beats Ben 4; Ann draws the top soul (2), Ben drops to 4 health,
    both draw back 1 combat card, and Ben plays next."""
    sim = four()
    events = duel(sim, 0, 1, troop(7), troop(4, "paper"))
    state = sim.state
    assert "espionage.duel.settled" in types(events)
    assert state["players"][0]["souls"] == [2]
    assert state["players"][1]["health"] == 4
    assert state["soul_deck"] == DECK4[1:]
    assert state["draw_back"] == [[0, 1], [1, 1]]
    assert state["active"] == 1 and state["duel"] is None and state["turn"] == 2
    soul = next(e for e in events if e.type == "espionage.soul.drawn")
    assert soul.final and soul.data == {"seat": 0, "value": 2, "reason": "duel"}
    sim.assert_replay_equal()


def test_tie_ends_duel_without_damage_or_soul():
    """Important notes: a tie ends the duel with nobody taking damage or drawing a soul."""
    sim = four()
    duel(sim, 0, 3, troop(6, "rock"), troop(6, "paper"))
    state = sim.state
    assert [p["health"] for p in state["players"]] == [5, 5, 5, 5]
    assert all(p["souls"] == [] for p in state["players"])
    assert len(state["soul_deck"]) == 18
    assert state["active"] == 1
    assert "tie" in sim.lines()[-3]


def test_rps_card_lets_the_lower_troop_win():
    """R.P.S played by the initiator: Ben's 3 Rock beats Cat's 9 Scissors. Ben used 2 cards."""
    sim = four(first=1)
    events = duel(sim, 1, 2, troop(3, "rock"), troop(9, "scissors"), actions_i=["rps"])
    revealed = next(e for e in events if e.type == "espionage.duel.revealed")
    assert revealed.final and revealed.data["rps"] and revealed.data["by_cards"] == INITIATOR
    assert sim.state["players"][1]["souls"] == [2] and sim.state["players"][2]["health"] == 4
    assert sim.state["draw_back"] == [[1, 2], [2, 1]]


def test_other_action_cards_wait_for_both_duellists_to_confirm():
    """Action effects are not printed: with Reverse played the players apply it and both
    confirm the outcome; the app settles only when they agree."""
    sim = four()
    events = duel(sim, 0, 3, troop(2), troop(8, "paper"), actions_o=["reverse"])
    assert "espionage.duel.settled" not in types(events)
    assert sim.state["duel"]["stage"] == "confirm" and sim.state["duel"]["by_cards"] == OPPONENT
    act(sim, 0, "duel.confirm", outcome=INITIATOR)
    events = act(sim, 3, "duel.confirm", outcome=OPPONENT)
    assert "espionage.duel.settled" not in types(events)
    view = sim.view(0)
    assert [side["claim"] for side in view["duel"]["sides"]] == [INITIATOR, OPPONENT]
    events = act(sim, 3, "duel.confirm", outcome=INITIATOR)
    assert "espionage.duel.settled" in types(events)
    assert sim.state["players"][0]["souls"] == [2] and sim.state["players"][3]["health"] == 4
    assert sim.state["draw_back"] == [[0, 1], [3, 2]]


def test_confirmed_tie_gives_nothing():
    """Important notes: a tie (here confirmed by both duellists) gives no damage, no soul."""
    sim = four()
    duel(sim, 0, 1, troop(5), troop(3), actions_i=["negate"])
    act(sim, 0, "duel.confirm", outcome=TIE)
    act(sim, 1, "duel.confirm", outcome=TIE)
    assert sim.state["players"][1]["health"] == 5 and sim.state["players"][0]["souls"] == []
    assert sim.state["active"] == 1


def test_change_hand_forfeits_the_turn():
    """How to Play 2: change all 5 cards at the cost of forfeiting this turn."""
    sim = four()
    events = act(sim, 0, "hand.change")
    assert types(events) == [
        "espionage.hand.changed",
        "espionage.turn.ended",
        "espionage.turn.started",
    ]
    assert sim.state["active"] == 1 and "new hand of 5" in sim.lines()[-2]


def test_duel_order_is_enforced():
    """How to Play 3-4: initiator's card, opponent's card, opponent's then initiator's
    limited action cards; nobody else plays."""
    sim = four()
    act(sim, 0, "duel.challenge", opponent=2)
    for seat, type_, data, code in [
        (2, "duel.card", troop(3), "not_your_turn"),
        (1, "duel.card", troop(3), "not_your_turn"),
        (0, "duel.actions", {"cards": []}, "wrong_stage"),
        (0, "duel.challenge", {"opponent": 1}, "duel_in_progress"),
        (0, "hand.change", {}, "duel_in_progress"),
        (0, "duel.confirm", {"outcome": TIE}, "wrong_stage"),
    ]:
        assert refused(sim, seat, type_, **data) == code
    act(sim, 0, "duel.card", **troop(3))
    act(sim, 2, "duel.card", **troop(4))
    assert refused(sim, 0, "duel.actions", cards=[]) == "not_your_turn"


@pytest.mark.parametrize(
    ("seat", "type_", "data", "code"),
    [
        (1, "duel.challenge", {"opponent": 2}, "not_your_turn"),
        (0, "duel.challenge", {"opponent": 0}, "bad_opponent"),
        (0, "duel.challenge", {"opponent": 9}, "bad_opponent"),
        (0, "duel.challenge", {}, "bad_opponent"),
        (None, "duel.challenge", {"opponent": 1}, "not_seated"),
        (0, "duel.card", troop(3), "no_duel"),
        (0, "fly", {}, "unknown_command"),
        (0, "action.record", {"card": "heal", "target": 1, "health": 1}, "health_full"),
        (0, "action.record", {"card": "heal", "health": -1}, "bad_target"),
        (0, "action.record", {"card": "heal", "target": 1, "health": 2}, "bad_action"),
        (0, "action.record", {"card": "joker"}, "bad_action"),
    ],
)
def test_bad_commands_are_refused_with_a_code(seat, type_, data, code):
    """A refused command is a coded error and changes nothing (the kit refuses a spectator
    with ``not_seated`` and an unknown command with ``unknown_command``)."""
    assert refused(four(), seat, type_, **data) == code


def test_eliminated_player_cannot_be_challenged_and_is_skipped():
    """How to Play 9: Ann, the only Rebel, is eliminated: the game is over."""
    sim = game([R_, S_, S_], [1] * 8 + [2] * 5 + [3], first=1)
    ben_beats_ann(sim, times=5)
    assert sim.state["players"][0]["eliminated"]
    # the game ended (Rebel eliminated), so nothing more can be played
    assert refused(sim, 1, "duel.challenge", opponent=2) == "game_over"


# ---- Health, reveal rule, elimination ----------------------------------------------------------


def ben_beats_ann(sim, times):
    """Ben (seat 1) challenges and beats Ann (seat 0) ``times`` times; others change hands."""
    beats(sim, 1, 0, times)


def beats(sim, winner, loser, times):
    """``winner`` challenges and beats ``loser`` ``times`` times; others change hands."""
    for _ in range(times):
        while sim.state["phase"] == "playing" and sim.state["active"] != winner:
            act(sim, sim.state["active"], "hand.change")
        duel(sim, winner, loser, troop(9), troop(1))


def test_first_player_at_two_health_reveals_in_a_four_player_game():
    """Important notes: 3-4 players: the first player left with 2 health reveals to all."""
    sim = four(first=1)
    ben_beats_ann(sim, 3)
    assert sim.state["players"][0]["health"] == 2 and sim.state["players"][0]["revealed"]
    for seat in (1, 2, 3):
        assert sim.view(seat)["players"][0]["faction"] == R_
    # Cat falls to 2 later: no second reveal with 4 players.
    beats(sim, 3, 2, 3)
    assert sim.state["players"][2]["health"] == 2 and not sim.state["players"][2]["revealed"]
    assert sim.view(1)["players"][2]["faction"] is None


def test_first_two_players_at_two_health_reveal_in_a_six_player_game():
    """Important notes: 5-6 players: the first two players at 2 health reveal."""
    deck = [1] * 15 + [2] * 8 + [3] * 3
    sim = game([R_, S_, R_, S_, R_, S_], deck, first=1)
    for loser in (0, 2, 4):
        beats(sim, 1, loser, 3)
    state = sim.state
    assert [state["players"][s]["health"] for s in (0, 2, 4)] == [2, 2, 2]
    assert [state["players"][s]["revealed"] for s in (0, 2, 4)] == [True, True, False]
    assert state["reveals_done"] == 2


def test_elimination_gives_the_eliminator_an_extra_soul():
    """How to Play 6 and 8: at 0 health the player is out; the eliminator draws an extra soul."""
    deck = [1] * 13 + [2] * 7 + [3] * 2
    sim = game([R_, S_, R_, S_, S_], deck, first=1)
    ben_beats_ann(sim, 4)
    assert sim.state["players"][1]["souls"] == [1, 1, 1, 1]
    ben_beats_ann(sim, 1)
    assert sim.state["players"][0]["eliminated"] and sim.state["players"][0]["health"] == 0
    assert sim.state["players"][1]["souls"] == [1] * 6
    assert len(sim.state["soul_deck"]) == 22 - 6
    assert "eliminated by Ben" in " ".join(sim.lines())
    # Ann is skipped: after Ben comes Cat, Dan, Eve, then Ben again.
    order = []
    for _ in range(4):
        order.append(sim.state["active"])
        act(sim, sim.state["active"], "hand.change")
    assert order == [2, 3, 4, 1]


def test_eliminated_faction_can_be_shown_as_an_option():
    """Option ``reveal_on_elimination`` (the rulebook only requires the reveal at 2 health)."""
    deck = [1] * 13 + [2] * 7 + [3] * 2
    sim = game([R_, S_, R_, S_, S_], deck, first=1, reveal_on_elimination="yes")
    ben_beats_ann(sim, 5)
    assert sim.state["players"][0]["revealed"]  # at 2 health already (first of two)
    # Cat and Dan reach 2 health first (both reveals used), so Ann passes 2 unrevealed and is
    # revealed only when eliminated; that reveal does not count as a 2-health reveal.
    sim = game([R_, S_, R_, S_, S_], deck, first=1, reveal_on_elimination="yes")
    beats(sim, 1, 2, 3)
    beats(sim, 1, 3, 3)
    assert sim.state["reveals_done"] == 2
    ben_beats_ann(sim, 4)
    assert sim.state["players"][0]["health"] == 1 and not sim.state["players"][0]["revealed"]
    ben_beats_ann(sim, 1)
    assert sim.state["players"][0]["revealed"] and sim.state["reveals_done"] == 2


def test_recorded_heal_restores_health_up_to_five():
    """Combat Cards Explained: enhanced cards are played face up during one's turn; the app
    records the health change the table applied (Heal), never above 5."""
    sim = four(first=1)
    ben_beats_ann(sim, 1)
    while sim.state["active"] != 0:
        act(sim, sim.state["active"], "hand.change")
    act(sim, 0, "action.record", card="heal", target=0, health=1)
    assert sim.state["players"][0]["health"] == 5 and sim.state["used"][0] == 1
    act(sim, 0, "hand.change")
    assert [0, 1] in sim.state["draw_back"]


# ---- End of the game ----------------------------------------------------------------------------


def test_faction_eliminated_ends_game_and_minority_draws_two_more():
    """How to Play 9: 3 players, Ann alone is Rebel. Ben beats her 5 times: 5 souls plus the
    extra one (1,1,1,1,1,1); the game ends with the Rebel faction eliminated, and the faction
    with the least players (Rebel, 1 dealt) draws 2 more souls (2, 3). Shadow 6, Rebel 5."""
    deck = [1, 1, 1, 1, 1, 1, 2, 3, 1, 1, 2, 2, 2, 2]
    assert Counter(deck) == {1: 8, 2: 5, 3: 1}
    sim = game([R_, S_, S_], deck, first=1)
    ben_beats_ann(sim, 5)
    state = sim.state
    result = state["result"]
    assert state["phase"] == "ended" and result["reason"] == "faction_eliminated"
    assert result["bonus_faction"] == R_ and result["bonus"] == [2, 3]
    assert result["totals"] == {R_: 5, S_: 6} and result["winner"] == S_
    assert len(state["soul_deck"]) == 14 - 8
    view = sim.view(2)
    assert [p["faction"] for p in view["players"]] == [R_, S_, S_]
    assert view["players"][1]["souls"] == [1] * 6
    assert sim.finished


def test_soul_deck_exhausted_ends_game_without_bonus_when_none_left():
    """How to Play 9: the game ends when all soul cards have been drawn; the bonus draws only
    if any are left. 4 players, 18 souls; each duel the healthier duellist loses."""
    sim = four(minority="surviving")
    while sim.state["phase"] == "playing":
        state = sim.state
        me = state["active"]
        others = [n for n, p in enumerate(state["players"]) if n != me and not p["eliminated"]]
        foe = max(others, key=lambda n: state["players"][n]["health"])
        if state["players"][me]["health"] > state["players"][foe]["health"]:
            duel(sim, me, foe, troop(1), troop(9))
        else:
            duel(sim, me, foe, troop(9), troop(1))
    state = sim.state
    result = state["result"]
    assert result["reason"] == "souls_exhausted"
    assert state["soul_deck"] == [] and result["bonus"] == []
    assert sum(result["totals"].values()) == sum(DECK4) == 10 + 12 + 6
    assert sum(len(s) for s in result["souls"]) == 18


@pytest.mark.parametrize(
    ("tie_break", "winner", "settled_by"),
    [("shared", None, "shared"), ("survivors", S_, "survivors"), ("health", R_, "health")],
)
def test_tie_in_souls_is_settled_by_the_table_option(tie_break, winner, settled_by):
    """How to Win is silent on a tie: the host chooses (option ``tie_break``)."""
    state = copy.deepcopy(four(tie_break=tie_break).state)
    healths = [5, 1, 0, 1]
    for p, health in zip(state["players"], healths, strict=True):
        p["health"], p["eliminated"] = health, health == 0
    state["players"][0]["souls"] = [2, 1]
    state["players"][1]["souls"] = [3]
    assert score(state, None, []) == {
        "totals": {R_: 3, S_: 3},
        "winner": winner,
        "settled_by": settled_by,
    }


def test_minority_counts_dealt_or_surviving_players():
    """How to Play 9: the faction with the least players draws 2 more souls; which players
    count is the option ``minority``."""
    assert minority_faction(game([R_, S_, R_, S_, S_], [1] * 22).state) == R_
    state = copy.deepcopy(four().state)
    assert minority_faction(state) is None
    state["players"][1]["eliminated"] = True
    assert minority_faction(state) is None
    state["options"]["minority"] = "surviving"
    assert minority_faction(state) == S_


# ---- A full scripted 4-player game --------------------------------------------------------------


def scripted_four_player_game():
    """Ann, Cat Rebel; Ben, Dan Shadow; Ann first; soul deck DECK4. Yields the table."""
    sim = four()
    duel(sim, 0, 1, troop(7), troop(4, "paper"))  # T1 Ann beats Ben: +2
    duel(sim, 1, 2, troop(3, "rock"), troop(9, "scissors"), actions_i=["rps"])
    duel(sim, 2, 3, troop(6, "paper"), troop(6, "rock"))  # T3 tie
    act(sim, 3, "hand.change")  # T4
    duel(sim, 0, 3, troop(2), troop(8, "paper"), actions_o=["reverse"])  # T5
    act(sim, 0, "duel.confirm", outcome=INITIATOR)
    act(sim, 3, "duel.confirm", outcome=INITIATOR)  # Ann +3
    yield copy.deepcopy(sim.state)
    # T6..T13: the Rebels win every duel.
    for initiator, opponent, rebel_first in [
        (1, 0, False),
        (2, 3, True),
        (3, 2, False),
        (0, 1, True),
        (1, 0, False),
        (2, 3, True),
        (3, 2, False),
        (0, 1, True),
    ]:
        assert sim.state["active"] == initiator
        strong, weak = troop(8, "rock"), DUMMY
        cards = (strong, weak) if rebel_first else (weak, strong)
        duel(sim, initiator, opponent, *cards)
    yield sim


def test_full_scripted_four_player_game():
    """A whole game: default win, R.P.S, tie, change of hand, Reverse confirmed, the reveal
    at 2 health (Dan, first), two eliminations with extra souls, Shadow eliminated."""
    after_t5, sim = list(scripted_four_player_game())
    assert [p["health"] for p in after_t5["players"]] == [5, 4, 4, 4]
    assert [p["souls"] for p in after_t5["players"]] == [[2, 3], [1], [], []]
    end = sim.state
    players = end["players"]
    assert [p["health"] for p in players] == [5, 0, 4, 0]
    assert [p["revealed"] for p in players] == [False, False, False, True]  # Dan first at 2
    assert [p["souls"] for p in players] == [[2, 3, 1, 1, 2, 2, 1], [1], [2, 1, 1, 3, 1], []]
    assert end["result"]["reason"] == "faction_eliminated"
    assert end["result"]["totals"] == {R_: 20, S_: 1}
    assert end["result"]["winner"] == R_ and end["result"]["bonus"] == []
    assert len(end["soul_deck"]) == 5
    assert sim.lines()[-1].startswith("Game over: a faction has been eliminated. Rebel 20")
    sim.assert_replay_equal()


def test_narration_is_not_state():
    """Narration is not state: the projection holds no prose log; the log lines
    come from the events, and they never show a soul value or a face-down card."""
    after_t5, sim = list(scripted_four_player_game())
    assert "log" not in sim.state and "log" not in sim.view(0)
    lines = sim.lines()
    assert "Ann challenged Ben to a duel." in lines
    assert "Ann won the duel against Ben." in lines
    assert "Ann drew a soul card." in lines  # the value (2) stays on Ann's phone
    assert "Ann played a combat card face down." in lines
    assert "Dan reveals their faction: Shadow." in lines


def test_recorded_damage_can_eliminate_and_cancels_the_duel():
    """A face-up card the table resolved as 1 damage: at 0 health the target is out, the
    player who played it draws the extra soul (How to Play 6), and the duel with them is off.
    How to Play 7: "The end of the duel also signifies the end of turn for the player
    initiating the battle": Ben's turn ends with the called-off duel."""
    sim = four(first=1)
    ben_beats_ann(sim, 4)  # Ann at 1 health, Ben holds 4 souls
    while sim.state["active"] != 1:
        act(sim, sim.state["active"], "hand.change")
    act(sim, 1, "duel.challenge", opponent=0)
    act(sim, 1, "duel.card", **troop(5))
    events = act(sim, 1, "action.record", card="divert", target=0, health=-1)
    assert types(events) == [
        "espionage.action.recorded",
        "espionage.health.changed",
        "espionage.player.eliminated",
        "espionage.soul.drawn",
        "espionage.duel.cancelled",
        "espionage.turn.ended",
        "espionage.turn.started",
    ]
    assert len(sim.state["players"][1]["souls"]) == 5 and sim.state["duel"] is None
    # Ben used the combat card and the action card: he draws 2 back.
    assert sim.state["draw_back"] == [[1, 2]]
    assert sim.state["active"] == 2  # Cat's turn: Ann is out
    assert refused(sim, 1, "duel.challenge", opponent=2) == "not_your_turn"
    assert sim.view(1)["can"]["challenge"] == []
    sim.assert_replay_equal()


def test_recorded_card_outside_a_duel_does_not_end_the_turn():
    """Combat Cards Explained: enhanced cards can be used any time during one's turn; without
    a duel called off (nor the player eliminated) the turn goes on."""
    sim = four(first=1)
    act(sim, 1, "action.record", card="divert", target=1, health=-1)
    assert sim.state["players"][1]["health"] == 4 and sim.state["active"] == 1
    act(sim, 1, "duel.challenge", opponent=2)
    act(sim, 1, "action.record", card="divert", target=3, health=-1)  # not a duellist
    assert sim.state["duel"] is not None and sim.state["active"] == 1


def test_confirming_a_duel_names_its_winner_or_a_tie():
    """How to Play 5: after a reveal with action cards, each duellist confirms who won (or a
    tie); any other outcome is refused and nothing is claimed."""
    sim = four()
    duel(sim, 0, 3, troop(2), troop(8, "paper"), actions_o=["reverse"])
    assert sim.state["duel"]["stage"] == "confirm"
    before = sim.version
    assert refused(sim, 0, "duel.confirm", outcome="nobody") == "bad_outcome"
    assert sim.version == before and sim.state["duel"]["claims"] == [None, None]

"""The end of a mission, one way whatever ends it (DemLoc rulebook 6.4.2, 7, 7.3.2.3, 8.1-8.4):
the turn in progress is closed with its end-of-turn effects, once (8.1 bleeding, 8.2 poison,
8.4 FURY's broken heart, the control counter of 6.4.2), and a turn nobody plays never starts.
Then the control counter and a Guild that left (6.4.2), the pentacle's strikes (8.3), FURY paid
from fate (5.1.1, 6.4.2) and the first-player line after a Guild left (7). Pure: the kit's Sim,
no database."""

import copy

import pytest
from django.template import engines

from missions.demo import DEMO_MISSIONS
from missions.rules import resolution
from missions.rules.roster import DEMO_GUILDS

from .demloc_sim import finish_turn, new_sim, next_turn, piece, run
from .lifecycle_data import definition, guild_payload
from .test_demloc_mission_script import code, three
from .test_lifecycle_setup import play_through

ANN, BOB, CID = 0, 1, 2
BRAM, VESNA = "s1-bram", "s0-vesna"  # the quick game's demo pieces: Bram hit factor 5


def leave(t, seat):
    return t.send(None, "demloc.guild.leave", {"seat": seat})


def two(kind="objective", options=None, **over):
    """A 2-player lifecycle mission in play: Ann's Vesna (s0-m11, hit 4) against Bob's Maud
    (s1-m21, hit 4)."""
    t = new_sim(
        options={
            "mission": {"id": 42, "mode": "standard", "definition": definition(kind, **over)},
            **(options or {}),
        },
    )
    for p in (guild_payload(0, 1), guild_payload(1, 2)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, {0: ["m11"], 1: ["m21"]})
    return t


def types(t, since=0):
    return [e.type for e in t.log[since:]]


# ------------------------------------------------------------------ 1. the last turn's effects
def _poisoned_bram(options=None):
    """A quick game; Bram (hit factor 5) holds 5 poison tokens: 8.2 "At the end of each turn
    the poisoned character will automatically gain an additional one"; more poison tokens than
    the hit factor kills (6 > 5)."""
    t = new_sim(options={"turn_limit": "1", **(options or {})})
    run(t, BOB, "tokens.adjust", piece=BRAM, token="poison", delta=5)
    assert piece(t, BRAM)["poison"] == 5 and piece(t, BRAM)["status"] == "in_play"
    return t


def _end_by_turn_limit(t):
    finish_turn(t)
    run(t, ANN, "mission.end")


def _end_by_objective(t):
    finish_turn(t)
    run(t, ANN, "objective.achieve")
    run(t, BOB, "objective.answer", agree=True)


def _end_by_surrender(t):
    run(t, ANN, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=True)


def _end_by_elimination(t):
    for pid in ("s0-vesna", "s0-korr", "s0-watch"):
        run(t, ANN, "piece.escape", piece=pid)
    finish_turn(t)
    run(t, BOB, "mission.end")


def _end_by_leaving(t):
    leave(t, ANN)


@pytest.mark.parametrize(
    ("ending", "reason"),
    [
        (_end_by_turn_limit, "turn_limit"),
        (_end_by_objective, "objective"),
        (_end_by_surrender, "surrender"),
        (_end_by_elimination, "elimination"),
        (_end_by_leaving, "elimination"),
    ],
)
def test_the_last_turn_s_poison_kills_whatever_ends_the_mission_8_2(ending, reason):
    """8.2: 5 poison tokens + 1 at the end of turn 1 = 6 > hit factor 5: Bram dies in the last
    turn, once (6 tokens, not 7), and no turn 2 starts."""
    t = _poisoned_bram()
    ending(t)
    assert t.state["ended"]["reason"] == reason
    assert piece(t, BRAM)["poison"] == 6 and piece(t, BRAM)["status"] == "killed"
    assert t.state["turn"] == 1 and types(t).count("demloc.turn.started") == 1
    assert types(t).count("demloc.turn.ended") == 1
    assert any("End of turn 1." in x for x in t.lines())
    t.assert_replay_equal()


def test_the_last_turn_s_bleeding_and_fury_happen_at_the_end_8_1_8_4():
    """Option ``bleeding`` = ``end`` (6.4.2): 2 bleeding tokens give 2 hits at the end of the
    last turn; 8.4 FURY: "at the end of each turn ... a broken heart token". Turn limit 1."""
    t = new_sim(options={"turn_limit": "1", "bleeding": "end"})
    run(t, BOB, "tokens.adjust", piece=BRAM, token="bleeding", delta=2)
    run(t, ANN, "ability.use", piece=VESNA, ability=0)  # FURY, 1 fate point
    finish_turn(t)
    run(t, ANN, "mission.end")
    assert piece(t, BRAM)["hit_damage"] == 2
    assert piece(t, VESNA)["broken_hearts"] == 1 and piece(t, VESNA)["fury"] == 1
    r_lines = t.lines()
    assert any("FURY costs a broken heart" in x for x in r_lines)


def test_each_played_turn_is_closed_once_8_2():
    """Three turns, turn limit 3: poison grows by one at the end of each of the 3 turns
    (1 -> 4 tokens on Bram, hit factor 5: alive), never for a 4th turn."""
    t = new_sim(options={"turn_limit": "3"})
    run(t, BOB, "tokens.adjust", piece=BRAM, token="poison", delta=1)
    for _ in range(2):
        next_turn(t, ANN)
    finish_turn(t)
    run(t, ANN, "mission.end")
    assert piece(t, BRAM)["poison"] == 4 and piece(t, BRAM)["status"] == "in_play"
    assert [e.data["turn"] for e in t.log if e.type == "demloc.turn.ended"] == [1, 2, 3]
    t.undo(ANN)  # the ending and the last turn's closing go back together
    assert t.state["ended"] is None and piece(t, BRAM)["poison"] == 3
    t.assert_replay_equal()


# ------------------------------------------------------------------ 2. and 3. the control counter
def test_with_a_turn_limit_the_counter_counts_the_last_turn_6_4_2():
    """A control mission, hold 2 turns, turn limit 2: Ann starts counting in turn 1 and holds
    through turn 2: 2/2 at the end of turn 2, Ann wins by control (not a draw)."""
    t = two("control", turn_limit=2)
    assert t.state["turn_limit"] == 2 and t.state["objective"]["target"] == 2
    run(t, ANN, "objective.control", action="start")
    next_turn(t, ANN)
    assert t.state["objective"]["count"] == 1 and t.state["turn"] == 2
    finish_turn(t)
    # the log says the last turn is over and what follows (a new user read "all movement
    # tokens go back to active with Next turn" there, and the bar offered only End game)
    assert t.lines()[-1].endswith("Turn 2 is over: it was the last, end the game."), t.lines()[-1]
    assert not any("Turn 1 is over: it was the last" in line for line in t.lines())
    assert code(t, ANN, "turn.next") == "turn_limit"
    run(t, BOB, "mission.end")
    assert t.state["objective"]["count"] == 2
    assert t.state["ended"] == {"reason": "objective_control", "seat": ANN}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (ANN, "objective_control")


def test_control_counted_on_the_closing_of_the_last_turn_wins_by_control_6_4_2():
    """Whatever ends the mission closes its turn first, control counter included: a control
    mission, hold 1 turn; Ann starts counting in turn 1, Bob's Maud escapes (only Ann has
    characters in play: total elimination, 7.3.2.3) and Bob ends the game at the end of turn 1.
    Closing turn 1 counts it held (1/1), so the app stops the mission by control (6.4.2, "the
    app automatically stops the mission"): Ann wins the objective, not only the elimination."""
    t = two("control", control_turns=1)
    run(t, ANN, "objective.control", action="start")
    run(t, BOB, "piece.escape", piece="s1-m21")
    finish_turn(t)
    run(t, BOB, "mission.end")
    assert t.state["objective"]["count"] == 1
    assert t.state["ended"] == {"reason": "objective_control", "seat": ANN}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (ANN, "objective_control")
    t.assert_replay_equal()


def _salt_market():
    demo = next(m for m in DEMO_MISSIONS if m["name"] == "Hold the Salt Market")
    return two(
        "control",
        **{k: v for k, v in demo.items() if k in ("name", "objective", "control_turns")},
    )


def test_the_salt_market_ends_at_the_end_of_the_third_turn_held_6_4_2():
    """ "Hold the Salt Market" (the demo control mission, 3 turns to hold): Ann counts from
    turn 1; the Next turn that ends turn 3 ends the mission at 3/3 ("the app automatically
    stops the mission"): turn 4 never starts, so Maud's 3 bleeding tokens (8.1 BLOODING at the
    beginning of the turn, the default) never strike in it."""
    t = _salt_market()
    assert t.state["objective"]["target"] == 3
    run(t, ANN, "objective.control", action="start")
    for turn in (1, 2):
        next_turn(t, ANN)
        assert t.state["turn"] == turn + 1 and t.state["ended"] is None
    run(t, BOB, "tokens.adjust", piece="s1-m21", token="bleeding", delta=3)
    before = piece(t, "s1-m21")["hit_damage"]
    finish_turn(t)
    since = len(t.log)
    run(t, ANN, "turn.next")
    assert types(t, since) == ["demloc.turn.ended", "demloc.mission.ended"]
    assert t.state["turn"] == 3 and t.state["objective"]["count"] == 3
    assert t.state["ended"] == {"reason": "objective_control", "seat": ANN}
    assert piece(t, "s1-m21")["hit_damage"] == before  # no start-of-turn-4 bleeding
    assert not any("Turn 4" in x for x in t.lines())
    t.assert_replay_equal()


# ------------------------------------------------------------------ 6. a Guild that left
def test_a_guild_that_left_loses_its_control_counter_and_cannot_win_6_4_2():
    """3 players, hold 2: Ann starts counting, then her Guild leaves (every character escapes).
    Bob and Cid play two more turns: nobody holds the area for her, nothing counts, and the
    mission goes on until they end it; Ann never wins."""
    t = three("control")
    run(t, ANN, "objective.control", action="start")
    leave(t, ANN)
    assert t.state["ended"] is None
    assert t.state["objective"] == {**t.state["objective"], "counting": False, "count": 0}
    for _ in range(2):
        next_turn(t, BOB)
    assert t.state["ended"] is None and t.state["objective"]["count"] == 0
    run(t, BOB, "surrender.vote", agree=True)
    run(t, CID, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert r["winner"] != ANN
    ann = next(g for g in r["guilds"] if g["seat"] == ANN)
    assert ann["fame"] <= 0 and ann["feods"] <= 0


def test_a_guild_that_left_never_wins_on_kills_6_4_2():
    """Ann's Guild counted a mercenary kill (2 fame x level), then left; the others end the
    mission with no kills of their own and nobody in play: a draw, not Ann."""
    t = three("turns", turn_limit=1)
    run(t, ANN, "kill.count", kind="mercenary", level=1, delta=1)
    leave(t, ANN)
    for pid in [p for p, x in t.state["pieces"].items() if x["status"] == "in_play"]:
        run(t, t.state["pieces"][pid]["owner"], "piece.escape", piece=pid)
    assert t.state["ended"] is None or t.state["ended"]["reason"] == "elimination"
    if t.state["ended"] is None:
        finish_turn(t)
        run(t, BOB, "mission.end")
    assert resolution.winner_of(t.state)[0] != ANN


# ------------------------------------------------------------------ 7. the first-player line
def test_after_a_guild_left_the_draw_line_names_the_players_still_in_it_7():
    """7: the previous first player weighs 1, the others 2. Bob leaves in turn 1; the turn 2
    line names Ann and Cid with their own weights (1/3 and 2/3 or 2/3 and 1/3), never Bob."""
    t = three()
    leave(t, BOB)
    next_turn(t, ANN)
    started = t.log[-1]
    assert started.type == "demloc.turn.started" and started.data["seats"] == [ANN, CID]
    first = t.state["previous_first"]
    want = ", ".join(f"{n} {1 if s == first else 2}/3" for s, n in ((ANN, "Ann"), (CID, "Cid")))
    line = t.lines()[-1]
    assert f"(draw odds {want})" in line and "Bob" not in line


# ------------------------------------------------------------------ 4. pentacle strikes
def _summoned():
    """Vesna summons a daemon (7.2.3.2): her code's pentacle (made ARCANE HIT 1 here) is
    active."""
    guilds = copy.deepcopy(DEMO_GUILDS)
    vesna = next(c for c in guilds[0]["characters"] if c["name"] == "Vesna the Gray")
    vesna["code"]["pentacle"]["effects"] = ["ARCANE HIT 1"]
    t = new_sim(options={"guilds": guilds})
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, setup=True)
    run(t, ANN, "daemon.summon", piece=VESNA, level=1, hearts=1)
    assert piece(t, VESNA)["asset"] == "post_summoning"
    return t


def can_strike(t) -> bool:
    return next(p for p in t.view(ANN)["my_pieces"] if p["id"] == VESNA)["can_strike"]


def test_a_pentacle_strikes_only_in_the_hand_to_hand_sub_phase_and_once_8_3():
    """8.3 HIT x / ARCANE HIT x: "In this hand-to-hand attack sub-phase, x arcane damages are
    inflicted". In the strategic phase: ``wrong_phase``; in the brawl phase once, then
    ``already_struck``; again in the next turn's brawl phase."""
    t = _summoned()
    assert t.state["phase"] == "strategic" and not can_strike(t)
    before = (piece(t, BRAM)["armor_damage"], piece(t, BRAM)["hit_damage"])
    assert code(t, ANN, "pentacle.strike", piece=VESNA, targets=[BRAM]) == "wrong_phase"
    assert (piece(t, BRAM)["armor_damage"], piece(t, BRAM)["hit_damage"]) == before
    while t.state["phase"] == "strategic":
        run(t, t.state["play_order"][t.state["acting_index"]], "phase.next")
    assert can_strike(t)  # the page offers the strike now, and only now
    run(t, ANN, "pentacle.strike", piece=VESNA, targets=[BRAM])
    assert not can_strike(t)
    after = (piece(t, BRAM)["armor_damage"], piece(t, BRAM)["hit_damage"])
    assert after != before
    assert code(t, ANN, "pentacle.strike", piece=VESNA, targets=[BRAM]) == "already_struck"
    assert (piece(t, BRAM)["armor_damage"], piece(t, BRAM)["hit_damage"]) == after
    next_turn(t, ANN)
    while t.state["phase"] == "strategic":
        run(t, t.state["play_order"][t.state["acting_index"]], "phase.next")
    run(t, ANN, "pentacle.strike", piece=VESNA, targets=[BRAM])


# ------------------------------------------------------------------ 5. FURY paid from fate
def test_an_activated_fury_is_never_set_free_5_1_1_6_4_2():
    """Vesna's card lists FURY as an ability with activation (1 fate point; 3 fate points at
    the start). ``effect.set`` FURY on pays it as ``ability.use`` does (3 -> 2); with 0 fate
    points it is refused with ``not_enough_fate`` (as ``ability.use`` is) and changes
    nothing."""
    t = two()
    vesna = "s0-m11"
    assert piece(t, vesna)["abilities"][0]["activation"] == "activated"
    fury_on = {"piece": vesna, "effect": "fury", "on": True}
    run(t, ANN, "effect.set", **fury_on)
    assert t.state["players"][ANN]["fate"] == 2 and piece(t, vesna)["fury"] == 2
    run(t, ANN, "effect.set", piece=vesna, effect="fury", on=False)
    run(t, ANN, "fate.spend", amount=2)
    assert t.state["players"][ANN]["fate"] == 0
    assert code(t, ANN, "ability.use", piece=vesna, ability=0) == "not_enough_fate"
    assert code(t, ANN, "effect.set", **fury_on) == "not_enough_fate"
    assert piece(t, vesna)["fury"] == 0


def test_a_guild_with_no_character_on_the_board_counts_no_turn_6_4_2():
    """6.4.2 counts the turns the area is held by the player's characters: hold 2; Ann counts
    turn 1 (1/2), then all her characters escape in turn 2 (she stays in the mission): turn 2
    is not counted and the mission does not end by control: turn 3 starts."""
    t = two("control")
    run(t, ANN, "objective.control", action="start")
    next_turn(t, ANN)
    assert t.state["objective"]["count"] == 1
    run(t, ANN, "piece.escape", piece="s0-m11")
    next_turn(t, ANN)
    assert t.state["objective"]["count"] == 1
    assert t.state["ended"] is None and t.state["turn"] == 3
    assert any("has no character on the board: the turn is not counted" in x for x in t.lines())


def test_the_log_says_who_is_eliminated_and_who_has_an_active_character_again_7_3_2_3():
    """7.3.2.3: "when only one player has at least one active character": the log says when a
    player loses the last one (Vesna, Ann's only character, possessed by a card) and when one
    comes back (freed), in the whole story (the log page); the state is the same whether the log
    is narrated or not."""
    t = two("turns", turn_limit=3)
    run(t, BOB, "possession.assign", piece="s0-m11", source="Whisper of Ash")
    said = t.lines()[-1]
    assert "Ann is eliminated: no active character (7.3.2.3)." in said
    assert "Bob is eliminated" not in " ".join(t.lines())
    run(t, ANN, "possession.remove", piece="s0-m11", source="Holy water")
    assert "Ann has an active character again." in t.lines()[-1]
    assert "eliminated" not in t.lines()[-1]
    t.assert_replay_equal()


@pytest.mark.parametrize("reason, words", [
    ("objective_control", "the objective was held long enough · Ann"),
    ("elimination", "total elimination · Ann"),
    ("turn_limit", "the last turn is over · Ann"),
])
def test_the_mission_over_line_says_how_in_words_6_4_2(reason, words):
    """Found by a referee's check: a mission won on the control counter (6.4.2) was headed
    "Mission over: objectivecontrol", the ending's internal name; each ending is in words."""
    view = {"ended": {"reason": reason, "seat": 0}, "players": [{"seat": 0, "name": "Ann"}],
            "me": 0, "prompt": None}
    html = engines["jinja2"].env.get_template("missions/live/dl-turn.html").render(
        view=view, table={"code": "ABCDEF"})
    assert f"<strong>Mission over</strong>: {words}</p>" in html

"""The table options for what the DemLoc rulebook leaves open at the end of a mission and around
it, each setting doing what it says (docs/demloc-sections.md: the rules reference's readings):
who wins "on kills" (6.4.2 kill counter), whether "opponent surrender" is a loss (7.3.2.3), the
starting fate points (no rulebook number), a relic carried by a mercenary who is killed (7.2.1),
the equal shot on the last armor (7.2.2.4); and picking up an object ending the movement
(7.2.1). Pure: the kit's Sim, no database."""

import copy

import pytest

from missions.rules import OPTIONS_SCHEMA, resolution

from .demloc_sim import finish_turn, new_sim, piece, run
from .lifecycle_data import definition, guild_payload
from .test_lifecycle_setup import play_through

ANN, BOB, CID = 0, 1, 2


def mission(names=("Ann", "Bob"), kind="turns", options=None, picks=None, **over):
    """A lifecycle mission in play, one Guild per name (demo guilds 0 and 1 alternately)."""
    t = new_sim(
        names=names,
        options={
            "mission": {"id": 42, "mode": "standard", "definition": definition(kind, **over)},
            **(options or {}),
        },
    )
    for i in range(len(names)):
        t.send(None, "demloc.setup.guild_bind", guild_payload(i, i + 1, rename=i >= 2))
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, picks or {i: [f"m{i % 2 + 1 if i < 2 else 3}1"] for i in range(len(names))})
    return t


def feods_only_kills():
    """The kill rewards of a mission that pays kills in feods only (0 fame)."""
    rewards = copy.deepcopy(definition()["rewards"])
    rewards["kill"] = {k: {"fame": 0, "feods": 4} for k in ("mercenary", "follower", "daemon")}
    return rewards


# ------------------------------------------------------------------ kills_win (6.4.2)
@pytest.mark.parametrize(
    ("kills_win", "winner", "how"), [("count", ANN, "kills"), ("fame", None, "draw")]
)
def test_at_the_turn_limit_kills_are_counted_by_default_6_4_2(kills_win, winner, how):
    """A mission paying kills only in feods (4 feods, 0 fame); turn limit 1; Ann counted 2
    mercenary kills, Bob none. ``count`` (default): Ann wins 2 to 0; ``fame``: 0 fame to 0, a
    draw."""
    assert OPTIONS_SCHEMA["kills_win"]["default"] == "count"
    t = mission(options={"kills_win": kills_win}, turn_limit=1, rewards=feods_only_kills())
    for _ in range(2):
        run(t, ANN, "kill.count", kind="mercenary", level=1)
    finish_turn(t)
    run(t, ANN, "mission.end")
    assert t.state["ended"]["reason"] == "turn_limit"
    assert resolution.winner_of(t.state) == (winner, how)


def test_a_table_opened_before_the_kills_option_keeps_the_kill_fame_6_4_2():
    t = mission(turn_limit=1, rewards=feods_only_kills())
    del t.state["options"]["kills_win"]
    for _ in range(2):
        run(t, ANN, "kill.count", kind="mercenary", level=1)
    finish_turn(t)
    run(t, ANN, "mission.end")
    assert resolution.winner_of(t.state) == (None, "draw")


# ------------------------------------------------------------------ surrender (7.3.2.3)
def test_by_default_an_agreement_to_stop_is_won_on_kills_7_3_2_3():
    """``surrender`` = ``agreement`` (default): Ann asks first and has the kill: she wins."""
    assert OPTIONS_SCHEMA["surrender"]["default"] == "agreement"
    t = mission()
    run(t, ANN, "kill.count", kind="mercenary", level=1)
    run(t, ANN, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=True)
    assert t.state["ended"] == {"reason": "surrender", "seat": None, "by": ANN}
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (ANN, "kills")


def test_with_surrender_loses_the_player_who_asked_first_loses_7_3_2_3():
    """``surrender`` = ``loses``: Ann asks first (she has the kill), Bob agrees: Bob wins the
    mission (win reward 10 fame), Ann pays the defeat (2 fame) besides her kill (2 fame)."""
    t = mission(options={"surrender": "loses"})
    run(t, ANN, "kill.count", kind="mercenary", level=1)
    run(t, ANN, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=True)
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (BOB, "surrender")
    ann = next(g for g in r["guilds"] if g["seat"] == ANN)
    bob = next(g for g in r["guilds"] if g["seat"] == BOB)
    assert (ann["fame"], bob["fame"]) == (2 - 2, 10)
    assert any("Ann surrenders" in x for x in t.lines())


def test_with_surrender_loses_three_players_the_others_win_among_themselves_7_3_2_3():
    """3 players, ``loses``: Bob asks first, withdraws, asks again after Ann; Ann is then the
    first who asked. Nobody has a kill: Bob and Cid draw, Ann alone pays the defeat."""
    t = mission(names=("Ann", "Bob", "Cid"), options={"surrender": "loses"})
    run(t, BOB, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=False)
    run(t, ANN, "surrender.vote", agree=True)
    run(t, BOB, "surrender.vote", agree=True)
    run(t, CID, "surrender.vote", agree=True)
    assert t.state["ended"]["by"] == ANN
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (None, "draw")
    fame = {g["seat"]: g["fame"] for g in r["guilds"]}
    assert fame == {ANN: -2, BOB: 0, CID: 0}


# ------------------------------------------------------------------ fate_points (no rulebook number)
@pytest.mark.parametrize("fate", ["0", "3", "5"])
def test_the_starting_fate_points_are_a_table_option(fate):
    """The rulebook prices abilities in fate points (5.1.1, 6.4.2) but gives no starting
    number: the option sets it for a Guild mission and a quick game with the demo guilds."""
    assert OPTIONS_SCHEMA["fate_points"]["default"] == "3"
    t = mission(options={"fate_points": fate})
    assert [p["fate"] for p in t.state["players"]] == [int(fate)] * 2
    q = new_sim(options={"fate_points": fate})
    assert [p["fate"] for p in q.state["players"]] == [int(fate)] * 2


# ------------------------------------------------------------------ relic_death (7.2.1)
@pytest.mark.parametrize(("relic_death", "counted"), [("dropped", 0), ("kept", 1)])
def test_a_killed_mercenary_s_relic_falls_where_it_died_by_default_7_2_1(relic_death, counted):
    """A relic mission: Ann's Vesna (a mercenary) picks up a relic token, then gets 3 broken
    hearts (killed). ``dropped`` (default): Ann counts 0 relic tokens; ``kept``: 1."""
    assert OPTIONS_SCHEMA["relic_death"]["default"] == "dropped"
    t = mission(kind="relic", options={"relic_death": relic_death})
    run(t, ANN, "relic.take", piece="s0-m11")
    assert t.state["players"][ANN]["relics"] == 1
    run(t, ANN, "tokens.adjust", piece="s0-m11", token="broken_hearts", delta=3)
    assert piece(t, "s0-m11")["status"] == "killed"
    assert t.state["players"][ANN]["relics"] == counted
    t.assert_replay_equal()


def test_picking_up_an_object_ends_the_movement_7_2_1():
    """7.2.1 "he must immediately end his movement": the movement token is exhausted."""
    t = mission(kind="relic")
    assert piece(t, "s0-m11")["movement"] == "active"
    run(t, ANN, "relic.take", piece="s0-m11")
    assert piece(t, "s0-m11")["movement"] == "exhausted"


# ------------------------------------------------------------------ equal_shot (7.2.2.4)
@pytest.mark.parametrize(("equal_shot", "hit_damage"), [("armor", 0), ("carry", 3)])
def test_an_equal_shot_never_wounds_by_default_7_2_2_4(equal_shot, hit_damage):
    """Korr (ranged 3, crossbow 4, favourite bows +1) shoots Bram (armor 6): dice 2+2+1 + 1 = 6,
    equal: the weapon damage 4 goes to the armor. Bram has 2 broken armor tokens and 5 damage
    on the armor: 1 breaks the third token, 3 are left. ``armor`` (default): absorbed
    ("the character's armor absorbed the impact"); ``carry``: 3 on the hit factor."""
    assert OPTIONS_SCHEMA["equal_shot"]["default"] == "armor"
    t = new_sim(options={"equal_shot": equal_shot})
    run(t, BOB, "tokens.adjust", piece="s1-bram", token="broken_armor", delta=2)
    run(t, BOB, "damage.assign", piece="s1-bram", amount=5, mode="general")
    assert (piece(t, "s1-bram")["broken_armor"], piece(t, "s1-bram")["armor_damage"]) == (2, 5)
    run(t, ANN, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=3, dice=[2, 2, 1])
    assert t.state["pending"]["outcome"] == "armor" and t.state["pending"]["damage"] == 4
    run(t, ANN, "calc.apply")
    bram = piece(t, "s1-bram")
    assert (bram["broken_armor"], bram["hit_damage"]) == (3, hit_damage)


# ------------------------------------------------------------------ channelled dice (7.2.3)
def test_a_channelled_die_is_rolled_again_by_taking_its_cube_back_7_2_3():
    """7.2.3 "among those used for the character and among those currently channeled": Maud
    (arcane 3) holds 2 common and 1 dark: channelling is refused (no die without a cube);
    with the dark cube taken back, her channelling rolls that die again (1 common now)."""
    t = new_sim()
    run(t, BOB, "mana.channel", piece="s1-maud", common=2, dark=1, setup=True)
    assert t.try_send(BOB, "demloc.mana.channel", {"piece": "s1-maud", "dark": 1}) == (
        "too_many_dice"
    )
    run(t, BOB, "mana.adjust", piece="s1-maud", colour="dark", delta=-1)
    run(t, BOB, "mana.channel", piece="s1-maud", common=1)
    assert piece(t, "s1-maud")["mana"] == {"common": 3, "dark": 0}


# ------------------------------------------------------------------ bad values
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("kills_win", "most"),
        ("surrender", "yes"),
        ("fate_points", "7"),
        ("fate_points", "-1"),
        ("fate_points", 3),
        ("relic_death", "lost"),
        ("equal_shot", "wound"),
    ],
)
def test_a_value_outside_an_option_s_choices_is_refused_and_opens_nothing(
    make_guild, demo_missions, option, value
):
    """Each option added for the end of a mission takes only its listed choices: another
    value (fate points 0-6 as text) is ``bad_option`` at the lobby and no table opens."""
    from missions import services
    from missions.models import Mission
    from tabletop.errors import RuleViolation
    from tabletop.models import Table

    a = make_guild("House Ash", "red", ("Rook",))
    with pytest.raises(RuleViolation) as err:
        services.mission_open(
            host=a.master,
            definition_id=demo_missions["turns"].pk,
            mode="standard",
            options={option: value},
        )
    assert err.value.code == "bad_option"
    assert not Mission.objects.exists() and not Table.objects.exists()


@pytest.mark.parametrize("choice", ["close", "none"])
def test_agreeing_to_stop_mid_turn_says_what_it_does_to_the_turn_7_3_2_3(choice):
    """Found by a new user: both players agreed to stop in turn 3 and the agreement silently ran
    "End of turn 3" (poison grew to the hit factor). Option ``stop_turn_end``: ``close`` (the
    default: 7.3.2.3 ends a game once the turn is over) closes the turn with its effects;
    ``none`` stops where it is. Either way the last Agree to stop says it beforehand and the
    ending line says what happened."""
    from missions.rules.view import view

    options = {} if choice == "close" else {"stop_turn_end": "none"}
    t = mission(options=options)
    pid = next(p["id"] for p in t.state["pieces"].values() if p["owner"] == BOB)
    run(t, BOB, "tokens.adjust", piece=pid, token="poison", delta=1)
    turn = t.state["turn"]
    assert view(t.state, ANN)["stop_ends"] == ""  # Bob has not agreed: Ann's vote ends nothing
    run(t, ANN, "surrender.vote", agree=True)
    said = view(t.state, BOB)
    expected = (f"ends turn {turn}: poison grows" if choice == "close"
                else f"stops in turn {turn}: no end-of-turn effects")
    assert said["stop_ends"] == expected
    assert said["prompt"]["text"].endswith(f"Agree to stop, or play on. Agreeing {expected}.")
    run(t, BOB, "surrender.vote", agree=True)
    ended = [x for x in t.lines() if x.startswith("The mission ends")][-1]
    if choice == "close":
        assert piece(t, pid)["poison"] == 2  # the end of the turn: poison grows (8.2)
        assert ended.endswith(f"Turn {turn} ends first: poison grows (7.3.2.3)."), ended
    else:
        assert piece(t, pid)["poison"] == 1
        assert ended.endswith(f"Stopped in turn {turn}: no end-of-turn effects (table option)."), ended
    assert OPTIONS_SCHEMA["stop_turn_end"]["default"] == "close"

"""DemLoc rules error codes no other test provokes, each through the pure
step a table command takes (``tabletop.testing.Sim``); a refused command changes nothing."""


import pytest

from tests.kit import refused_unchanged

from .demloc_sim import P, acting, new_sim, pass_phase, run


def refused(t, who, type_, **data):
    """The code of a refused ``demloc.<type_>``, checking the table did not change."""
    return refused_unchanged(t, who, P + type_, data).code


@pytest.fixture
def t():
    return new_sim()


def test_7_2_7_3_only_the_acting_player_passes_and_next_turn_waits_for_both_phases(t):
    """7.2, 7.3: players act in turn; Next turn (7.3.2.3) only once both phases are passed."""
    a = acting(t)
    assert refused(t, 1 - a, "phase.next") == "not_your_phase"
    assert refused(t, a, "turn.next") == "turn_not_over"


def test_7_2_movement_tokens_are_active_or_exhausted_and_must_change(t):
    """7.2 "Activations": a token is active or exhausted; turning it to what it is is refused."""
    a = acting(t)
    me = f"s{a}-vesna"
    assert refused(t, a, "movement.set", piece=me, state="sideways") == "bad_input"
    assert refused(t, a, "movement.set", piece=me, state="active") == "no_change"
    assert (
        refused(t, a, "movement.set", piece="s9-nobody", state="exhausted") == "no_such_character"
    )


def test_6_4_2_objective_and_relic_commands_need_that_kind_of_mission(t):
    """6.4.2: the control counter and relic tokens exist only in missions that have them."""
    a = acting(t)
    assert refused(t, a, "objective.control", action="start") == "no_objective"
    assert refused(t, a, "relic.take", delta=1) == "no_relic"


def test_7_2_1_shooting_needs_a_ranged_weapon(t):
    """7.2.1 "Shooting": a character without a ranged weapon cannot shoot."""
    a = acting(t)
    code = refused(
        t, a, "shot.propose", shooter=f"s{a}-vesna", target=f"s{1 - a}-maud", test_roll=5, dice=[1]
    )
    assert code == "not_ranged"


def test_6_4_2_8_damage_tokens_and_effects_are_named_from_their_lists(t):
    """6.4.2 damage (general or hit; removed from armor or hit), tokens; 8.2/8.4 effects."""
    a = acting(t)
    me = f"s{a}-vesna"
    assert refused(t, a, "damage.assign", piece=me, mode="crushing") == "bad_mode"
    assert refused(t, a, "damage.remove", piece=me, step="soul") == "bad_step"
    assert refused(t, a, "tokens.adjust", piece=me, token="glitter", delta=1) == "bad_token"
    assert refused(t, a, "effect.set", piece=me, effect="haste") == "bad_effect"


def test_7_2_3_arcane_tests_and_summoning_need_the_ability(t):
    """7.2.3.5: no arcane test without an arcane ability; 7.2.3.2 / 5.1.2: only a mercenary
    with a summoning code summons."""
    a = acting(t)
    korr = f"s{a}-korr"
    assert t.state["pieces"][korr]["arcane"] == 0
    assert refused(t, a, "arcane.test", piece=korr, roll=3) == "no_arcane"
    assert refused(t, a, "daemon.summon", piece=korr, hearts=2) == "cannot_summon"


def test_calculations_apply_or_cancel_only_when_one_is_proposed(t):
    """7.2.1 / 7.3.2: the calculator's proposal is applied or dropped, if there is one."""
    a = acting(t)
    assert refused(t, a, "calc.apply") == "no_calc"
    assert refused(t, a, "calc.cancel") == "no_calc"


def test_7_2_a_character_out_of_play_takes_no_more_commands(t):
    """7.2: a character that escaped is no longer in play."""
    a = acting(t)
    me = f"s{a}-vesna"
    run(t, a, "piece.escape", piece=me)
    assert refused(t, a, "effect.set", piece=me, effect="vigor", value=1) == "not_in_play"


def test_closing_is_for_a_table_with_a_mission(t):
    """6.4.1 resolution: only a mission table is closed (by the server, seat None)."""
    assert refused(t, None, "mission.close", result={}) == "not_a_mission"


def test_6_4_2_at_most_three_broken_armor_tokens(t):
    """6.4.2: a character carries at most 3 broken armor tokens."""
    a = acting(t)
    me = f"s{a}-vesna"
    for _ in range(3):
        run(t, a, "tokens.adjust", piece=me, token="broken_armor", delta=1)
    assert (
        refused(t, a, "tokens.adjust", piece=me, token="broken_armor", delta=1) == "at_most_three"
    )


def test_7_2_3_5_freeing_needs_a_possessed_target(t):
    """7.2.3.5: the arcane test that frees a possessed character needs one."""
    a = acting(t)
    code = refused(
        t, a, "arcane.test", piece=f"s{a}-vesna", roll=3, purpose="free", target=f"s{a}-korr"
    )
    assert code == "not_possessed"


def test_7_2_1_one_calculation_at_a_time(t):
    """7.2.1: a shot's proposal is applied or cancelled before the next shot is proposed."""
    a = acting(t)
    run(
        t,
        a,
        "shot.propose",
        shooter=f"s{a}-korr",
        target=f"s{1 - a}-bram",
        test_roll=2,
        dice=[1, 1, 2],
    )
    assert t.state["pending"] is not None
    code = refused(
        t,
        a,
        "shot.propose",
        shooter=f"s{a}-korr",
        target=f"s{1 - a}-bram",
        test_roll=2,
        dice=[1, 1, 2],
    )
    assert code == "calc_pending"


def test_6_4_preparation_commands_only_while_a_mission_is_prepared(t):
    """6.4: the preparation phases belong to a mission being prepared."""
    assert refused(t, 0, "setup.pick", character="s0-vesna") == "wrong_phase"


def test_6_4_a_guild_is_brought_with_its_id():
    """6.4 "connect their profiles": the app brings a Guild by its id."""
    from .lifecycle_data import mission_option

    t = new_sim(options={"mission": mission_option("objective", "standard")})
    assert refused(t, None, "setup.guild_bind", seat=0, guild={"id": "seven"}) == "bad_guild"
    # a Guild with an id but no name was a KeyError in the narrator (found by the codes helper)
    assert refused(t, None, "setup.guild_bind", seat=0, guild={"id": 7}) == "bad_guild"


def test_6_4_1_5_1_choosing_characters_refuses_what_is_not_there():
    """6.4 (the control spot is drawn once), 6.4.1 / 5.1.1 characters choice (at least one; a
    contest only over a mercenary both chose), 5.1.2 followers of the mission's pool."""
    from .test_lifecycle_setup import new_table, stage, to_characters

    t = new_table()
    assert refused(t, None, "setup.raffle", candidates=[]) == "raffle_done"
    to_characters(t)
    assert stage(t) == "characters"
    assert refused(t, 0, "setup.unpick", character="nobody") == "not_chosen"
    assert refused(t, 0, "setup.hire", follower="nobody") == "no_such_follower"
    assert refused(t, 0, "setup.offer", name="Nobody", feods=1) == "no_contest"
    assert refused(t, 0, "setup.next") == "no_characters"


def test_6_4_the_control_spot_is_drawn_before_the_guilds_stage_ends():
    """6.4 standard mission: the control spot is drawn among the Guilds' points first."""
    from .lifecycle_data import guild_payload, mission_option

    t = new_sim(options={"mission": mission_option("objective", "standard")})
    for i in range(2):
        t.send(None, P + "setup.guild_bind", guild_payload(i, i + 1))
    run(t, 0, "setup.next")
    assert refused(t, 1, "setup.next") == "raffle_missing"


def test_6_4_a_mission_of_an_unknown_type_does_not_start():
    """6.4: a mission is one of the known types."""
    from tabletop.errors import RuleViolation

    from .lifecycle_data import mission_option

    option = mission_option("objective", "standard")
    option["definition"]["kind"] = "picnic"
    with pytest.raises(RuleViolation) as exc:
        new_sim(options={"mission": option})
    assert exc.value.code == "bad_mission"


def test_6_4_1_deployment_is_done_by_placing_not_by_next():
    """6.4.1 deployment: the miniatures are placed; Next does not skip it."""
    from .test_lifecycle_setup import all_next, new_table, stage, to_characters

    t = new_table()
    to_characters(t)
    for seat, cid in ((0, "m12"), (1, "m21")):
        run(t, seat, "setup.pick", character=cid)
    all_next(t)
    for seat in (0, 1):
        for pick in t.state["setup"]["picks"][str(seat)]:
            if pick["card"].get("arcane"):
                run(
                    t,
                    seat,
                    "setup.mana",
                    character=pick["id"],
                    common=pick["card"]["arcane"],
                    dark=0,
                    seals=0,
                )
    all_next(t)
    all_next(t)
    assert stage(t) == "deployment"
    assert refused(t, 0, "setup.next") == "deploying"


def test_7_2_3_1_a_character_without_an_arcane_code_has_no_power(t):
    """7.2.3.1: powers come from the character's arcane code."""
    a = acting(t)
    assert refused(t, a, "power.use", piece=f"s{a}-korr", power=0) == "no_power"


def test_7_2_3_2_summoning_names_the_codes_kabbalah_gives_1_to_3_hearts_one_daemon_at_a_time(t):
    """7.2.3.2: the code summons daemons of its kabbalah, the player gives 1 to 3 heart tokens,
    and a summoner has one daemon in play at a time."""
    a = acting(t)
    me = f"s{a}-vesna"
    run(t, a, "mana.channel", piece=me, common=1, dark=1, setup=True)
    assert refused(t, a, "daemon.summon", piece=me, hearts=2, kabbalah="bone") == "wrong_kabbalah"
    assert refused(t, a, "daemon.summon", piece=me, hearts=7) == "bad_hearts"
    run(t, a, "daemon.summon", piece=me, hearts=2)
    assert refused(t, a, "daemon.summon", piece=me, hearts=2) == "already_summoning"


def test_6_4_1_setup_channelling_only_before_the_first_turn_is_played(t):
    """6.4.1 / 7.2.3: the setup's arcane dice are channelled before turn 1 is played; in the
    brawl phase it is too late."""
    pass_phase(t)
    pass_phase(t)
    assert t.state["phase"] == "brawl"
    a = acting(t)
    assert (
        refused(t, a, "mana.channel", piece=f"s{a}-vesna", common=1, dark=1, setup=True)
        == "not_setup"
    )


def test_6_4_1_only_a_wave_mission_holds_characters_back():
    """6.4.1 deployment: "later" (held back for a wave) exists only in a wave mission."""
    from .test_lifecycle_setup import all_next, new_table, stage, to_characters

    t = new_table()
    to_characters(t)
    for seat, cid in ((0, "m12"), (1, "m21")):
        run(t, seat, "setup.pick", character=cid)
    all_next(t)
    for seat in (0, 1):
        for pick in t.state["setup"]["picks"][str(seat)]:
            if pick["card"].get("arcane"):
                run(
                    t,
                    seat,
                    "setup.mana",
                    character=pick["id"],
                    common=pick["card"]["arcane"],
                    dark=0,
                    seals=0,
                )
    all_next(t)
    all_next(t)
    assert stage(t) == "deployment"
    acting_seat = t.state["setup"]["deploy"]["acting"]
    cid = t.state["setup"]["picks"][str(acting_seat)][0]["id"]
    assert refused(t, acting_seat, "setup.deploy", character=cid, later=True) == "no_waves"


def test_7_2_1_only_the_players_in_the_fight_apply_its_calculation():
    """7.2.1: a shot's proposal is applied by the shooter's or the target's player; a third
    player at the table (own phones) cannot."""
    t = new_sim(names=("Ann", "Bob", "Cy"))
    assert acting(t) == 0
    run(t, 0, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=2, dice=[1, 1, 2])
    assert refused(t, 2, "calc.apply") == "not_your_fight"


def test_5_1_1_a_sealed_offer_is_made_once():
    """5.1.1 uniqueness: each Guild makes one sealed offer for a contested mercenary."""
    from .test_lifecycle_setup import _contest_table

    t = _contest_table()
    run(t, 0, "setup.offer", name="Vesna the Gray", feods=15)
    assert refused(t, 0, "setup.offer", name="Vesna the Gray", feods=20) == "already_offered"

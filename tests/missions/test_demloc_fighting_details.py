"""Fighting details, and the defaults that follow "the basic rule"
(DemLoc rulebook 7, 7.2, 7.2.1, 7.3, 7.3.1, 7.3.2, 7.3.2.2, 8.1, 8.2)."""

import pytest

from missions.rules import OPTIONS_SCHEMA
from missions.rules.brawl import ATTACK_EFFECTS, brawl_dice, resolve_brawl
from missions.rules.cards import card_from_data
from missions.rules.damage import new_piece
from missions.rules.roster import demo_guild
from missions.rules.shooting import resolve_shot
from tests.kit import refused

from .demloc_sim import finish_turn, new_sim, pass_phase, piece, run

ANN, BOB = 0, 1
VESNA, KORR, WATCH = "s0-vesna", "s0-korr", "s0-watch"
MAUD, BRAM, GUNNER = "s1-maud", "s1-bram", "s1-gunner"


def fighter(name="A", weapons=(), h2h=2, **extra):
    card = {"id": name.lower(), "name": name, "hit": 4, "armor": 4, "h2h": h2h,
            "weapons": list(weapons), **extra}
    return new_piece(card_from_data(card), 0)


def to_brawl(t):
    while t.state["phase"] == "strategic":
        pass_phase(t)


# ---------------------------------------------------------------- 7.3.1 first impact zone
def test_7_3_1_a_defender_in_the_first_impact_zone_deals_no_damage_even_if_it_wins():
    """7.3.1: "a character who is engaged in the area of first impact will not be able to attack
    but only defend himself (without however assigning damage even in case of victory)"."""
    a = fighter("Att", [{"name": "Pike", "type": "spears", "damage": 2}])
    d = fighter("Def", [{"name": "Sword", "type": "swords", "damage": 3}])
    normal = resolve_brawl(a, d, [1, 1], [6, 6])
    assert normal.winner == "defender" and normal.loser_damage == 5
    impact = resolve_brawl(a, d, [1, 1], [6, 6], first_impact=True)
    assert impact.winner == "defender" and impact.loser_damage == 0
    assert "first impact zone" in impact.lines[-1]
    # the attacker still hurts a defender in the first impact zone
    assert resolve_brawl(a, d, [6, 6], [1, 1], first_impact=True).loser_damage == 4


def test_7_3_1_first_impact_through_the_table():
    t = new_sim()
    to_brawl(t)
    run(t, ANN, "brawl.propose", attacker=KORR, defender=MAUD, attacker_dice="1 1",
        defender_dice="6 6", first_impact=True)
    run(t, ANN, "calc.apply")
    assert piece(t, KORR)["armor_damage"] == 0 and piece(t, KORR)["broken_armor"] == 0
    assert piece(t, KORR)["bleeding"] == 0  # no damage, so no BLOODING either


# ---------------------------------------------------------------- 8.1 BACKSTACK
def test_8_1_backstack_doubles_the_damage_when_the_target_cannot_step_back():
    """8.1 BACKSTACK: "If the character cannot come back he is appointed double damages'
    amount than that he should have received"."""
    a = fighter("Att", [{"name": "Ram", "type": "hammers", "damage": 2, "features": ["BACKSTACK"]}])
    d = fighter("Def")
    steps = resolve_brawl(a, d, [6, 6], [4, 4])  # wins by 4: primary x2 = 4
    assert steps.loser_damage == 4 and "steps back one square" in steps.lines[-1]
    blocked = resolve_brawl(a, d, [6, 6], [4, 4], no_step_back=True)
    assert blocked.loser_damage == 8 and "damage doubled" in blocked.lines[-1]
    # the defender's win is not the weapon's: no BACKSTACK
    assert resolve_brawl(a, d, [1, 1], [4, 4], no_step_back=True).loser_damage == 5


def test_8_1_backstack_on_a_shot():
    shooter = fighter("Sh", [{"name": "Harpoon", "type": "bows", "damage": 2, "range": 4,
                              "features": ["BACKSTACK"]}], ranged=2)
    target = fighter("T")
    plain = resolve_shot(shooter, target, shooter["weapons"][0], [3, 3])  # 6 vs 4: (2+2)-0
    blocked = resolve_shot(shooter, target, shooter["weapons"][0], [3, 3], no_step_back=True)
    assert (plain.damage, blocked.damage) == (4, 8)


# ---------------------------------------------------------------- 8.1 weapons of a winning defender
def test_8_1_a_winning_defender_deals_its_primary_weapons_blooding():
    """Our choice (option ``defender_weapon``, default ``primary``): 8.1 BLOODING x "Every time
    the player inflicts damages on a character with a weapon with this ability" and 7.3.2 "even
    if the defender wins the fight he has the possibility of injuring his opponent"."""
    for option, bleeding in (("primary", 1), ("none", 0)):
        t = new_sim(options={"defender_weapon": option})
        to_brawl(t)
        # Korr attacks Maud (Dagger, BLOODING 1) and loses by 2: 2 general damages.
        run(t, ANN, "brawl.propose", attacker=KORR, defender=MAUD, attacker_dice="2 2",
            defender_dice="3 3")
        run(t, ANN, "calc.apply")
        assert piece(t, KORR)["armor_damage"] == 2 and piece(t, KORR)["bleeding"] == bleeding


# ---------------------------------------------------------------- 7.2, 7.3 activations
def test_7_2_a_character_is_activated_once_per_phase():
    """7.2: "once a character has been activated it cannot be activated again until the next
    game phase"; 7.3 the same for the brawl phase (coded error ``already_activated``)."""
    t = new_sim()
    run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM, test_roll=1, dice="3 3 3")
    run(t, ANN, "calc.apply")
    refused("already_activated", lambda: run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM,
                               test_roll=1, dice="3 3 3"))
    view = next(p for p in t.view(ANN)["pieces"] if p["id"] == KORR)
    assert view["activated_now"]
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=0, seals=0)
    refused("already_activated", lambda: run(t, ANN, "power.use", piece=VESNA, power=0, target=BRAM))
    to_brawl(t)  # a new phase: Korr may attack
    run(t, ANN, "brawl.propose", attacker=KORR, defender=BRAM, attacker_dice="3 3",
        defender_dice="3 3")
    run(t, ANN, "calc.apply")
    refused("already_activated", lambda: run(t, ANN, "brawl.propose", attacker=KORR, defender=BRAM,
                               attacker_dice="3 3", defender_dice="3 3"))
    t.assert_replay_equal()


def test_7_2_a_cancelled_calculation_is_no_activation_and_a_stray_shot_goes_on():
    t = new_sim()
    run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM, test_roll=1, dice="3 3 3")
    run(t, ANN, "calc.cancel")
    run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM, test_roll=6, dice="3 3 3")
    assert t.state["notice"]["kind"] == "stray"  # the stray shot is this activation going on
    run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=MAUD, stray=True, dice="3 3 3")


def test_7_2_activations_not_tracked_with_the_free_option():
    """With ``activations=free`` a character shoots twice in one phase; with the default the
    second shot is refused ``already_activated`` (the test above)."""
    t = new_sim(options={"activations": "free"})
    for n in range(2):
        run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM, test_roll=1, dice="3 3 3")
        assert t.state["pending"], f"shot {n + 1} was not taken"
        run(t, ANN, "calc.apply")
        assert not t.state["pending"]
    t.assert_replay_equal()


# ---------------------------------------------------------------- 7.2.1 / 7.3.2 hand-to-hand tests
def test_7_2_1_evasive_movement_is_a_hand_to_hand_test_with_fate_points():
    """7.2.1 "Evasive movement": "has to test the hand-to-hand ability. If the test is passed,
    the player can spend the movement points"; fate points lower the roll (ability test)."""
    t = new_sim()
    fate = t.state["players"][0]["fate"]
    run(t, ANN, "hand.test", piece=KORR, purpose="evasive", roll=4, fate=2)  # 4-2=2 <= 2
    assert t.state["players"][0]["fate"] == fate - 2 and "slips away" in t.lines()[-1]
    refused("already_activated", lambda: run(t, ANN, "hand.test", piece=KORR, purpose="evasive", roll=1))
    run(t, ANN, "movement.set", piece=VESNA, state="exhausted")
    refused("not_active", lambda: run(t, ANN, "hand.test", piece=VESNA, purpose="evasive", roll=1))
    refused("wrong_phase", lambda: run(t, ANN, "hand.test", piece=WATCH, purpose="scenery", roll=1))
    # More than the player holds (1 left) says so first, before the cap of 6 on one test.
    refused("not_enough_fate", lambda: run(t, ANN, "hand.test", piece=WATCH, purpose="evasive", roll=1,
                               fate=9))
    refused("bad_input", lambda: run(t, ANN, "hand.test", piece=WATCH, purpose="evasive", roll=1,
                               fate="x"))
    t.assert_replay_equal()


@pytest.mark.parametrize(("option", "roll", "passed"), [("bonus", 4, True), ("bonus", 5, False),
                                                        ("penalty", 1, False)])
def test_7_3_2_destroying_scenery_adds_2(option, roll, passed):
    """7.3.2 "destroying scene elements": "test his character's hand-to-hand ability, adding +2
    to the result obtained by rolling the die" (option ``hand_test``, read like 7.2.3.5's +3)."""
    t = new_sim(options={"hand_test": option})
    to_brawl(t)
    refused("wrong_phase", lambda: run(t, ANN, "hand.test", piece=KORR, purpose="evasive", roll=1))
    korr = next(p for p in t.view(ANN)["pieces"] if p["id"] == KORR)
    assert korr["scenery_best_roll"] == (4 if option == "bonus" else 0)  # shown before the roll
    run(t, ANN, "hand.test", piece=KORR, purpose="scenery", roll=roll)  # Korr h2h 2
    assert t.log[-1].data["passed"] is passed
    assert ("destroys" in t.lines()[-1]) is passed


# ---------------------------------------------------------------- 7.2.1 escape, relics
def _with_dignitary():
    guild = demo_guild(0)
    guild["characters"].append({"id": "dig", "name": "Dignitary", "kind": "follower", "hit": 3,
                                "armor": 1})
    return {"guilds": [guild, demo_guild(1)]}


def test_7_2_1_a_dignitary_cannot_escape():
    """7.2.1 "All characters (dignitaries excluded) could escape from the game set"."""
    t = new_sim(options=_with_dignitary())
    refused("cannot_escape", lambda: run(t, ANN, "piece.escape", piece="s0-dig"))
    assert next(p for p in t.view(ANN)["pieces"] if p["id"] == "s0-dig")["dignitary"]
    run(t, ANN, "piece.escape", piece=KORR)
    assert piece(t, KORR)["status"] == "escaped"


def test_7_2_1_relics_count_only_on_mercenaries():
    """7.2.1 "the objects collected by the followers do not count for the achievement of the
    mission objective. Only objects owned by the mercenaries are considered"."""
    from .test_lifecycle_resolution import played

    t = played(kind="relic")
    merc, follower = "s0-m11", "s0-g13"
    assert piece(t, merc)["kind"] == "mercenary" and piece(t, follower)["kind"] != "mercenary"
    run(t, 0, "relic.take", piece=merc, delta=1)
    run(t, 0, "relic.take", piece=follower, delta=1)
    me = t.state["players"][0]
    assert me["relics"] == 1 and piece(t, follower)["relics"] == 1
    assert "do not count" in t.lines()[-1]
    run(t, 0, "relic.take", piece=merc, delta=-1)
    assert t.state["players"][0]["relics"] == 0
    refused("nothing_to_remove", lambda: run(t, 0, "relic.take", piece=merc, delta=-1))
    refused("bad_input", lambda: run(t, 0, "relic.take", delta=1))
    t.assert_replay_equal()


# ---------------------------------------------------------------- the basic rule
def test_7_basic_rule_bleeding_at_the_start_and_poison_at_the_end_by_default():
    """Ch. 7 "The basic rule": follow the Abilities and Weapons chapter: 8.1 BLOODING "At the
    beginning of the turn", 8.1 POISONOUS / 8.2 POISON "At the end of each turn"; 6.4.2's
    reading stays a table option."""
    assert OPTIONS_SCHEMA["bleeding"]["default"] == "start"
    assert OPTIONS_SCHEMA["poison"]["default"] == "end"
    t = new_sim()
    run(t, ANN, "tokens.adjust", piece=KORR, token="bleeding", delta=1)
    run(t, ANN, "tokens.adjust", piece=VESNA, token="poison", delta=1)
    finish_turn(t)
    run(t, ANN, "turn.next")
    text = " ".join(t.lines()[-2:])  # the end of turn 1, then turn 2
    assert text.index("is poisoned") < text.index("Turn 2:") < text.index("bleeds")


def test_7_3_2_2_the_difference_4_row_follows_the_table():
    """7.3.2.2: the bullet for 4 says "main weapon (doubled) plus the damages of his possible
    secondary weapon", the table "Primary weapon damage x2; secondary weapon damage x2": the
    table (documented in ``brawl.ATTACK_EFFECTS`` and the reference's ``brawl-effects``)."""
    assert ATTACK_EFFECTS[3] == (2, 1, 0) and ATTACK_EFFECTS[4] == (2, 2, 0)
    from missions.rules.reference import ENTRIES

    text = {e["key"]: e["text"] for e in ENTRIES}
    assert "The app follows the table (both doubled)" in text["reading-brawl-4"]
    assert "HEAVY 1 is one die" in text["weapon-heavy"]
    assert "favourite type" in text["reading-heavy"]


def test_8_1_heavy_x_removes_x_defence_dice():
    """8.1 HEAVY x ("roll one fighting die less"): x dice, the card's number (basic rule)."""
    heavy = fighter("H", [{"name": "Maul", "type": "hammers", "damage": 3,
                           "features": ["HEAVY 2"]}], h2h=4)
    assert brawl_dice(heavy, fighter("O"), attacking=False)[0] == 2
    assert brawl_dice(heavy, fighter("O"), attacking=True)[0] == 4


def test_7_3_2_a_proposed_fight_records_its_numbers_and_the_log_and_page_word_them():
    """A fight's event carries what it was worked out from (each side's dice and why it rolls
    that many, FURY, every bonus, the attacker's weapon damages: ``brawl_steps``), no English;
    the replayed log, the live view's narrator and the page's proposal word the same arithmetic
    ``resolve_brawl`` gave when it was proposed (7.3.2.1, 7.3.2.2)."""
    from tabletop.log import recent_lines

    t = new_sim()
    to_brawl(t)
    korr, bram = piece(t, KORR), piece(t, BRAM)
    worked = resolve_brawl(korr, bram, [3, 3], [3, 3, 3], from_behind=True)
    (event,) = run(t, ANN, "brawl.propose", attacker=KORR, defender=BRAM, attacker_dice="3 3",
                   defender_dice="3 3 3", from_behind=True)
    assert "lines" not in event.data
    steps = event.data["steps"]
    assert (steps["attacker"]["dice"], steps["attacker"]["behind"]) == ([3, 3], 2)
    assert steps["defender"]["count"]["dice"] == 3
    told = " ".join(["Fight: Korr Halfhand attacks Bram Oakjaw.", *worked.lines])
    assert t.lines()[-1] == told
    assert recent_lines(t.ruleset, t.state, t.log[-1:], set())[0].text == told
    assert t.ruleset.view(t.state, BOB)["pending"]["lines"] == list(worked.lines)

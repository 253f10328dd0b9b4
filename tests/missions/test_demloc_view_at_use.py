"""What the mission page is given for the player at the table: the prompt aimed at one
seat, the possessed character's orders for its turn (5.6, 7.2.3), mana costs at the point of use
(7.2.3.1, 7.2.3.2) and the fighting dice shown on the brawl form (7.3.2.1)."""

import pytest

from missions.rules.view import view
from tabletop.decider import copy_json
from tabletop.errors import RuleViolation

from .demloc_sim import acting, finish_turn, new_sim, piece, run
from .test_demloc_mission_script import three

ANN, BOB = 0, 1
VESNA, KORR, MAUD, BRAM = "s0-vesna", "s0-korr", "s1-maud", "s1-bram"


def mine(v, pid):
    return next(p for p in v["pieces"] if p["id"] == pid)


def test_the_prompt_is_aimed_at_one_seat():
    t = new_sim()
    first = acting(t)
    other = 1 - first
    assert view(t.state, first)["prompt"]["text"].startswith("Your move")
    assert view(t.state, other)["prompt"] is None
    assert view(t.state, None)["prompt"] is None  # watching: no prompt
    # Ann works out a shot on Bob's Bram: the prompt is Bob's (the target's player), not Ann's.
    run(t, ANN, "shot.propose", shooter=f"{KORR}:0", target=BRAM, test_roll=2, dice="3 3 3")
    assert view(t.state, BOB)["prompt"]["text"].startswith("A shot on your character waits")
    ann = view(t.state, ANN)["prompt"]
    assert ann is None or ann["text"].startswith("Your move")
    run(t, BOB, "calc.apply")
    # A vote to stop: the prompt of the one who has not agreed.
    run(t, BOB, "surrender.vote", agree=True)
    assert "Bob wants to stop the mission" in view(t.state, ANN)["prompt"]["text"]
    bob = view(t.state, BOB)["prompt"]
    assert bob is None or "stop" not in bob["text"]


def test_the_possessed_characters_orders_for_its_turn_5_6_7_2_3():
    t = new_sim()
    run(t, ANN, "tokens.adjust", piece=VESNA, token="seals", delta=3)
    (orders,) = view(t.state, ANN)["possessed"]
    assert orders["mine"] and orders["direction"] == ""  # no roll before the next turn
    finish_turn(t)
    run(t, ANN, "turn.next")
    (orders,) = view(t.state, ANN)["possessed"]
    roll = t.state["ooc"][VESNA]
    assert orders["move"] == 4  # all its movement points (7.2.3)
    assert orders["rolls"] == "/".join(map(str, roll["rolls"]))
    assert orders["direction"] == (roll["direction"] or "no move (5)")
    assert view(t.state, BOB)["possessed"][0]["mine"] is False


def test_mana_costs_at_the_point_of_use_7_2_3_1_7_2_3_2():
    t = new_sim()
    v = mine(view(t.state, ANN), VESNA)
    assert v["summon"]["blocked"].startswith("Not enough mana")
    assert [d["name"] for d in v["summon"]["pool"]] == ["Unclean daemon", "Ember imp"]
    cinder = v["power_refs"][0]
    assert (cinder["cost_common"], cinder["cost_dark"], cinder["affordable"]) == (1, 0, False)
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, seals=0, setup=True)
    v = mine(view(t.state, ANN), VESNA)
    assert v["summon"]["affordable"] and not v["summon"]["blocked"]
    assert (v["summon"]["after_common"], v["summon"]["after_dark"]) == (0, 0)
    run(t, ANN, "movement.set", piece=VESNA, state="exhausted")
    v = mine(view(t.state, ANN), VESNA)
    assert v["power_refs"][0]["extra_due"] == 2  # exhausted: one extra per level (7.2.3.1)
    assert v["power_refs"][0]["affordable"] is False  # 1 common + 2 extra > 2 held
    assert v["summon"]["blocked"].startswith("Summoning needs an active movement token")


def test_the_summon_flow_says_an_activated_character_waits_7_2():
    t = new_sim(options={"activations": "once"})
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=0, seals=0)  # an activation
    run(t, ANN, "mana.adjust", piece=VESNA, colour="dark", delta=1)
    v = mine(view(t.state, ANN), VESNA)
    assert v["summon"]["affordable"]
    assert v["summon"]["blocked"] == (  # the command's own refusal (summon_refusal)
        "Vesna the Gray was already activated this phase (7.2): it cannot summon a daemon "
        "until the next phase.")


def test_the_brawl_form_counts_broken_hearts_7_3_2_1():
    t = new_sim()
    assert mine(view(t.state, BOB), BRAM)["brawl_dice"] == 4
    run(t, BOB, "tokens.adjust", piece=BRAM, token="broken_hearts", delta=1)
    assert mine(view(t.state, BOB), BRAM)["brawl_dice"] == 3
    assert piece(t, BRAM)["h2h"] == 4


def test_the_brawl_form_names_both_counts_for_each_defender_7_3_2_1():
    """Found by a new user: "My dice: 3" whatever the defender, and the tap refused with "rolls
    2 fighting dice". A MONSTROUS defender takes a die from its attacker (8.4), a broken heart
    one from its bearer: each defender's line says both counts, the very counts the brawl's
    check asks for."""
    t = new_sim()
    t.state["pieces"][KORR]["features"] = ["MONSTROUS 1"]
    run(t, BOB, "tokens.adjust", piece=BRAM, token="broken_hearts", delta=1)
    bram = mine(view(t.state, BOB), BRAM)
    against = {x["id"]: (x["mine"], x["theirs"]) for x in bram["brawl_targets"]}
    korr, vesna = piece(t, KORR), piece(t, VESNA)
    assert against[KORR] == (4 - 1 - 1, korr["h2h"])  # a broken heart and MONSTROUS Korr
    assert against[VESNA] == (4 - 1, vesna["h2h"])
    assert set(against) == {x["id"] for x in view(t.state, BOB)["other_pieces"]
                            if x["status"] == "in_play"}
    assert "brawl_targets" not in mine(view(t.state, ANN), BRAM)  # not Ann's to attack with


def test_a_claim_of_the_objective_is_a_prompt_for_those_who_answer_7_3_2_3():
    t = three()
    finish_turn(t)
    run(t, 1, "objective.achieve")
    assert view(t.state, 0)["prompt"]["text"] == (
        "Bob claims the objective: Confirm or Dispute (7.3.2.3)."
    )
    assert view(t.state, 2)["prompt"]["text"].startswith("Bob claims the objective")
    mine = view(t.state, 1)["prompt"]
    assert mine is None or "claims" not in mine["text"]


def test_a_summoner_with_two_codes_gets_a_summon_flow_for_each_5_1_5_7_2_3_2():
    """5.1.5: every Arcane Code a character holds can be used; 7.2.3.2: the code it summons with
    is the one whose cost is paid and whose pentacle follows. The page offers one Summon form per
    code (the code in hand first), each sending its ``code`` index."""
    t = new_sim()
    v = mine(view(t.state, BOB), MAUD)
    flows = v["summons"]
    assert [f["code_name"] for f in flows] == ["Codex of Salted Ash", "Codex of Ash"]
    assert [f["code_index"] for f in flows] == [0, 1] and v["summon"] == flows[0]
    run(t, BOB, "mana.channel", piece=MAUD, common=1, dark=1, seals=0, setup=True)
    run(t, BOB, "daemon.summon", piece=MAUD, code=flows[1]["code_index"], level=1, hearts=1)
    assert piece(t, MAUD)["code"]["name"] == "Codex of Ash"  # the code it summoned with


def test_a_summon_costing_more_mana_than_the_summoner_holds_says_so_not_channel_5_1_1():
    """5.1.1 Arcane ability: "the number of maximum arcane dice available to that character".
    Found by a new user: a summon costing 1 common and 2 dark for a sorcerer who holds at most 2
    said "Not enough mana: channel first", which no channeling can ever fix."""
    t = new_sim()
    vesna = t.state["pieces"][VESNA]
    assert vesna["arcane"] == 2
    for code in [vesna.get("code"), *vesna.get("codes", [])]:
        if code and code.get("summon_cost"):
            code["summon_cost"] = {"common": 1, "dark": 2}
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, seals=0, setup=True)
    v = mine(view(t.state, ANN), VESNA)
    assert v["summon"]["beyond_cap"] and not v["summon"]["affordable"]
    assert v["summon"]["blocked"] == (
        "Needs 3 mana; Vesna the Gray holds at most 2 (arcane ability, 5.1.1): this cannot be paid."
    )
    assert "channel first" not in v["summon"]["blocked"]
    # A cost within the cap still says to channel.
    t = new_sim()
    vesna = t.state["pieces"][VESNA]
    for code in [vesna.get("code"), *vesna.get("codes", [])]:
        if code and code.get("summon_cost"):
            code["summon_cost"] = {"common": 0, "dark": 2}
    v = mine(view(t.state, ANN), VESNA)
    assert not v["summon"]["beyond_cap"] and v["summon"]["blocked"].startswith("Not enough mana")


def test_the_card_bars_and_circles_come_from_one_projection_5_1_1():
    # Ann's Korr (armor 4, hit 3) takes 6 damage and a broken heart: the card's bar is 6 of 12
    # with 1 of 3 broken armor tokens, never "0/4" beside filled circles.
    t = new_sim()
    run(t, ANN, "damage.assign", piece=KORR, amount=6)
    run(t, ANN, "tokens.adjust", piece=KORR, token="broken_hearts", delta=1)
    korr = mine(view(t.state, BOB), KORR)
    armor, hit = korr["tracks"]["armor"], korr["tracks"]["hit"]
    assert (armor["tokens"], armor["taken"], armor["capacity"]) == (1, 6, 12)
    assert (hit["tokens"], hit["taken"], hit["capacity"]) == (1, 3, 9)


def test_the_arcane_section_says_why_no_power_or_summon_is_offered_5_1_5():
    # Vesna (Arcane 2) holds the Codex of Ash and her Guild's pantheon has ash daemons: the
    # powers and the summon are offered, nothing to explain.
    t = new_sim()
    assert mine(view(t.state, ANN), VESNA)["arcane_missing"] is None
    # Without a code (the Guild assigned none in its Arcane Library): no power, no summon, why.
    state = copy_json(t.state)
    vesna = state["pieces"][VESNA]
    vesna["codes"], vesna["code"] = [], None
    v = mine(view(state, ANN), VESNA)
    assert (v["power_refs"], v["summons"]) == ([], [])
    assert v["arcane_missing"] == {
        "text": "No power or summon: Vesna the Gray holds no Arcane Code (5.1.5). A Guild "
        "assigns its codes to its mercenaries in its Arcane Library, before the mission.",
        "where": "library",
    }
    # A code, but no daemon of its kabbalah in the pantheon (7.2.3.2).
    state = copy_json(t.state)
    state["players"][ANN]["pantheon"] = []
    missing = mine(view(state, ANN), VESNA)["arcane_missing"]
    assert missing["where"] == "pantheon" and "has no ash daemon" in missing["text"]
    # No arcane ability (Korr, Arcane 0): no Arcane section, no line.
    assert mine(view(t.state, ANN), KORR)["arcane_missing"] is None


def test_the_arcane_test_is_disabled_with_the_commands_own_reason_7_2_3_5():
    # Vesna (Arcane 2) holds no mana at the start: the page's Test says why, and the command
    # refuses with the same words (one refusal, ``arcane_test_refusal``).
    t = new_sim()
    blocked = mine(view(t.state, ANN), VESNA)["test_blocked"]
    assert blocked == (
        "Vesna the Gray needs an arcane die in its mana pool for the test (7.2.3): channel first."
    )
    with pytest.raises(RuleViolation) as err:
        run(t, ANN, "arcane.test", piece=VESNA, roll=1)
    assert (err.value.code, err.value.message) == ("no_mana", blocked)
    # One common die in the pool: the test may be made, no reason; it spends the die.
    run(t, ANN, "mana.adjust", piece=VESNA, colour="common", delta=1)
    assert mine(view(t.state, ANN), VESNA)["test_blocked"] == ""
    run(t, ANN, "arcane.test", piece=VESNA, roll=1)
    assert mine(view(t.state, ANN), VESNA)["test_blocked"] == blocked


def test_a_fights_calculation_lists_the_weapon_tokens_apply_adds_8_1():
    """Found by a new user: a fight's calculation said only the damage, then Apply added a
    POISONOUS weapon's poison. Every token Apply adds is listed above Apply, in the words
    of the weapon (8.1), and Apply adds exactly that."""
    t = new_sim()
    # Korr (Crossbow, then Dagger BLOODING 1) wins by 2 or more: both weapons hit Bram.
    mine_count = mine(view(t.state, ANN), KORR)["brawl_dice"]
    run(t, ANN, "brawl.propose", attacker=KORR, defender=BRAM,
        attacker_dice=" ".join(["6"] * mine_count), defender_dice=" ".join(["1"] * 3))
    pending = view(t.state, ANN)["pending"]
    assert pending["winner"] == "attacker" and pending["difference"] >= 2, pending
    assert pending["lines"][-1] == "Dagger is BLOODING 1: +1 bleeding on Bram Oakjaw (8.1).", pending
    run(t, BOB, "calc.apply")
    assert piece(t, BRAM)["bleeding"] == 1
    # Already poisoned: POISONOUS gives no new token, and the calculation says so.
    state = copy_json(t.state)
    state["pieces"][BRAM]["poison"] = 1
    from missions.rules.damage import weapon_token_words

    claws = {"name": "Claws", "features": ["POISONOUS 1"]}
    assert weapon_token_words(state["pieces"][BRAM], [claws]) == [
        "Claws is POISONOUS 1: Bram Oakjaw is already poisoned, no new poison tokens (8.1)."
    ]
    state["pieces"][BRAM]["poison"] = 0
    assert weapon_token_words(state["pieces"][BRAM], [claws, claws])[0] == (
        "Claws is POISONOUS 1: +1 poison on Bram Oakjaw (8.1)."
    )


def test_a_summoner_whose_daemon_plays_only_defends_7_2_3_2():
    """Found by a new user: the Brawl form's Work it out was live for a character who had
    just summoned. 7.2.3.2: the summoner "can only apply the effects of the summoning
    pentacles and defend against any attacks in the brawl sub-phase": Work it out is
    disabled with the reason, and the command refuses with the same words."""
    t = new_sim()
    assert mine(view(t.state, ANN), VESNA)["attack_blocked"] == ""
    state = copy_json(t.state)
    state["pieces"][VESNA]["summoning"] = "d1"
    t.state = state
    blocked = mine(view(t.state, ANN), VESNA)["attack_blocked"]
    assert blocked == (
        "Vesna the Gray's daemon plays: Vesna the Gray only defends in a fight, it cannot "
        "attack (7.2.3.2)."
    )
    with pytest.raises(RuleViolation) as err:
        run(t, ANN, "brawl.propose", attacker=VESNA, defender=BRAM,
            attacker_dice="6 6 6", defender_dice="1 1 1")
    assert (err.value.code, err.value.message) == ("summoner_defends", blocked)

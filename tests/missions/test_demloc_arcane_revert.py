"""Arcane (DemLoc rulebook 7.2.3, 7.2.3.2, 7.2.3.5): a passed "defend" or
"cancel" arcane test really reverts the power's effect; the daemon level asked for is capped by
the summoner's level (option ``daemon_level``); possession assigned and removed by card effects
with the instructions the possessed character follows."""

import json

import pytest

from missions.rules.summoning import max_daemon_level
from tests.kit import refused

from .demloc_sim import finish_turn, new_sim, piece, run

ANN, BOB = 0, 1
VESNA, KORR = "s0-vesna", "s0-korr"
MAUD, BRAM = "s1-maud", "s1-bram"


def mana(t):
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, seals=0, setup=True)
    run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=1, seals=0, setup=True)


def test_7_2_3_5_a_passed_defend_test_reverts_the_power_damage_and_stun():
    """7.2.3.5 "Defend against arcane attacks: if the test is passed the arcane power the
    character was targeting has no effect": Black flame (ARCANE HIT 2, STUNNING) on Maud is
    undone in the state (hit damage 2 -> 0, token back to active) and narrated."""
    t = new_sim()
    mana(t)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    assert piece(t, MAUD)["hit_damage"] == 2 and piece(t, MAUD)["movement"] == "exhausted"
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=3)  # arcane 3: passed
    maud = piece(t, MAUD)
    assert maud["hit_damage"] == 0 and maud["movement"] == "active"
    assert maud["mana"] == {"common": 1, "dark": 1}  # the test used one die (7.2.3)
    assert "resists Black flame" in t.lines()[-1] and "hit damage 2 -> 0" in t.lines()[-1]
    # "not to solve the same situation": one defend test per power
    refused("nothing_to_defend", lambda: run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))
    t.assert_replay_equal()


def test_7_2_3_5_a_failed_defend_test_leaves_the_power_and_spends_the_die():
    t = new_sim()
    mana(t)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=4)  # 4 > 3: failed
    assert piece(t, MAUD)["hit_damage"] == 2 and "fails to resist" in t.lines()[-1]
    assert piece(t, MAUD)["mana"]["common"] == 1


def test_7_2_3_5_defend_answers_a_power_that_killed_the_target():
    """A character the power killed still makes its defend test: passed, it is back in play."""
    t = new_sim()
    mana(t)
    run(t, BOB, "damage.assign", piece=MAUD, amount=11, mode="hit")  # 2 hearts + 3/4
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)  # ARCANE HIT 2: killed
    assert piece(t, MAUD)["status"] == "killed"
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=2)
    maud = piece(t, MAUD)
    assert maud["status"] == "in_play" and maud["broken_hearts"] == 2 and maud["hit_damage"] == 3
    view = next(p for p in t.view(BOB)["pieces"] if p["id"] == MAUD)
    assert view["defend_power"] is None


def test_7_2_3_5_defend_only_for_the_target_of_a_power_this_phase():
    t = new_sim()
    mana(t)
    refused("nothing_to_defend", lambda: run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))
    run(t, ANN, "power.use", piece=VESNA, power=0, target=BRAM)  # the target is Bram, not Maud
    refused("nothing_to_defend", lambda: run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))
    t2 = new_sim()
    mana(t2)
    run(t2, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    while t2.state["phase"] == "strategic":  # the power belongs to the strategic phase
        run(t2, t2.state["play_order"][t2.state["acting_index"]], "phase.next")
    refused("nothing_to_defend", lambda: run(t2, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))


def test_7_2_3_5_a_passed_cancel_removes_one_arcane_effect_token():
    """7.2.3.5 "Cancel the effect of arcane powers: If the arcane test is passed, 1 arcane
    effect token can be removed": Drowned breath (POISON 1, WEAKNESS 1) on Vesna; Vesna cancels
    the WEAKNESS (the newest), then the poison stays until another test."""
    t = new_sim()
    run(t, ANN, "mana.channel", piece=VESNA, common=2, dark=0, seals=0, setup=True)
    run(t, BOB, "mana.channel", piece=MAUD, common=0, dark=1, seals=0, setup=True)
    run(t, BOB, "power.use", piece=MAUD, power=1, target=VESNA)
    vesna = piece(t, VESNA)
    assert vesna["poison"] == 1 and vesna["weakness"] == 1
    mine = next(p for p in t.view(ANN)["pieces"] if p["id"] == VESNA)
    assert [e["effect"] for e in mine["arcane_effects_live"]] == ["POISON 1", "WEAKNESS 1"]
    run(t, ANN, "arcane.test", piece=VESNA, purpose="cancel", target=VESNA, roll=2)
    assert piece(t, VESNA)["weakness"] == 0 and piece(t, VESNA)["poison"] == 1
    assert "WEAKNESS 1 (Drowned breath) is cancelled" in t.lines()[-1]
    run(t, ANN, "arcane.test", piece=VESNA, purpose="cancel", target=VESNA, effect=0, roll=6)
    assert piece(t, VESNA)["poison"] == 1 and "stays" in t.lines()[-1]  # 6 > 2: failed
    refused("no_arcane_effect", lambda: run(t, ANN, "arcane.test", piece=VESNA, purpose="cancel", target=KORR, roll=1))
    t.assert_replay_equal()


def test_7_2_3_5_vigor_and_weakness_tokens_expire_with_the_turn():
    """8.2 VIGOR/WEAKNESS last "for the duration of the turn": no token to cancel after it."""
    t = new_sim()
    run(t, BOB, "mana.channel", piece=MAUD, common=0, dark=1, seals=0, setup=True)
    run(t, BOB, "power.use", piece=MAUD, power=1, target=KORR)
    finish_turn(t)
    run(t, ANN, "turn.next")
    effects = next(p for p in t.view(ANN)["pieces"] if p["id"] == KORR)["arcane_effects_live"]
    assert [e["effect"] for e in effects] == ["POISON 1"]  # the poison lasts, the weakness not


@pytest.mark.parametrize(("level", "option", "cap"), [(2, "summoner", 2), (1, "summoner", 1),
                                                      (2, "any", 5)])
def test_7_2_3_2_the_daemon_level_asked_for_is_capped_by_the_summoner(level, option, cap):
    """7.2.3.2 "the app asks the player to indicate ... the power level of the daemon"; 5.1.3:
    mercenaries and daemons share the level indicator. Default: at most the summoner's level."""
    t = new_sim(options={"daemon_level": option})
    vesna = {**piece(t, VESNA), "level": level}
    assert max_daemon_level(t.state, vesna) == cap


def test_7_2_3_2_asking_above_the_summoners_level_is_refused():
    t = new_sim()  # Vesna is level 2; her pantheon: Unclean daemon (1), Ember imp (2)
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=1, seals=0, setup=True)
    refused("level_too_high", lambda: run(t, ANN, "daemon.summon", piece=VESNA, level=5, hearts=1))
    view = next(p for p in t.view(ANN)["pieces"] if p["id"] == VESNA)
    assert view["daemon_levels"] == [1, 2]
    run(t, ANN, "daemon.summon", piece=VESNA, level=2, hearts=1)
    assert piece(t, piece(t, VESNA)["summoning"])["name"] == "Ember imp"


def test_possession_by_a_card_effect_with_its_instructions_shown():
    """6.4.2 "give him the daemonic possessed effect" from a card (the basic rule, ch. 7): the
    possessed character shows the card's instructions on its card and on the turn bar; a card
    may also free it (as when freed by a test, 7.2.3.5, fatal broken hearts then kill)."""
    t = new_sim()
    run(t, BOB, "possession.assign", piece=KORR, source="Whisper of Ash",
        instructions="Attacks the nearest character.")
    korr = piece(t, KORR)
    assert korr["possessed"] and korr["possession"] == {
        "source": "Whisper of Ash", "instructions": "Attacks the nearest character."}
    assert "possessed by Whisper of Ash: Attacks the nearest character." in t.lines()[-1]
    refused("already_possessed", lambda: run(t, ANN, "possession.assign", piece=KORR))
    finish_turn(t)
    run(t, ANN, "turn.next")
    assert piece(t, KORR)["broken_hearts"] == 1  # 7.2.3: a broken heart each turn
    run(t, ANN, "possession.remove", piece=KORR, source="Holy water")
    assert not piece(t, KORR)["possessed"] and piece(t, KORR)["possession"] is None
    refused("not_possessed", lambda: run(t, ANN, "possession.remove", piece=KORR))
    t.assert_replay_equal()


def test_possession_by_an_arcane_card_effect_is_reverted_by_a_defend_test():
    """7.2.3.5: the possession came from an arcane power: a passed defend test undoes it (and
    gives back the mana the possession spent)."""
    t = new_sim()
    run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=1, seals=0, setup=True)
    run(t, ANN, "possession.assign", piece=MAUD, source="Drowning hex", arcane=True)
    assert piece(t, MAUD)["possessed"] and piece(t, MAUD)["mana"] == {"common": 0, "dark": 0}
    # the test answers the possession: judged as Maud was before it (not possessed, her mana)
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=3, die="dark")
    maud = piece(t, MAUD)
    assert not maud["possessed"] and maud["mana"] == {"common": 2, "dark": 0}
    assert "reverted: possessed True -> False" in t.lines()[-1]
    t.assert_replay_equal()


def test_a_possessed_character_cannot_defend_against_a_later_power():
    t = new_sim()
    run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=1, seals=0, setup=True)
    run(t, ANN, "possession.assign", piece=MAUD, source="Whisper")  # not arcane: no defend
    refused("nothing_to_defend", lambda: run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))


def test_7_2_3_5_a_summoners_kill_that_dismissed_its_daemon_cannot_be_defended_7_2_3_3():
    """7.2.3.3: a killed summoner's daemon leaves the game. A defend test that brought the
    summoner back would leave that daemon dismissed (or, for a killed daemon, its hearts on the
    summoner): the app refuses the test instead (``cannot_revert``) and changes nothing."""
    t = new_sim()
    mana(t)
    run(t, BOB, "daemon.summon", piece=MAUD, level=1, hearts=1)
    (daemon,) = [p for p in t.state["pieces"].values() if p["kind"] == "daemon"]
    run(t, BOB, "damage.assign", piece=MAUD, amount=11, mode="hit")
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)  # ARCANE HIT 2: killed
    assert piece(t, MAUD)["status"] == "killed"
    assert t.state["pieces"][daemon["id"]]["status"] == "dismissed"
    before = json.dumps(t.state, sort_keys=True)
    refused("cannot_revert", lambda: run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=1))
    assert json.dumps(t.state, sort_keys=True) == before


def test_7_2_3_5_an_arcane_test_records_its_die_and_the_log_words_it():
    """The arcane test's event carries its numbers (the d6, the modifier, the arcane factor),
    no English; the replayed log and the live view's narrator word the same test (7.2.1)."""
    from tabletop.log import recent_lines

    t = new_sim()
    mana(t)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)
    (event,) = run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=3)
    assert "lines" not in event.data
    assert event.data["test"] == {"roll": 3, "modifier": 0, "ability": 3}
    words = "Arcane test: rolled 3 against Arcane 3: passed"
    assert words in t.lines()[-1]
    assert recent_lines(t.ruleset, t.state, t.log[-1:], set())[0].text == words


def test_7_2_3_5_an_arcane_power_on_another_players_character_prompts_its_player():
    """Found by a new user: Black flame on the other player's character gave its player no alert, while a
    shot or a fight says "... waits for you". The target's player is told who used which
    power with what effect, and, since 7.2.3.5 lets the target defend, where its defend test
    is; the prompt ends with the test. The caster's own phone gets no such prompt."""
    from missions.rules.view import view

    t = new_sim()
    mana(t)
    run(t, ANN, "power.use", piece=VESNA, power=1, target=MAUD)  # Black flame
    bob = view(t.state, BOB)
    assert bob["prompt"] == {
        "key": bob["power_on_me"]["key"],
        "text": "Vesna the Gray (Ann) used Black flame on your Maud Brinewitch: hit damage 0 → 2, "
        "movement active → exhausted. Defend: Maud Brinewitch's arcane test, in its Arcane "
        "section (7.2.3.5).",
        "target": "piece-s1-maud",
    }
    assert bob["power_on_me"]["can_defend"] is True
    assert view(t.state, ANN)["power_on_me"] is None  # the caster's phone
    run(t, BOB, "arcane.test", piece=MAUD, purpose="defend", roll=6)  # answered (failed)
    assert view(t.state, BOB)["power_on_me"] is None


def test_7_2_3_5_a_target_that_cannot_defend_is_still_told_what_hit_it():
    from missions.rules.view import view

    t = new_sim()
    mana(t)
    run(t, BOB, "power.use", piece=MAUD, code=1, power=1, target=KORR)  # Black flame on Korr
    hit = view(t.state, ANN)["power_on_me"]
    assert hit["can_defend"] is False
    assert hit["text"].startswith("Maud Brinewitch (Bob) used Black flame on your Korr Halfhand: ")
    assert hit["text"].endswith("Korr Halfhand has no arcane ability: no defend test (7.2.3.5).")
    assert view(t.state, ANN)["prompt"]["target"] == "piece-s0-korr"

"""Rows of docs/demloc-sections.md that had no test of their own: mana cubes set by hand on the
app (DemLoc rulebook 5.7 "mana cubes ... represent the mana channeled by the characters", 6.4.2),
the ability modifiers printed on follower cards (5.1.2 "2 + 1"), and no shot nor power the turn
a character picks up or puts down an object (7.2.1)."""


from missions.rules.brawl import resolve_brawl
from missions.rules.cards import card_from_data
from missions.rules.damage import new_piece
from missions.rules.shooting import resolve_shot
from tests.kit import refused

from .demloc_sim import finish_turn, new_sim, piece, run
from .test_lifecycle_resolution import played

ANN = 0
VESNA = "s0-vesna"


def test_mana_cubes_by_hand_stay_between_0_and_the_arcane_ability_5_7():
    t = new_sim()
    arcane = piece(t, VESNA)["arcane"]
    assert arcane >= 2 and piece(t, VESNA)["mana"] == {"common": 0, "dark": 0}
    run(t, ANN, "mana.adjust", piece=VESNA, colour="common", delta=1)
    run(t, ANN, "mana.adjust", piece=VESNA, colour="dark", delta=arcane - 1)
    assert piece(t, VESNA)["mana"] == {"common": 1, "dark": arcane - 1}
    full = dict(t.state["pieces"][VESNA])
    adjust = lambda **d: run(t, ANN, "mana.adjust", piece=VESNA, **d)  # noqa: E731
    refused("too_many_dice", lambda: adjust(colour="common", delta=1))
    refused("nothing_to_remove", lambda: adjust(colour="common", delta=-2))
    refused("bad_input", lambda: adjust(colour="common", delta=0))
    refused("bad_input", lambda: adjust(colour="gold", delta=1))
    assert t.state["pieces"][VESNA] == full  # nothing changed
    run(t, ANN, "mana.adjust", piece=VESNA, colour="common", delta=-1)
    assert piece(t, VESNA)["mana"]["common"] == 0


def test_a_printed_ability_modifier_2_plus_1_adds_1_to_the_roll_5_1_2():
    """5.1.2 "if 2 + 1 is shown in the hand-to-hand ability of a follower, ... roll 2 combat dice
    and add 1 to the result of the roll" (and the same for the ranged ability)."""
    sword = {"name": "Sword", "type": "swords", "damage": 3}
    bow = {"name": "Bow", "type": "bows", "damage": 3, "range": 6, "features": []}

    def card(name, owner, **extra):
        base = {"id": name, "name": name, "kind": "follower", "hit": 3, "armor": 4}
        return new_piece(card_from_data(base | extra), owner)

    plain = card("Guard", 0, h2h=2, weapons=[sword])
    trained = card("Veteran", 0, h2h=2, h2h_bonus=1, ranged=2, ranged_bonus=1, weapons=[bow])
    enemy = card("Enemy", 1, h2h=2, weapons=[sword])
    assert resolve_brawl(plain, enemy, [3, 3], [3, 3]).winner is None  # 6 against 6
    won = resolve_brawl(trained, enemy, [3, 3], [3, 3])
    assert (won.attack_total, won.winner) == (7, "attacker")
    shot = resolve_shot(trained, enemy, bow, [2, 2])
    assert shot.total == 5  # 2 + 2 + 1


def test_who_picks_up_or_puts_down_an_object_neither_shoots_nor_casts_that_turn_7_2_1():
    """7.2.1 "A character who picks up or deposits an object can not make ranged attacks or use
    arcane powers that turn" (a relic token taken or put down on the app); the next turn it
    may."""
    t = played(kind="relic")
    crossbow, caster, other = "s0-m12", "s0-m11", "s1-m21"
    run(t, 0, "relic.take", piece=crossbow, delta=1)
    shoot = dict(shooter=crossbow, target=other, test_roll=1, dice=[6, 6, 6])
    refused("object_taken", lambda: run(t, 0, "shot.propose", **shoot))
    run(t, 0, "relic.take", piece=caster, delta=1)
    run(t, 0, "relic.take", piece=caster, delta=-1)  # put down: the same turn is lost
    refused("object_taken", lambda: run(t, 0, "power.use", piece=caster, target=other))
    finish_turn(t)
    run(t, 0, "turn.next")
    run(t, 0, "shot.propose", **shoot)
    assert t.state["pending"]["shooter"] == crossbow
    t.assert_replay_equal()


def test_poison_at_the_hit_factor_is_alive_and_the_report_says_what_it_carried_6_4_2_6_4_1():
    # Found by a new user: Haldra ended with "poison token 4 (hit factor 4)" and the report said
    # "unharmed". 6.4.2: "when the number of poisoning tokens exceeds a character's life factor
    # value, he will die": 4 of 4 is alive, 5 kills; the report names the tokens.
    from missions.rules.damage import poison_tick
    from missions.rules.resolution import character_outcome

    card = {"id": "h", "name": "Haldra", "hit": 4, "armor": 5, "weapons": []}
    haldra = new_piece(card_from_data(card), 0) | {"poison": 3}
    haldra, _ = poison_tick(haldra)
    assert (haldra["poison"], haldra["status"]) == (4, "in_play")
    end = character_outcome(haldra, 5)
    assert (end["outcome"], end["status"], end["heal_feods"]) == ("survived", "active", 0)
    assert end["needs"].startswith(
        "Survived with 4 poison tokens, hit factor 4 (at its hit factor: one more would have "
        "killed): the tokens end with the mission"
    )
    assert poison_tick(haldra)[0]["status"] == "killed"  # 5 > 4
    bled = character_outcome(new_piece(card_from_data(card), 0) | {"bleeding": 1, "hit_damage": 2}, 5)
    assert bled["needs"].startswith("Survived with 1 bleeding token, 2 hit damage:")
    assert character_outcome(new_piece(card_from_data(card), 0), 5)["outcome"] == "unharmed"
    # Found by a new user: "injured (1 broken heart)" for one that also carried 4 poison tokens.
    hurt = character_outcome(haldra | {"broken_hearts": 1}, 5)
    assert (hurt["outcome"], hurt["heal_feods"]) == ("injured", 5)
    assert hurt["needs"] == "Seriously injured (1 broken heart): heal for 5 feods."
    assert hurt["carried"] == (  # the report's words; the Dormitory's note is ``needs``
        "It also carried 4 poison tokens, hit factor 4 (at its hit factor: one more would have "
        "killed): the tokens end with the mission.")
    clean = character_outcome(new_piece(card_from_data(card), 0) | {"broken_hearts": 2}, 5)
    assert clean["needs"] == "Seriously injured (2 broken hearts): heal for 10 feods."
    assert "carried" not in clean


def test_armor_damage_without_a_token_is_not_unharmed_in_the_report_6_4_1():
    """Found by a new user: Spark put "armor damage 0 → 1" on Brann and the end report said
    "Brann the Trapper: unharmed". Words that match what the card showed: survived with
    "armor damage 1, no token" (ready, no healing: 6.4.1 heals broken hearts only)."""
    from missions.rules.resolution import character_outcome

    card = {"id": "b", "name": "Brann", "hit": 3, "armor": 4, "weapons": []}
    brann = new_piece(card_from_data(card), 0) | {"armor_damage": 1}
    end = character_outcome(brann, 5)
    assert (end["outcome"], end["status"], end["heal_feods"]) == ("survived", "active", 0)
    assert end["needs"].startswith("Survived with armor damage 1, no token:"), end["needs"]
    cracked = character_outcome(brann | {"armor_damage": 3, "broken_armor": 1}, 5)
    assert cracked["needs"].startswith("Survived with armor damage 3, 1 broken armor token:")


def test_the_close_screen_says_what_an_injured_character_also_carried_6_4_1():
    """Found by a new user: the close's line read "injured (1 broken heart)" for Okka, who
    also carried 4 poison tokens. The mission card's result shows ``carried`` after ``needs``."""
    from django.template.loader import render_to_string  # noqa: PLC0415 - Django's own loader

    okka = {"name": "Okka", "outcome": "injured",
            "needs": "Seriously injured (1 broken heart): heal for 5 feods.",
            "carried": "It also carried 4 poison tokens, hit factor 3: the tokens end with the "
                       "mission."}
    rook = {"name": "Rook", "outcome": "injured",
            "needs": "Seriously injured (2 broken hearts): heal for 10 feods."}
    result = {"winner": 0, "winner_name": "Ann", "how": "objective", "guilds": [],
              "control_point": {}, "characters": [okka, rook]}
    view = {"mission": {"name": "The Drowned Bell", "mode": "standard", "result": result}}
    html = render_to_string("missions/_mission_ended.html", {"view": view})
    assert (f'Okka: <span class="badge warn">injured</span> {okka["needs"]} {okka["carried"]}'
            "</li>") in html
    assert f'Rook: <span class="badge warn">injured</span> {rook["needs"]}</li>' in html

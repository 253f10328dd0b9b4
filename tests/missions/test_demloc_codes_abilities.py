"""Everything a Guild owns reaches the table: every Arcane Code a character
holds (DemLoc rulebook 5.1.5), the code and channelled dice a summoner assigns to its daemon
(7.2.3.2), each personal ability with its fate-point cost, paid from fate when used (5.1.1,
6.4.2, 8.4). Pure rules through the kit's driver (``tabletop.testing.Sim``)."""

import re

from missions.rules.cards import card_from_data
from missions.rules.guildcards import mercenary_entry
from tests.kit import refusal

from .demloc_sim import new_sim, piece, run

ANN, BOB = 0, 1


def unchanged(t, fn) -> str:
    """The error code of ``fn``; the table's state is the same after it (bad input changes
    nothing)."""
    before = t.state
    code = refusal(fn).code
    assert t.state == before
    return code


def maud_mana(t, common=1, dark=1):
    for colour, n in (("common", common), ("dark", dark)):
        if n:
            run(t, BOB, "mana.adjust", piece="s1-maud", colour=colour, delta=n)


def test_every_arcane_code_a_mercenary_holds_is_on_its_card_5_1_5():
    t = new_sim()
    maud = piece(t, "s1-maud")
    assert [c["name"] for c in maud["codes"]] == ["Codex of Salted Ash", "Codex of Ash"]
    sheet = next(p for p in t.view(BOB)["pieces"] if p["id"] == "s1-maud")
    assert [c["name"] for c in sheet["code_refs"]] == ["Codex of Salted Ash", "Codex of Ash"]
    assert [pw["name"] for pw in sheet["code_refs"][1]["power_refs"]] == [
        "Cinder touch",
        "Black flame",
    ]


def test_a_power_of_the_second_code_is_cast_with_its_own_cost_and_effect_5_1_5_7_2_3_1():
    t = new_sim()
    maud_mana(t, common=1, dark=0)
    run(t, BOB, "power.use", piece="s1-maud", code=1, power=0, target="s0-korr")
    # Cinder touch (second code): 1 common mana, HIT 2 on Korr's armor.
    assert piece(t, "s1-maud")["mana"] == {"common": 0, "dark": 0}
    assert piece(t, "s0-korr")["armor_damage"] == 2
    assert "Cinder touch" in " ".join(t.lines())
    t.assert_replay_equal()


def test_a_code_the_character_does_not_hold_changes_nothing_5_1_5():
    t = new_sim()
    maud_mana(t)
    assert (
        unchanged(
            t, lambda: run(t, BOB, "power.use", piece="s1-maud", code=2, power=0, target="s0-korr")
        )
        == "bad_input"
    )
    # Korr holds no code at all.
    assert (
        unchanged(t, lambda: run(t, ANN, "power.use", piece="s0-korr", power=0, target="s1-maud"))
        == "no_power"
    )


def test_a_mercenary_summons_with_any_of_its_codes_and_gets_that_codes_pentacle_7_2_3_2():
    t = new_sim()
    maud_mana(t)
    run(t, BOB, "daemon.summon", piece="s1-maud", code=1, level=2, hearts=2)
    maud = piece(t, "s1-maud")
    assert maud["code"]["name"] == "Codex of Ash" and maud["asset"] == "post_summoning"
    assert maud["code"]["pentacle"]["name"] == "Ash circle"
    t.assert_replay_equal()


def summoned_hag(t):
    maud_mana(t)
    run(t, BOB, "daemon.summon", piece="s1-maud", level=2, hearts=2)
    (daemon,) = [p for p in t.state["pieces"].values() if p["kind"] == "daemon"]
    assert daemon["name"] == "Drowned hag" and daemon["arcane"] == 2
    return daemon["id"]


def test_the_summoner_assigns_its_daemon_a_code_and_channelled_dice_7_2_3_2():
    t = new_sim()
    hag = summoned_hag(t)
    sheet = next(p for p in t.view(BOB)["pieces"] if p["id"] == hag)
    assert [c["name"] for c in sheet["assign_codes"]] == ["Codex of Salted Ash", "Codex of Ash"]
    run(t, BOB, "daemon.assign", piece=hag, code=1, common=1, dark=0, seals=1)
    daemon = piece(t, hag)
    # The code's powers without its summoning (followers never summon, 5.1.2, 5.1.3);
    # the seal rolled as the card is placed has no effect (6.4.1).
    assert daemon["code"]["name"] == "Codex of Ash" and daemon["code"]["summon_cost"] is None
    assert daemon["mana"] == {"common": 1, "dark": 0} and daemon["seals"] == 0
    assert "no effect" in " ".join(t.lines())
    run(t, BOB, "power.use", piece=hag, power=0, target="s0-korr")
    assert piece(t, "s0-korr")["armor_damage"] == 2
    assert next(p for p in t.view(BOB)["pieces"] if p["id"] == hag)["assign_codes"] == []
    t.assert_replay_equal()


def test_a_daemons_code_and_dice_are_assigned_once_within_its_arcane_ability_7_2_3_2():
    t = new_sim()
    hag = summoned_hag(t)
    assert (
        unchanged(t, lambda: run(t, BOB, "daemon.assign", piece=hag, common=2, dark=1))
        == "too_many_dice"
    )
    assert unchanged(t, lambda: run(t, BOB, "daemon.assign", piece=hag, code=5)) == "bad_input"
    assert unchanged(t, lambda: run(t, BOB, "daemon.assign", piece="s1-maud")) == "not_a_daemon"
    assert unchanged(t, lambda: run(t, ANN, "daemon.assign", piece=hag)) == "not_your_character"
    run(t, BOB, "daemon.assign", piece=hag, common=1, dark=1)
    assert piece(t, hag)["code"]["name"] == "Codex of Salted Ash"  # default: the summoning code
    assert unchanged(t, lambda: run(t, BOB, "daemon.assign", piece=hag)) == "already_assigned"


def test_a_daemon_without_arcane_ability_takes_no_code_7_2_3_2():
    t = new_sim()
    maud_mana(t)
    run(t, BOB, "daemon.summon", piece="s1-maud", level=1, hearts=1)
    (daemon,) = [p for p in t.state["pieces"].values() if p["kind"] == "daemon"]
    assert daemon["name"] == "Unclean daemon"
    assert unchanged(t, lambda: run(t, BOB, "daemon.assign", piece=daemon["id"])) == "no_arcane"


def test_an_activated_ability_is_paid_from_its_players_fate_5_1_1_6_4_2():
    t = new_sim()
    sheet = next(p for p in t.view(BOB)["pieces"] if p["id"] == "s1-maud")
    tide, skin = sheet["ability_refs"]
    assert (tide["name"], tide["activated"], tide["fate_cost"], tide["can_pay"]) == (
        "Tide sense",
        True,
        2,
        True,
    )
    assert tide["button"] == "Use Tide sense (2 fate)"
    assert (skin["activated"], skin["text"]) == (False, "Poison tokens above 1 are not added.")
    run(t, BOB, "ability.use", piece="s1-maud", ability=0)
    assert t.state["players"][BOB]["fate"] == 1
    assert "Tide sense" in t.lines()[-1] and "1 fate point left" in t.lines()[-1]
    # Once per phase (5.1.1, 7.2), before the fate points are counted (6.4.2: the next
    # phase's refusal, test_an_activated_ability_is_used_once_per_phase...); nothing changes.
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=0)) == (
        "ability_used"
    )
    t.undo(BOB)
    assert t.state["players"][BOB]["fate"] == 3
    t.assert_replay_equal()


def test_passive_missing_and_foreign_abilities_are_refused_5_1_1():
    t = new_sim()
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=1)) == (
        "passive_ability"
    )
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=7)) == (
        "bad_input"
    )
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-bram", ability=0)) == (
        "no_ability"
    )
    assert unchanged(t, lambda: run(t, ANN, "ability.use", piece="s1-maud", ability=0)) == (
        "not_your_character"
    )


def test_an_activated_fury_costs_fate_and_starts_fury_8_4():
    t = new_sim()
    sheet = next(p for p in t.view(ANN)["pieces"] if p["id"] == "s0-vesna")
    assert sheet["fury_paid"] is True
    run(t, ANN, "ability.use", piece="s0-vesna", ability=0)
    assert piece(t, "s0-vesna")["fury"] == 2 and t.state["players"][ANN]["fate"] == 2


def test_a_guild_mercenary_brings_every_code_and_ability_cost_to_its_card_5_1_1_5_1_5():
    code = {
        "name": "Codex {}",
        "kabbalah": "Ash Cult",
        "summoning": {"white": 1, "black": 0},
        "powers": [{"name": "Cinders", "white": 1, "black": 0, "effects": []}],
    }
    m = {
        "id": 7,
        "name": "Rook",
        "ready": True,
        "level": 1,
        "hit_factor": 3,
        "arcane_ability": 2,
        "weapons": [],
        "codes": [{**code, "name": "Codex I"}, {**code, "name": "Codex II"}],
        "abilities": [
            {"activation": "activated", "fate_cost": 2, "standard": "fly", "x": 2},
            {"activation": "passive", "standard": "unique", "name": "Old eyes", "text": "Sees."},
        ],
    }
    card = card_from_data(mercenary_entry(m)["card"])
    assert [c["name"] for c in card["codes"]] == ["Codex I", "Codex II"]
    assert card["code"]["name"] == "Codex I"
    assert card["abilities"] == [
        {
            "name": "FLY 2",
            "feature": "FLY 2",
            "activation": "activated",
            "fate_cost": 2,
            "text": "",
        },
        {
            "name": "Old eyes",
            "feature": None,
            "activation": "passive",
            "fate_cost": 0,
            "text": "Sees.",
        },
    ]
    assert card["features"] == ["FLY 2"]


def test_a_possessed_character_offers_no_ability_button_and_says_why_7_2_3():
    # 7.2.3 "A daemon possessed character cannot perform any other actions in the turn": the
    # sheet offered "Use Tide sense (2 fate)" that the command then refused.
    from django.template.loader import render_to_string

    t = new_sim()

    def sheet_html():
        view = t.view(BOB)
        sheet = next(p for p in view["pieces"] if p["id"] == "s1-maud")
        html = render_to_string(
            "missions/_piece_forms.html",
            {"p": sheet, "view": view, "command_url": "/c/", "table": {"code": "ABC"}},
        )
        return sheet, html

    sheet, html = sheet_html()
    assert sheet["ability_refs"][0]["blocked"] == ""
    assert "Use Tide sense (2 fate)" in html and "data-ability-blocked" not in html
    run(t, ANN, "possession.assign", piece="s1-maud", source="Abyss call", instructions="")
    sheet, html = sheet_html()
    assert sheet["ability_refs"][0]["blocked"].startswith("not while possessed")
    assert sheet["ability_refs"][1]["blocked"] == ""  # a passive ability needs no use
    assert "Use Tide sense" not in html
    assert "not while possessed: a possessed character acts no more (7.2.3)" in html
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=0)) == (
        "possessed"
    )


STEADY_AIM = {
    "name": "Steady Aim",
    "activation": "activated",
    "fate_cost": 1,
    "text": "Roll one extra fighting die in this shooting sub-phase.",
}


def steady_gunner_sim(**options):
    """The demo table (with the table ``options``) with Bob's Dock gunner holding Steady Aim
    (the box's Sieg Longshot card text), Bob acting in the strategic phase."""
    from missions.rules.roster import demo_guild

    bob = demo_guild(1)
    gunner = next(c for c in bob["characters"] if c["id"] == "gunner")
    gunner["abilities"] = [STEADY_AIM]
    t = new_sim(options={"guilds": [demo_guild(0), bob], "activations": "once", **options})
    if t.state["play_order"][t.state["acting_index"]] != BOB:
        run(t, ANN, "phase.next")
    return t


def gunner_sheet(t):
    return next(p for p in t.view(BOB)["pieces"] if p["id"] == "s1-gunner")


def test_steady_aim_gives_the_shot_of_its_phase_its_extra_die_5_1_1_7_2_2():
    # Found by a new user: Steady Aim took the fate point, then the shot refused the 4th die ("rolls 3").
    t = steady_gunner_sim()
    base = gunner_sheet(t)["shoot_dice"]
    run(t, BOB, "ability.use", piece="s1-gunner", ability=0)
    assert t.state["players"][BOB]["fate"] == 2
    assert gunner_sheet(t)["shoot_dice"] == base + 1
    assert "shoots with 1 extra fighting die this phase" in " ".join(t.lines()[-3:])
    # The shot of this phase rolls base + 1 dice, and no longer base.
    shot = {"shooter": "s1-gunner", "weapon": 0, "target": "s0-vesna", "test_roll": 1}
    assert unchanged(t, lambda: run(t, BOB, "shot.propose", **shot, dice=[3] * base)) == "bad_dice"
    run(t, BOB, "shot.propose", **shot, dice=[3] * (base + 1))
    assert t.state["pending"]["steps"]["dice"] == [3] * (base + 1)
    t.assert_replay_equal()


def test_steady_aim_is_refused_when_no_shot_can_follow_in_the_phase_7_2_2_7_2():
    t = steady_gunner_sim()
    run(t, BOB, "shot.propose", shooter="s1-gunner", weapon=0, target="s0-vesna", test_roll=1,
        dice=[3] * gunner_sheet(t)["shoot_dice"])
    run(t, ANN, "calc.apply")  # the target's player applies it: the gunner is activated
    # The gunner has shot (activated, 7.2): an extra die for a shot that cannot come is
    # refused before any fate point is taken, and the sheet says so at the button.
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-gunner", ability=0)) == (
        "no_shot_now"
    )
    assert "adds dice to a shot" in gunner_sheet(t)["ability_refs"][0]["blocked"]


def test_an_activated_ability_is_used_once_per_phase_and_disabled_without_fate_5_1_1_6_4_2():
    # Found by a new user: Snare tapped twice in one phase took 2 fate points; at 0 fate the button stayed.
    from django.template.loader import render_to_string

    t = new_sim()
    maud = lambda: next(p for p in t.view(BOB)["pieces"] if p["id"] == "s1-maud")  # noqa: E731
    run(t, BOB, "ability.use", piece="s1-maud", ability=0)
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=0)) == (
        "ability_used"
    )
    assert maud()["ability_refs"][0]["blocked"].startswith("Tide sense was already used this phase")
    assert t.state["players"][BOB]["fate"] == 1
    # The next phase it may be used again, when the fate points pay it (6.4.2).
    while t.state["phase"] == "strategic":
        run(t, t.state["play_order"][t.state["acting_index"]], "phase.next")
    assert maud()["ability_refs"][0]["blocked"] == "Tide sense costs 2 fate points; 1 left (6.4.2)."
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=0)) == (
        "not_enough_fate"
    )
    view = t.view(BOB)
    html = render_to_string(
        "missions/_piece_forms.html",
        {"p": maud(), "view": view, "command_url": "/c/", "table": {"code": "ABC"}},
    )
    assert "Tide sense costs 2 fate points; 1 left (6.4.2)." in html
    assert re.search(r"<button [^>]*disabled>Use Tide sense \(2 fate\)</button>", html)


def test_the_pull_your_cards_list_names_every_arcane_code_a_character_holds_6_4_1_5_1_5():
    # Found by a new user: Malve held Undertow and Embers; "Pull your cards" listed only the first code.
    from missions.rules.setup_view import pull_cards

    code = {"kabbalah": "Ash Cult", "summoning": {"white": 1, "black": 0}, "powers": []}
    m = {
        "id": 9, "name": "Malve", "ready": True, "level": 1, "hit_factor": 3, "arcane_ability": 2,
        "weapons": [{"name": "Dagger", "type": "knife", "damage": 1}],
        "codes": [{**code, "name": "Codex of the Undertow"}, {**code, "name": "Codex of Embers"}],
        "abilities": [],
    }
    card = card_from_data(mercenary_entry(m)["card"])
    assert pull_cards(card) == ["Dagger", "Codex of the Undertow", "Codex of Embers"]
    # A card stored before the codes list: its one code.
    assert pull_cards({"name": "Old", "weapons": [], "code": {"name": "Codex I"}}) == ["Codex I"]


def test_the_once_per_phase_reading_of_5_1_1_is_a_table_option_its_default_once():
    # 5.1.1 "There is no limit to the abilities that can be activated in each turn": whether
    # one ability may be paid again in its phase is the table's choice (option ability_uses).
    from missions.rules import OPTIONS_SCHEMA
    from tabletop.live import option_rows
    from tabletop.registry import get_ruleset

    spec = OPTIONS_SCHEMA["ability_uses"]
    assert spec["default"] == "phase"
    assert [value for value, _ in spec["choices"]] == ["phase", "free"]
    assert "There is no limit to the abilities that can be activated in each turn" in spec["help"]
    lobby = {r["key"] for r in option_rows(get_ruleset("demloc"), {}, {"mission": {"id": 1}})}
    assert "ability_uses" in lobby  # a Guild mission's host chooses it too
    t = new_sim()
    assert t.state["options"]["ability_uses"] == "phase"


def test_a_table_reading_no_limit_pays_an_ability_again_in_its_phase_5_1_1_6_4_2():
    t = new_sim(options={"ability_uses": "free", "fate_points": "6"})
    maud = lambda: next(p for p in t.view(BOB)["pieces"] if p["id"] == "s1-maud")  # noqa: E731
    run(t, BOB, "ability.use", piece="s1-maud", ability=0)
    assert maud()["ability_refs"][0]["blocked"] == ""  # offered again, not "already used"
    run(t, BOB, "ability.use", piece="s1-maud", ability=0)
    assert t.state["players"][BOB]["fate"] == 2  # each use paid (6.4.2)
    assert maud()["ability_refs"][0]["blocked"] == ""  # 2 left pay it once more
    run(t, BOB, "ability.use", piece="s1-maud", ability=0)
    assert t.state["players"][BOB]["fate"] == 0
    assert unchanged(t, lambda: run(t, BOB, "ability.use", piece="s1-maud", ability=0)) == (
        "not_enough_fate"
    )
    t.undo(BOB)
    assert t.state["players"][BOB]["fate"] == 2
    t.assert_replay_equal()


def test_steady_aim_paid_twice_on_a_no_limit_table_adds_two_dice_to_its_shot_5_1_1_7_2_2():
    t = steady_gunner_sim(ability_uses="free")
    base = gunner_sheet(t)["shoot_dice"]
    run(t, BOB, "ability.use", piece="s1-gunner", ability=0)
    run(t, BOB, "ability.use", piece="s1-gunner", ability=0)
    assert t.state["players"][BOB]["fate"] == 1
    assert gunner_sheet(t)["shoot_dice"] == base + 2
    assert "shoots with 2 extra fighting dice this phase" in t.lines()[-1]
    run(t, BOB, "shot.propose", shooter="s1-gunner", weapon=0, target="s0-vesna", test_roll=1,
        dice=[3] * (base + 2))
    # The next phase the uses count afresh: no extra die is left over.
    run(t, ANN, "calc.apply")
    while t.state["phase"] == "strategic":
        run(t, t.state["play_order"][t.state["acting_index"]], "phase.next")
    assert gunner_sheet(t)["shoot_dice"] == base
    t.assert_replay_equal()

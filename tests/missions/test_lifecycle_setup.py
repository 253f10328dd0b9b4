"""The preparation phases of a mission, pure (DemLoc rulebook 6.4, 6.4.1, 5.1.1, 5.1.2, 5.2)."""

import pytest

from missions.rules import DemlocRuleset
from missions.rules import setup as setup_rules
from tabletop.errors import RuleViolation

from .demloc_sim import finish_turn, new_sim, piece, run
from .lifecycle_data import guild_payload, mission_option


def new_table(names=("Ann", "Bob"), mode="standard", kind="objective", payloads=None, **over):
    t = new_sim(names=names, options={"mission": mission_option(kind, mode, **over)})
    payloads = payloads or [guild_payload(i, i + 1) for i in range(len(names))]
    for p in payloads:
        t.send(None, "demloc.setup.guild_bind", p)
    if mode == "standard":
        run(
            t,
            None,
            "setup.raffle",
            candidates=[
                {
                    "id": 5,
                    "name": "Salt Gate",
                    "area": "Docks",
                    "kind": "gate",
                    "holder_guild_id": 2,
                },
                {
                    "id": 6,
                    "name": "Old Mill",
                    "area": "Hill",
                    "kind": "mill",
                    "holder_guild_id": None,
                },
            ],
        )
    return t


def all_next(t):
    for seat in t.state["setup"]["seats"]:
        if seat not in t.state["setup"]["ready"]:
            run(t, seat, "setup.next")


def stage(t):
    return t.state["setup"]["stage"]


def to_characters(t):
    while stage(t) != "characters":
        all_next(t)


def to_mana():
    """A new table at the mana stage, seat 0 with m11 and seat 1 with m22 chosen (6.4.1)."""
    t = new_table()
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 1, "setup.pick", character="m22")
    all_next(t)
    return t


def play_through(t, picks, mana=None):
    """From the lobby to the first turn: ``picks`` {seat: [roster ids]}."""
    to_characters(t)
    for seat, ids in picks.items():
        for cid in ids:
            run(t, seat, "setup.pick", character=cid)
    all_next(t)
    assert stage(t) == "mana"
    for seat, ids in picks.items():
        for cid in ids:
            card = next(p for p in t.state["setup"]["picks"][str(seat)] if p["id"] == cid)["card"]
            if card.get("arcane"):
                values = (mana or {}).get(cid, {"common": card["arcane"], "dark": 0, "seals": 0})
                run(t, seat, "setup.mana", character=cid, **values)
    all_next(t)
    assert stage(t) == "miniatures"
    all_next(t)
    assert stage(t) == "deployment"
    areas = ["North gate", "South quay"]
    while stage(t) == "deployment":
        acting = t.state["setup"]["deploy"]["acting"]
        todo = [
            p["id"]
            for p in t.state["setup"]["picks"][str(acting)]
            if f"s{acting}-{p['id']}" not in t.state["setup"]["deploy"]["placed"]
        ]
        run(t, acting, "setup.deploy", character=todo[0], area=areas[acting % 2])
    assert stage(t) == "start"
    all_next(t)
    assert stage(t) == "play"


def test_standard_mission_goes_through_every_phase_in_order_to_the_first_turn():
    t = new_table()
    assert t.state["setup"]["raffle"]["point"]["name"] in ("Salt Gate", "Old Mill")
    seen = [stage(t)]
    while stage(t) != "characters":
        all_next(t)
        seen.append(stage(t))
    assert seen == ["guilds", "raffle", "objective", "map", "characters"]
    play_through(t, {0: ["m11", "m12"], 1: ["m21", "g23"]})
    assert t.state["turn"] == 1 and t.state["first"] in (0, 1)
    vesna = piece(t, "s0-m11")
    assert vesna["name"] == "Vesna the Gray" and vesna["mana"] == {"common": 2, "dark": 0}
    assert vesna["token"] == 1 and piece(t, "s0-m12")["token"] == 2
    assert piece(t, "s1-g23")["kind"] == "follower"
    assert t.state["players"][0]["guild"] == "Guild 1"
    t.assert_replay_equal()


def test_training_mission_has_no_raffle():
    t = new_table(mode="training")
    with pytest.raises(RuleViolation) as err:
        run(t, None, "setup.raffle", candidates=[])
    assert err.value.code == "training"
    all_next(t)
    assert stage(t) == "objective"


def test_a_phase_moves_on_only_when_every_player_tapped_next():
    t = new_table()
    run(t, 0, "setup.next")
    assert stage(t) == "guilds"
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.next")
    assert err.value.code == "already_ready"
    run(t, 1, "setup.next")
    assert stage(t) == "raffle"


def test_guild_binding_is_for_the_server_only_and_one_guild_per_player():
    t = new_sim(options={"mission": mission_option()})
    with pytest.raises(RuleViolation) as err:
        t.send(0, "demloc.setup.guild_bind", guild_payload(0, 1))
    assert err.value.code == "server_only"
    t.send(None, "demloc.setup.guild_bind", guild_payload(0, 1))
    with pytest.raises(RuleViolation) as err:
        t.send(None, "demloc.setup.guild_bind", guild_payload(1, 1))
    assert err.value.code == "guild_twice"
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.next")
        run(t, 1, "setup.next")
    assert err.value.code == "guilds_missing"


def test_play_commands_wait_for_the_setup():
    t = new_table()
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "damage.assign", piece="s1-m21", amount=1)
    assert err.value.code == "setup_first"


def test_slots_and_readiness_limit_the_characters_choice():
    p0 = guild_payload(0, 1)
    p0["roster"][1].update(ready=False, not_ready_code="mercenary_injured", why="Korr: injured.")
    t = new_table(payloads=[p0, guild_payload(1, 2)], slots=2)
    to_characters(t)
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.pick", character="m12")
    assert err.value.code == "mercenary_injured"
    run(t, 0, "setup.pick", character="m11")
    run(t, 0, "setup.pick", character="g13")
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.hire", follower="7")
    assert err.value.code == "slots_full"


def test_enlisted_followers_are_shared_by_every_player_and_cost_feods():
    # 5.1.2: the mission offers one Hired blade for 10 feods, for the whole table.
    t = new_table(payloads=[guild_payload(0, 1, feods=50), guild_payload(1, 2, feods=50)])
    to_characters(t)
    run(t, 0, "setup.hire", follower="7")
    with pytest.raises(RuleViolation) as err:
        run(t, 1, "setup.hire", follower="7")
    assert err.value.code == "follower_taken"
    assert setup_rules.available_feods(t.state["setup"], 0) == 40
    run(t, 0, "setup.unpick", character="h7-1")
    run(t, 1, "setup.hire", follower="7")
    assert setup_rules.available_feods(t.state["setup"], 0) == 50
    assert setup_rules.available_feods(t.state["setup"], 1) == 40


def test_a_follower_not_in_the_guild_database_or_too_dear_cannot_be_enlisted():
    poor = guild_payload(0, 1, feods=5)
    other = guild_payload(1, 2)
    other["database_followers"] = []
    t = new_table(payloads=[poor, other])
    to_characters(t)
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.hire", follower="7")
    assert err.value.code == "not_enough_feods"
    with pytest.raises(RuleViolation) as err:
        run(t, 1, "setup.hire", follower="7")
    assert err.value.code == "not_in_database"


def _contest_table(fame=(10, 10), feods=(50, 50)):
    # Both guilds have Vesna the Gray (5.1.1: two mercenaries of one name never play together).
    a = guild_payload(0, 1, fame=fame[0], feods=feods[0])
    b = guild_payload(0, 2, fame=fame[1], feods=feods[1])
    b["seat"] = 1
    t = new_table(payloads=[a, b])
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 1, "setup.pick", character="m21")
    return t


def test_the_same_mercenary_in_two_guilds_goes_to_the_best_offer():
    t = _contest_table()
    assert "Vesna the Gray" in t.state["setup"]["contests"]
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.next")
    assert err.value.code == "contested"
    run(t, 0, "setup.offer", name="Vesna the Gray", feods=15)
    # The offer is sealed: the other phone sees that Ann offered, not how much.
    contest = t.ruleset.view(t.state, 1)["setup"]["contests"]["Vesna the Gray"]
    assert contest["offered"] == [0] and "offers" not in contest and contest["my_offer"] is None
    run(t, 1, "setup.offer", name="Vesna the Gray", feods=20)
    assert t.state["setup"]["contests"] == {}
    assert [p["id"] for p in t.state["setup"]["picks"]["0"]] == []
    assert [p["id"] for p in t.state["setup"]["picks"]["1"]] == ["m21"]
    assert setup_rules.available_feods(t.state["setup"], 1) == 30
    assert t.log[-1].final  # offers revealed: no undo


def test_equal_offers_go_to_the_guild_of_greater_fame():
    t = _contest_table(fame=(30, 12))
    run(t, 0, "setup.offer", name="Vesna the Gray", feods=0)
    run(t, 1, "setup.offer", name="Vesna the Gray", feods=0)
    assert [p["id"] for p in t.state["setup"]["picks"]["0"]] == ["m11"]
    assert t.state["setup"]["picks"]["1"] == []
    assert "greater fame" in t.lines()[-1]


def test_an_offer_above_the_purse_is_refused_and_withdrawing_ends_the_contest():
    t = _contest_table(feods=(10, 50))
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.offer", name="Vesna the Gray", feods=11)
    assert err.value.code == "not_enough_feods"
    run(t, 0, "setup.unpick", character="m11")
    assert t.state["setup"]["contests"] == {}


def test_setup_mana_seals_have_no_effect():
    t = new_table()
    play_through(t, {0: ["m11"], 1: ["m21"]}, mana={"m11": {"common": 1, "dark": 0, "seals": 1}})
    vesna = piece(t, "s0-m11")
    assert vesna["mana"] == {"common": 1, "dark": 0} and vesna["seals"] == 0
    assert not vesna["possessed"]


def test_mana_dice_must_match_the_arcane_ability():
    t = to_mana()
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.mana", character="m11", common=3)
    assert err.value.code == "bad_count"
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.next")
    assert err.value.code == "mana_missing"


def test_sub_base_colours_stay_distinct_and_tokens_number_each_guild():
    a, b = guild_payload(0, 1, colour="red"), guild_payload(1, 2, colour="red")
    t = new_table(payloads=[a, b])
    to_characters(t)
    run(t, 0, "setup.pick", character="m12")
    run(t, 0, "setup.pick", character="m11")
    run(t, 1, "setup.pick", character="m22")
    all_next(t)
    run(t, 0, "setup.mana", character="m11", common=1, dark=1)
    all_next(t)
    assert t.state["setup"]["colours"] == {"0": "red", "1": "blue"}
    assert t.state["setup"]["tokens"] == {"s0-m12": 1, "s0-m11": 2, "s1-m22": 1}
    # each seat's page says why the second Guild's sub-bases are not its own red (a new user
    # saw red become blue with no word)
    for seat in (0, 1, None):
        groups = {g["seat"]: g for g in t.view(seat)["setup"]["tokens_of"]}
        assert (groups[0]["own_colour"], groups[1]["own_colour"]) == ("", "red")


def test_deployment_goes_clockwise_one_miniature_at_a_time():
    t = new_table(
        names=("Ann", "Bob", "Cid"),
        payloads=[guild_payload(0, 1), guild_payload(1, 2), guild_payload(2, 3, rename=True)],
    )
    to_characters(t)
    for seat, gid in ((0, 1), (1, 2), (2, 3)):
        run(t, seat, "setup.pick", character=f"g{gid}3")
    run(t, 0, "setup.pick", character="m12")
    all_next(t)
    all_next(t)
    all_next(t)
    deploy = t.state["setup"]["deploy"]
    first = deploy["first"]
    assert deploy["order"][0] == first and deploy["acting"] == first
    wrong = (first + 1) % 3
    with pytest.raises(RuleViolation) as err:
        run(t, wrong, "setup.deploy", character=f"g{wrong + 1}3", area="North gate")
    assert err.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as err:
        run(t, first, "setup.deploy", character=f"g{first + 1}3", area="The moon")
    assert err.value.code == "bad_area"
    order = []
    while stage(t) == "deployment":
        acting = t.state["setup"]["deploy"]["acting"]
        order.append(acting)
        left = [
            p["id"]
            for p in t.state["setup"]["picks"][str(acting)]
            if f"s{acting}-{p['id']}" not in t.state["setup"]["deploy"]["placed"]
        ]
        area = t.view(acting)["setup"]["my_areas"][0]  # what the page offers (6.4.1)
        run(t, acting, "setup.deploy", character=left[0], area=area)
    assert order[:3] == deploy["order"] and order[3] == 0 and len(order) == 4


def deploy_to(t, area):
    """The acting player places its next miniature in ``area``; returns the error code or None."""
    acting = t.state["setup"]["deploy"]["acting"]
    left = [
        p["id"]
        for p in t.state["setup"]["picks"][str(acting)]
        if f"s{acting}-{p['id']}" not in t.state["setup"]["deploy"]["placed"]
    ]
    try:
        run(t, acting, "setup.deploy", character=left[0], area=area)
    except RuleViolation as err:
        return err.code
    return None


def test_two_guilds_cannot_deploy_into_the_same_area_6_4_1():
    # 6.4.1 miniatures positioning: each player places in "the preferred deployment area": the
    # first Guild there holds it; another Guild is refused with area_taken, nothing changed.
    t = new_table()
    play_to_deployment(t)
    first = t.state["setup"]["deploy"]["acting"]
    assert deploy_to(t, "North gate") is None
    second = t.state["setup"]["deploy"]["acting"]
    assert second != first
    assert t.view(second)["setup"]["my_areas"] == ["South quay"]
    before = t.version
    assert deploy_to(t, "North gate") == "area_taken"
    assert t.version == before
    assert deploy_to(t, "South quay") is None
    # The first Guild keeps its own area and may take a free one, never the other's.
    assert t.view(first)["setup"]["my_areas"] == ["North gate"]
    assert deploy_to(t, "South quay") == "area_taken"


def test_a_mission_may_let_guilds_share_an_area_6_4_1():
    areas = [
        {"name": "North gate", "where": "the top rows", "shared": True},
        {"name": "South quay", "where": "the bottom rows"},
    ]
    t = new_table(deployment=areas)
    play_to_deployment(t)
    assert deploy_to(t, "North gate") is None
    assert deploy_to(t, "North gate") is None  # the mission says so: both Guilds there
    second = t.state["setup"]["deploy"]["acting"]
    assert t.view(second)["setup"]["my_areas"] == ["North gate", "South quay"]


def play_to_deployment(t):
    to_characters(t)
    run(t, 0, "setup.pick", character="m12")
    run(t, 0, "setup.pick", character="g13")
    run(t, 1, "setup.pick", character="m22")
    run(t, 1, "setup.pick", character="g23")
    for _ in range(3):
        all_next(t)
    assert stage(t) == "deployment"


def test_wave_characters_enter_when_the_app_says():
    t = new_table(kind="waves")
    to_characters(t)
    run(t, 0, "setup.pick", character="m12")
    run(t, 0, "setup.pick", character="g13")
    run(t, 1, "setup.pick", character="m22")
    for _ in range(3):
        all_next(t)
    while stage(t) == "deployment":
        acting = t.state["setup"]["deploy"]["acting"]
        left = [
            p["id"]
            for p in t.state["setup"]["picks"][str(acting)]
            if f"s{acting}-{p['id']}" not in t.state["setup"]["deploy"]["placed"]
        ]
        later = left[0] == "g13"
        run(
            t,
            acting,
            "setup.deploy",
            character=left[0],
            area="" if later else t.view(acting)["setup"]["my_areas"][0],
            later=later,
        )
    all_next(t)
    assert piece(t, "s0-g13")["enters"] == 3
    for _ in range(2):
        finish_turn(t)
        run(t, 0, "turn.next")
    assert t.state["turn"] == 3
    notice = t.view(0)["notice"]  # the page words the notice kept as data
    assert "Lantern watchman" in notice and "next wave" in notice


def test_a_forged_mission_option_is_refused_at_the_start():
    for bad in ("1", {"mode": "standard", "definition": {"kind": "objective"}}):
        with pytest.raises(RuleViolation) as err:
            new_sim(options={"mission": bad})
        assert err.value.code == "bad_option"


def test_random_draws_of_the_setup_cannot_be_undone():
    t = new_table()
    assert t.log[-1].type == "demloc.setup.raffle_drawn" and t.log[-1].final
    assert not t.meta.undo  # the raffle is a barrier
    play_through(t, {0: ["m12"], 1: ["m22"]})
    opened = next(e for e in t.log if e.type == "demloc.mission.opened")
    drawn = next(e for e in t.log if e.type == "demloc.setup.stage_advanced" and "first" in e.data)
    assert opened.final and drawn.final


def test_no_player_s_undo_takes_back_a_guild_the_server_brought():
    """6.4: each Guild Master brings their own Guild (the server reads it from the guilds). A
    training mission has no raffle barrier: Ann's Undo right after Bob's Guild came in took
    it back, leaving Bob's seat without a Guild (``available_feods`` raised KeyError: the
    setup playouts, 3 players seed 30, 4 players seed 10)."""
    t = new_table(mode="training")
    assert t.log[-1].type == "demloc.setup.guild_bound" and t.log[-1].final
    assert not t.meta.undo
    assert sorted(t.state["setup"]["guilds"]) == ["0", "1"]
    assert setup_rules.available_feods(t.state["setup"], 1) >= 0


JUNK = [None, "", "x", -1, 10**9, [], {}, [1, 2], {"a": 1}, True, "m11", "7"]


def test_malformed_setup_commands_are_refused_with_a_code_and_change_nothing():
    t = new_table()
    to_characters(t)
    for ctype in ("next", "pick", "unpick", "hire", "offer", "mana", "deploy", "guild_bind"):
        for key in ("character", "follower", "name", "feods", "common", "area", "later", "seat"):
            for value in JUNK:
                before = t.version
                try:
                    t.send(0, "demloc.setup." + ctype, {key: value})
                except RuleViolation as exc:
                    assert exc.code and t.version == before
                else:
                    t.undo(0)  # a valid command: take it back


def test_a_phone_sees_no_other_guild_s_dormitory_or_purse():
    t = new_table()
    to_characters(t)
    view = t.ruleset.view(t.state, 1)["setup"]
    assert view["guilds"]["0"] == {
        "guild": {"id": 1, "name": "Guild 1", "colour": "red", "fame": 10}
    }
    assert "roster" in view["guilds"]["1"] and view["my_feods"] == 50
    assert list(view["costs"]) == ["1"]
    assert "feods" not in view["players"][0]["guild"]


def test_the_mana_form_shows_what_was_saved_and_a_save_of_zeros_is_refused_6_4_1():
    # "2 arcane dice: 1 common, 1 dark" above a form reset to 0 / 0 / 0 invited a second Save
    # that would overwrite the roll: the inputs now hold the saved values.
    import re

    from django.template.loader import render_to_string

    t = to_mana()
    assert stage(t) == "mana"

    def inputs():
        view = DemlocRuleset().view(t.state, 0)
        html = render_to_string(
            "missions/_setup.html", {"view": view, "command_url": "/c/", "table": {"code": "ABC"}}
        )
        form = html.split('value="m11"')[1].split("</form>")[0]
        return dict(re.findall(r'name="d\.(common|dark|seals)" inputmode="numeric" value="(\d+)"',
                               form))

    assert inputs() == {"common": "0", "dark": "0", "seals": "0"}  # nothing rolled yet
    run(t, 0, "setup.mana", character="m11", common=1, dark=1)
    assert inputs() == {"common": "1", "dark": "1", "seals": "0"}
    # Saving zeros is refused (the dice must add up to the arcane ability): nothing changes.
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.mana", character="m11", common=0, dark=0, seals=0)
    assert err.value.code == "bad_count"
    assert t.state["setup"]["mana"]["s0-m11"] == {"common": 1, "dark": 1, "seals": 0}


def test_pull_your_cards_lists_every_arcane_code_of_a_character_6_4_1_5_1_5():
    # Found by a new user: Malve held two codes and the Mana step's "Pull your cards" listed only one.
    from django.template.loader import render_to_string

    t = new_table()
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 1, "setup.pick", character="m21")  # Maud Brinewitch: two Arcane Codes (5.1.5)
    all_next(t)
    assert stage(t) == "mana"
    view = DemlocRuleset().view(t.state, 1)
    html = render_to_string(
        "missions/_setup.html", {"view": view, "command_url": "/c/", "table": {"code": "ABC"}}
    )
    pulled = html.split('id="dl-pull">')[1].split("</ul>")[0]
    assert "<strong>Maud Brinewitch</strong> · Dagger · Codex of Salted Ash · Codex of Ash" in pulled

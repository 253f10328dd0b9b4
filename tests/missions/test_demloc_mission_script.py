"""And 2, pure (the kit's Sim): objective claims at the end of the turn with
the others' agreement (DemLoc rulebook 6.4.2 "objective achieved instead of next turn", 7.3.2.3
"when one of the players reaches the mission objective (at the end of the turn)"), hidden turn
limits (7 "will not always be shown"), any number of waves (6.4.1), mission events (6.4.2 "events
that will lead to changes to the structure of the mission itself") and the map picture (6.4.1
map creation)."""

import json

import pytest

from missions.rules import resolution
from missions.rules.setup_map import check_layout, picture
from missions.rules.setup_script import check_events, check_waves

from .demloc_sim import acting, finish_turn, new_sim, run
from .lifecycle_data import definition, guild_payload, mission_option
from .test_lifecycle_setup import all_next, play_through, stage


def three(kind="objective", options=None, **over):
    """A 3-player lifecycle mission in play, one character each (Ann m11, Bob m21, Cid m32)."""
    t = new_sim(
        names=("Ann", "Bob", "Cid"),
        options={"mission": mission_option(kind, **over), **(options or {})},
    )
    for p in (guild_payload(0, 1), guild_payload(1, 2), guild_payload(2, 3, rename=True)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    play_through(t, {0: ["m11"], 1: ["m21"], 2: ["m32"]})
    return t


def code(t, seat, type_, **data):
    return t.try_send(seat, "demloc." + type_, data)


def next_turn(t):
    finish_turn(t)
    run(t, 0, "turn.next")


# ------------------------------------------------------------------ 1. objective claims
def test_objective_is_claimed_only_at_the_end_of_the_turn_7_3_2_3():
    """7.3.2.3 "(at the end of the turn)", 6.4.2 "instead of next turn": a claim in the
    strategic or brawl phase is refused with ``not_turn_end`` and changes nothing."""
    t = three()
    assert not any(t.view(s)["can_claim_objective"] for s in (0, 1, 2))
    assert code(t, 0, "objective.achieve") == "not_turn_end"
    while t.state["phase"] == "strategic":
        run(t, acting(t), "phase.next")
    assert code(t, 1, "objective.achieve") == "not_turn_end"
    assert t.state["claim"] is None and t.state["ended"] is None
    finish_turn(t)
    assert all(t.view(s)["can_claim_objective"] for s in (0, 1, 2))
    assert t.view(None)["can_claim_objective"]  # a spectator's page shows no button (template)


def test_three_players_claim_confirmed_by_both_others_ends_with_the_claimer_winning_7_3_2_3():
    """The default reading (option ``objective_claim`` = ``confirm``): one player claims, the
    two others confirm; until then neither Next turn nor End game nor a second claim."""
    t = three()
    finish_turn(t)
    run(t, 1, "objective.achieve")
    assert t.state["ended"] is None and t.state["claim"] == {"seat": 1, "turn": 1, "agreed": []}
    assert t.view(1)["claim"]["mine"] and not t.view(1)["claim"]["can_answer"]
    assert t.view(0)["claim"]["can_answer"] and t.view(0)["claim"]["waiting"] == ["Ann", "Cid"]
    assert not t.view(0)["can_claim_objective"]
    assert code(t, 0, "turn.next") == "claim_pending"
    assert code(t, 0, "mission.end") == "claim_pending"
    assert code(t, 2, "objective.achieve") == "claim_pending"
    assert code(t, 1, "objective.answer", agree=True) == "own_claim"
    run(t, 0, "objective.answer", agree=True)
    assert code(t, 0, "objective.answer", agree=True) == "no_change"
    assert t.state["ended"] is None and t.view(2)["claim"]["waiting"] == ["Cid"]
    run(t, 2, "objective.answer", agree=True)
    assert t.state["ended"] == {"reason": "objective", "seat": 1}
    assert t.state["claim"] is None
    r = resolution.compute(t.state)
    assert (r["winner"], r["how"]) == (1, "objective")
    assert any("Bob claims the mission objective at the end of turn 1" in x for x in t.lines())
    t.assert_replay_equal()


def test_a_disputed_claim_is_withdrawn_and_play_goes_on_7_3_2_3():
    t = three()
    finish_turn(t)
    run(t, 0, "objective.achieve")
    run(t, 1, "objective.answer", agree=True)
    run(t, 2, "objective.answer", agree=False)
    assert t.state["claim"] is None and t.state["ended"] is None
    assert any("Cid disputes Ann's objective" in x for x in t.lines())
    run(t, 0, "turn.next")
    assert t.state["turn"] == 2 and code(t, 0, "objective.achieve") == "not_turn_end"


def test_claims_and_confirmations_undo_and_redo_7_3_2_3():
    """Undo takes a claim back, and an ending confirmation reopens the claim as it was."""
    t = three()
    finish_turn(t)
    run(t, 0, "objective.achieve")
    t.undo(0)
    assert t.state["claim"] is None and t.view(1)["can_claim_objective"]
    run(t, 0, "objective.achieve")
    run(t, 1, "objective.answer", agree=True)
    run(t, 2, "objective.answer", agree=True)
    assert t.state["ended"] == {"reason": "objective", "seat": 0}
    t.undo(2)
    assert t.state["ended"] is None and t.state["claim"]["agreed"] == [1]
    t.redo(2)
    assert t.state["ended"] == {"reason": "objective", "seat": 0}
    t.assert_replay_equal()


def test_answering_without_a_claim_is_refused_7_3_2_3():
    t = three()
    finish_turn(t)
    assert code(t, 1, "objective.answer", agree=True) == "no_claim"


def test_table_option_claimer_lets_the_claim_end_the_mission_alone_7_3_2_3():
    """Option ``objective_claim`` = ``claimer``: 7.3.2.3 read literally, "the player who has
    reached the mission objective can tap the end game button" (still at the end of the turn)."""
    t = three(options={"objective_claim": "claimer"})
    assert code(t, 2, "objective.achieve") == "not_turn_end"
    finish_turn(t)
    run(t, 2, "objective.achieve")
    assert t.state["ended"] == {"reason": "objective", "seat": 2}


def test_quick_game_claims_follow_the_same_timing_6_4_2():
    t = new_sim()
    assert code(t, 0, "objective.achieve") == "not_turn_end"
    finish_turn(t)
    run(t, 0, "objective.achieve")
    run(t, 1, "objective.answer", agree=True)
    assert t.state["ended"] == {"reason": "objective", "seat": 0}


# ------------------------------------------------------------------ 2. hidden turn limits
def _limit_leaks(view, limit: int) -> list[str]:
    """Every key of ``view`` (deep) that names a turn limit and holds ``limit`` (a seal limit
    is another thing)."""
    found: list[str] = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if "turn" in str(k) and "limit" in str(k) and str(v) == str(limit):
                    found.append(f"{path}.{k}")
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(view, "view")
    return found


def test_a_hidden_turn_limit_is_never_shown_to_any_seat_and_still_ends_the_mission_7():
    """7: "the app will report that the turns available to the players are over (the
    information relating to the number of turns available will not always be shown)"."""
    t = new_sim(
        names=("Ann", "Bob", "Cid"),
        options={"mission": mission_option("turns", turn_limit=2, turn_limit_hidden=True)},
    )
    for p in (guild_payload(0, 1), guild_payload(1, 2), guild_payload(2, 3, rename=True)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    while stage(t) != "characters":
        for seat in (0, 1, 2, None):
            view = t.view(seat)
            assert _limit_leaks(view, 2) == [], stage(t)
            assert view["setup"]["definition"]["turn_limit"] is None
        all_next(t)
    play_through(t, {0: ["m11"], 1: ["m21"], 2: ["m32"]})
    next_turn(t)
    assert t.state["turn"] == 2 and t.state["turn_limit"] == 2  # the rules know it
    for seat in (0, 1, 2, None):
        view = t.view(seat)
        assert _limit_leaks(view, 2) == []
        assert view["turn_limit"] == 0 and view["turn_limit_hidden"] is True
        assert not view["last_turn"] and not view["turns_over"] and not view["can_end"]
    assert not any("after turn 2" in line for line in t.lines())
    finish_turn(t)  # the last turn is over: now the app reports it
    assert t.lines()[-1].endswith("Turn 2 is over: it was the last, end the game.")
    view = t.view(1)
    assert view["turns_over"] and view["last_turn"] and view["can_end"]
    assert code(t, 0, "turn.next") == "turn_limit"
    run(t, 0, "mission.end")
    assert t.state["ended"] == {"reason": "turn_limit", "seat": None}


def test_a_shown_turn_limit_is_in_the_view_7():
    t = three("turns", turn_limit=2)
    assert t.view(0)["turn_limit"] == 2 and not t.view(0)["turn_limit_hidden"]
    next_turn(t)
    assert t.view(0)["last_turn"]  # said during the last turn, not only after it


def test_quick_game_may_hide_its_turn_limit_7():
    t = new_sim(options={"turn_limit": "3", "turn_limit_hidden": "1"})
    assert t.view(0)["turn_limit"] == 0 and "turn_limit" not in t.view(0)["options"]
    for _ in range(2):
        next_turn(t)
    finish_turn(t)
    assert t.view(0)["turns_over"]


# ------------------------------------------------------------------ 3. any number of waves
def _waves_table():
    waves = [
        {"turn": 3, "text": "They come up from the docks."},
        {"turn": 5, "text": "The last ones cross the bridge."},
    ]
    t = new_sim(names=("Ann", "Bob"), options={"mission": mission_option("waves", waves=waves)})
    for p in (guild_payload(0, 1), guild_payload(1, 2)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    while stage(t) != "characters":
        all_next(t)
    for cid in ("m11", "m12", "g13"):
        run(t, 0, "setup.pick", character=cid)
    run(t, 1, "setup.pick", character="m22")
    all_next(t)
    arcane = t.state["setup"]["picks"]["0"][0]["card"]["arcane"]
    run(t, 0, "setup.mana", character="m11", common=arcane, dark=0, seals=0)
    for _ in range(2):
        all_next(t)
    return t


def test_any_number_of_waves_each_enters_at_its_turn_with_its_text_6_4_1():
    t = _waves_table()
    assert t.view(0)["setup"]["wave_turns"] == [3, 5]
    plan = {"m11": {"area": "North gate"}, "m12": {"wave": 3}, "g13": {"wave": "5"}}
    while stage(t) == "deployment":
        seat = t.state["setup"]["deploy"]["acting"]
        left = [
            p["id"]
            for p in t.state["setup"]["picks"][str(seat)]
            if f"s{seat}-{p['id']}" not in t.state["setup"]["deploy"]["placed"]
        ]
        cid = left[0]
        if cid == "m12":
            assert code(t, 0, "setup.deploy", character=cid, wave=4) == "bad_wave"
            assert code(t, 0, "setup.deploy", character=cid, wave="x") == "bad_wave"
        run(t, seat, "setup.deploy", character=cid, **plan.get(cid, {"area": "South quay"}))
    all_next(t)
    pieces = t.state["pieces"]
    assert (pieces["s0-m12"]["enters"], pieces["s0-g13"]["enters"]) == (3, 5)
    names = {pid: pieces[pid]["name"] for pid in ("s0-m12", "s0-g13")}
    next_turn(t)
    assert t.view(0)["notice"] is None
    next_turn(t)
    notice = t.view(1)["notice"]
    assert names["s0-m12"] in notice and names["s0-g13"] not in notice
    assert "They come up from the docks." in notice
    next_turn(t)
    assert t.view(0)["notice"] is None
    next_turn(t)
    notice = t.view(0)["notice"]
    assert names["s0-g13"] in notice and "cross the bridge" in notice
    t.assert_replay_equal()


def test_wave_definitions_are_checked_6_4_1():
    assert check_waves([{"turn": 3, "text": ""}, {"turn": 5, "text": ""}], 8) is None
    assert "two waves at turn 3" in check_waves([{"turn": 3}, {"turn": 3}], 0)
    assert "from 2" in check_waves([{"turn": 1}], 0)
    assert "after the turn limit" in check_waves([{"turn": 7}], 6)
    assert "'turn'" in check_waves([{"turn": True}], 0)


# ------------------------------------------------------------------ 4. mission events
EVENTS = [
    {"turn": 2, "kind": "area_closed", "area": "South quay", "text": "The tide rises."},
    {"turn": 3, "kind": "objective", "objective": "Ring the bell twice.", "text": "It cracks."},
    {"turn": 3, "kind": "turn_limit", "turn_limit": 4, "text": "Dawn comes early."},
    {"turn": 4, "kind": "reinforcements", "text": "Each Guild places a barrel."},
]


def test_mission_events_change_the_mission_when_they_happen_and_are_shown_then_6_4_2():
    """6.4.2: "the app shows the players events that will lead to changes to the structure of
    the mission itself ... players simply have to follow the instructions shown in the app":
    never before (the preparation view leaves them out), a log line and the turn bar notice
    of that turn, the change applied (objective, turn limit, a closed area)."""
    t = new_sim(names=("Ann", "Bob"), options={"mission": mission_option(events=EVENTS)})
    for p in (guild_payload(0, 1), guild_payload(1, 2)):
        t.send(None, "demloc.setup.guild_bind", p)
    run(t, None, "setup.raffle", candidates=[])
    while stage(t) != "characters":
        for seat in (0, 1, None):
            assert "events" not in t.view(seat)["setup"]["definition"]
            assert "tide" not in json.dumps(t.view(seat))
        all_next(t)
    play_through(t, {0: ["m11"], 1: ["m21"]})
    assert t.view(0)["mission_events_now"] == []
    next_turn(t)
    now = t.view(1)["mission_events_now"]
    assert len(now) == 1 and "South quay is closed" in now[0] and "The tide rises." in now[0]
    assert [a["closed"] for a in t.view(0)["mission"]["areas"]] == [False, True]
    assert any("Mission event, turn 2: Area closed." in line for line in t.lines())
    next_turn(t)
    view = t.view(0)
    assert len(view["mission_events_now"]) == 2 and len(view["mission_events"]) == 3
    assert view["mission"]["objective"] == "Ring the bell twice."
    assert view["turn_limit"] == 4 and "ends after turn 4" in view["mission_events_now"][1]
    t.undo(0)  # undo the turn change: the events of turn 3 are undone with it
    assert t.state["turn"] == 2 and t.view(0)["mission"]["objective"] == definition()["objective"]
    assert t.state["turn_limit"] == 0 and len(t.view(0)["mission_events_now"]) == 1
    run(t, 0, "turn.next")
    next_turn(t)
    assert t.view(0)["mission_events_now"] == [
        "Mission event, turn 4: Reinforcements. Each Guild places a barrel."
    ]
    finish_turn(t)
    assert t.view(0)["turns_over"]
    run(t, 1, "mission.end")
    assert t.state["ended"]["reason"] == "turn_limit"
    t.assert_replay_equal()


def test_a_turn_limit_event_keeps_a_hidden_limit_hidden_6_4_2_and_7():
    events = [{"turn": 2, "kind": "turn_limit", "turn_limit": 3, "text": "The fog thickens."}]
    t = three("turns", turn_limit=5, turn_limit_hidden=True, events=events)
    next_turn(t)
    view = t.view(2)
    assert view["mission_events_now"] == [
        "Mission event, turn 2: Turn limit changed. The number of turns has changed. "
        "The fog thickens."
    ]
    assert _limit_leaks(view, 3) == [] and view["turn_limit"] == 0
    next_turn(t)
    finish_turn(t)
    assert t.view(0)["turns_over"]  # the new limit ends the mission


def test_mission_event_definitions_are_checked_6_4_2():
    areas = ["North gate", "South quay"]
    assert check_events(EVENTS, areas, 0) is None
    assert "kind" in check_events([{"turn": 2, "kind": "storm", "text": "x"}], areas, 0)
    assert "'text'" in check_events([{"turn": 2, "kind": "rule", "text": " "}], areas, 0)
    assert "'area'" in check_events([{"turn": 2, "kind": "area_closed", "text": "x"}], areas, 0)
    bad_area = [{"turn": 2, "kind": "area_closed", "area": "Moon", "text": "x"}]
    assert "not a deployment area" in check_events(bad_area, areas, 0)
    assert "'objective'" in check_events([{"turn": 2, "kind": "objective", "text": "x"}], areas, 0)
    early = [{"turn": 4, "kind": "turn_limit", "turn_limit": 3, "text": "x"}]
    assert "from turn 4" in check_events(early, areas, 0)
    late = [{"turn": 7, "kind": "rule", "text": "x"}]
    assert "after the turn limit" in check_events(late, areas, 6)
    moved = [{"turn": 5, "kind": "turn_limit", "turn_limit": 8, "text": "x"}, *late]
    assert check_events(moved, areas, 6) is None


# ------------------------------------------------------------------ 5. the map picture
LAYOUT = {
    "columns": 2,
    "rows": 1,
    "tiles": [
        {"tile": 1, "side": "A", "col": 1, "row": 1},
        {"tile": 2, "side": "B", "col": 2, "row": 1, "rotation": 90},
    ],
    "scenery": [{"name": "Barrel", "x": 1, "y": 0.5}],
    "areas": [{"name": "North gate", "x": 0, "y": 0, "w": 2, "h": 0.25}],
}
TILES = [{"tile": 1, "side": "A", "where": "left"}, {"tile": 2, "side": "B", "where": "right"}]
SCENERY = [{"name": "Barrel", "quantity": 2}]
AREAS = [{"name": "North gate"}, {"name": "South quay"}]


def test_the_map_picture_places_tiles_scenery_and_areas_6_4_1():
    pic = picture({"layout": LAYOUT, "tiles": TILES})
    assert pic["viewbox"] == "0 0 200 100"
    assert [(t["label"], t["x"], t["rotation"]) for t in pic["tiles"]] == [
        ("1A", 0, 0),
        ("2B", 100, 90),
    ]
    assert pic["scenery"][0]["cx"] == 100 and pic["areas"][0]["h"] == 25
    assert "Tile 2 side B: column 2, row 1, turned 90° (right)" in pic["summary"]
    assert pic["font"] >= 14  # readable on a 360 px phone (13 px and up)
    assert picture({"layout": {}}) is None


def test_map_layouts_are_checked_6_4_1():
    assert check_layout(LAYOUT, TILES, SCENERY, AREAS) is None
    assert check_layout({}, TILES, SCENERY, AREAS) is None
    same_cell = {**LAYOUT, "tiles": [{**t, "col": 1} for t in LAYOUT["tiles"]]}
    assert "two tiles" in check_layout(same_cell, TILES, SCENERY, AREAS)
    wrong_side = {**LAYOUT, "tiles": [{**LAYOUT["tiles"][0], "side": "B"}, LAYOUT["tiles"][1]]}
    assert "not in the map's tiles" in check_layout(wrong_side, TILES, SCENERY, AREAS)
    missing = {**LAYOUT, "tiles": LAYOUT["tiles"][:1]}
    assert "every tile" in check_layout(missing, TILES, SCENERY, AREAS)
    outside = {**LAYOUT, "areas": [{"name": "North gate", "x": 1, "y": 0, "w": 2, "h": 1}]}
    assert "on the 2 x 1 map" in check_layout(outside, TILES, SCENERY, AREAS)
    unknown = {**LAYOUT, "scenery": [{"name": "Statue", "x": 0, "y": 0}]}
    assert "Scenery 1" in check_layout(unknown, TILES, SCENERY, AREAS)
    turned = {**LAYOUT, "tiles": [{**LAYOUT["tiles"][0], "rotation": 45}, LAYOUT["tiles"][1]]}
    assert "rotation" in check_layout(turned, TILES, SCENERY, AREAS)
    assert "columns" in check_layout({"columns": 9, "rows": 1}, TILES, SCENERY, AREAS)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_play_view_carries_the_map_picture_6_4_1(seat):
    layout = {
        "columns": 1,
        "rows": 1,
        "tiles": LAYOUT["tiles"][:1],
        "areas": [{"name": "North gate", "x": 0, "y": 0, "w": 1, "h": 0.25}],
    }
    t = three(layout=layout, tiles=TILES[:1])
    assert t.view(seat)["mission"]["map"]["tiles"][0]["label"] == "1A"


def test_playouts_are_offered_the_claim_and_its_answers_at_the_end_of_the_turn_7_3_2_3():
    """The random playouts choose among ``DemlocRuleset.moves``: the claim is offered at the
    end of the turn only, its answers to the other players only, and no Next turn meanwhile."""
    from missions.rules import DemlocRuleset

    rules = DemlocRuleset()

    def offered(t, seat):
        return {
            (c.type, json.dumps(c.data, sort_keys=True)) for c in rules.moves(t.view(seat), seat)
        }

    t = three()
    assert not any(k == "demloc.objective.achieve" for k, _ in offered(t, 0))
    finish_turn(t)
    assert ("demloc.objective.achieve", "{}") in offered(t, 0)
    run(t, 0, "objective.achieve")
    for seat in (1, 2):
        answers = {d for k, d in offered(t, seat) if k == "demloc.objective.answer"}
        assert answers == {'{"agree": true}', '{"agree": false}'}
    mine = {k for k, _ in offered(t, 0)}
    assert "demloc.objective.answer" not in mine and "demloc.turn.next" not in mine

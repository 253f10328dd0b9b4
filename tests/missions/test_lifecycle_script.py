"""Through the database, the pages and the API: the demo missions'
waves, mission events, hidden turn limit and map pictures (DemLoc rulebook 6.4.1 map creation
and waves, 6.4.2 mission events, 7 hidden turn limits), the definition's validation and its
admin page, and an objective claimed and confirmed from two phones' pages (7.3.2.3)."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from missions.models import MissionDefinition
from tabletop import live as live_reads

from .lifecycle_flow import cmd, open_table, prepare, state
from .test_demloc_mission_script import _limit_leaks

pytestmark = pytest.mark.django_db


def test_demo_missions_have_map_pictures_waves_events_and_a_hidden_limit_6_4(demo_missions):
    for d in demo_missions.values():
        d.full_clean()
        picture = d.map_picture()
        assert picture and len(picture["tiles"]) == len(d.tiles), d.name
    ash = demo_missions["waves"]
    assert ash.turn_limit_hidden and [w["turn"] for w in ash.waves] == [3, 5]
    with_events = [d for d in demo_missions.values() if d.events]
    assert len(with_events) >= 3
    kinds = {e["kind"] for d in with_events for e in d.events}
    assert {"objective", "turn_limit", "area_closed", "reinforcements"} <= kinds
    snap = ash.snapshot()
    assert snap["turn_limit_hidden"] and snap["events"] and snap["layout"]["columns"] == 3


def test_loading_the_demo_again_brings_old_demo_rows_up_to_date(demo_missions):
    from missions.demo import load_demo_missions

    bell = demo_missions["objective"]
    MissionDefinition.objects.filter(pk=bell.pk).update(layout={}, events=[])
    load_demo_missions()
    bell.refresh_from_db()
    assert bell.layout["columns"] == 2 and bell.events


def test_the_definition_refuses_bad_waves_events_and_maps_in_the_admin_6_4_1(demo_missions):
    bell = demo_missions["objective"]
    bell.events = [{"turn": 3, "kind": "area_closed", "area": "The moon", "text": "x"}]
    bell.waves = [{"turn": 3}, {"turn": 3}]
    bell.layout = {**bell.layout, "tiles": bell.layout["tiles"][:2]}
    bell.turn_limit_hidden = True
    with pytest.raises(ValidationError) as err:
        bell.full_clean()
    errors = err.value.message_dict
    assert "not a deployment area" in errors["events"][0]
    assert "two waves at turn 3" in errors["waves"][0]
    assert "every tile" in errors["layout"][0]
    assert "Only a turn limit can be hidden" in errors["turn_limit_hidden"][0]


def test_the_admin_page_explains_the_json_and_draws_the_map(admin_client, demo_missions):
    bell = demo_missions["objective"]
    html = admin_client.get(
        reverse("admin:missions_missiondefinition_change", args=[bell.pk])
    ).content.decode()
    assert (
        'name="events"' in html and 'name="layout"' in html and 'name="turn_limit_hidden"' in html
    )
    assert "area_closed" in html and "shown to the players at the start of their turn" in html
    assert 'role="img"' in html and "Tile 1 side A: column 1, row 1" in html


def test_the_lobby_and_the_map_phase_draw_the_map_6_4_1(client, make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    client.force_login(a.master)
    lobby = client.get(reverse("missions:lobby")).content.decode()
    for d in demo_missions.values():
        assert f"Map of {d.name}" in lobby
    assert lobby.count('role="img"') == len(demo_missions)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    url = reverse("tabletop:table", args=[table.code])
    while state(table)["setup"]["stage"] != "map":
        for seat in (sa, sb):
            if seat.number not in state(table)["setup"]["ready"]:
                cmd(table, seat, "setup.next")
    html = client.get(url).content.decode()
    assert 'id="dl-map-pic"' in html and "Bell tower at 1 tiles from the left" in html
    assert "Deployment area South quay" in html


def test_a_hidden_turn_limit_is_on_no_seat_page_view_or_api_7(client, make_guild, demo_missions):
    """The Ash Procession hides its limit of 8 turns: every seat's page and view, and the
    definitions API, say nothing of it (7 "will not always be shown")."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    ash = demo_missions["waves"]
    mission, table, seats = open_table([a, b], ash)
    url = reverse("tabletop:table", args=[table.code])
    pages = {}
    while (stage := state(table)["setup"]["stage"]) != "characters":
        for guild in (a, b):
            client.force_login(guild.master)
            pages[stage, guild.pk] = client.get(url).content.decode()
        for seat in seats:
            if seat.number not in state(table)["setup"]["ready"]:
                cmd(table, seat, "setup.next")
    assert all("after turn 8" not in html and "/ 8" not in html for html in pages.values())
    assert "The number of turns is not shown" in pages["objective", b.pk]
    prepare(table, seats, {0: ["Rook"], 1: ["Ash"]})
    assert state(table)["turn_limit"] == 8
    for guild, seat in zip((a, b), seats, strict=True):
        client.force_login(guild.master)
        html = client.get(url).content.decode()
        badge = re.search(r'id="dl-turn-no">([^<]*)<', html).group(1)
        assert badge == "Turn 1"
        assert "after turn 8" not in html and "/ 8" not in html
        table.refresh_from_db()
        assert _limit_leaks(live_reads.seat_view(table, seat), 8) == []
    api = APIClient()
    api.force_authenticate(a.master)
    listing = api.get(reverse("missions:api_definitions")).json()
    rows = listing if isinstance(listing, list) else listing["results"]
    assert next(r for r in rows if r["name"] == ash.name)["turn_limit"] is None
    assert next(r for r in rows if r["kind"] == "turns")["turn_limit"] == 6


def test_an_objective_claim_and_its_confirmation_from_the_pages_7_3_2_3(
    client, make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    url = reverse("tabletop:table", args=[table.code])
    client.force_login(a.master)
    assert 'value="demloc.objective.achieve"' not in client.get(url).content.decode()
    while (s := state(table))["phase"] != "end":
        cmd(table, (sa, sb)[s["play_order"][s["acting_index"]]], "phase.next")
    html = client.get(url).content.decode()
    assert 'value="demloc.objective.achieve"' in html
    cmd(table, sa, "objective.achieve")
    html = client.get(url).content.decode()
    assert 'id="dl-claim"' in html and "Waiting for House Birch" in html
    assert 'value="demloc.turn.next"' not in html and "objective.answer" not in html
    client.force_login(b.master)
    html = client.get(url).content.decode()
    assert html.count('value="demloc.objective.answer"') == 2
    cmd(table, sb, "objective.answer", agree=True)
    assert state(table)["ended"] == {"reason": "objective", "seat": 0}


def test_a_mission_event_is_shown_in_the_turn_bar_when_it_happens_6_4_2(
    client, make_guild, demo_missions
):
    """The Drowned Bell closes the South quay at turn 3: nothing of it before, then the turn
    bar notice and the mission's list of events on every phone."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, seats = open_table([a, b], demo_missions["objective"])
    prepare(table, seats, {0: ["Rook"], 1: ["Ash"]})
    url = reverse("tabletop:table", args=[table.code])
    for turn in (2, 3):
        client.force_login(a.master)
        html = client.get(url).content.decode()
        assert 'id="dl-event"' not in html and "tide rises" not in html
        while (s := state(table))["phase"] != "end":
            cmd(table, seats[s["play_order"][s["acting_index"]]], "phase.next")
        cmd(table, seats[0], "turn.next")
        assert state(table)["turn"] == turn
    for guild in (a, b):
        client.force_login(guild.master)
        html = client.get(url).content.decode()
        notice = re.search(r'id="dl-event"[^>]*>(.*?)</div>', html, re.S).group(1)
        assert "South quay is closed" in notice and "The tide rises over the quay" in notice
        assert 'id="dl-events"' in html

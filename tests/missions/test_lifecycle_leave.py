"""A Guild Master takes their Guild out of a mission (DemLoc rulebook 6.4: "only after
disconnecting from the app ... it will be possible to modify their structure"; the app's rule
in ``missions.rules.leave``): in the preparation (6.4.1) the Guild is unbound and its hold
released; in play its characters escape (7.2.3) and a mission left with one Guild ends by
total elimination (7) and is closed at once (6.4.1 resolution)."""

import pytest
from django.test import Client

from guilds.models import Mercenary, MissionHold
from missions import services
from tabletop.live import log_lines
from tests.kit import refused

from .lifecycle_flow import achieve, cmd, kill, open_table, prepare, roster_id, state

pytestmark = pytest.mark.django_db


def merc(guild, name):
    return Mercenary.objects.get(guild=guild, card__name=name)


def held(guild, mission):
    return MissionHold.objects.filter(guild=guild, reference=f"mission:{mission.pk}").exists()


def test_leaving_in_the_guilds_step_unbinds_and_releases_the_hold_6_4_6_4_1(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    assert held(b, mission) and state(table)["setup"]["raffle"] is not None
    out = services.mission_guild_leave(table=table, seat=sb, user=b.master)
    assert out == {"left": "preparation", "closed": False}
    setup = state(table)["setup"]
    assert "1" not in setup["guilds"] and setup["raffle"] is None
    assert not held(b, mission) and held(a, mission)
    # Brought again: the control spot is drawn again among the Guilds at the table.
    services.mission_guild_bind(table=table, seat=sb, user=b.master)
    assert state(table)["setup"]["raffle"] is not None and held(b, mission)


def test_leaving_later_in_the_preparation_sends_everyone_back_to_the_guilds_step_6_4_1(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    while state(table)["setup"]["stage"] != "characters":
        for seat in (sa, sb):
            if seat.number not in state(table)["setup"]["ready"]:
                cmd(table, seat, "setup.next")
    cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Rook"))
    cmd(table, sb, "setup.pick", character=roster_id(table, sb, "Wren"))
    assert merc(a, "Rook").status == merc(b, "Wren").status == "on_mission"
    services.mission_guild_leave(table=table, seat=sb, user=b.master)
    setup = state(table)["setup"]
    assert setup["stage"] == "guilds" and setup["picks"] == {"0": [], "1": []}
    assert setup["ready"] == [] and list(setup["guilds"]) == ["0"]
    # Nothing charged, nobody left on a mission: both can change their Guilds again.
    assert merc(b, "Wren").status == "active" and not held(b, mission)
    assert merc(a, "Rook").status == "active"
    assert "everyone chooses again" in " ".join(r["text"] for r in log_lines(table))


def test_leaving_a_two_guild_mission_in_play_ends_and_closes_it_7_7_2_3_6_4_1(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren", "Tern"))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Wren", "Tern"]})
    kill(table, sb, "Tern")
    out = services.mission_guild_leave(table=table, seat=sb, user=b.master)
    assert out == {"left": "play", "closed": True}
    s = state(table)
    wren = next(p for p in s["pieces"].values() if p["name"] == "Wren")
    assert wren["status"] == "escaped"
    assert s["ended"] == {"reason": "elimination", "seat": 0} and s["closed"] is not None
    # The log says why nobody is left to play against: the Guild left, it was not wiped out.
    log = " ".join(r["text"] for r in log_lines(table))
    assert "The mission ends: total elimination (House Birch left the mission)." in log
    mission.refresh_from_db()
    assert mission.closed_at is not None and mission.result["winner"] == 0
    # The escaped mercenary is back; the one killed before leaving is dead (6.4.1).
    assert merc(b, "Wren").status == "active" and merc(b, "Tern").status == "dead"
    assert not MissionHold.objects.filter(reference=f"mission:{mission.pk}").exists()
    refused("already_closed", services.mission_guild_leave, table=table, seat=sb, user=b.master)


def test_leaving_a_three_guild_mission_frees_the_unharmed_and_keeps_the_dead_held_6_4(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    c = make_guild("House Cedar", "green", ("Kite", "Lark"))
    mission, table, (sa, sb, sc) = open_table([a, b, c], demo_missions["objective"])
    prepare(table, [sa, sb, sc], {0: ["Rook"], 1: ["Wren"], 2: ["Kite", "Lark"]})
    kill(table, sc, "Lark")
    out = services.mission_guild_leave(table=table, seat=sc, user=c.master)
    assert out == {"left": "play", "closed": False}
    assert state(table)["ended"] is None  # two Guilds play on
    assert merc(c, "Kite").status == "active"  # escaped: back in the dormitory now
    assert merc(c, "Lark").status == "on_mission" and held(c, mission)  # dead at the close
    refused("already_left", services.mission_guild_leave, table=table, seat=sc, user=c.master)
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    assert merc(c, "Lark").status == "dead" and not held(c, mission)


def test_only_the_guild_master_of_a_bound_seat_leaves_and_nothing_changes_otherwise_6_4(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    version = table.version
    refused("not_your_seat", services.mission_guild_leave, table=table, seat=sb, user=a.master)
    services.mission_guild_leave(table=table, seat=sb, user=b.master)
    table.refresh_from_db()
    version = table.version
    refused("no_guild_here", services.mission_guild_leave, table=table, seat=sb, user=b.master)
    table.refresh_from_db()
    assert table.version == version


def test_the_leave_button_and_the_api_6_4(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    phone = Client()
    phone.force_login(b.master)
    page = phone.get(f"/t/{table.code}/").content.decode()
    assert f"/missions/t/{table.code}/leave/" in page
    response = phone.post(f"/missions/t/{table.code}/leave/")
    assert response.status_code == 200 and "1" not in state(table)["setup"]["guilds"]
    again = phone.post(f"/missions/t/{table.code}/leave/")
    assert again.status_code == 400 and 'data-code="no_guild_here"' in again.content.decode()
    host = Client()
    host.force_login(a.master)
    api = host.post(f"/missions/api/missions/{mission.pk}/leave")
    assert api.status_code == 200 and api.json() == {"left": "preparation", "closed": False}
    assert not held(a, mission) and not held(b, mission)

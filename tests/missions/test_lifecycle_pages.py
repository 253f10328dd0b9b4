"""The mission pages: lobby, the table page through every phase, close, battle report, admin."""

import pytest
from django.urls import reverse

from missions.models import Mission, MissionDefinition

from .lifecycle_flow import (
    achieve,
    all_next,
    ash_and_birch,
    closed_training_mission,
    cmd,
    kill,
    prepare,
    roster_id,
    state,
)

pytestmark = pytest.mark.django_db


def test_lobby_opens_a_mission_table_for_a_guild_master(client, make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    response = client.get(reverse("missions:lobby"))
    assert "Log in" in response.content.decode()
    client.force_login(a.master)
    html = client.get(reverse("missions:lobby")).content.decode()
    for d in demo_missions.values():
        assert d.name in html
    assert 'name="opt.elimination"' in html and 'name="opt.guilds"' not in html
    response = client.post(
        reverse("missions:lobby"),
        {"definition": demo_missions["relic"].pk, "mode": "training", "opt.seals": "reaches"},
    )
    mission = Mission.objects.get()
    assert mission.table.options["seals"] == "reaches"
    assert response.status_code == 302
    assert response["Location"] == reverse("tabletop:table", args=[mission.table.code])
    assert mission.mode == "training" and mission.host == a.master
    page = client.get(response["Location"]).content.decode()
    assert mission.table.code in page and "The Reliquary of Loch" in page


def test_every_phase_renders_and_the_bind_button_brings_the_guild(
    client, make_guild, demo_missions
):
    a, b, mission, table, (sa, sb) = ash_and_birch(make_guild, demo_missions["waves"])
    client.force_login(a.master)
    url = reverse("tabletop:table", args=[table.code])
    seen = {}
    while state(table)["setup"]["stage"] != "characters":
        seen[state(table)["setup"]["stage"]] = client.get(url).content.decode()
        all_next(table, [sa, sb])
    seen["characters"] = client.get(url).content.decode()
    assert "Bring my Guild</button>" not in seen["guilds"] and "House Birch" in seen["guilds"]
    assert "Bring my Guild again" in seen["guilds"]
    assert "Salt" not in seen["objective"] and "Break the procession" in seen["objective"]
    assert "Wave at turn 3" in seen["objective"]
    assert "Tile 9B" in seen["map"] and "North gate" in seen["map"]
    assert 'value="demloc.setup.pick"' in seen["characters"] and "Rook" in seen["characters"]
    for seat, name in ((sa, "Rook"), (sb, "Ash")):
        cmd(table, seat, "setup.pick", character=roster_id(table, seat, name))
    all_next(table, [sa, sb])
    all_next(table, [sa, sb])
    html = client.get(url).content.decode()
    assert 'data-stage="miniatures"' in html and "a hunter miniature" in html
    assert "red sub-bases" in html and "blue sub-bases" in html


def test_bind_view_refuses_a_phone_without_a_seat_and_binds_a_seated_master(
    client, make_guild, demo_missions
):
    from tabletop import services as table_services
    from tabletop.rules import Command

    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    from missions import services

    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    table = mission.table
    table_services.seat_join(table=table, name="House Birch", user=b.master)
    table_services.run_command(table, host, Command("table.start"))
    bind = reverse("missions:bind", args=[table.code])
    response = client.post(bind)
    assert response.status_code == 404 and 'data-code="not_seated"' in response.content.decode()
    client.force_login(a.master)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert "Bring my Guild" in html
    response = client.post(bind)
    assert response.status_code == 200
    assert "House Ash" in state(table)["setup"]["guilds"]["0"]["guild"]["name"]
    response = client.post(bind)  # brings it again (a fresh snapshot): no error
    assert response.status_code == 200 and "Bring my Guild again" in response.content.decode()
    assert "data-code=" not in response.content.decode()


def test_close_from_the_page_then_report_and_json(client, make_guild, demo_missions):
    a, b, mission, table, (sa, sb) = ash_and_birch(make_guild, demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    kill(table, sb, "Ash")
    cmd(table, sa, "kill.count", kind="mercenary", level=1)
    achieve(table, sa)
    client.force_login(b.master)
    page = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert "House Ash wins" in page and 'id="dl-close"' in page
    response = client.post(reverse("missions:close", args=[table.code]))
    html = response.content.decode()
    assert response.status_code == 200 and 'id="dl-closed"' in html and 'id="dl-continue"' in html
    report = client.get(reverse("missions:report", args=[table.code])).content.decode()
    assert "House Ash wins" in report and "plays first" in report and "killed" in report
    data = client.get(reverse("missions:report_json", args=[table.code])).json()
    kinds = [t["kind"] for t in data["timeline"]]
    assert kinds[0] == "first_player" and "killed" in kinds and "kill_counted" in kinds
    assert kinds[-2:] == ["ended", "closed"]
    assert data["result"]["winner"] == 0 and data["closed"]
    # The page shows the closing time for people ("2026-12-01 16:30 UTC"), not the raw ISO
    # text the JSON keeps (found by a new user).
    shown = f"closed {data['closed'][:10]} {data['closed'][11:16]} UTC"
    assert shown in report and f"closed {data['closed'][:16]}" not in report


def test_continue_from_the_page_redirects_to_the_new_table(client, make_guild, demo_missions):

    a, b, mission, table, (sa, sb) = closed_training_mission(make_guild, demo_missions)
    client.force_login(a.master)
    response = client.post(
        reverse("missions:continue", args=[table.code]),
        {"definition": demo_missions["control"].pk, "mode": "standard"},
        HTTP_HX_REQUEST="true",
    )
    new = Mission.objects.get(previous=mission)
    assert response["HX-Redirect"] == reverse("tabletop:table", args=[new.table.code])
    old_page = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert 'id="dl-next-mission"' in old_page


def test_admin_lists_definitions_and_checks_the_map(admin_client, demo_missions):
    response = admin_client.get(reverse("admin:missions_missiondefinition_changelist"))
    assert response.status_code == 200 and "Hold the Salt Market" in response.content.decode()
    d = MissionDefinition(
        name="Broken", kind="waves", objective="x", tiles=[{"tile": 15, "side": "C"}], deployment=[]
    )
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as err:
        d.full_clean()
    assert {"tiles", "deployment", "waves"} <= set(err.value.message_dict)
    response = admin_client.get(
        reverse("admin:missions_missiondefinition_change", args=[demo_missions["relic"].pk])
    )
    assert response.status_code == 200


def test_load_demo_content_loads_a_demo_mission_of_every_type(db):
    import io

    from django.core.management import call_command

    call_command("load_demo_content", stdout=io.StringIO())
    call_command("load_demo_content", stdout=io.StringIO())  # idempotent
    kinds = sorted(MissionDefinition.objects.values_list("kind", flat=True))
    assert kinds == ["control", "objective", "relic", "turns", "waves"]
    for d in MissionDefinition.objects.all():
        d.full_clean()
        assert d.followers.count() == 2


def test_admin_shows_a_closed_mission_with_its_result(admin_client, make_guild, demo_missions):

    a, b, mission, table, (sa, sb) = closed_training_mission(make_guild, demo_missions)
    listing = admin_client.get(reverse("admin:missions_mission_changelist"))
    assert listing.status_code == 200 and "The Drowned Bell" in listing.content.decode()
    page = admin_client.get(reverse("admin:missions_mission_change", args=[mission.pk]))
    assert page.status_code == 200 and "winner_name" in page.content.decode()
    assert admin_client.get(reverse("admin:missions_mission_add")).status_code == 403


def test_home_page_tells_a_demo_table_from_a_guild_mission(client, make_guild, demo_missions):
    """The home list says which DemLoc table writes into the Guilds."""
    from tabletop.models import Seat, Table

    a = make_guild("House Ash", "red", ("Rook",))
    client.force_login(a.master)
    client.post(
        reverse("missions:lobby"), {"definition": demo_missions["relic"].pk, "mode": "standard"}
    )
    demo = Table.objects.create(ruleset="demloc", title="DemLoc mission")
    Seat.objects.create(table=demo, number=0, name="Ash", user=a.master)
    html = client.get(reverse("home")).content.decode()
    assert 'data-kind="guild-mission">Guild mission · The Reliquary of Loch' in html
    assert html.count('data-kind="demo"') == 1


def test_an_ended_mission_not_yet_closed_says_so_in_the_status_badge_6_4_1(
    client, make_guild, demo_missions
):
    """Found by a new user: the badge said "Playing" next to the result and the Close button.
    A lobby mission that ended is over once it is closed (6.4.1: the result is written into
    the guilds; until then undo may reopen it)."""
    a, b, mission, table, (sa, sb) = ash_and_birch(make_guild, demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})

    def badge(html: str) -> str:
        return html.split('id="table-status">')[1].split("</span>")[0]

    client.force_login(b.master)
    url = reverse("tabletop:table", args=[table.code])
    assert badge(client.get(url).content.decode()) == "Playing"
    kill(table, sb, "Ash")
    achieve(table, sa)
    page = client.get(url).content.decode()
    assert 'id="dl-close"' in page
    assert badge(page) == "Ended: close to write the results"
    html = client.post(reverse("missions:close", args=[table.code])).content.decode()
    assert 'id="dl-closed"' in html and badge(html) == "Finished"


def test_the_home_page_lists_a_table_with_the_words_of_its_status_badge(
    client, make_guild, demo_missions
):
    """Found by a new user: the home page's list said "Playing" for a table whose page said
    "Ended: close to write the results". One function gives both their words
    (``tabletop.live.table_status_text``), in preparation, play, ended and closed."""
    a, b, mission, table, (sa, sb) = ash_and_birch(make_guild, demo_missions["objective"])
    client.force_login(b.master)
    url = reverse("tabletop:table", args=[table.code])

    def badge(html: str) -> str:
        return html.split('id="table-status">')[1].split("</span>")[0]

    def listed() -> str:
        html = client.get(reverse("home")).content.decode()
        row = html.split(f'data-table="{table.code}"')[1].split("</li>")[0]
        return row.split("data-status>")[1].split("</span>")[0]

    seen = []
    for step in ("preparation", "play", "ended", "closed"):
        if step == "play":
            prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
        elif step == "ended":
            kill(table, sb, "Ash")
            achieve(table, sa)
        elif step == "closed":
            client.post(reverse("missions:close", args=[table.code]))
        text = badge(client.get(url).content.decode())
        assert listed() == text, step
        seen.append(text)
    # Found by a new user: the badge said "Playing" while the mission was being prepared.
    assert seen == [
        "Preparing: Guilds",
        "Playing",
        "Ended: close to write the results",
        "Finished",
    ]


def test_the_way_back_from_a_live_table_leads_to_the_running_mission(
    client, make_guild, demo_missions
):
    # The phone's Back button from a live table lands on the lobby it was opened from: it
    # showed "Start a mission" with the running mission a line at the bottom. Now the running
    # mission comes first, with its status, players and a button back to its table; once it is
    # closed, it is only in the recent list.
    a, b, mission, table, (sa, sb) = ash_and_birch(make_guild, demo_missions["objective"])
    client.force_login(b.master)
    html = client.get(reverse("missions:lobby")).content.decode()
    running = html[html.index("Your mission in progress") :]
    assert html.index("Your mission in progress") < html.index('id="mission-open"')
    assert mission.definition.name in running.split("</section>")[0]
    back = f'href="{reverse("tabletop:table", args=[table.code])}">Back to the table</a>'
    assert back in running.split("</section>")[0]
    assert "Preparing" in running.split("</section>")[0] and table.code in running
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    kill(table, sb, "Ash")
    cmd(table, sa, "kill.count", kind="mercenary", level=1)
    achieve(table, sa)
    client.post(reverse("missions:close", args=[table.code]))
    html = client.get(reverse("missions:lobby")).content.decode()
    assert "Your mission in progress" not in html and "Back to the table" not in html

"""What fresh users found (DemLoc rulebook 6.4, 6.4.1): a Guild with nobody who can
play is refused at the bind with what to do; a Guild Master's seat is named after the Guild;
name fields say their 60-character limit."""

import pytest
from django.test import Client

from guilds import models as gm
from guilds import services as gs
from missions import services
from tabletop import live as live_reads
from tabletop import services as table_services
from tabletop.errors import RuleViolation
from tabletop.models import Seat
from tabletop.rules import Command

from .lifecycle_flow import achieve, open_table, prepare, state

pytestmark = pytest.mark.django_db


def started_with_a_guest(host_guild, guest_guild, demo_missions, name):
    """A standard objective mission hosted by ``host_guild``'s master, joined (as ``name``) by
    ``guest_guild``'s, started, no Guild brought yet: ``(table, the guest's seat)``."""
    mission, host = services.mission_open(
        host=host_guild.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    table = mission.table
    seat = table_services.seat_join(table=table, name=name, user=guest_guild.master)
    table_services.run_command(table, host, Command("table.start"))
    return table, seat


def test_a_guild_with_nobody_enlisted_cannot_bind_and_is_told_to_enlist_6_4_1(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    empty = make_guild("House Empty", "blue", ("Gone",))
    gs.mercenary_dismiss(guild=empty, mercenary_id=gm.Mercenary.objects.get(guild=empty).pk)
    table, seat = started_with_a_guest(a, empty, demo_missions, "bea")
    table.refresh_from_db()
    version = table.version
    with pytest.raises(RuleViolation) as exc:
        services.mission_guild_bind(table=table, seat=seat, user=empty.master)
    assert exc.value.code == "nobody_ready"
    assert "enlist mercenaries in the Dormitory first" in exc.value.message
    table.refresh_from_db()
    assert table.version == version and "1" not in table.state["setup"]["guilds"]
    assert not gm.MissionHold.objects.filter(guild=empty).exists()
    # On the page: the refusal at the button, with the hint.
    phone = Client()
    phone.force_login(empty.master)
    response = phone.post(f"/missions/t/{table.code}/bind/")
    body = response.content.decode()
    assert response.status_code == 400 and 'data-code="nobody_ready"' in body
    assert "Dormitory" in body


def test_a_guild_whose_armed_mercenary_is_injured_is_told_to_heal_it_6_4_1(
    make_guild, demo_missions
):
    """Found by a new user: "Another mission" told a Guild whose one armed mercenary was only
    injured to "enlist mercenaries ... and arm them"; the cure is healing, for its feods."""
    a = make_guild("House Ash", "red", ("Rook",))
    hurt = make_guild("House Hurt", "blue", ("Haldra",))
    haldra = gm.Mercenary.objects.get(guild=hurt)
    gs.mercenary_status_set(mercenary_id=haldra.pk, status="injured", heal_feods=5)
    table, seat = started_with_a_guest(a, hurt, demo_missions, "bea")
    with pytest.raises(RuleViolation) as exc:
        services.mission_guild_bind(table=table, seat=seat, user=hurt.master)
    assert exc.value.code == "nobody_ready"
    assert "heal Haldra for 5 feods in the Dormitory" in exc.value.message
    assert "/guild/dormitory/" in exc.value.message
    assert "enlist" not in exc.value.message


def test_a_guild_masters_seat_takes_the_guilds_name_6_4(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Wren",))
    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="training"
    )
    table = mission.table
    seat = table_services.seat_join(table=table, name="bea1987", user=b.master)
    table_services.run_command(table, host, Command("table.start"))
    services.mission_guild_bind(table=table, seat=host, user=a.master)
    services.mission_guild_bind(table=table, seat=seat, user=b.master)
    assert Seat.objects.get(pk=seat.pk).name == "House Birch"
    assert state(table)["setup"]["names"]["1"] == "House Birch"
    lines = [r["text"] for r in live_reads.log_lines(table)]
    assert "bea1987 brings House Birch." in lines
    prepare(table, [host, seat], {0: ["Rook"], 1: ["Wren"]})
    players = {p["seat"]: p["name"] for p in state(table)["players"]}
    assert players[1] == "House Birch"
    achieve(table, host)
    result = services.mission_close(mission_id=mission.pk)
    assert result["winner_name"] == "House Ash"


@pytest.mark.parametrize("url", ["/guild/found/", "/tables/new/", "/missions/new/"])
def test_name_fields_say_their_60_character_limit(db, url):
    from tests.guilds.factories import UserFactory

    phone = Client()
    phone.force_login(UserFactory())
    body = phone.get(url).content.decode()
    # The Guild's name field cuts nothing: a longer name is refused at the field (its
    # browser test, tests/e2e/test_guild_found_name.py); a seat's name field has maxlength.
    has_max = url != "/guild/found/"
    assert ('maxlength="60"' in body) == has_max and 'aria-describedby="name-hint"' in body
    assert "60 characters" in body


def test_a_guild_held_by_a_mission_not_closed_is_told_where_its_characters_are_6_4(
    make_guild, demo_missions
):
    """Found by a new user: a Guild whose characters were frozen by a mission not closed yet
    was told to "enlist mercenaries in the Dormitory first" at another mission's bind."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    _, first, seats = open_table([a, b], demo_missions["objective"], mode="standard")
    prepare(first, seats, {0: ["Rook"], 1: ["Ash"]})  # Rook is now on this mission
    c = make_guild("House Cedar", "green", ("Oak",))
    table, seat = started_with_a_guest(c, a, demo_missions, "ash")
    with pytest.raises(RuleViolation) as exc:
        services.mission_guild_bind(table=table, seat=seat, user=a.master)
    assert exc.value.code == "nobody_ready"
    assert "on another mission that is not closed yet" in exc.value.message
    assert "Dormitory" not in exc.value.message

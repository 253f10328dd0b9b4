"""The admin goes through the same services as the app (DemLoc rulebook
6.2 exploring the city, 6.4 the Guild frozen while it plays)."""

import pytest
from django.urls import reverse

from guilds import services as gs
from guilds.models import ControlPoint, Expedition, Guild, Mercenary, MissionHold
from tests.guilds.factories import AreaFactory

from .lifecycle_flow import open_table, prepare

pytestmark = pytest.mark.django_db


def send(guild, name):
    point = ControlPoint.objects.create(name=f"Mill {name}", area=AreaFactory(), kind="market")
    merc = Mercenary.objects.get(guild=guild, card__name=name)
    return gs.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=[merc.pk]), merc


def test_cancelling_an_expedition_in_the_admin_frees_its_mercenaries_6_2(admin_client, make_guild):
    guild = make_guild("House Ash", "red", ("Rook",))
    expedition, rook = send(guild, "Rook")
    url = reverse("admin:guilds_expedition_changelist")
    response = admin_client.post(
        url, {"action": "cancel", "_selected_action": [expedition.pk]}, follow=True
    )
    assert response.status_code == 200
    rook.refresh_from_db()
    expedition.refresh_from_db()
    assert rook.status == "active"
    assert expedition.outcome == "cancelled" and expedition.settled_at is not None
    gs.expedition_settle(expedition_id=expedition.pk)  # a late task changes nothing
    expedition.refresh_from_db()
    assert expedition.outcome == "cancelled"


def test_deleting_an_expedition_in_the_admin_frees_its_mercenaries_6_2(admin_client, make_guild):
    guild = make_guild("House Ash", "red", ("Rook", "Wren"))
    one, rook = send(guild, "Rook")
    two, wren = send(guild, "Wren")
    delete = reverse("admin:guilds_expedition_delete", args=[one.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    changelist = reverse("admin:guilds_expedition_changelist")
    admin_client.post(
        changelist, {"action": "delete_selected", "_selected_action": [two.pk], "post": "yes"}
    )
    assert not Expedition.objects.exists()
    rook.refresh_from_db()
    wren.refresh_from_db()
    assert rook.status == "active" and wren.status == "active"


def form_fields(html: str) -> dict:
    """The hidden inputs of an admin change page (the inlines' management forms)."""
    import re

    return {
        m.group(1): m.group(2)
        for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
    }


def test_the_guild_change_form_checks_the_name_as_the_app_does_6_4(admin_client, make_guild):
    guild = make_guild("House Ash", "red", ("Rook",))
    make_guild("House Birch", "blue", ("Ash",))
    url = reverse("admin:guilds_guild_change", args=[guild.pk])
    hidden = form_fields(admin_client.get(url).content.decode())
    too_long = admin_client.post(url, {**hidden, "name": "N" * 61, "colour": "red"})
    assert too_long.status_code == 200 and b"60 characters" in too_long.content
    taken = admin_client.post(url, {**hidden, "name": "house birch", "colour": "red"})
    assert taken.status_code == 200 and b"already has that name" in taken.content
    guild.refresh_from_db()
    assert guild.name == "House Ash"
    ok = admin_client.post(url, {**hidden, "name": "  House   Ember ", "colour": "green"})
    assert ok.status_code == 302
    guild.refresh_from_db()
    assert (guild.name, guild.colour) == ("House Ember", "green")


def test_the_admin_cannot_delete_a_mercenary_at_the_table_6_4(
    admin_client, make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    rook = Mercenary.objects.get(guild=a)
    weapon = rook.weapons.get()
    assert (
        admin_client.post(
            reverse("admin:guilds_mercenary_delete", args=[rook.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    admin_client.post(
        reverse("admin:guilds_mercenary_changelist"),
        {"action": "delete_selected", "_selected_action": [rook.pk], "post": "yes"},
    )
    admin_client.post(
        reverse("admin:guilds_armoryweapon_changelist"),
        {"action": "delete_selected", "_selected_action": [weapon.pk], "post": "yes"},
    )
    rook.refresh_from_db()
    assert rook.status == "on_mission" and rook.weapons.count() == 1
    assert Guild.objects.get(pk=a.pk).mercenaries.count() == 1


def test_staff_release_an_abandoned_mission_6_4(admin_client, make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    holds = list(MissionHold.objects.values_list("pk", flat=True))
    admin_client.post(
        reverse("admin:guilds_missionhold_changelist"),
        {"action": "release", "_selected_action": holds},
    )
    assert not MissionHold.objects.exists()
    assert set(Mercenary.objects.values_list("status", flat=True)) == {"active"}

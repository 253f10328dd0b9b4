"""Every Guild can host (DemLoc rulebook 6.4: players "connect their profiles"): a Guild name
and a seat name share one limit, and the Master renames the Guild in the app."""

import pytest
from django.test import Client
from django.urls import reverse

from guilds import rules
from guilds import services as gs
from missions import services
from missions.rules.setup_guilds import SEAT_NAME_MAX
from tabletop import services as table_services
from tabletop.errors import RuleViolation
from tests.guilds.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_guild_name_limit_is_the_seat_name_limit_6_4():
    assert rules.GUILD_NAME_MAX == table_services.MAX_SEAT_NAME == SEAT_NAME_MAX == 60


SWORN = "The Sworn Brotherhood of the Lower Loch Lanterns"  # 48 characters, found by a new user


def test_a_48_character_guild_name_is_founded_and_names_its_seat_whole_6_4(
    client, demo_missions
):
    """Found by a new user: the founding field cut the name at 40 characters without a word.
    The page's field takes 60, the Guild keeps the whole name, and so does its seat."""
    from guilds.demo import load_demo_content
    from guilds.models import AccountCode, Guild
    from tests.guilds.factories import UserFactory

    load_demo_content()
    user = UserFactory()
    client.force_login(user)
    assert "2 to 60 characters" in client.get(reverse("guilds:found")).content.decode()
    code = AccountCode.objects.filter(guild__isnull=True).first().code
    client.post(reverse("guilds:found"), {"code": code, "name": SWORN, "colour": "red"})
    guild = Guild.objects.get(master=user)
    assert guild.name == SWORN
    assert SWORN in client.get(reverse("guilds:home")).content.decode()
    mission, seat = services.mission_open(
        host=user, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    assert seat.name == SWORN


def test_a_guild_with_the_longest_name_opens_a_mission_6_4(make_guild, demo_missions):
    name = "House " + "V" * (rules.GUILD_NAME_MAX - 6)
    guild = make_guild(name, "red", ("Rook",))
    assert len(guild.name) == rules.GUILD_NAME_MAX
    mission, seat = services.mission_open(
        host=guild.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    assert seat.name == name


def test_a_name_longer_than_a_seat_is_refused_and_nothing_changes_6_4(make_guild):
    guild = make_guild("House Ash", "red", ("Rook",))
    with pytest.raises(RuleViolation) as err:
        gs.guild_update(guild=guild, name="N" * (rules.GUILD_NAME_MAX + 1))
    assert err.value.code == "bad_name"
    guild.refresh_from_db()
    assert guild.name == "House Ash"


def test_the_master_renames_the_guild_from_the_office_page_6_4(client, make_guild):
    guild = make_guild("House Ash", "red", ("Rook",))
    client.force_login(guild.master)
    page = client.get(reverse("guilds:home"))
    assert b"data-rename" in page.content
    bad = client.post(reverse("guilds:rename"), {"name": "x" * (rules.GUILD_NAME_MAX + 1), "at": "rename"})
    assert bad.status_code == 400
    assert b'data-code="bad_name"' in bad.content
    ok = client.post(reverse("guilds:rename"), {"name": "  House   of Ash ", "at": "rename"})
    assert ok.status_code == 302
    guild.refresh_from_db()
    assert guild.name == "House of Ash"


def test_the_join_page_offers_a_guild_master_the_guilds_name_for_the_seat_6_4(
    client, make_guild, demo_missions
):
    """Found by a new user: a Guild Master's seat read the account's name until the Guild was
    brought. The mission table's join page offers the Guild's name (the name the seat takes
    once it is brought); an account without a Guild is offered its own name; the card games'
    join page still offers the account's name."""
    host = make_guild("Ann's Ravens", "red", ("Rook",))
    bob = make_guild("Bob's Wolves", "blue", ("Ash",))
    mission, _seat = services.mission_open(
        host=host.master, definition_id=demo_missions["objective"].pk, mode="training"
    )
    code = mission.table.code
    client.force_login(bob.master)
    page = client.get(reverse("tabletop:join", args=[code])).content.decode()
    assert 'value="Bob&#x27;s Wolves"' in page
    client.post(reverse("tabletop:join", args=[code]), {"name": "Bob's Wolves"})
    assert list(mission.table.seats.order_by("number").values_list("name", flat=True)) == [
        "Ann's Ravens",
        "Bob's Wolves",
    ]
    nobody, other = UserFactory(), Client()
    other.force_login(nobody)
    page = other.get(reverse("tabletop:join", args=[code])).content.decode()
    assert f'value="{nobody.username}"' in page
    cards, _ = table_services.table_create(ruleset="personimo", host_name="Cat")
    client.force_login(bob.master)
    page = client.get(reverse("tabletop:join", args=[cards.code])).content.decode()
    assert f'value="{bob.master.username}"' in page

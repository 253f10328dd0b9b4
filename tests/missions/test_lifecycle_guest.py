"""Playing with a friend who has no game (DemLoc rulebook 4: "generate pre-assembled guild
combinations (using the app) to share the game even with people who do not have DemLoc"):
a Guild Master prepares a guest Guild from their own database; the friend joins the mission
without an account and plays it; nothing is written into any Guild for it but its
statistics (played, won)."""

import pytest

from guilds import models as gm
from guilds import services as gs
from guilds.models import GuestGuild, LedgerEntry, Mercenary
from missions import services
from missions.rules import DemlocRuleset
from tabletop import services as table_services
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.rules import Command
from tests.guilds.factories import AreaFactory, MercenaryCardFactory, WeaponCardFactory

from .lifecycle_flow import achieve, kill, prepare, state

pytestmark = pytest.mark.django_db


def box_two(guild):
    """A second Guild box in the Master's database: two mercenaries and two swords."""
    from guilds.demo import new_code
    from tests.guilds.factories import CardSetFactory

    mercs = [
        MercenaryCardFactory(name=n, area=AreaFactory(), hit_factor=3, armor=3)
        for n in ("Lark", "Moth")
    ]
    sword = WeaponCardFactory(name="Box sword", price_feods=0)
    card_set = CardSetFactory(kind=gm.CardSet.Kind.BASIC_GUILD)
    for m in mercs:
        gm.SetCard.objects.create(card_set=card_set, card=m, quantity=1)
    gm.SetCard.objects.create(card_set=card_set, card=sword, quantity=2)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)
    return mercs, sword


def test_a_guest_guild_is_prepared_from_cards_the_guild_does_not_use_4_5_1_1(make_guild):
    a = make_guild("House Ash", "red", ("Rook",))
    (lark, moth), sword = box_two(a)
    guest = gs.guest_guild_prepare(
        guild=a,
        name="Friends of Ash",
        colour="green",
        roster=[
            {"card": lark.pk, "weapons": [sword.pk]},
            {"card": moth.pk, "weapons": [sword.pk]},
        ],
    )
    assert [e["card"] for e in guest.roster] == [lark.pk, moth.pk]
    rook = Mercenary.objects.get(guild=a).card
    with pytest.raises(RuleViolation) as err:  # Rook's only copy is in the dormitory
        gs.guest_guild_prepare(
            guild=a, name="Two", colour="red", roster=[{"card": rook.pk, "weapons": [sword.pk]}]
        )
    assert err.value.code == "no_copy_left"
    with pytest.raises(RuleViolation) as err:  # two swords in the box, three wanted
        gs.guest_guild_prepare(
            guild=a,
            name="Three",
            colour="red",
            roster=[
                {"card": lark.pk, "weapons": [sword.pk, sword.pk]},
                {"card": moth.pk, "weapons": [sword.pk]},
            ],
        )
    assert err.value.code == "no_copy_left"
    with pytest.raises(RuleViolation) as err:
        gs.guest_guild_prepare(guild=a, name="Bare", colour="red", roster=[{"card": lark.pk}])
    assert err.value.code == "no_weapon"
    with pytest.raises(RuleViolation) as err:
        gs.guest_guild_prepare(
            guild=a,
            name="Twins",
            colour="red",
            roster=[{"card": lark.pk, "weapons": [sword.pk]}] * 2,
        )
    assert err.value.code == "duplicate_mercenary"
    assert GuestGuild.objects.count() == 1


def test_a_friend_plays_a_guest_guild_and_nothing_is_written_but_its_statistics_4_6_4(
    make_guild, demo_missions, control_point
):
    a = make_guild("House Ash", "red", ("Rook",), fame=0, feods=50)
    (lark, moth), sword = box_two(a)
    guest = gs.guest_guild_prepare(
        guild=a,
        name="Friends of Ash",
        colour="green",
        roster=[{"card": lark.pk, "weapons": [sword.pk]}, {"card": moth.pk, "weapons": [sword.pk]}],
    )
    point = control_point(name="Salt Gate")
    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    table = mission.table
    friend = table_services.seat_join(table=table, name="Dana")  # no account
    table_services.run_command(table, host, Command("table.start"))
    services.mission_guild_bind(table=table, seat=host, user=a.master)
    with pytest.raises(NotAllowed) as err:  # the Master's own seat has an account
        services.mission_guest_bind(table=table, seat=host, user=a.master, guest_guild_id=guest.pk)
    assert err.value.code == "seat_has_account"
    other = make_guild("House Birch", "blue", ("Ash",))
    with pytest.raises(NotFound) as err:  # not at this table: the gate's 404
        services.mission_guest_bind(
            table=table, seat=friend, user=other.master, guest_guild_id=guest.pk
        )
    assert err.value.code == "not_seated"
    with pytest.raises(NotFound):
        services.mission_guest_bind(table=table, seat=friend, user=a.master, guest_guild_id=10**6)
    services.mission_guest_bind(table=table, seat=friend, user=a.master, guest_guild_id=guest.pk)
    setup = state(table)["setup"]
    assert setup["guilds"]["1"]["guild"]["name"] == "Friends of Ash"
    assert setup["raffle"]["point"]["id"] == point.pk  # drawn once every Guild is in

    prepare(table, [host, friend], {0: ["Rook"], 1: ["Lark", "Moth"]})
    # Only a Guild Master's own Guild is offered "Leave the mission" (missions.rules.leave).
    game = DemlocRuleset()
    assert game.view(state(table), 0)["can_leave"] is True
    assert game.view(state(table), 1)["can_leave"] is False
    kill(table, friend, "Lark")
    achieve(table, friend)  # the friend wins
    before = {m.pk: m.status for m in Mercenary.objects.all()}
    result = services.mission_close(mission_id=mission.pk)
    assert result["winner"] == 1
    # Nothing written for the guest: no ledger row but the host's defeat, no status changed.
    rows = LedgerEntry.objects.filter(reference=f"mission:{mission.pk}")
    assert {(r.guild_id, r.currency, r.amount) for r in rows} == {(a.pk, "fame", -2)}
    after = {m.pk: m.status for m in Mercenary.objects.all()}
    assert after == {**before, **{m: "active" for m, s in before.items() if s == "on_mission"}}
    point.refresh_from_db()
    assert point.holder is None  # a guest Guild holds no control points
    guest.refresh_from_db()
    assert (guest.played, guest.won) == (1, 1)
    assert result["guilds"][1]["fame"] == 10 + 5  # the statistics shown at the resolution
    table.refresh_from_db()
    assert table.state["closed"]["guilds"][1]["guest"] is True


def test_the_master_prepares_and_brings_a_guest_guild_from_the_pages_4(
    client, make_guild, demo_missions
):
    from django.urls import reverse

    a = make_guild("House Ash", "red", ("Rook",))
    (lark, _), sword = box_two(a)
    client.force_login(a.master)
    page = client.get(reverse("guilds:friends")).content.decode()
    assert f'value="{lark.pk}"' in page
    bad = client.post(
        reverse("guilds:friend_prepare"),
        {"name": "Friends", "colour": "green", "mercenary": [lark.pk], "at": "prepare"},
    )
    assert bad.status_code == 400 and 'data-code="no_weapon"' in bad.content.decode()
    ok = client.post(
        reverse("guilds:friend_prepare"),
        {
            "name": "Friends",
            "colour": "green",
            "mercenary": [lark.pk],
            f"weapon-{lark.pk}": sword.pk,
            "at": "prepare",
        },
    )
    assert ok.status_code == 302
    guest = GuestGuild.objects.get(owner=a)

    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="training"
    )
    table = mission.table
    table_services.seat_join(table=table, name="Dana")
    table_services.run_command(table, host, Command("table.start"))
    live = client.get(f"/t/{table.code}/").content.decode()
    assert 'id="dl-guest-bind"' in live and "Friends" in live
    response = client.post(
        reverse("missions:guest_bind", args=[table.code]), {"guest": guest.pk, "seat": "1"}
    )
    assert response.status_code == 200
    assert state(table)["setup"]["guilds"]["1"]["guild"]["name"] == "Friends"

"""The Guild is frozen while it plays (DemLoc rulebook 6.4: "Only after disconnecting from the
app ... it will be possible to modify their structure (hire mercenaries, change their
equipment, etc.)"; 6.4.1 characters choice and resolution phase)."""

import pytest
from django.test import Client
from django.urls import reverse

from guilds import services as gs
from guilds.models import ControlPoint, LedgerEntry, Mercenary, MissionHold
from missions import services
from missions.models import MissionFollower
from tabletop import services as table_services
from tabletop.rules import Command
from tests.guilds.factories import AreaFactory, FollowerCardFactory
from tests.kit import refusal

from .lifecycle_flow import achieve, cmd, kill, open_table, prepare, roster_id, to_stage
from .test_lifecycle_flow import give_follower

pytestmark = pytest.mark.django_db


def merc(guild, name):
    return Mercenary.objects.select_related("card").get(guild=guild, card__name=name)


def weapon_in_database(guild, price):
    from guilds import models as gm
    from guilds.demo import new_code
    from tests.guilds.factories import CardSetFactory, WeaponCardFactory

    card = WeaponCardFactory(price_feods=price)
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)
    return card


def to_characters(table, seats):

    to_stage(table, seats, "characters")


def test_chosen_mercenaries_are_on_mission_from_the_pick_to_the_close_6_4(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook", "Wren"), feods=100)
    b = make_guild("House Birch", "blue", ("Ash",), feods=100)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    # Brought to the mission: held, nobody chosen yet.
    assert MissionHold.objects.filter(guild=a, reference=f"mission:{mission.pk}").exists()
    assert merc(a, "Rook").status == "active"
    to_characters(table, [sa, sb])
    cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Rook"))
    assert merc(a, "Rook").status == "on_mission"
    assert merc(a, "Wren").status == "active"
    cmd(table, sa, "setup.unpick", character=roster_id(table, sa, "Rook"))
    assert merc(a, "Rook").status == "active"  # no longer chosen: back in the dormitory
    cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Rook"))
    table_services.run_command(table, sa, Command("table.undo"))
    assert merc(a, "Rook").status == "active"  # an undone pick frees him too
    table_services.run_command(table, sa, Command("table.redo"))
    assert merc(a, "Rook").status == "on_mission"


def test_a_chosen_mercenary_cannot_be_dismissed_unequipped_reequipped_healed_or_sent_6_4(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook", "Wren"), feods=100)
    b = make_guild("House Birch", "blue", ("Ash",), feods=100)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    rook = merc(a, "Rook")
    weapon = rook.weapons.get()
    spare = gs.weapon_unequip(guild=a, weapon_id=merc(a, "Wren").weapons.get().pk)  # goes on
    point = ControlPoint.objects.create(name="Old Mill", area=AreaFactory(), kind="market")
    url = f"/t/{table.code}/"
    refusals = [
        refusal(gs.mercenary_dismiss, guild=a, mercenary_id=rook.pk),
        refusal(gs.weapon_unequip, guild=a, weapon_id=weapon.pk),
        refusal(gs.weapon_equip, guild=a, weapon_id=spare.pk, mercenary_id=rook.pk),
        refusal(gs.mercenary_heal, guild=a, mercenary_id=rook.pk),
        refusal(gs.expedition_start, guild=a, point_id=point.pk, mercenary_ids=[rook.pk]),
    ]
    for err in refusals:
        assert err.code == "on_mission"
        assert err.link == url and "The Drowned Bell" in err.message
        assert err.as_dict()["link"] == url
    rook.refresh_from_db()
    assert rook.status == "on_mission" and rook.weapons.count() == 1
    # Nor is one left in the dormitory sent: the Guild is at the table until it is closed.
    err = refusal(
        gs.expedition_start, guild=a, point_id=point.pk, mercenary_ids=[merc(a, "Wren").pk]
    )
    assert err.code == "on_mission" and err.link == url
    assert merc(a, "Wren").status == "active"


def test_feods_the_mission_will_charge_cannot_be_spent_meanwhile_6_4_5_1_2(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",), feods=30)
    b = make_guild("House Birch", "blue", ("Ash",), feods=30)
    bell = demo_missions["objective"]
    blade = FollowerCardFactory(name="Hired blade", feods_per_mission=20)
    MissionFollower.objects.create(definition=bell, card=blade, copies=1)
    give_follower(a, blade)
    mission, table, (sa, sb) = open_table([a, b], bell)
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]}, hires={0: [str(blade.pk)]})
    assert gs.reserved_feods(a) == 20
    dear, cheap = weapon_in_database(a, 15), weapon_in_database(a, 10)
    err = refusal(gs.weapon_buy, guild=a, card_id=dear.pk)
    assert err.code == "feods_reserved" and err.link == f"/t/{table.code}/"
    a.refresh_from_db()
    assert a.feods == 30  # nothing changed
    gs.weapon_buy(guild=a, card_id=cheap.pk)  # the 10 feods not reserved can be spent
    achieve(table, sa)
    result = services.mission_close(mission_id=mission.pk)
    a.refresh_from_db()
    # 20 left, +10 win +5 objective... feods: +20 win +5 objective, -20 hired blade, paid in full.
    assert a.feods == 25
    assert result["posted"][str(a.pk)]["charges"] == 20
    assert result["posted"][str(a.pk)]["unpaid_feods"] == 0
    charge = LedgerEntry.objects.get(guild=a, reference=f"mission:{mission.pk}", amount=-20)
    assert "followers and offers" in charge.note
    assert gs.reserved_feods(a) == 0


def test_a_guild_at_the_table_sends_nobody_to_the_city_so_its_roster_stays_pickable_6_4_1(
    make_guild, demo_missions
):
    """6.4: the Guild at a table not closed is frozen; its characters step (6.4.1) offers the
    roster it brought, so none of them may leave for the city meanwhile."""
    a = make_guild("House Ash", "red", ("Rook", "Wren"), feods=100)
    b = make_guild("House Birch", "blue", ("Ash",), feods=100)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    to_characters(table, [sa, sb])
    point = ControlPoint.objects.create(name="Old Mill", area=AreaFactory(), kind="market")
    err = refusal(
        gs.expedition_start, guild=a, point_id=point.pk, mercenary_ids=[merc(a, "Rook").pk]
    )
    assert err.code == "on_mission" and err.link == f"/t/{table.code}/"
    assert "House Ash is at the table in the mission The Drowned Bell" in err.message
    assert merc(a, "Rook").status == "active"
    # The page says so at the point's Send control.
    client = Client()
    client.force_login(a.master)
    response = client.post(
        reverse("guilds:city_send", args=[point.pk]), {"mercenary": [merc(a, "Rook").pk]}
    )
    page = response.content.decode()
    assert response.status_code == 400
    at = page.index(f'id="point-{point.pk}')
    assert 'data-code="on_mission"' in page[at:] and "taken out of it (6.4)" in page[at:]
    cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Rook"))
    assert merc(a, "Rook").status == "on_mission"
    # Taken out of the mission (or the mission closed): the Guild sends whom it likes again.
    cmd(table, sa, "setup.unpick", character=roster_id(table, sa, "Rook"))
    services.mission_guild_leave(table=table, seat=sa, user=a.master)
    gs.expedition_start(guild=a, point_id=point.pk, mercenary_ids=[merc(a, "Rook").pk])
    assert merc(a, "Rook").status == "exploring"


def test_killed_at_the_table_is_dead_after_close_and_cannot_be_dismissed_before_6_4_1(
    make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",), feods=50)
    b = make_guild("House Birch", "blue", ("Ash", "Birch"), feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash", "Birch"]})
    kill(table, sb, "Ash")
    achieve(table, sa)
    ash = merc(b, "Ash")
    assert refusal(gs.mercenary_dismiss, guild=b, mercenary_id=ash.pk).code == "on_mission"
    result = services.mission_close(mission_id=mission.pk)
    assert result["skipped"] == []
    assert merc(b, "Ash").status == "dead"
    assert merc(b, "Birch").status == "active"  # survived: back in the dormitory
    # The Dormitory says it once, in one sentence (no "Dead: ...: Dead: ...(6.4.1).." twice).
    client = Client()
    client.force_login(b.master)
    page = " ".join(client.get("/guild/dormitory/").content.decode().split())
    assert (
        f"Dead (killed in {mission.definition.name}): stays listed, can never be used again (6.4.1).</p>"
        in page
    )
    assert page.count("never be used again") == 1 and "Dead: " not in page
    assert refusal(gs.mercenary_dismiss, guild=b, mercenary_id=ash.pk).code == "mercenary_dead"
    assert not MissionHold.objects.filter(reference=f"mission:{mission.pk}").exists()
    gs.mercenary_dismiss(guild=b, mercenary_id=merc(b, "Birch").pk)  # free again after close


def test_a_training_mission_holds_and_releases_the_guild_too_6_4(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",), feods=50)
    b = make_guild("House Birch", "blue", ("Ash",), feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"], mode="training")
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    kill(table, sb, "Ash")
    assert merc(b, "Ash").status == "on_mission"
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    assert merc(b, "Ash").status == "active"  # training: nobody dies in the Guild (6.4)
    assert not MissionHold.objects.exists()


def test_admin_grant_cannot_take_reserved_feods_6_4(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",), feods=30)
    b = make_guild("House Birch", "blue", ("Ash",), feods=30)
    bell = demo_missions["objective"]
    blade = FollowerCardFactory(name="Hired blade", feods_per_mission=20)
    MissionFollower.objects.create(definition=bell, card=blade, copies=1)
    give_follower(a, blade)
    mission, table, (sa, sb) = open_table([a, b], bell)
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]}, hires={0: [str(blade.pk)]})
    err = refusal(gs.guild_balance_change, guild_id=a.pk, reason="adjustment", feods=-15)
    assert err.code == "feods_reserved"


def test_a_new_guild_that_loses_its_first_standard_mission_can_still_enlist_5_1_1_6_4_1(
    make_guild, demo_missions
):
    # The defeat takes the new Guild to -2 fame; level 1 stays open.
    from guilds import models as gm
    from tests.guilds.factories import MercenaryCardFactory

    a = make_guild("House Ash", "red", ("Rook",), feods=50)
    b = make_guild("House New", "blue", ("Ash",), fame=0, feods=150)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    kill(table, sb, "Ash")
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    b.refresh_from_db()
    assert b.fame == -2
    recruit = MercenaryCardFactory(name="Recruit", level=1, area=AreaFactory())
    card_set = gm.CardSet.objects.create(name="Recruits", slug="recruits", kind="mercenaries")
    gm.SetCard.objects.create(card_set=card_set, card=recruit, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code="RECRUIT-0001")
    gs.set_code_redeem(guild=b, code=code.code)
    enlisted = gs.mercenary_enlist(guild=b, card_id=recruit.pk)
    assert enlisted.status == "active"


def test_the_api_refuses_with_the_code_and_the_link_of_the_mission_6_4(make_guild, demo_missions):
    from rest_framework.test import APIClient

    a = make_guild("House Ash", "red", ("Rook",), feods=50)
    b = make_guild("House Birch", "blue", ("Ash",), feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    api = APIClient()
    api.force_authenticate(a.master)
    rook = merc(a, "Rook")
    response = api.post(f"/api/guild/mercenaries/{rook.pk}/dismiss", format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "on_mission" and body["link"] == f"/t/{table.code}/"
    assert "The Drowned Bell" in body["mission"]
    assert merc(a, "Rook").status == "on_mission"


def test_a_loss_the_purse_cannot_pay_is_named_never_silently_zero_6_4_1(make_guild):
    a = make_guild("House Ash", "red", ("Rook",), feods=5)
    posted = gs.guild_mission_result_post(
        guild_id=a.pk, fame=-2, feods=-8, charges=3, note="played X", reference="mission:999"
    )
    # 3 feods of charges are paid first, then 2 of the 8 lost: 6 unpaid, said in the ledger.
    assert posted["charges"] == 3 and posted["feods"] == -2 and posted["unpaid_feods"] == 6
    a.refresh_from_db()
    assert a.feods == 0 and a.fame == -2
    row = LedgerEntry.objects.get(guild=a, reference="mission:999", currency="feods", amount=-2)
    assert "6 feods unpaid" in row.note


def test_the_ledger_has_one_row_per_reason_a_defeat_and_a_kill_apart_6_4_1(
    make_guild, demo_missions
):
    """House Birch loses (-2 fame for the defeat) and killed a level-1 mercenary (+fame,
    +feods): its ledger says each reason in a row of its own, per currency, never one row
    netting the defeat and the kill (a fame row of 0 was not written at all)."""
    a = make_guild("House Ash", "red", ("Rook",), feods=50)
    b = make_guild("House Birch", "blue", ("Ash",), feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    cmd(table, sb, "kill.count", kind="mercenary", level=1)
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    rows = LedgerEntry.objects.filter(guild=b, reference=services.mission_reference(mission.pk))
    got = sorted((r.note.split(" · ")[-1], r.currency, r.amount) for r in rows)
    defeat = [g for g in got if g[0] == "Defeat"]
    kill = [g for g in got if g[0] == "1 mercenary kill of level 1"]
    assert defeat == [("Defeat", "fame", -2)], got
    assert {c for _why, c, _n in kill} == {"fame", "feods"}, got
    assert all(n > 0 for _why, _c, n in kill), got
    b.refresh_from_db()
    assert b.fame == sum(n for _why, c, n in got if c == "fame")


def test_mission_items_that_do_not_sum_to_the_totals_are_refused(make_guild):
    a = make_guild("House Ash", "red", ("Rook",), feods=5)
    with pytest.raises(ValueError):
        gs.guild_mission_result_post(
            guild_id=a.pk, fame=3, items=[{"why": "Won the mission", "fame": 2, "charge": False}]
        )
    assert not LedgerEntry.objects.filter(guild=a, reason="mission").exists()

"""A mission from the lobby to the resolution written into the guilds (DemLoc rulebook 6.4,
6.4.1, 7), through the real services and ``run_command``."""

import pytest

from guilds import models as gm
from guilds.models import LedgerEntry, Mercenary
from missions import services
from missions.models import MissionFollower
from tabletop import services as table_services
from tabletop.errors import RuleViolation
from tabletop.models import Table
from tabletop.rules import Command
from tests.guilds.factories import FollowerCardFactory

from .lifecycle_flow import achieve, cmd, give, kill, open_table, prepare, state, wound

pytestmark = pytest.mark.django_db


def merc(guild, name):
    return Mercenary.objects.get(guild=guild, card__name=name)


def give_follower(guild, card):
    """A followers' set holding ``card``, redeemed by the Guild (``give``)."""
    give(guild, card, kind=gm.CardSet.Kind.FOLLOWERS)


def test_standard_mission_between_two_guilds_from_lobby_to_resolution(
    make_guild, demo_missions, control_point
):
    a = make_guild("House Ash", "red", ("Rook", "Wren"), fame=10, feods=100)
    b = make_guild("House Birch", "red", ("Ash", "Birch"), fame=5, feods=100)
    point = control_point(holder=b)
    bell = demo_missions["objective"]  # win 10 fame 20 feods, objective 5/5, kill 2 fame 3 feods
    blade = FollowerCardFactory(name="Hired blade", feods_per_mission=12)
    MissionFollower.objects.create(definition=bell, card=blade, copies=1)
    give_follower(a, blade)

    mission, table, (sa, sb) = open_table([a, b], bell)
    setup = state(table)["setup"]
    assert setup["raffle"]["point"]["id"] == point.pk  # the only point: free or held by a player
    assert setup["raffle"]["point"]["holder"] == "House Birch"
    prepare(table, [sa, sb], {0: ["Rook", "Wren"], 1: ["Ash", "Birch"]}, hires={0: [str(blade.pk)]})
    assert state(table)["setup"]["colours"] == {"0": "red", "1": "blue"}

    kill(table, sb, "Ash")
    cmd(table, sa, "kill.count", kind="mercenary", level=1)
    wound(table, sa, "Wren")
    achieve(table, sa)
    # Ended but not closed: nothing has changed in the guilds yet, and the chosen characters
    # are still at the table (6.4: the Guild changes only after the mission).
    a.refresh_from_db()
    assert a.fame == 10 and a.feods == 100 and merc(b, "Ash").status == "on_mission"
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING

    result = services.mission_close(mission_id=mission.pk)
    assert result["winner"] == 0 and result["how"] == "objective"
    a.refresh_from_db()
    b.refresh_from_db()
    # A: +10 win +5 objective +2 kill fame; +20 +5 +3 feods - 12 for the hired blade.
    assert (a.fame, a.feods) == (27, 116)
    # B: the defeat penalty of 2 fame.
    assert (b.fame, b.feods) == (3, 100)
    assert merc(b, "Ash").status == "dead"
    wren = merc(a, "Wren")
    assert wren.status == "injured" and wren.heal_feods == 5
    assert merc(a, "Rook").status == "active" and merc(b, "Birch").status == "active"
    point.refresh_from_db()
    assert point.holder == a
    rows = LedgerEntry.objects.filter(reference=f"mission:{mission.pk}")
    assert {r.guild_id for r in rows} == {a.pk, b.pk}
    assert all(r.reason == "mission" for r in rows)
    for guild in (a, b):
        from guilds import services as gs

        for cached, total in gs.guild_ledger_audit(guild=guild).values():
            assert cached == total
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.state["closed"]["winner"] == 0
    with pytest.raises(RuleViolation) as err:
        table_services.run_command(table, sa, Command("table.undo"))
    assert err.value.code == "nothing_to_undo"
    assert table_services.table_replay(table)["state_matches"]


def test_closing_twice_writes_once(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",), fame=0, feods=50)
    b = make_guild("House Birch", "blue", ("Ash",), fame=0, feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    achieve(table, sb)
    first = services.mission_close(mission_id=mission.pk)
    rows = LedgerEntry.objects.filter(reference=f"mission:{mission.pk}").count()
    second = services.mission_close(mission_id=mission.pk)
    assert second == first
    assert LedgerEntry.objects.filter(reference=f"mission:{mission.pk}").count() == rows
    b.refresh_from_db()
    assert b.fame == 15  # 10 for the win and 5 for the objective, once
    with pytest.raises(RuleViolation) as err:
        table_services.run_command(table, None, Command("demloc.mission.close", {}))
    assert err.value.code == "game_over"


def test_a_mission_cannot_be_closed_before_it_ends(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, seats = open_table([a, b], demo_missions["objective"])
    with pytest.raises(RuleViolation) as err:
        services.mission_close(mission_id=mission.pk)
    assert err.value.code == "not_ended"
    with pytest.raises(RuleViolation) as err:
        cmd(table, seats[0], "mission.close")
    assert err.value.code == "setup_first"


def test_training_mission_changes_nothing(make_guild, demo_missions, control_point):
    a = make_guild("House Ash", "red", ("Rook", "Wren"), fame=4, feods=60)
    b = make_guild("House Birch", "blue", ("Ash",), fame=4, feods=60)
    point = control_point(holder=b)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"], mode="training")
    assert state(table)["setup"]["raffle"] is None
    prepare(table, [sa, sb], {0: ["Rook", "Wren"], 1: ["Ash"]})
    kill(table, sb, "Ash")
    wound(table, sa, "Wren", 2)
    achieve(table, sa)
    before = LedgerEntry.objects.count()
    result = services.mission_close(mission_id=mission.pk)
    assert result["winner"] == 0 and not result["applies"]
    assert LedgerEntry.objects.count() == before
    for guild in (a, b):
        guild.refresh_from_db()
        assert (guild.fame, guild.feods) == (4, 60)
    assert merc(b, "Ash").status == "active" and merc(a, "Wren").status == "active"
    point.refresh_from_db()
    assert point.holder == b
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_four_guilds_standard_mission_won_on_kills(make_guild, demo_missions, control_point):
    names = ["House Ash", "House Birch", "House Cedar", "House Dusk"]
    guilds = [
        make_guild(n, c, (f"{n[6:]} one", f"{n[6:]} two"), fame=0, feods=40)
        for n, c in zip(names, ["red", "blue", "yellow", "green"], strict=True)
    ]
    point = control_point()  # free
    mission, table, seats = open_table(guilds, demo_missions["turns"])
    prepare(table, seats, {i: [f"{n[6:]} one", f"{n[6:]} two"] for i, n in enumerate(names)})
    # Cedar kills two mercenaries, Ash one; Dusk's first mercenary dies, Birch's is hurt.
    kill(table, seats[3], "Dusk one")
    kill(table, seats[1], "Birch one")
    wound(table, seats[1], "Birch two", 2)
    cmd(table, seats[2], "kill.count", kind="mercenary", level=1)
    cmd(table, seats[2], "kill.count", kind="mercenary", level=1)
    cmd(table, seats[0], "kill.count", kind="mercenary", level=1)
    for seat in seats:
        cmd(table, seat, "surrender.vote", agree=True)
    assert state(table)["ended"]["reason"] == "surrender"
    result = services.mission_close(mission_id=mission.pk)
    assert result["winner"] == 2 and result["how"] == "kills"
    for g in guilds:
        g.refresh_from_db()
    # Six Bells to Dawn (defaults): win 10 fame 20 feods, defeat -2 fame, kill 2 fame 3 feods.
    assert [(g.fame, g.feods) for g in guilds] == [(0, 43), (-2, 40), (14, 66), (-2, 40)]
    assert merc(guilds[3], "Dusk one").status == "dead"
    assert merc(guilds[1], "Birch one").status == "dead"
    birch = merc(guilds[1], "Birch two")
    assert birch.status == "injured" and birch.heal_feods == 10
    point.refresh_from_db()
    assert point.holder == guilds[2]


def test_continue_starts_a_new_mission_with_the_same_players(make_guild, demo_missions):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"], mode="training")
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    with pytest.raises(RuleViolation) as err:
        services.mission_continue(
            mission_id=mission.pk,
            user=a.master,
            definition_id=demo_missions["relic"].pk,
            mode="training",
        )
    assert err.value.code == "not_closed"
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    new = services.mission_continue(
        mission_id=mission.pk,
        user=b.master,
        definition_id=demo_missions["relic"].pk,
        mode="standard",
    )
    assert new.previous == mission and new.mode == "standard"
    seats = list(new.table.seats.order_by("number"))
    assert [s.user for s in seats] == [a.master, b.master]
    setup = state(new.table)["setup"]
    assert setup["stage"] == "guilds" and len(setup["guilds"]) == 2
    again = services.mission_continue(
        mission_id=mission.pk,
        user=a.master,
        definition_id=demo_missions["relic"].pk,
        mode="standard",
    )
    assert again == new


def test_only_guild_masters_open_missions_and_bring_their_own_guild(make_guild, demo_missions):
    from tabletop.errors import NotAllowed, NotFound
    from tests.guilds.factories import UserFactory

    with pytest.raises(NotFound) as err:
        services.mission_open(
            host=UserFactory(), definition_id=demo_missions["objective"].pk, mode="standard"
        )
    assert err.value.code == "no_guild"
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    guest = table_services.seat_join(table=mission.table, name="Guest", user=None)
    table_services.run_command(mission.table, host, Command("table.start"))
    with pytest.raises(NotAllowed) as err:
        services.mission_guild_bind(table=mission.table, seat=guest, user=b.master)
    assert err.value.code == "not_your_seat"


def test_a_draw_writes_one_row_naming_the_mission_in_each_ledger_once(make_guild, demo_missions):
    """6.4.1 resolution: a mission stopped by agreement with no kills is a draw that changes no
    fame, feods or blood stones; each Guild's ledger still names it, once, however many times
    it is closed, and the balances do not move."""
    a = make_guild("House Ash", "red", ("Rook",), fame=3, feods=50)
    b = make_guild("House Birch", "blue", ("Ash",), fame=3, feods=50)
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    cmd(table, sa, "surrender.vote", agree=True)
    cmd(table, sb, "surrender.vote", agree=True)
    result = services.mission_close(mission_id=mission.pk)
    assert result["winner"] is None and result["how"] == "draw"
    services.mission_close(mission_id=mission.pk)
    name = mission.definition.name
    for guild in (a, b):
        rows = list(LedgerEntry.objects.filter(guild=guild, reference=f"mission:{mission.pk}"))
        assert [(r.reason, r.amount, r.note) for r in rows] == [
            ("mission", 0, f"a draw in {name} · no change in fame, feods or blood stones")
        ], guild.name
        guild.refresh_from_db()
        assert (guild.fame, guild.feods, rows[0].balance_after) == (3, 50, 3)

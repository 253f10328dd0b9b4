"""Two phones close the same mission at the same moment: the guilds change exactly once
(docs/architecture.md: one transaction, row locks). PostgreSQL only: real concurrent
transactions in two threads, each with its own connection."""


import pytest

from guilds.models import LedgerEntry, Mercenary
from missions import services
from missions.models import Mission
from tests.kit import race

from .lifecycle_flow import achieve, cmd, kill, open_table, prepare

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_two_phones_closing_at_once_write_the_result_exactly_once(
    make_guild, demo_missions, control_point
):
    for round_ in range(3):
        a = make_guild(f"House Ash {round_}", "red", (f"Rook {round_}",), fame=0, feods=50)
        b = make_guild(f"House Birch {round_}", "blue", (f"Ash {round_}",), fame=0, feods=50)
        point = control_point(name=f"Salt Gate {round_}", holder=b)
        mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
        prepare(table, [sa, sb], {0: [f"Rook {round_}"], 1: [f"Ash {round_}"]})
        kill(table, sb, f"Ash {round_}")
        cmd(table, sa, "kill.count", kind="mercenary", level=1)
        achieve(table, sa)

        outcomes = race(2, lambda i, pk=mission.pk: services.mission_close(mission_id=pk))
        assert not any(isinstance(o, Exception) for o in outcomes), outcomes
        assert outcomes[0] == outcomes[1]
        rows = LedgerEntry.objects.filter(reference=f"mission:{mission.pk}")
        # Each reason's row once (one row per reason and currency): A's win, objective and
        # kill, in fame and feods; B's defeat, in fame.
        got = sorted((r.guild_id, r.currency, r.note.split(" · ")[-1]) for r in rows)
        assert got == sorted(
            (guild, currency, why)
            for guild, why, currencies in (
                (a.pk, "Won the mission", ("fame", "feods")),
                (a.pk, "Objective achieved", ("fame", "feods")),
                (a.pk, "1 mercenary kill of level 1", ("fame", "feods")),
                (b.pk, "Defeat", ("fame",)),
            )
            for currency in currencies
        ), got
        a.refresh_from_db()
        assert (a.fame, a.feods) == (17, 78)  # +10 +5 +2 fame; +20 +5 +3 feods
        assert Mercenary.objects.get(guild=b).status == "dead"
        point.refresh_from_db()
        assert point.holder_id == a.pk
        assert Mission.objects.get(pk=mission.pk).closed_at is not None
        table.refresh_from_db()
        assert table.status == "finished"
        assert table.events.filter(type="demloc.mission.closed").count() == 1


def test_two_phones_bringing_their_guilds_at_once_draw_the_control_spot_once(
    make_guild, demo_missions, control_point
):
    from tabletop import services as table_services
    from tabletop.rules import Command

    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    control_point(name="Salt Gate")
    control_point(name="Old Mill")
    mission, host = services.mission_open(
        host=a.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    table = mission.table
    guest = table_services.seat_join(table=table, name="House Birch", user=b.master)
    table_services.run_command(table, host, Command("table.start"))
    pairs = [(host, a.master), (guest, b.master)]
    outcomes = race(
        2,
        lambda i: services.mission_guild_bind(table=table, seat=pairs[i][0], user=pairs[i][1]),
    )
    assert outcomes == [None, None], outcomes
    table.refresh_from_db()
    assert table.events.filter(type="demloc.setup.raffle_drawn").count() == 1
    assert len(table.state["setup"]["guilds"]) == 2

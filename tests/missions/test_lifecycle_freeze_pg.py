"""Two tabs at once: one closes the mission, the other dismisses a mercenary killed at the
table (DemLoc rulebook 6.4: the Guild changes only after the mission; 6.4.1 resolution phase:
"characters who died are shown in the Guild Dormitory"). They cannot both win: the dismissal
is refused (the mercenary is on the mission until the close, dead after it) and the close
writes the death. PostgreSQL only: real concurrent transactions in two threads.

Without the hold (``guilds.services.holds.require_free`` in ``mercenary_dismiss``) the
dismissal wins whenever it runs first and the close then skips the dead mercenary, so he can be
enlisted again alive: these tests fail on that code."""

import pytest
from django.db import connection

from guilds import services as gs
from guilds.models import LedgerEntry, Mercenary
from missions import services
from tabletop.errors import TabletopError

from .lifecycle_flow import achieve, cmd, kill, open_table, prepare
from .test_lifecycle_close_pg import race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL); SQLite serialises all writers")


def test_closing_and_dismissing_the_killed_mercenary_at_once_never_both_win_6_4(
    make_guild, demo_missions
):
    for round_ in range(4):
        a = make_guild(f"House Ash {round_}", "red", (f"Rook {round_}",), feods=50)
        b = make_guild(f"House Birch {round_}", "blue", (f"Ash {round_}",), feods=50)
        mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
        prepare(table, [sa, sb], {0: [f"Rook {round_}"], 1: [f"Ash {round_}"]})
        kill(table, sb, f"Ash {round_}")
        achieve(table, sa)
        victim = Mercenary.objects.get(guild=b)

        def act(i, mission_id=mission.pk, guild=b, victim_id=victim.pk):
            if i == 0:
                return services.mission_close(mission_id=mission_id)
            return gs.mercenary_dismiss(guild=guild, mercenary_id=victim_id)

        close, dismiss = race(2, act)
        assert not isinstance(close, Exception), close
        assert isinstance(dismiss, TabletopError), "the dismissal must lose"
        assert dismiss.code in ("on_mission", "mercenary_dead")
        assert close["skipped"] == []
        assert Mercenary.objects.get(pk=victim.pk).status == "dead"
        assert LedgerEntry.objects.filter(guild=b, reference=f"mission:{mission.pk}").count() == 1


def test_choosing_and_dismissing_one_mercenary_at_once_never_both_win_6_4_1(
    make_guild, demo_missions
):
    from tests.missions.lifecycle_flow import roster_id, state
    from tests.missions.test_lifecycle_freeze import to_characters

    for round_ in range(4):
        a = make_guild(f"House Elm {round_}", "red", (f"Kite {round_}",), feods=50)
        b = make_guild(f"House Oak {round_}", "blue", (f"Lark {round_}",), feods=50)
        mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
        to_characters(table, [sa, sb])
        kite = Mercenary.objects.get(guild=a)
        char = roster_id(table, sa, f"Kite {round_}")

        def act(i, table=table, seat=sa, char=char, guild=a, kite_id=kite.pk):
            if i == 0:
                return cmd(table, seat, "setup.pick", character=char)
            return gs.mercenary_dismiss(guild=guild, mercenary_id=kite_id)

        pick, dismiss = race(2, act)
        picked = not isinstance(pick, Exception)
        dismissed = not isinstance(dismiss, Exception)
        assert picked != dismissed, (pick, dismiss)
        chosen = [p["ref"] for p in state(table)["setup"]["picks"]["0"]]
        if picked:
            assert Mercenary.objects.get(pk=kite.pk).status == "on_mission"
            assert chosen == [kite.pk]
        else:
            assert not Mercenary.objects.filter(pk=kite.pk).exists()
            assert chosen == []

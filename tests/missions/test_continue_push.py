"""A closed mission's phones are shown the way to the next one without a reload (6.4.1, "another
mission, same players"): found by a fresh-eyed review, only the player who tapped Continue
moved on. The old table gets no new version, so the update is a lobby-type one: its frames
are marked ``data-refresh`` and the page swaps them in at the version it shows."""

import pytest
from asgiref.sync import sync_to_async

from missions import services
from tabletop.publisher import PUBLISHER
from tests.missions.lifecycle_flow import achieve, open_table, prepare
from tests.tabletop.test_fanout_rows import phone


@pytest.mark.django_db(transaction=True)
async def test_the_old_table_is_told_of_the_next_mission(make_guild, demo_missions):
    def setup():
        a = make_guild("House Ash", "red", ("Rook",))
        b = make_guild("House Birch", "blue", ("Ash",))
        mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"], mode="training")
        prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
        achieve(table, sa)
        services.mission_close(mission_id=mission.pk)
        table.refresh_from_db()
        return a, b, mission, table, sa, sb

    a, b, mission, table, sa, sb = await sync_to_async(setup)()
    comm = await phone(table, sa)
    await sync_to_async(services.mission_continue)(
        mission_id=mission.pk, user=b.master, definition_id=demo_missions["relic"].pk,
        mode="standard")
    await sync_to_async(PUBLISHER.flush)()
    frame = await comm.receive_from(timeout=5)
    await comm.disconnect()
    assert "dl-next-mission" in frame
    assert frame.lstrip().startswith('<section id="live" data-refresh="1" ')  # app.js swaps it

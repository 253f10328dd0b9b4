"""A phone is never sent a frame older than one it was already sent, even a forced one
(docs/architecture.md "The live path": frames to one phone go in version order). The race: a phone's own push
(connect, heartbeat repair) reads the table in a worker thread while a command commits; the
fan-out, which renders the committed row without reading, delivers the newer frame first and
the push's older frame arrives after it. A lobby frame passes the page's version check
(frontend/app.js swaps any lobby region), so the phone went back to the lobby after the start."""

import pytest
from asgiref.sync import sync_to_async

from tabletop import services
from tabletop.fanout import get_hub, render_views
from tabletop.rules import Command
from tests.tabletop.test_fanout_rows import BASE_URL, frame_at, phone, version_of


@pytest.mark.django_db(transaction=True)
async def test_a_late_forced_push_of_an_older_version_is_not_sent(make_table):
    table, seats = await sync_to_async(make_table)("counter", players=2, start=False)
    comm = await phone(table, seats[1])
    hub = get_hub()
    (member,) = hub.rooms[table.pk].members
    # what the phone's push read just before the start committed (the lobby, version V)
    _, frames, _, _ = await sync_to_async(render_views)(
        table.pk, {"k": (member.view_seat(), BASE_URL)})
    lobby_frame = frames["k"]
    await sync_to_async(services.run_command)(table, seats[0], Command("table.start"))
    started = await frame_at(comm, table.version)
    assert 'data-status="playing"' in started
    member.offer(version_of(lobby_frame), lobby_frame, force=True)  # the push ends late
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()

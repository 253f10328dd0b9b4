"""The websocket heartbeat (docs/architecture.md "The event-sourced table": every frame carries the
version, a heartbeat finds dead sockets and missed pushes): a phone's ``{"ping": <version it
shows>}`` is answered with ``{"pong": <version>}`` when it is up to date, and with the live
region when the table moved on without it (a push it missed); a heartbeat that crossed the frame
on its way to the phone is answered by that frame alone (``TableConsumer.frame_coming``)."""

import asyncio
import json
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from tabletop import consumers, live, services
from tabletop.fanout import get_hub
from tabletop.rules import Command

from .test_live import phone, total_of, version_of
from .test_live_blocks import own_piece_tap

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_ping_at_the_current_version_is_answered_with_a_pong(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    await ben.send_to(text_data=json.dumps({"ping": 2}))
    assert json.loads(await ben.receive_from(timeout=5)) == {"pong": 2}
    await ben.disconnect()


async def test_a_phone_that_missed_a_push_gets_the_live_region_on_its_next_ping(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    # Committed, but published to a layer no consumer listens to: the push is lost.
    lost = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=lost):
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 3})
        )
    assert await ben.receive_nothing(timeout=0.3)
    await ben.send_to(text_data=json.dumps({"ping": 2}))
    frame = await ben.receive_from(timeout=5)
    assert shows(frame) == 3 and total_of(frame) == 3
    await ben.disconnect()


async def test_the_pings_of_many_phones_share_one_read_of_the_version(make_table, monkeypatch):
    # A heartbeat per phone every 2.5 s was a query per phone (160/s at 400 phones);
    # the pings of one process that arrive together share one read, still made after they
    # arrived (a pong is never an answer from memory).
    tables = [await sync_to_async(make_table)(players=2) for _ in range(2)]
    phones = [await phone(table, seat) for table, seats in tables for seat in seats]
    for p in phones:
        assert version_of(await p.receive_from(timeout=5)) == 2
    hub = get_hub()
    before = hub.version_reads
    for p in phones:
        await p.send_to(text_data=json.dumps({"ping": 2}))
    for p in phones:
        assert json.loads(await p.receive_from(timeout=5)) == {"pong": 2}
    assert hub.version_reads - before == 1
    # A phone behind a version this process heard of gets the region with no read at all
    # (once the frame it was sent is no longer on its way: FRAME_GRACE).
    monkeypatch.setattr(consumers, "FRAME_GRACE", 0.0)
    await phones[0].send_to(text_data=json.dumps({"ping": 1}))
    assert version_of(await phones[0].receive_from(timeout=5)) == 2
    assert hub.version_reads - before == 1
    for p in phones:
        await p.disconnect()


async def test_a_missed_push_found_by_one_ping_repairs_every_phone_of_the_table(make_table):
    table, seats = await sync_to_async(make_table)(players=3)
    phones = [await phone(table, seat) for seat in seats]
    for p in phones:
        assert version_of(await p.receive_from(timeout=5)) == 2
    lost = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=lost):
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 4})
        )
    assert await phones[1].receive_nothing(timeout=0.3)
    await phones[0].send_to(text_data=json.dumps({"ping": 2}))
    for p in phones:  # the two that did not ask are repaired by the same read
        frame = await p.receive_from(timeout=5)
        assert shows(frame) == 3 and total_of(frame) == 4
    for p in phones:
        await p.disconnect()


def shows(frame: str) -> int:
    """The version a frame brings: a delta's (tabletop/blocks.py) or the whole region's."""
    delta = re.match(r"<!--delta \d+ (\d+)-->", frame)
    return int(delta.group(1)) if delta else version_of(frame)


async def test_a_ping_that_crosses_the_frame_of_a_command_is_answered_by_it_alone(make_table):
    # At a busy table a heartbeat often leaves the phone while the frame of the last tap is
    # on its way to it: it showed the version before. Answered with the whole region, each such
    # heartbeat was a second render and 66 KiB for a DemLoc phone (the evening's mean frame
    # went from 7 to 15 KiB with heartbeats: docs/performance.md "DemLoc at an evening's
    # scale", sitting of 2026-12-07 21:07).
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    for amount in (1, 2, 3):
        version = (await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": amount})
        )).version
        await ben.send_to(text_data=json.dumps({"ping": version - 1}))
        got = [await ben.receive_from(timeout=5)]
        while not await ben.receive_nothing(timeout=0.5):
            got.append(await ben.receive_from(timeout=1))
        assert [shows(f) for f in got] == [version], got  # no second frame, no second render
        # and up to date, it is answered as ever
        await ben.send_to(text_data=json.dumps({"ping": version}))
        assert json.loads(await ben.receive_from(timeout=5)) == {"pong": version}
    await ben.disconnect()


async def test_a_phone_still_behind_after_its_frame_was_sent_is_repaired(make_table, monkeypatch):
    # The frame was sent but the phone did not apply it (one it could not apply: it fetches
    # the region itself, frontend/app.js): the heartbeat after the one that crossed it, still
    # behind, is answered with the whole region, however recent the frame.
    monkeypatch.setattr(consumers, "FRAME_GRACE", 30.0)
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    await sync_to_async(services.run_command)(
        table, seats[0], Command("counter.add", {"amount": 5})
    )
    assert shows(await ben.receive_from(timeout=5)) == 3
    await ben.send_to(text_data=json.dumps({"ping": 2}))  # crossed it: nothing more
    assert await ben.receive_nothing(timeout=0.5)
    await ben.send_to(text_data=json.dumps({"ping": 2}))  # still behind: repaired
    frame = await ben.receive_from(timeout=5)
    assert version_of(frame) == 3 and total_of(frame) == 5
    await ben.disconnect()


async def test_a_heartbeat_does_not_wait_for_the_thread_every_socket_shares(make_table):
    # Channels' consumers close the stale database connections of the process's one
    # thread-sensitive thread (asgiref's single_thread_executor) before every message; for a
    # heartbeat (160 a second at 400 phones) that was a hop into that thread, queued behind
    # every other socket's (TableConsumer.dispatch).
    table, seats = await sync_to_async(make_table)(players=2)
    ben = await phone(table, seats[1])
    assert version_of(await ben.receive_from(timeout=5)) == 2
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait)(10))  # that thread, busy
    try:
        await asyncio.sleep(0.1)
        await ben.send_to(text_data=json.dumps({"ping": 2}))
        assert json.loads(await ben.receive_from(timeout=3)) == {"pong": 2}
    finally:
        release.set()
        await busy
    await ben.disconnect()


async def test_at_a_busy_table_a_phone_that_applied_no_frame_is_repaired_within_two_heartbeats(
        make_table):
    # Frames less than FRAME_GRACE apart (a tap a second): a phone that could not apply a delta
    # drops every later one too (each builds on the base it lacks). Its heartbeat must still
    # bring the whole region, or it stays behind for as long as the table is busy (found by a
    # review: "crossed a frame" alone counted every heartbeat as crossing one).
    table, seats = await sync_to_async(make_table)("demloc", players=4)
    ben = await phone(table, seats[1])
    shown = version_of(await ben.receive_from(timeout=10))
    got = []

    def tap(n):
        table.refresh_from_db()
        services.run_command(table, seats[0], own_piece_tap(live.seat_view(table, seats[0]), n))

    for n in range(4):  # a tap every 0.6 s; Ben's heartbeat, still at `shown`, between two
        await sync_to_async(tap)(n)
        await asyncio.sleep(0.3)
        await ben.send_to(text_data=json.dumps({"ping": shown}))
        await asyncio.sleep(0.3)
        while not await ben.receive_nothing(timeout=0.05):
            frame = await ben.receive_from(timeout=2)
            got.append("delta" if frame.startswith("<!--delta") else "whole")
        if "whole" in got:
            break
    assert "whole" in got and n <= 1, got  # the second heartbeat at the latest
    await ben.disconnect()

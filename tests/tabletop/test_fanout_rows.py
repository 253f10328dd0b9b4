"""A command's update carries the row it committed, so the fan-out renders the new state
without reading the table (docs/architecture.md "The live path"): the frames are the very HTML
a read gives, and an update that does not go on from what the room last rendered is read."""

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tabletop import blocks, fanout, services
from tabletop import live as live_reads
from tabletop.errors import TabletopError
from tabletop.fanout import get_hub, render_views, with_row
from tabletop.models import Table
from tabletop.publisher import PUBLISHER, merge_updates
from tabletop.registry import all_rulesets, get_ruleset
from tabletop.rules import Command
from tests.tabletop.test_live_blocks import top_level
from tests.tabletop.test_publisher import phone, version_of

BASE_URL = "http://127.0.0.1"


# --- merge_updates: pure -------------------------------------------------------------------


def row(since, version, **more):
    return {"since": since, "version": version, "status": "playing", "state": "{}",
            "meta": "{}", "updated_at": "2026-12-01T18:00:00+00:00", **more}


def test_merged_rows_go_from_the_older_base_to_the_newer_version_and_keep_a_setup():
    start = (5, False, 0, row(4, 5, setup='{"tiles": 1}', state='{"n": 1}'))
    then = (6, False, 1, row(5, 6, state='{"n": 2}'))
    for a, b in ((start, then), (then, start)):  # published out of order: the same
        version, lobby, seat, merged = merge_updates(a, b)
        assert (version, lobby, seat) == (6, False, None)
        assert merged["since"] == 4 and merged["version"] == 6
        assert merged["state"] == '{"n": 2}' and merged["setup"] == '{"tiles": 1}'
    assert merge_updates(then, (6, False, 1, row(5, 6)))[2] == 1  # the same seat stays


def test_merged_rows_carry_the_events_of_both_in_order_or_none():
    """The events a merged row carries are the older's then the newer's (the fan-out carries
    its newest log lines on with them, ``tabletop.live.extend_tail``); when the two rows
    overlap, or either has none, it carries none (the fan-out then reads them)."""
    a = (5, False, 0, row(4, 5, events=["e5"]))
    b = (7, False, 0, row(5, 7, events=["e6", "e7"]))
    for x, y in ((a, b), (b, a)):
        assert merge_updates(x, y)[3]["events"] == ["e5", "e6", "e7"]
    assert "events" not in merge_updates(a, (7, False, 0, row(5, 7)))[3]
    assert "events" not in merge_updates((7, False, 0, row(5, 7)), a)[3]
    assert "events" not in merge_updates(a, (6, False, 0, row(4, 6, events=["e5", "e6"])))[3]


def test_a_lobby_change_or_an_update_without_a_row_leaves_no_row():
    assert merge_updates((5, False, 0, row(4, 5)), (5, True, None, None))[3] is None
    assert merge_updates((5, False, 0, row(4, 5)), (6, False, 0, None))[3] is None
    assert merge_updates((5, True, 0, row(4, 5)), (6, False, 0, row(5, 6)))[3] is None


def test_rows_with_a_gap_between_them_merge_into_no_row():
    # this process committed 5->6 and 7->8; another one 6->7 (it may have written the setup)
    merged = merge_updates((6, False, 0, row(5, 6)), (8, False, 0, row(7, 8)))
    assert merged[:3] == (8, False, 0) and merged[3] is None  # the fan-out reads
    base = Table(id=1, code="ABC", ruleset="counter", status="lobby", version=5, state=None,
                 meta={}, options={}, setup={})
    assert merged[3] is None or with_row(base, merged[3]) is None


def test_a_row_applies_only_to_the_version_it_was_written_over_or_a_newer_one():
    base = Table(id=1, code="ABC", ruleset="counter", status="playing", version=5,
                 state={"n": 0}, meta={}, options={"x": 1}, setup={"s": 1})
    assert with_row(base, row(6, 7)) is None  # the base missed version 6
    assert with_row(base, row(4, 5)) is None  # not newer
    new = with_row(base, row(4, 7, state='{"n": 3}'))  # merged from 4: base 5 is on its way
    assert (new.version, new.state, new.options, new.setup) == (7, {"n": 3}, {"x": 1}, {"s": 1})
    assert base.version == 5 and base.state == {"n": 0}  # the base is not touched
    assert with_row(base, row(5, 6, setup='{"s": 2}')).setup == {"s": 2}


# --- at a real table (PostgreSQL, Channels) ------------------------------------------------


def frame_version(frame: str) -> int:
    """The version a frame brings the phone to: a block delta's ``TO``, else the region's."""
    header = blocks.DELTA.match(frame)
    return int(header.group(2)) if header else version_of(frame)


async def frame_at(comm, version: int) -> str:
    while True:
        frame = await comm.receive_from(timeout=5)
        if frame_version(frame) >= version:
            assert frame_version(frame) == version
            return frame


def assert_shows_a_read(frame: str, read: str, why) -> None:
    """A whole region equals the read; a block delta's every block is the read's block."""
    header = blocks.DELTA.match(frame)
    if header is None:
        assert frame == read, why
        return
    parts = top_level(frame[header.end():])
    assert parts, why
    for element_id, html in parts:
        assert element_id and html in read, (why, element_id)


def read_render(table_id: int, seat) -> str:
    """The live region of ``seat`` (None: watching) from a read of the table, as a phone that
    connects now gets it (worked out afresh: nothing kept of the render it is compared with)."""
    live_reads.forget_views()
    _, frames, _, _ = render_views(table_id, {"k": (seat, BASE_URL)})
    return frames["k"]


COUNTER = [("counter.add", {"amount": 3}, 1), ("table.undo", {}, 0), ("table.redo", {}, 0),
           ("counter.add", {"amount": -1}, 0)]
DEMLOC = [
    ("demloc.shot.propose", {"shooter": "s0-korr", "target": "s1-bram", "test_roll": 1,
                             "dice": [3, 3, 3]}, 0),
    ("demloc.calc.apply", {}, 1),
    ("demloc.tokens.adjust", {"piece": "s1-gunner", "token": "seals", "delta": 2}, 1),
    ("demloc.mana.channel", {"piece": "s0-vesna", "common": 1, "dark": 1, "setup": True}, 0),
    ("demloc.daemon.summon", {"piece": "s0-vesna", "level": 1, "hearts": 2}, 0),
    ("table.undo", {}, 0),
    ("table.redo", {}, 0),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ruleset, commands, options", [
    ("counter", COUNTER, None),
    ("demloc", DEMLOC, {"turn_limit": "3"}),  # PostgreSQL's jsonb key order matters here
])
async def test_the_fan_out_reads_no_table_and_sends_what_a_read_would_show(
    make_table, ruleset, commands, options
):
    table, seats = await sync_to_async(make_table)(ruleset, players=2, options=options)
    phones = [(None, await phone(table)), (seats[0], await phone(table, seats[0])),
              (seats[1], await phone(table, seats[1]))]
    get_hub()
    reads = fanout.table_reads
    for kind, data, by in commands:
        await sync_to_async(services.run_command)(table, seats[by], Command(kind, data))
        for seat, comm in phones:
            frame = await frame_at(comm, table.version)
            assert_shows_a_read(frame, await sync_to_async(read_render)(table.pk, seat), (kind, seat))
    assert fanout.table_reads - reads == len(commands) * len(phones)  # only read_render's
    for _, comm in phones:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_row_that_does_not_go_on_from_the_rendered_table_is_not_trusted(make_table):
    table, (alice, bob) = make_table(players=2)
    services.run_command(table, alice, Command("counter.add", {"amount": 2}))
    base = Table.objects.get(pk=table.pk)
    views = {"k": (None, BASE_URL)}
    forged = {"since": base.version + 1, "version": base.version + 2, "status": "playing",
              "state": json.dumps({"total": 999}), "meta": "{}",
              "updated_at": "2026-12-01T18:00:00+00:00"}
    reads = fanout.table_reads
    version, frames, _, rendered = render_views(table.pk, views, base=base, row=forged)
    assert fanout.table_reads - reads == 1  # a command in between is missing: read
    assert version == base.version and "999" not in frames["k"]
    assert frames["k"] == read_render(table.pk, None)
    # the row of the next command goes on from it: rendered as committed, with no read
    services.run_command(table, bob, Command("counter.add", {"amount": 5}))
    reads = fanout.table_reads
    committed = {"since": base.version, "version": base.version + 1, "status": "playing",
                 "state": json.dumps(Table.objects.get(pk=table.pk).state), "meta": "{}",
                 "updated_at": "2026-12-01T18:00:00+00:00"}
    version, frames, _, _ = render_views(table.pk, views, base=rendered, row=committed)
    assert fanout.table_reads == reads and version == base.version + 1
    assert f'data-version="{base.version + 1}"' in frames["k"]


def _render_both(table_id, views, base, row):
    reads, event_reads = fanout.table_reads, live_reads.event_reads
    _, by_row, _, new = render_views(table_id, views, base=fanout.bare_base(base), row=row)
    assert fanout.table_reads == reads  # the row was applied (on what a room keeps): no read
    # nor a query of the newest events: the row's carried on those the read before kept
    assert live_reads.event_reads == event_reads
    live_reads.forget_views()  # the read's regions rendered afresh, not the row's kept ones
    _, by_read, _, read = render_views(table_id, views)
    assert new.version == read.version
    return by_row, by_read, new


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", [g.name for g in all_rulesets()])
async def test_every_game_renders_the_published_row_as_a_read_would(make_table, name):
    """The row each command publishes (taken from the channel layer, as a web process gets it)
    renders every view byte for byte as a read of the table does, over random moves of the
    kind the pages offer (a fresh-eyed review's probe, for each of the six games), its newest
    log lines from the events the row carries (``tabletop.live.extend_tail``), no query."""
    game = get_ruleset(name)
    table, seats = await sync_to_async(make_table)(name, players=max(2, game.min_seats))
    PUBLISHER.set_home_loop(asyncio.get_running_loop())  # as a web process's hub does
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table.group_name, channel)
    base = await sync_to_async(Table.objects.get)(pk=table.pk)
    views = {("w",): (None, BASE_URL), **{(s.pk,): (s, BASE_URL) for s in seats}}
    await sync_to_async(render_views)(table.pk, views)  # the phones connect: the log read
    rnd = random.Random(7)
    steps = 0
    for _ in range(40):
        seat = rnd.choice(seats)
        moves = game.moves(live_reads.seat_view(base, seat), seat.number)
        if not moves:
            continue
        try:
            await sync_to_async(services.run_command)(table, seat, rnd.choice(moves))
        except TabletopError:
            continue
        while True:  # this command's update (an older one may still be queued)
            message = await asyncio.wait_for(layer.receive(channel), 5)
            if message["version"] == table.version:
                break
        by_row, by_read, base = await sync_to_async(_render_both)(
            table.pk, views, base, message["row"])
        assert by_row == by_read
        steps += 1
    await layer.group_discard(table.group_name, channel)
    assert steps >= 3


@pytest.mark.django_db
def test_a_room_keeps_its_table_without_the_decoded_state(make_table):
    """A room keeps the table it last rendered as the base of the next row (``with_row``),
    which reads none of its state and meta: kept without them (``fanout.bare_base``), the
    decoded state of every table with a phone connected is not held once more per process.
    The renders from such a base: the test above."""
    table, _ = make_table("demloc", players=2)
    read = Table.objects.get(pk=table.pk)
    room = fanout.Room(None, table.pk)
    room.saw(read)
    assert room.table.state is None and room.table.meta is None
    assert (room.table.pk, room.table.version, room.table.code, room.table.options) == (
        read.pk, read.version, read.code, read.options)
    assert read.state is not None  # the table read is left as it was

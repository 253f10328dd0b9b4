"""A closed mission's phones are shown the way to the next one without a reload (6.4.1, "another
mission, same players"): found by a fresh-eyed review, only the player who tapped Continue
moved on. The old table gets no new version, so the update is a lobby-type one: its frames
are marked ``data-refresh`` and the page swaps them in at the version it shows."""

import pytest
from asgiref.sync import sync_to_async

from missions import services
from tabletop.publisher import PUBLISHER
from tests.missions.lifecycle_flow import closed_training_mission
from tests.tabletop.test_publisher import phone


@pytest.mark.django_db(transaction=True)
async def test_the_old_table_is_told_of_the_next_mission(make_guild, demo_missions):
    a, b, mission, table, (sa, sb) = await sync_to_async(closed_training_mission)(
        make_guild, demo_missions)
    comm = await phone(table, sa)
    await sync_to_async(services.mission_continue)(
        mission_id=mission.pk, user=b.master, definition_id=demo_missions["relic"].pk,
        mode="standard")
    await sync_to_async(PUBLISHER.flush)()
    frame = await comm.receive_from(timeout=5)
    await comm.disconnect()
    assert "dl-next-mission" in frame
    assert frame.lstrip().startswith('<section id="live" data-refresh="1" ')  # app.js swaps it


@pytest.mark.django_db(transaction=True)
async def test_a_seat_named_after_its_guild_is_shown_so_at_once(make_guild, demo_missions):
    """Found by a new user: after Bring my Guild the phone's header still said "You are
    <account>" until a reload (the seat was renamed without telling the phones)."""
    from tabletop import services as table_services
    from tabletop.rules import Command

    def setup():
        a = make_guild("House Ash", "red", ("Rook",))
        b = make_guild("House Birch", "blue", ("Ash",))
        mission, host = services.mission_open(
            host=a.master, definition_id=demo_missions["objective"].pk, mode="training")
        table = mission.table
        guest = table_services.seat_join(table=table, name="birch_account", user=b.master)
        table_services.run_command(table, host, Command("table.start"))
        table.refresh_from_db()
        return a, b, table, host, guest

    a, b, table, host, guest = await sync_to_async(setup)()
    comm = await phone(table, guest)
    # the host brings its Guild first: the fan-out reads the seats and keeps them
    await sync_to_async(services.mission_guild_bind)(table=table, seat=host, user=a.master)
    await sync_to_async(PUBLISHER.flush)()
    while "House Ash" not in await comm.receive_from(timeout=5):
        pass
    await sync_to_async(services.mission_guild_bind)(table=table, seat=guest, user=b.master)
    await sync_to_async(PUBLISHER.flush)()
    header = "You are <strong>House Birch</strong>"
    frames: list[str] = []
    try:
        while not any(header in f for f in frames):  # the frames the bind pushes, no reload
            frames.append(await comm.receive_from(timeout=5))
    except TimeoutError:
        pass
    await comm.disconnect()
    assert any(header in f for f in frames), frames[-1:]

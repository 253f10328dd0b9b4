"""The operations page and the health endpoint (docs/architecture.md "Interfaces and errors": "an operations
dashboard"): live tables with their connected phones, commands per minute, overdue timers,
workers and their heartbeats, errors of the last hour; /health/ from django-health-check."""

import logging
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from guilds import services as guild_services
from ops.models import WorkerBeat
from tabletop import services
from tabletop.rules import Command
from tests.guilds.test_city import hire, make_point
from tests.tabletop.test_live import phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_user("op", is_staff=True, is_superuser=True))
    return client


def test_the_page_is_for_staff_only(client):
    assert client.get("/admin/ops/").status_code == 302  # to the admin login


async def test_the_page_shows_tables_phones_commands_timers_workers_and_errors(
    make_table, staff, found_guild, give
):
    table, seats = await sync_to_async(make_table)(players=2)
    for _ in range(3):
        await sync_to_async(services.run_command)(
            table, seats[0], Command("counter.add", {"amount": 1})
        )
    ann = await phone(table, seats[0])
    await ann.receive_from(timeout=5)

    def rest():
        guild = found_guild()
        (merc,) = hire(guild, give, 1)
        e = guild_services.expedition_start(
            guild=guild, point_id=make_point().pk, mercenary_ids=[merc.pk]
        )
        type(e).objects.filter(pk=e.pk).update(due_at=timezone.now() - timedelta(minutes=3))
        WorkerBeat.objects.create(
            name="celery@alive", pid=1, started_at=timezone.now(), last_seen=timezone.now()
        )
        WorkerBeat.objects.create(
            name="celery@gone",
            pid=2,
            started_at=timezone.now() - timedelta(hours=1),
            last_seen=timezone.now() - timedelta(minutes=5),
        )
        logging.getLogger("tabletop.test").error("the dice tower fell over")
        return staff.get("/admin/ops/").content.decode()

    page = await sync_to_async(rest)()
    await ann.disconnect()
    assert table.code in page
    assert 'id="ops-phones">1<' in page
    assert 'id="ops-cpm">4<' in page  # table.start + 3 taps
    assert "celery@alive" in page and "celery@gone" in page and "silent" in page
    assert "the dice tower fell over" in page
    # The logger's name breaks at its dots on a phone, never inside a word ("django.re|quest"
    # broke at 360 px in the every-page walk, with an error of django.request on the page).
    assert "tabletop.<wbr>test (" in page
    overdue = page[page.index('id="ops-overdue"') :]
    assert "<td>1</td>" in overdue.split("</table>")[0]


def test_health_says_which_part_is_down(client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("monitor", is_staff=True))  # staff only
    body = client.get("/health/?format=json")
    assert body.status_code == 500  # no worker has reported
    WorkerBeat.objects.create(
        name="celery@x", pid=1, started_at=timezone.now(), last_seen=timezone.now()
    )
    checks = client.get("/health/?format=json").json()
    assert any("Database" in k for k in checks) and any("Cache" in k for k in checks)
    assert all(v == "OK" for k, v in checks.items() if "Celery" not in k), checks


def test_each_live_table_links_to_its_page_and_admin_with_players_stage_and_turn(
    make_table, staff
):
    # The operator saw bare codes: now each live table is a card whose code opens the table
    # (and "admin" its admin page), with its players, its status words and where its game is.
    from ops.views import turn_text

    table, _ = make_table("espionage", players=3)
    table.seats.filter(number=1).update(name="Bartholomew of the Lower Loch")
    page = staff.get("/admin/ops/").content.decode()
    card = page[page.index(f'data-table="{table.code}"') :].split("</li>")[0]
    assert f'href="/t/{table.code}/"' in card
    assert f'href="/admin/tabletop/table/{table.pk}/change/"' in card
    assert "Players: P1, Bartholomew of the Lower Loch, P3" in card
    assert "Playing" in card
    assert f"phase {table.state['phase']}" in card
    assert turn_text({"turn": 3, "phase": "shooting", "round": None}) == "turn 3 · phase shooting"
    assert turn_text({"phase": {"nested": 1}}) == "" and turn_text(None) == ""

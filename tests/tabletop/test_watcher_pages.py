"""A phone without a seat watches (docs/architecture.md "The event-sourced table": anyone with the code may
watch): it sees the public table live, and its page offers no control, since any command it
sent would be refused (the kit refuses spectators: ``NotFound("not_seated")``, KIT.md section 1).

Each game is played at random through ``run_command`` (the seats tap what their pages offer,
``Ruleset.moves``), and after every command the watcher's page is fetched as a browser does
(``GET /t/<code>/`` and the live region a phone fetches when it wakes up): no form, no button,
no bottom bar; and a command it sends anyway is refused with ``not_seated`` and appends
nothing. The secrets of every game are checked against the watcher's view by the playouts
(``tabletop.testing.playout`` perturbs every secret and compares the watcher's view)."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest
from django.test import Client

from tabletop import live as live_reads
from tabletop import services
from tabletop.errors import TabletopError
from tabletop.models import Event
from tabletop.registry import get_ruleset

pytestmark = pytest.mark.django_db

#: The games at the table, with a number of players each can seat (DemLoc: a quick mission; its
#: preparation, calculations and end are in tests/missions/test_watcher_page.py).
GAMES = [
    ("counter", 3),
    ("demloc", 2),
    ("espionage", 3),
    ("personimo", 2),
    ("realm", 2),
    ("personal_demons", 2),
]

CONTROL = re.compile(r"<form\b|<button\b|hx-post=|data-command|id=\"bottom-bar\"")


def live_region(html: str) -> str:
    """The live region of a table page (``<section id="live">``, to the end of the page's
    ``#ws-root``) or the live partial itself."""
    start = html.index('<section id="live"')
    return html[start:]


def controls(html: str) -> list[str]:
    """The tags of ``html``'s live region that would send something (empty: read-only)."""
    region = live_region(html)
    return [region[max(0, m.start() - 80) : m.end() + 80] for m in CONTROL.finditer(region)]


def watcher_pages(client: Client, code: str) -> list[str]:
    page = client.get(f"/t/{code}/")
    live = client.get(f"/t/{code}/live/")
    assert page.status_code == live.status_code == 200
    return [page.content.decode(), live.content.decode()]


def play_some(table, seats, rnd: random.Random, steps: int):
    """Up to ``steps`` commands, each one a seat's page offers; yields after each."""
    game = get_ruleset(table.ruleset)
    for _ in range(steps):
        table.refresh_from_db()
        if table.status != "playing":
            return
        order = list(seats)
        rnd.shuffle(order)
        for seat in order:
            offered = list(game.moves(live_reads.seat_view(table, seat), seat.number))
            if offered:
                break
        else:
            return
        command = rnd.choice(offered)
        try:
            services.run_command(table, seat, command)
        except TabletopError:
            pass
        yield command


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_a_watchers_page_shows_the_table_and_no_control(make_table, ruleset, players):
    table, seats = make_table(ruleset, players=players)
    watcher = Client()
    rnd = random.Random(f"watcher:{ruleset}")
    checked = 0
    for _ in itertools.chain([None], play_some(table, seats, rnd, 40)):
        table.refresh_from_db()
        for html in watcher_pages(watcher, table.code):
            assert controls(html) == [], (ruleset, table.version)
            assert f'data-version="{table.version}"' in html
        checked += 1
    assert checked > 5, ruleset  # the game was played, not only dealt


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_a_command_from_a_watcher_is_refused_and_changes_nothing(make_table, ruleset, players):
    table, seats = make_table(ruleset, players=players)
    game = get_ruleset(table.ruleset)
    offered = list(game.moves(live_reads.seat_view(table, seats[0]), 0)) or [None]
    before = Event.objects.filter(table=table).count()
    watcher = Client()
    for command in offered[:3]:
        post = {
            "type": command.type if command else "table.undo",
            "expected_version": table.version,
            "idempotency_key": f"w-{random.random()}",
        }
        if command is not None:
            post["data"] = json.dumps(command.data)
        # What htmx sends for a form with data-command (app.js adds the version and key).
        response = watcher.post(f"/t/{table.code}/command/", post, headers={"HX-Request": "true"})
        assert response.status_code == 404
        assert 'data-code="not_seated"' in response.content.decode()
    for type_ in ("table.undo", "table.redo", "table.start"):
        response = watcher.post(
            f"/t/{table.code}/command/", {"type": type_}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 404 and b'data-code="not_seated"' in response.content
    first = offered[0].type if offered[0] else "table.undo"
    response = watcher.post(
        f"/t/{table.code}/command/", {"type": first}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 404 and response.json()["code"] == "not_seated"
    assert Event.objects.filter(table=table).count() == before

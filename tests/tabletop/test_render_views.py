"""The fan-out's render of a table's new state (docs/architecture.md "The live path"): one
read of the table for all its views, and nothing the page does not show. A game page that
never names the log (the counter) costs no read of the events; one that does (DemLoc) reads
them once for every view, with the seat names the fan-out already has."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tabletop import live, services
from tabletop.fanout import render_views
from tabletop.live import Lazy, live_context
from tabletop.live import render_live as render_region_html
from tabletop.rules import Command
from tabletop.seats import COOKIE, cookie_value

pytestmark = pytest.mark.django_db(transaction=True)  # committed rows, as the fan-out reads them

BASE = "http://testserver"


def _views(seats):
    views = {(s.pk, s.nonce): (s, BASE) for s in seats}
    views[(None, None)] = (None, BASE)  # watching
    return views


def _fan_out_queries(table, seats) -> tuple[list[str], dict]:
    views = _views(seats)
    _, _, known, _ = render_views(table.pk, views)  # the room keeps the seats it read
    with CaptureQueriesContext(connection) as queries:
        _, frames, _, _ = render_views(table.pk, views, known)
    return [q["sql"] for q in queries.captured_queries], frames


def test_a_counter_fan_out_reads_the_table_once_and_no_events(make_table):
    table, seats = make_table("counter", players=4)
    for seat in seats:
        services.run_command(table, seat, Command("counter.add", {"amount": 1}))
    sql, frames = _fan_out_queries(table, seats)
    assert len(sql) == 1 and "tabletop_table" in sql[0], sql
    assert len(frames) == 5
    assert all('data-version="6"' in html and 'id="total">4<' in html for html in frames.values())


def test_a_demloc_fan_out_reads_the_log_once_for_all_its_views(make_table):
    """... and once per table state in a process: a second fan-out of the same state (a phone
    behind, the other process's room) reads the table only (``tabletop.live.live_log_lines``)."""
    table, seats = make_table("demloc", players=2)
    views = _views(seats)
    _, _, known, _ = render_views(table.pk, views)  # the room keeps the seats it read
    services.run_command(table, seats[0],
                         Command("demloc.fate.gain", {"amount": 1, "reason": "test"}))
    with CaptureQueriesContext(connection) as queries:
        _, frames, _, _ = render_views(table.pk, views, known)
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 2, sql  # the table, the newest events (no second read of the seats)
    assert "tabletop_event" in sql[1]
    assert len(frames) == 3
    sql, again = _fan_out_queries(table, seats)
    assert len(sql) == 1 and "tabletop_event" not in sql[0], sql
    assert again == frames


def test_the_log_lines_are_read_only_when_a_template_shows_them(make_table):
    table, seats = make_table("counter", players=2)
    context = live_context(None, table, seats[0], base_url=BASE)
    assert isinstance(context["log_lines"], Lazy)
    with CaptureQueriesContext(connection) as queries:
        html = render_region_html(context)  # the counter: no log
    assert 'id="total">0<' in html and queries.captured_queries == []
    with CaptureQueriesContext(connection) as queries:
        lines = context["log_lines"].value()
        again = context["log_lines"].value()
    assert lines is again and len(queries.captured_queries) == 1  # the events, once
    assert [line["text"] for line in lines] == ["P1 dealt the secret numbers"]


def test_a_page_tap_and_the_fan_out_of_its_state_render_the_acting_seat_once(make_table, client):
    """The issue's item 4 on the page's path (docs/architecture.md "The live path"): the
    htmx tap's answer (``POST /t/<code>/command/`` with the seat cookie) is the live region
    the fan-out of that state in the same process sends the acting seat's phone: rendered
    once (``tabletop.live.render_region``'s ``reuse``), the other seats' rendered by the
    fan-out, each once."""
    table, seats = make_table("demloc", players=2)
    client.cookies[COOKIE] = cookie_value(seats[0])
    renders = live.region_renders
    answer = client.post(f"/t/{table.code}/command/",
                         {"type": "demloc.fate.gain", "d.amount": "1", "d.reason": "test"},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content
    assert live.region_renders == renders + 1
    views = {(s.pk, s.nonce): (s, BASE) for s in seats}
    hits = live.region_hits
    _, frames, _, _ = render_views(table.pk, views, reuse=True)  # as the hub does
    assert live.region_renders == renders + 2  # the other seat's only
    assert live.region_hits == hits + 1
    assert frames[(seats[0].pk, seats[0].nonce)] == answer.content.decode()
    assert 'data-version="' in frames[(seats[1].pk, seats[1].nonce)]

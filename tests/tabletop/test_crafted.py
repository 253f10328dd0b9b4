"""Crafted inputs an attacker sends: each is a clean 4xx with a code and
stores nothing. Deep JSON goes to every JSON operation of the OpenAPI schema, anonymous and as a
seated, logged-in Guild Master; the same body to the page command form; superscript digits to
Espionage's ``opponent`` and to DemLoc ids; encoded ``..`` to the static files."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from django.apps import apps
from django.test import Client
from rest_framework.test import APIClient

from tabletop import services
from tabletop.rules import Command
from tabletop.seats import COOKIE, cookie_value, seat_token
from tests.missions.lifecycle_flow import build_guild

DEEP = "[" * 3000 + "]" * 3000  # 6 KB, 3,000 levels
DEEP_OBJECT = '{"type": "counter.add", "data": ' + '{"a":' * 3000 + "1" + "}" * 3001


def _rows() -> dict:
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


def _json_operations(client) -> list[tuple[str, str]]:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    ops = []
    for path, item in schema["paths"].items():
        for method, op in item.items():
            # Operations without a body (POST /api/health, a building upgrade) never read one.
            content = (op.get("requestBody") or {}).get("content", {})
            if method in ("post", "put", "patch") and "application/json" in content:
                ops.append((method, path))
    return ops


def _fill(path: str, code: str, ids: dict) -> str:
    path = path.replace("{code}", code)
    return re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)


@pytest.mark.django_db
def test_deep_json_is_a_400_on_every_json_operation_anonymous_and_logged_in(make_table):
    table, seats = make_table(players=2)
    master = build_guild("House Ash", "red", ("Rook",))
    ids = {"pk": master.mercenaries.first().pk, "mission_id": 1, "kind": "dormitory"}
    anonymous = APIClient()
    logged_in = APIClient(enforce_csrf_checks=False)
    logged_in.force_login(master.master)
    logged_in.credentials(HTTP_X_SEAT_TOKEN=seat_token(seats[0]))
    operations = _json_operations(anonymous)
    assert len(operations) >= 15  # the kit's, the missions' and the Guild's writes
    before = _rows()
    for client in (anonymous, logged_in):
        for body in (DEEP, DEEP_OBJECT):
            for method, path in operations:
                url = _fill(path, table.code, ids)
                response = getattr(client, method)(url, body, content_type="application/json")
                assert response.status_code < 500, (method, url, response.status_code)
                assert response.status_code in (400, 403, 404, 405), (url, response.status_code)
                assert response.json()["code"], url
    assert _rows() == before


@pytest.mark.django_db
def test_deep_json_in_the_page_command_form_is_bad_command(make_table):
    table, seats = make_table(players=2)
    client = Client()
    client.cookies[COOKIE] = cookie_value(seats[0])
    for data in (DEEP, '{"a": ' + DEEP + "}", '{"x":' * 40 + "1" + "}" * 40):
        response = client.post(f"/t/{table.code}/command/", {"type": "counter.add", "data": data})
        assert response.status_code == 400
        assert 'data-code="bad_command"' in response.content.decode()
    table.refresh_from_db()
    assert table.version == 2


@pytest.mark.django_db
@pytest.mark.parametrize("digit", ["²", "١", "１", "-²"])
def test_unicode_digits_are_refused_before_the_game_sees_them(make_table, digit):
    """Espionage rulebook, "Duel": the opponent is a seat number; "²" passes ``isdigit``."""
    table, seats = make_table("espionage", players=4)
    active = table.state["active"]
    client = Client()
    client.cookies[COOKIE] = cookie_value(seats[active])
    page = client.post(
        f"/t/{table.code}/command/",
        {"type": "espionage.duel.challenge", "d.opponent": digit},
    )
    assert page.status_code == 400 and 'data-code="bad_number"' in page.content.decode()
    api = APIClient()
    api.credentials(HTTP_X_SEAT_TOKEN=seat_token(seats[active]))
    response = api.post(
        f"/api/tables/{table.code}/commands",
        {"type": "espionage.duel.challenge", "data": {"opponent": digit}},
        format="json",
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_number"
    nested = api.post(
        f"/api/tables/{table.code}/commands",
        {"type": "espionage.duel.challenge", "data": {"x": [{"y": f"{digit}1"}]}},
        format="json",
    )
    assert nested.status_code == 400 and nested.json()["code"] == "bad_number"
    table.refresh_from_db()
    assert table.state["duel"] is None


@pytest.mark.django_db
def test_unicode_digits_in_demloc_ids_are_4xx(client):
    master = build_guild("House Ash", "red", ("Rook",))
    client.force_login(master.master)
    api = APIClient()
    api.force_login(master.master)
    before = _rows()
    for value in ("²", "1²", "١"):
        page = client.post("/missions/", {"definition": value, "mode": "standard"})
        assert 400 <= page.status_code < 500
        response = api.post(
            "/missions/api/missions", {"definition": value, "mode": "standard"}, format="json"
        )
        assert response.status_code in (400, 404) and response.json()["code"]
        assert client.get(f"/missions/api/missions/{value}/report").status_code == 404
        assert client.post(f"/guild/dormitory/{value}/dismiss/").status_code == 404
    assert _rows() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    [
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/%2e%2e/config/settings.py",
        "/static/..%2f..%2fmanage.py",
        "/static/frontend/%2e%2e/%2e%2e/%2e%2e/manage.py",
        "/static/%00",
    ],
)
async def test_encoded_dot_dot_under_static_is_404_not_500(path, settings):
    settings.DEBUG = False
    from django.templatetags.static import static

    from config.asgi import application

    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.get(path)
        assert response.status_code == 404
        assert (await http.get(static("frontend/app.css"))).status_code == 200


@pytest.mark.django_db
def test_an_oversized_or_malformed_body_is_a_400_with_a_code(make_table):
    table, seats = make_table(players=2)
    api = APIClient()
    api.credentials(HTTP_X_SEAT_TOKEN=seat_token(seats[0]))
    url = f"/api/tables/{table.code}/commands"
    for body in (b"\xff\xfe", b'{"type": "counter.add", "data": {"a": "\\ud800"}}', b"[]", b"1"):
        response = api.post(url, body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json()["code"]
    services.run_command(table, seats[0], Command("counter.add", {"amount": 1}))
    assert json.loads(api.get(f"/api/tables/{table.code}/view").content)["view"]["total"] == 1

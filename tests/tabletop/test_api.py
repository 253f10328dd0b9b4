"""The JSON API: create, join, command, view, admin log, schema; bad input answered 4xx."""

import json

import pytest
from django.contrib.auth.models import User

from tabletop.models import Event, Table

pytestmark = pytest.mark.django_db


def post(client, url, body, token=None, raw=False):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    payload = body if raw else json.dumps(body)
    return client.post(url, payload, content_type="application/json", **headers)


@pytest.fixture
def api_table(client):
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    guest = post(client, f"/api/tables/{host['code']}/join", {"name": "Ben"}).json()
    started = post(
        client,
        f"/api/tables/{host['code']}/commands",
        {"type": "table.start"},
        host["seat_token"],
    )
    assert started.status_code == 200, started.content
    return host["code"], host["seat_token"], guest["seat_token"]


def test_create_join_command_and_view(client, api_table):
    tcode, ann, ben = api_table
    response = post(
        client,
        f"/api/tables/{tcode}/commands",
        {
            "type": "counter.add",
            "data": {"amount": 3},
            "expected_version": 2,
            "idempotency_key": "abc",
        },
        ben,
    )
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == 3 and body["view"]["total"] == 3
    view = client.get(f"/api/tables/{tcode}/view", HTTP_X_SEAT_TOKEN=ann).json()
    assert view["seat"] == 0 and view["view"]["total"] == 3


def test_stale_version_is_409(client, api_table):
    tcode, ann, ben = api_table
    response = post(
        client,
        f"/api/tables/{tcode}/commands",
        {"type": "counter.add", "data": {"amount": 3}, "expected_version": 1},
        ann,
    )
    assert response.status_code == 409 and response.json()["code"] == "stale_version"


@pytest.mark.parametrize(
    "body,raw,code",
    [
        ("{not json", True, "parse_error"),
        ({"type": "counter.teleport"}, False, "unknown_command"),
        ({"type": "counter.add", "data": {"amount": "lots"}}, False, "bad_amount"),
        ({"type": "counter.add", "data": [1, 2]}, False, "invalid"),
        ({"type": 5, "data": {}, "expected_version": "soon"}, False, "invalid"),
        ({"data": {}}, False, "invalid"),
        ({"type": "table.delete_everything"}, False, "unknown_command"),
        ({"type": "counter.add", "data": {"amount": 1, "pad": "x" * 20000}}, False, "too_large"),
        ({"type": "counter.add", "data": {"pad": "x" * 100000}}, False, "too_large"),
    ],
)
def test_bad_input_is_a_clear_4xx_and_appends_nothing(client, api_table, body, raw, code):
    tcode, ann, ben = api_table
    before = Event.objects.filter(table__code=tcode).count()
    response = post(client, f"/api/tables/{tcode}/commands", body, ann, raw=raw)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert Event.objects.filter(table__code=tcode).count() == before
    ok = post(
        client,
        f"/api/tables/{tcode}/commands",
        {"type": "counter.add", "data": {"amount": 1}},
        ann,
    )
    assert ok.status_code == 200  # the server keeps serving


def test_someone_elses_or_a_forged_seat_token_is_refused(client, api_table):
    tcode, ann, ben = api_table
    other = post(client, "/api/tables/", {"ruleset": "counter", "name": "Zed"}).json()
    for token in (other["seat_token"], ann[:-2] + "xx", "garbage"):
        response = post(
            client,
            f"/api/tables/{tcode}/commands",
            {"type": "counter.add", "data": {"amount": 1}},
            token,
        )
        assert response.status_code == 404 and response.json()["code"] == "not_seated"
    assert client.get(f"/api/tables/{tcode}/view").status_code == 404
    assert Event.objects.filter(table__code=tcode).count() == 2


def test_a_table_that_does_not_exist_is_404(client, api_table):
    tcode, ann, _ = api_table
    response = post(client, "/api/tables/QQQQQQ/commands", {"type": "counter.add"}, ann)
    assert response.status_code == 404 and response.json()["code"]
    assert (
        post(client, "/api/tables/", {"ruleset": "chess", "name": "A"}).json()["code"]
        == "unknown_game"
    )


def test_raw_log_is_for_staff_only(client, api_table):
    tcode, ann, _ = api_table
    assert client.get(f"/api/tables/{tcode}/events").status_code == 404
    client.force_login(User.objects.create_superuser("root", "r@example.com", "pw-123456"))
    events = client.get(f"/api/tables/{tcode}/events").json()
    assert [e["type"] for e in events] == ["table.started", "counter.setup"]


def test_schema_lists_the_table_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/tables/{code}/commands", "/api/tables/{code}/view", "/api/tables/"):
        assert path in schema
    assert client.get("/api/docs/").status_code == 200


def test_join_by_lobby_only(client, api_table):
    tcode, _, _ = api_table
    response = post(client, f"/api/tables/{tcode}/join", {"name": "Late"})
    assert response.status_code == 400 and response.json()["code"] == "table_started"
    assert Table.objects.get(code=tcode).seats.count() == 2


def test_join_qr_is_an_svg_of_the_join_link(client, api_table):
    tcode, _, _ = api_table
    response = client.get(f"/t/{tcode}/qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert b"xmlns" in response.content and b"<svg" in response.content


def test_api_docs_load_their_assets_from_our_static_files(client):
    page = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower()

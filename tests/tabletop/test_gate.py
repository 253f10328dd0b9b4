"""The table gate and the seat secrets: throttled code
guesses, the websocket Origin, moving/revoking/removing seats, the one bounded seat cookie,
tokens after a table is over, look-alike names, and the fail-closed defaults."""

from __future__ import annotations

import datetime as dt
import os
import secrets
import subprocess
import sys

import pytest
import time_machine
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from config.asgi import application
from tabletop import seats as seat_service
from tabletop import services
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.gate import websocket_origin_ok
from tabletop.models import Table
from tabletop.rules import Command
from tabletop.seats import (
    AFTER_FINISH,
    COOKIE,
    MAX_COOKIE_SEATS,
    cookie_entries,
    cookie_value,
    move_token,
    seat_from_token,
    seat_token,
)
from tests.kit import phone


def fresh_address() -> str:
    """A client address of its own (the throttles' counts live in the shared cache)."""
    return "10." + ".".join(str(secrets.randbelow(250) + 1) for _ in range(3))


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- throttling (point 5) -------------------------------------------------------------------


@pytest.mark.django_db
def test_wrong_codes_are_throttled_with_the_wait_and_right_codes_then_too(settings, make_table):
    settings.TABLETOP_CODE_GUESS_RATE = "5/min"
    table, _ = make_table()
    address = fresh_address()
    client = Client(REMOTE_ADDR=address)
    for n in range(5):
        assert client.get(f"/join/?code=QQQQQ{n}").status_code == 404
    page = client.get("/join/?code=QQQQQX")
    assert page.status_code == 429 and 'data-code="throttled"' in page.content.decode()
    assert "try again in" in page.content.decode()
    api = APIClient(REMOTE_ADDR=address)
    response = api.post(f"/api/tables/{table.code}/join", {"name": "Eve"}, format="json")
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    assert 1 <= response.json()["wait"] <= 61 and response["Retry-After"]
    # Another address is not slowed.
    assert Client(REMOTE_ADDR=fresh_address()).get(f"/j/{table.code}/").status_code == 200
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=61)):
        assert client.get(f"/j/{table.code}/").status_code == 200


@pytest.mark.django_db
def test_seat_joins_are_throttled_per_address(settings):
    settings.TABLETOP_SEAT_JOIN_RATE = "3/min"
    table, _ = services.table_create(ruleset="counter", host_name="Ann")
    address = fresh_address()
    api = APIClient(REMOTE_ADDR=address)
    codes = [
        api.post(f"/api/tables/{table.code}/join", {"name": f"N{n}"}, format="json").status_code
        for n in range(4)
    ]
    assert 429 not in codes[:3] and codes[3] == 429
    page = Client(REMOTE_ADDR=address).post(f"/j/{table.code}/", {"name": "Zed"})
    assert page.status_code == 200 and 'data-code="throttled"' in page.content.decode()


# --- websocket Origin (point 6) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "origin,host,scheme,ok",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://localhost", "localhost", "ws", True),
        ("https://localhost", "localhost", "wss", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "ws", False),  # another port
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # https page, ws socket
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "wss", False),
        ("http://evil.example", "127.0.0.1", "ws", False),
        ("http://127.0.0.1.evil.example", "127.0.0.1", "ws", False),
        ("", "127.0.0.1", "ws", False),  # no Origin at all
        ("null", "127.0.0.1", "ws", False),
        ("http://127.0.0.1", "evil.example", "ws", False),  # Host not allowed
    ],
)
def test_websocket_origin_must_be_this_sites_scheme_host_and_port(origin, host, scheme, ok):
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    assert websocket_origin_ok({"type": "websocket", "scheme": scheme, "headers": headers}) is ok


def test_the_scheme_is_the_one_the_server_resolved_never_the_forwarded_header():
    """Behind a proxy, uvicorn turns a trusted peer's ``X-Forwarded-Proto: https`` into the
    scope's ``wss``; the header itself, which any peer may send, counts for nothing."""
    headers = [
        (b"host", b"localhost"),
        (b"origin", b"https://localhost"),
        (b"x-forwarded-proto", b"https"),
    ]
    assert websocket_origin_ok({"scheme": "wss", "headers": headers})
    assert not websocket_origin_ok({"scheme": "ws", "headers": headers})


@pytest.mark.django_db(transaction=True)
async def test_a_seats_socket_from_another_port_gets_nothing(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    token = await sync_to_async(seat_token)(seats[0])
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.code}/",
        headers=[
            (b"origin", b"http://127.0.0.1:9999"),
            (b"host", b"127.0.0.1:8000"),
            (b"x-seat-token", token.encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert not connected


# --- seat secrets (point 2) and host seat tools (point 1) --------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_moving_a_seat_rotates_its_secret_and_tells_the_old_phone(make_table):
    table, seats = await sync_to_async(make_table)(players=2)
    old_cookie = await sync_to_async(cookie_value)(seats[1])
    old_token = await sync_to_async(seat_token)(seats[1])
    old = await phone(table, headers=[(b"cookie", f"{COOKIE}={old_cookie}".encode())])
    assert "You are <strong>P2</strong>" in await old.receive_from(timeout=5)
    moved = await sync_to_async(seat_service.seat_move)(token=move_token(seats[1]))
    frame = await old.receive_from(timeout=5)
    assert 'data-code="seat_moved"' in frame and "Watching" in frame
    assert "You are <strong>P2</strong>" not in frame
    assert await sync_to_async(seat_from_token)(old_token) is None  # the API token died too
    assert (await sync_to_async(seat_from_token)(seat_token(moved))).pk == seats[1].pk
    with pytest.raises(NotFound):  # a move link moves once
        await sync_to_async(seat_service.seat_move)(token=move_token(seats[1]))
    await old.disconnect()


@pytest.mark.django_db
def test_the_host_revokes_a_seats_phone_and_hands_the_seat_on(make_table):
    table, seats = make_table(players=3)
    thief = Client()
    thief.cookies[COOKIE] = cookie_value(seats[2])
    assert "You are <strong>P3</strong>" in thief.get(f"/t/{table.code}/").content.decode()
    host = Client()
    host.cookies[COOKIE] = cookie_value(seats[0])
    guest = Client()
    guest.cookies[COOKIE] = cookie_value(seats[1])
    assert guest.post(f"/t/{table.code}/seats/", {"n": "2", "action": "revoke"}).status_code == 403
    assert host.post(f"/t/{table.code}/seats/", {"n": "2", "action": "revoke"}).status_code == 302
    page = thief.get(f"/t/{table.code}/").content.decode()
    assert "You are <strong>P3</strong>" not in page and "Watching" in page
    # A watcher is told how a seat comes back (found by a new user); a seated phone is not.
    assert f'href="/accounts/login/?next=/t/{table.code}/"' in page and 'id="seat-back"' in page
    assert 'id="seat-back"' not in host.get(f"/t/{table.code}/").content.decode()
    assert host.get(f"/t/{table.code}/seat-qr.svg?n=2")["Content-Type"] == "image/svg+xml"
    assert guest.get(f"/t/{table.code}/seat-qr.svg?n=2").status_code == 404  # host only
    seats[2].refresh_from_db()
    friend = Client()
    assert friend.post(f"/rejoin/{move_token(seats[2])}/").status_code == 302
    assert "You are <strong>P3</strong>" in friend.get(f"/t/{table.code}/").content.decode()


@pytest.mark.django_db
def test_the_host_removes_lobby_seats_and_the_others_move_up(make_table):
    table, seats = make_table(players=3, start=False)
    with pytest.raises(NotAllowed):
        seat_service.seat_remove(table=table, by=seats[1], number=2)
    with pytest.raises(RuleViolation):
        seat_service.seat_remove(table=table, by=seats[0], number=0)
    host = Client()
    host.cookies[COOKIE] = cookie_value(seats[0])
    assert host.post(f"/t/{table.code}/seats/", {"n": "1", "action": "remove"}).status_code == 302
    assert list(table.seats.values_list("number", "name")) == [(0, "P1"), (1, "P3")]
    gone = Client()
    gone.cookies[COOKIE] = cookie_value(seats[1])
    assert gone.get(f"/t/{table.code}/").url == f"/j/{table.code}/"
    services.run_command(table, seats[0], Command("table.start"))
    with pytest.raises(RuleViolation):
        seat_service.seat_remove(table=table, by=seats[0], number=1)


@pytest.mark.django_db
def test_one_seat_cookie_holds_at_most_twenty_seats_however_many_tables(client):
    for n in range(MAX_COOKIE_SEATS + 5):
        response = client.post("/tables/new/", {"ruleset": "counter", "name": f"Ann{n}"})
        assert response.status_code == 302
    cookies = [name for name in client.cookies if name.startswith("seat")]
    assert cookies == [COOKIE]
    assert len(client.cookies[COOKIE].value) < 1500
    entries = cookie_entries({COOKIE: client.cookies[COOKIE].value})
    assert len(entries) == MAX_COOKIE_SEATS
    newest = Table.objects.latest("created_at")
    assert entries[0][2] == newest.pk
    assert "Start the game" in client.get(f"/t/{newest.code}/").content.decode()


@pytest.mark.django_db
def test_a_seat_token_is_useless_a_stated_time_after_the_table_is_over(make_table):
    table, seats = make_table(players=2)
    token = seat_token(seats[0])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert seat_from_token(token) is not None  # the final view is still there for a while
    later = timezone.now() + dt.timedelta(seconds=AFTER_FINISH + 60)
    with time_machine.travel(later):
        assert seat_from_token(token) is None
        client = Client()
        client.cookies[COOKIE] = cookie_value(seats[0])
        assert "You are" not in client.get(f"/t/{table.code}/").content.decode()


# --- names (point 7) ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["Al\u200bice", "\u0410lice", "ALICE", "Alice\u2060", "Ａｌｉｃｅ", " alice ", "A1ice"]
)
def test_a_look_alike_of_a_seated_name_is_refused(name):
    table, _ = services.table_create(ruleset="counter", host_name="Alice")
    with pytest.raises(RuleViolation) as exc:
        services.seat_join(table=table, name=name)
    assert exc.value.code == "name_taken"
    assert services.seat_join(table=table, name="Bob").name == "Bob"


@pytest.mark.django_db
def test_names_are_stored_without_invisible_characters():
    table, host = services.table_create(ruleset="counter", host_name="Zo\u200be\u00ad ")
    assert host.name == "Zoe"
    with pytest.raises(RuleViolation):
        services.table_create(ruleset="counter", host_name="\u200b\u200d")


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u3164\u3164", "\u2800", "\u200b\u200b\u200b", " \u0301 "])
def test_a_seat_name_with_nothing_visible_is_refused(name):
    # Hangul fillers, a blank braille pattern, a lone accent: letters that draw nothing.
    with pytest.raises(RuleViolation) as exc:
        services.table_create(ruleset="counter", host_name=name)
    assert exc.value.code == "bad_name"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Bob's Guild", "Bob\u2019s Guild\u200b", "Bob\u2019s Guild"])
def test_a_seat_name_differing_by_an_apostrophe_is_refused(name):
    table, _ = services.table_create(ruleset="counter", host_name="Bob\u02bcs Guild")
    with pytest.raises(RuleViolation) as exc:
        services.seat_join(table=table, name=name)
    assert exc.value.code == "name_taken"


# --- fail closed (point 3) ---------------------------------------------------------------------


def test_debug_is_off_unless_asked_and_the_secret_key_is_never_a_public_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; "
        "from django.conf import settings; "
        "print(settings.DEBUG, len(settings.SECRET_KEY) >= 50, 'insecure' in settings.SECRET_KEY)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "True", "False"]
    env["DEBUG"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "True"


@pytest.mark.django_db
def test_developer_mode_says_so_on_every_page(client, settings):
    settings.DEBUG = True
    assert 'id="developer-mode"' in client.get("/").content.decode()
    settings.DEBUG = False
    assert 'id="developer-mode"' not in client.get("/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/api/nothing", "/api/tables", "/api/tables/ABCDEF/nope", "/api/guild/nope", "/api/v2/"],
)
def test_unknown_api_paths_answer_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found" and response.json()["detail"]


@pytest.mark.django_db
def test_pages_and_answers_with_a_hand_or_a_secret_are_no_store(make_table):
    table, seats = make_table(players=2)
    client = Client()
    client.cookies[COOKIE] = cookie_value(seats[0])
    for url in (
        f"/t/{table.code}/",
        f"/t/{table.code}/live/",
        f"/t/{table.code}/seat-qr.svg",
        "/",
        f"/rejoin/{move_token(seats[0])}/",
    ):
        assert "no-store" in client.get(url)["Cache-Control"], url
    api = APIClient()
    api.credentials(HTTP_X_SEAT_TOKEN=seat_token(seats[0]))
    assert "no-store" in api.get(f"/api/tables/{table.code}/view")["Cache-Control"]
    created = api.post("/api/tables/", {"ruleset": "counter", "name": "Z"}, format="json")
    assert "no-store" in created["Cache-Control"]


def test_https_settings_switch_on_secure_cookies_and_hsts():
    env = {**os.environ, "HTTPS": "1", "BEHIND_PROXY": "1"}
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; "
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS > 0, s.SECURE_PROXY_SSL_HEADER)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    # The scheme is uvicorn's (--forwarded-allow-ips), never a header Django would take from anyone.
    assert out == ["True", "True", "True", "True", "None"]


# --- undo fairness (point 8) -------------------------------------------------------------------


def test_each_game_says_who_may_undo_what():
    """Espionage duels and Personal Demons' simultaneous choices are each player's own;
    the other games' undo is shared bookkeeping (docs/playing.md: who may undo what)."""
    from tabletop.live import undo_rule
    from tabletop.registry import all_rulesets

    own = {g.name for g in all_rulesets() if g.undo_own_only}
    assert own == {"espionage", "personal_demons"}
    for game in all_rulesets():
        assert ("only your own" in undo_rule(game)) is (game.name in own)


@pytest.mark.django_db
def test_failed_logins_lock_the_name_out_for_a_while_and_say_how_long(settings):
    from django.contrib.auth.models import User

    User.objects.create_user("gm", password="right-horse-battery")
    address = fresh_address()
    client = Client(REMOTE_ADDR=address)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        page = client.post("/accounts/login/", {"username": "gm", "password": "nope"})
        assert page.status_code == 200 and "Wrong user name or password" in page.content.decode()
    locked = client.post("/accounts/login/", {"username": "gm", "password": "nope"})
    assert locked.status_code == 429 and 'data-code="login_locked"' in locked.content.decode()
    wait = int(locked["Retry-After"])
    assert 0 < wait <= settings.AXES_COOLOFF_TIME.total_seconds()
    assert f"try again in {wait} s" in locked.content.decode()
    # Even the right password waits; another address is not locked out.
    right = {"username": "gm", "password": "right-horse-battery"}
    assert client.post("/accounts/login/", right).status_code == 429
    assert Client(REMOTE_ADDR=fresh_address()).post("/accounts/login/", right).status_code == 302
    later = timezone.now() + settings.AXES_COOLOFF_TIME + dt.timedelta(seconds=1)
    with time_machine.travel(later):
        assert client.post("/accounts/login/", right).status_code == 302


@pytest.mark.django_db
def test_logout_clears_the_sites_caches_and_the_worker_stores_no_page(client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("gm"))
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    worker = client.get("/sw.js").content.decode()
    assert "no-store" in worker and 'indexOf("private")' in worker


@pytest.mark.django_db
def test_a_made_up_forwarded_for_does_not_reset_the_guess_count(settings):
    settings.TABLETOP_CODE_GUESS_RATE = "3/min"
    address = fresh_address()
    for n in range(3):
        spoofed = Client(REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=f"1.2.3.{n}")
        assert spoofed.get(f"/join/?code=QQQQQ{n}").status_code == 404
    spoofed = Client(REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR="9.9.9.9")
    assert spoofed.get("/join/?code=QQQQQZ").status_code == 429


@pytest.mark.django_db
def test_the_schema_declares_the_seat_token_header_and_the_code_path(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path, method in (
        ("/api/tables/{code}/commands", "post"),
        ("/api/tables/{code}/view", "get"),
        ("/missions/api/missions/{mission_id}/close", "post"),
    ):
        params = {(p["in"], p["name"]) for p in schema["paths"][path][method]["parameters"]}
        assert ("header", "X-Seat-Token") in params, path
    assert not [p for p in schema["paths"] if "{table_id}" in p or "{id}" in p and "tables" in p]
    assert "429" in schema["paths"]["/api/tables/{code}/join"]["post"]["responses"]

"""docs/operations.md "Serving it safely": one test per promise (the gate's throttles, a part
that blinks, crafted requests, the websocket, forwarded headers, the log, names, accounts,
/health/, the embedded default's files, the static manifest). The slow ones run a real uvicorn
(``tests/servers.py``) or a real Redis (``tests/faults.py``)."""

from __future__ import annotations

import json
import logging
import os
import secrets
import stat
import subprocess
import sys
import time
import unicodedata
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework.test import APIClient

from config.asgi import application
from ops import health
from tabletop import consumers, live, services
from tabletop.errors import NotAllowed, RuleViolation
from tabletop.gate import GATE_CACHE
from tabletop.models import Heartbeat
from tabletop.names import MAX_MARKS, tidy_name
from tabletop.registry import get_ruleset
from tabletop.rules import Command
from tabletop.seats import COOKIE, cookie_value, move_token, seat_token
from tests.faults import PrivateRedis
from tests.servers import ROOT, database_url, free_port, start_web, stop


def fresh_address() -> str:
    """A client address of its own (the throttles' counts live in the shared cache)."""
    return "10." + ".".join(str(secrets.randbelow(250) + 1) for _ in range(3))


def _guess(client: Client, times: int) -> None:
    for n in range(times):
        assert client.get(f"/join/?code=QQQQ{n:02d}").status_code in (404, 429)


# --- the gate: misses are throttled, not hits --------------------------------------------------


async def _socket(table, cookie: str | None, address: str):
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", f"{COOKIE}={cookie}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.code}/", headers=headers)
    comm.scope["client"] = (address, 50000)
    connected, _ = await comm.connect()
    return comm, connected


@pytest.mark.django_db(transaction=True)
async def test_thirty_wrong_codes_never_lock_the_table_out_of_that_address(settings, make_table):
    settings.TABLETOP_CODE_GUESS_RATE = "30/min"
    table, seats = await sync_to_async(make_table)(players=2)
    other, _ = await sync_to_async(make_table)(players=2)
    address = fresh_address()
    phone = Client(REMOTE_ADDR=address)
    phone.cookies[COOKIE] = await sync_to_async(cookie_value)(seats[0])
    watcher = Client(REMOTE_ADDR=address)
    guesser = Client(REMOTE_ADDR=address)

    def before_and_after():
        _guess(guesser, 3)  # someone at the café starts guessing...
        assert watcher.get(f"/t/{table.code}/").status_code == 200  # a watcher opens the table
        _guess(guesser, 40)  # ...and goes over the rate
        assert guesser.get("/join/?code=QQQQZZ").status_code == 429
        # The seated phone: page, live region, a page command, the API view: all pass.
        assert phone.get(f"/t/{table.code}/").status_code == 200
        assert phone.get(f"/t/{table.code}/live/").status_code == 200
        tap = phone.post(f"/t/{table.code}/command/", {"type": "counter.add", "data": '{"amount": 1}'})
        assert tap.status_code == 200
        api = APIClient(REMOTE_ADDR=address, HTTP_X_SEAT_TOKEN=seat_token(seats[1]))
        assert api.get(f"/api/tables/{table.code}/view").status_code == 200
        # The watcher who had opened it keeps watching; the right code of a table never opened
        # from there waits (else the throttle would stop no guesser: a hit would pass);
        # another address never waits.
        assert watcher.get(f"/t/{table.code}/live/").status_code == 200
        assert Client(REMOTE_ADDR=address).get(f"/t/{other.code}/").status_code == 429
        assert Client(REMOTE_ADDR=fresh_address()).get(f"/t/{other.code}/").status_code == 200

    await sync_to_async(before_and_after)()
    seated, connected = await _socket(table, await sync_to_async(cookie_value)(seats[1]), address)
    assert connected and "You are <strong>P2</strong>" in await seated.receive_from(timeout=5)
    await seated.disconnect()
    watching, connected = await _socket(table, None, address)  # the watcher's socket
    assert connected
    await watching.disconnect()
    stranger, connected = await _socket(other, None, address)  # a table never opened there
    assert not connected


@pytest.mark.django_db
def test_a_throttle_never_needs_redis_to_answer_what_postgresql_can(settings, make_table):
    """35.1: Redis down, then hung: the table page, the live region, a page command, a join by
    code all answer; wrong codes are still counted (in the process) and throttled."""
    redis = PrivateRedis()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis.url,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    settings.TABLETOP_CODE_GUESS_RATE = "5/min"
    table, seats = make_table(players=2)
    phone = Client(REMOTE_ADDR=fresh_address())
    phone.cookies[COOKIE] = cookie_value(seats[0])
    try:
        cache.set("alive", 1)
        assert cache.get("alive") == 1
        for fault in (redis.stop, redis.freeze):
            if fault == redis.freeze:
                redis.start()
                GATE_CACHE.down_until = 0.0
                cache.set("alive", 1)
            fault()
            with pytest.raises((RedisConnectionError, RedisTimeoutError)):  # the fault is real
                cache.get("alive")
            GATE_CACHE.down_until = 0.0  # as a process that has not seen it fail yet
            started = time.monotonic()
            assert phone.get(f"/t/{table.code}/").status_code == 200
            assert phone.get(f"/t/{table.code}/live/").status_code == 200
            tap = phone.post(
                f"/t/{table.code}/command/", {"type": "counter.add", "data": '{"amount": 1}'}
            )
            assert tap.status_code == 200
            assert Client(REMOTE_ADDR=fresh_address()).get(f"/j/{table.code}/").status_code == 200
            guesser = Client(REMOTE_ADDR=fresh_address())
            codes = [guesser.get(f"/join/?code=QQQQ{n:02d}").status_code for n in range(6)]
            assert codes == [404] * 5 + [429]  # counted in the process meanwhile
            assert time.monotonic() - started < 8  # one slow call at most, not one per lookup
    finally:
        redis.close()
        GATE_CACHE.down_until = 0.0


# --- crafted requests -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/nonexistent/", "/missions/api/missions/0/bind", "/j/ABCDEF/", "/api/health"]
)
@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_multipart_post_without_a_boundary_is_a_400_logged_in_one_line(path, content_type, caplog):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = "a" * 32
    client.cookies["sessionid"] = "anything"
    with caplog.at_level(logging.WARNING):
        response = client.generic(
            "POST", path, b"xx", content_type=content_type,
            HTTP_ORIGIN="http://testserver", HTTP_X_CSRFTOKEN="a" * 32,
        )
    assert response.status_code == 400
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/join/?code=ABCDEF", "/nonexistent/", "/api/health"])
def test_a_wrong_host_header_is_a_400_logged_in_one_line(path, caplog):
    """Django refuses a ``Host`` outside ``ALLOWED_HOSTS`` with a 400 and logs it on
    ``django.security.DisallowedHost``, by itself at ERROR with the traceback of
    ``request.get_host()``: here one line at WARNING (``ops.redact.OneLine``)."""
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.WARNING):
        response = client.get(path, HTTP_HOST="evil.example")
    assert response.status_code == 400
    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 1, [r.getMessage() for r in caplog.records]
    assert "evil.example" in records[0].getMessage()
    assert records[0].levelno == logging.WARNING
    assert not any(r.exc_info or r.exc_text or r.stack_info for r in caplog.records)
    # Every handler of the configured log writes one line for it.
    formatted = logging.Formatter().format(records[0])
    assert "\n" not in formatted and "Traceback" not in formatted


@pytest.mark.django_db
@pytest.mark.parametrize("number", ["²", "١", "-1", "x", ""])
def test_a_guest_seat_that_is_no_number_is_a_clear_400(make_table, number):
    table, seats = make_table(players=2)
    client = Client()
    client.cookies[COOKIE] = cookie_value(seats[0])
    response = client.post(f"/missions/t/{table.code}/guest/", {"seat": number, "guest": "1"})
    assert response.status_code == 400 and 'data-code="bad_number"' in response.content.decode()


# --- the websocket ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_websocket_message_that_is_no_heartbeat_renders_nothing(make_table, monkeypatch):
    # (the region it was sent on connecting is not on its way any more: FRAME_GRACE)
    monkeypatch.setattr(consumers, "FRAME_GRACE", 0.0)
    table, seats = await sync_to_async(make_table)(players=2)
    watcher, connected = await _socket(table, None, fresh_address())
    assert connected and 'id="live"' in await watcher.receive_from(timeout=5)
    for junk in ("hello", '{"type": "counter.add"}', "{}", "[]"):
        await watcher.send_to(text_data=junk)
    await watcher.send_to(bytes_data=b"\x00" * 100)
    assert await watcher.receive_nothing(timeout=0.5)
    # A heartbeat behind the table renders at most once a second however often it comes: the
    # first is answered by the whole region (waited for as long as a loaded machine needs: a
    # render can take longer than the quiet spell below), the other nineteen by nothing.
    for _ in range(20):
        await watcher.send_to(text_data='{"ping": 0}')
    assert 'id="live"' in await watcher.receive_from(timeout=5)
    frames = 0
    while not await watcher.receive_nothing(timeout=0.5):
        if 'id="live"' in await watcher.receive_from(timeout=1):
            frames += 1
    assert frames == 0
    await watcher.send_to(text_data="ping")
    assert json.loads(await watcher.receive_from(timeout=2)) == {"pong": True}
    # A big message closes the socket.
    await watcher.send_to(text_data='{"ping": 1, "pad": "' + "x" * 5000 + '"}')
    assert (await watcher.receive_output(timeout=2))["type"] == "websocket.close"
    await watcher.disconnect()


# --- names --------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/", "/ws/tables/", "/ws/tables/ABC/x/", "/x"])
async def test_a_websocket_on_a_path_that_is_no_tables_is_refused_not_a_500(path):
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", b"x=y")]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()  # Channels' router raised ValueError here: a 500
    assert not connected
    await comm.disconnect()


@pytest.mark.django_db
def test_table_titles_and_names_are_cleaned_of_overrides_invisibles_and_stacked_marks():
    dirty = "\u202eNight\u200b of\u0007 the \u2066Ravens" + "e" + "\u0301" * 42
    table, host = services.table_create(ruleset="counter", host_name="A" + "\u0301" * 35, title=dirty)
    table.refresh_from_db()
    assert table.title.startswith("Night of the Ravens")
    for text in (table.title, host.name):
        assert not any(unicodedata.category(ch) in ("Cf", "Cc") for ch in text), text
        assert _longest_mark_run(text) == MAX_MARKS == 3
    assert tidy_name("Vie\u0323\u0302t") == "Vi\u1ec7t"  # a Vietnamese letter keeps its marks
    blank, _ = services.table_create(ruleset="counter", host_name="B", title="\u200b\u202e")
    assert blank.title == get_ruleset("counter").title  # the game's own title, never an empty one


def _longest_mark_run(text: str) -> int:
    run = longest = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) else 0
        longest = max(longest, run)
    return longest


FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- accounts -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_failed_logins_from_one_address_are_throttled_across_names(settings):
    settings.PASSWORD_HASHERS = FAST_HASHER  # 40 logins: the test is of counting, not hashing
    settings.ACCOUNTS_LOGIN_FAILURE_RATE = "30/hour"
    for n in range(8):
        User.objects.create_user(f"gm{n}", password="right-horse-battery")
    client = Client(REMOTE_ADDR=fresh_address())
    codes = [
        client.post("/accounts/login/", {"username": f"gm{n % 8}", "password": "nope"}).status_code
        for n in range(32)
    ]
    assert codes[:30] == [200] * 30 and codes[30:] == [429, 429]  # 4 tries a name: no axes lock
    right = {"username": "gm1", "password": "right-horse-battery"}
    assert client.post("/accounts/login/", right).status_code == 429
    User.objects.filter(username="gm1").update(is_staff=True)
    admin = client.post("/admin/login/", right)  # the admin's form refuses too
    assert admin.status_code in (200, 429) and "_auth_user_id" not in client.session
    assert Client(REMOTE_ADDR=fresh_address()).post("/accounts/login/", right).status_code == 302


@pytest.mark.django_db
def test_sign_ups_are_throttled_per_address(settings):
    settings.PASSWORD_HASHERS = FAST_HASHER
    settings.ACCOUNTS_SIGNUP_RATE = "3/hour"
    client = Client(REMOTE_ADDR=fresh_address())
    codes = []
    for n in range(4):
        form = {"username": f"new{n}", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
        codes.append(client.post("/accounts/signup/", form).status_code)
        client.logout()
    assert codes == [302, 302, 302, 429]
    assert User.objects.filter(username__startswith="new").count() == 3


@pytest.mark.django_db
def test_an_anonymous_api_health_post_writes_no_row(client):
    before = Heartbeat.objects.count()
    for _ in range(5):
        assert client.post("/api/health").status_code == 200
    assert Heartbeat.objects.count() == before
    client.force_login(User.objects.create_user("ops", is_staff=True))
    assert client.post("/api/health").status_code == 200
    assert Heartbeat.objects.count() == before + 1


# --- /health/ -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_health_is_for_staff_or_a_token_fast_and_names_no_host(client, monkeypatch):
    assert client.get("/health/?format=json").status_code == 404
    live = client.get("/health/live/")
    assert live.status_code == 200 and live.content == b"ok"
    monkeypatch.setenv("HEALTH_TOKEN", "t" * 40)
    assert client.get("/health/?format=json", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    by_token = client.get("/health/?format=json", HTTP_AUTHORIZATION="Bearer " + "t" * 40)
    assert by_token.status_code in (200, 500) and "Database" in by_token.content.decode()
    client.force_login(User.objects.create_user("ops", is_staff=True))
    body = client.get("/health/?format=json")
    text = body.content.decode()
    assert body.status_code in (200, 500) and "Database" in text
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        assert "Redis" in text
        port = redis_url.rsplit(":", 1)[1].split("/")[0]
        assert port not in text and "127.0.0.1" not in text and "host" not in text
    # Fast: no check broadcasts a Celery ping and waits for its replies (about 1 s a call); the
    # workers are judged by their heartbeat rows (a benchmark, not a timed test, would say how fast).
    assert not any("celery" in str(c).lower() and "ops.health" not in str(c) for c in health.checks)
    assert "CeleryWorkers" in text


# --- the embedded default's files ---------------------------------------------------------------


def test_the_embedded_defaults_database_and_broker_files_are_private(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_QUEUE_DIR_PATH=str(tmp_path / "celery"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    (tmp_path / "db.sqlite3").write_bytes(b"")
    os.chmod(tmp_path / "db.sqlite3", 0o644)  # as an older checkout left it
    subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env=env, check=True, timeout=60,
    )
    for path in (tmp_path / "db.sqlite3", tmp_path / "celery" / "broker.sqlite3"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


# --- the host's tools -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_host_gives_only_a_seat_whose_phone_is_gone_and_never_sees_a_secret(make_table):
    table, seats = make_table(players=3)
    host = Client()
    host.cookies[COOKIE] = cookie_value(seats[0])
    victim = Client()
    victim.cookies[COOKIE] = cookie_value(seats[1])
    # Mid-game the host cannot take a held seat's move link (it would show its hand)...
    refused = host.get(f"/t/{table.code}/seat-qr.svg?n=1")
    assert refused.status_code == 403 and 'data-code="revoke_first"' in refused.content.decode()
    page = host.get(f"/t/{table.code}/seats/").content.decode()
    assert "seat-qr.svg?n=1" not in page and "take it from its phone first" in page
    assert "/rejoin/" not in page  # no link to a held seat either
    assert "You are <strong>P2</strong>" in victim.get(f"/t/{table.code}/").content.decode()
    # ...only once the seat is taken from its phone (its phone knows: it watches now).
    assert host.post(f"/t/{table.code}/seats/", {"n": "1", "action": "revoke"}).status_code == 302
    assert "You are <strong>P2</strong>" not in victim.get(f"/t/{table.code}/").content.decode()
    page = host.get(f"/t/{table.code}/seats/").content.decode()
    assert "seat-qr.svg?n=1" in page
    assert host.get(f"/t/{table.code}/seat-qr.svg?n=1")["Content-Type"] == "image/svg+xml"
    seats[1].refresh_from_db()
    # The same link as the QR code, to copy and send (a new user found only the QR image).
    link = f"/rejoin/{move_token(seats[1])}/"
    assert f'class="handover-link" type="text" readonly value="http://testserver{link}"' in page
    assert victim.get(f"/t/{table.code}/seats/").status_code == 404  # no seat: no page
    friend = Client()
    assert friend.post(link).status_code == 302
    assert "You are <strong>P2</strong>" in friend.get(f"/t/{table.code}/").content.decode()
    # Held again: the host's link is gone again.
    assert host.get(f"/t/{table.code}/seat-qr.svg?n=1").status_code == 403
    assert host.get(f"/t/{table.code}/seat-qr.svg").status_code == 200  # the host's own seat


@pytest.mark.django_db
def test_a_seat_handed_to_another_phone_mid_game_is_told_to_every_phone_in_the_log(make_table):
    table, seats = make_table("espionage", players=3)  # a card game: every seat holds a secret
    host, third = Client(), Client()
    host.cookies[COOKIE] = cookie_value(seats[0])
    third.cookies[COOKIE] = cookie_value(seats[2])
    before = table.state
    assert host.post(f"/t/{table.code}/seats/", {"n": "1", "action": "revoke"}).status_code == 302
    seats[1].refresh_from_db()
    link = move_token(seats[1])
    assert "moved to another phone" not in third.get(f"/t/{table.code}/").content.decode()
    friend = Client()
    assert friend.post(f"/rejoin/{link}/").status_code == 302
    seats[1].refresh_from_db()
    table.refresh_from_db()
    # One kit event, told on every phone (the other seats and the new one), naming the seat.
    moved = table.events.get(type="table.seat.moved")
    assert moved.data == {"seat": 1} and moved.seat is None and moved.version == table.version
    said = "P2 moved to another phone (the host took the seat from its old phone)"
    for phone in (host, third, friend):
        assert said in phone.get(f"/t/{table.code}/").content.decode()
        assert "<strong>P2</strong> " + said[3:] in phone.get(f"/t/{table.code}/log/").content.decode()
    line = live.log_lines(table, limit=1, recent=True)[0]
    assert line["text"] == said
    # No secret in the line nor on the wire: neither link, nonce nor token.
    secrets_ = (link, seats[1].nonce, seat_token(seats[1]), move_token(seats[1]))
    wire = json.dumps(line, default=str) + APIClient().get(
        f"/api/tables/{table.code}/events", HTTP_X_SEAT_TOKEN=seat_token(seats[2])
    ).content.decode()
    assert not any(secret in wire for secret in secrets_)
    # Not a move of the game: the state is untouched, nothing to undo, replay equals the table.
    assert table.state == before
    with pytest.raises(RuleViolation) as refused:
        services.run_command(table, seats[2], Command("table.undo"))
    assert refused.value.code == "nothing_to_undo"
    report = services.table_replay(table)
    assert report["state_matches"] and report["meta_matches"]
    # Only the server tells it: a seat sending the kit's hand-over is refused.
    with pytest.raises(NotAllowed):
        services.run_command(table, seats[2], Command("table.seat.handover", {"seat": 1}))


@pytest.mark.django_db
def test_a_seat_handed_over_in_the_lobby_or_moved_by_its_own_player_adds_no_log_line(make_table):
    table, seats = make_table(players=2, start=False)
    host = Client()
    host.cookies[COOKIE] = cookie_value(seats[0])
    assert host.post(f"/t/{table.code}/seats/", {"n": "1", "action": "revoke"}).status_code == 302
    seats[1].refresh_from_db()
    assert Client().post(f"/rejoin/{move_token(seats[1])}/").status_code == 302
    services.run_command(table, seats[0], Command("table.start"))
    seats[1].refresh_from_db()
    assert Client().post(f"/rejoin/{move_token(seats[1])}/").status_code == 302  # its own QR
    assert not table.events.filter(type="table.seat.moved").exists()


# --- a real server: forwarded headers, the log, the static manifest --------------------------------


def _status(url: str, headers: dict | None = None, data: bytes | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _server_env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TABLETOP_CODE_GUESS_RATE": "5/min",
        **extra,
    }


@pytest.mark.django_db(transaction=True)
def test_throttles_count_the_address_the_server_resolved_and_the_log_holds_no_move_link(
    tmp_path, make_table
):
    """X-Forwarded-For from a peer that is not the configured proxy changes nothing (with
    BEHIND_PROXY=1 and without); from the proxy it names the client. A refused POST to a move
    link is logged without its token."""
    table, seats = make_table(players=2)
    token = move_token(seats[1])
    cases = [
        ({"BEHIND_PROXY": "1"}, "10.20.30.40", True),  # a proxy elsewhere: 127.0.0.1 is a client
        ({}, "", True),  # no proxy: nobody's header is believed (uvicorn trusts 127.0.0.1 by default)
        ({"BEHIND_PROXY": "1"}, "127.0.0.1", False),  # the proxy itself: its clients differ
    ]
    ports = [free_port() for _ in cases]
    logs = [open(tmp_path / f"server-{port}.log", "w") for port in ports]  # noqa: SIM115
    with ThreadPoolExecutor(len(cases)) as pool:  # three servers start at once
        procs = list(
            pool.map(
                lambda c: start_web(c[0], _server_env(**c[1][0]), c[2], forwarded_allow_ips=c[1][1]),
                zip(ports, cases, logs, strict=True),
            )
        )
    try:
        for port, (extra, proxies, throttled) in zip(ports, cases, strict=True):
            codes = [
                _status(
                    f"http://127.0.0.1:{port}/join/?code=QQQQ{n:02d}",
                    {"X-Forwarded-For": f"203.0.113.{n + 1}"},
                )
                for n in range(8)
            ]
            assert (429 in codes) is throttled, (extra, proxies, codes)
        refused = _status(
            f"http://127.0.0.1:{ports[-1]}/rejoin/{token}/", data=b"", headers={"Cookie": "a=b"}
        )
        assert refused == 403
    finally:
        for proc in procs:
            stop(proc)
        for log in logs:
            log.close()
    log_path = tmp_path / f"server-{ports[-1]}.log"
    text = log_path.read_text()
    assert "Forbidden (CSRF" in text and "/rejoin/" in text and token not in text
    assert token[:20] not in text


def test_a_server_started_without_collected_static_files_says_what_to_run(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(STATIC_ROOT=str(tmp_path / "static"), DEBUG="0")
    port = free_port()
    proc = subprocess.run(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0
    assert "manage.py collectstatic" in proc.stderr + proc.stdout


def _answer(url: str, headers: dict | None = None):
    """Status and headers (``email.message.Message``: any case) of a GET that follows no
    redirect."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=10) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers


def _socket_opens(port: int, code: str, token: str, headers: dict[str, str]) -> bool:
    """Whether a websocket to the table at ``code`` opens, sent with an ``https`` Origin."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    try:
        with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{code}/", origin=f"https://127.0.0.1:{port}",
            additional_headers={"X-Seat-Token": token, **headers}, open_timeout=10,
        ):
            return True
    except InvalidStatus:
        return False


@pytest.mark.django_db(transaction=True)
def test_the_scheme_is_believed_only_from_the_proxy_and_a_wrong_host_is_one_log_line(
    tmp_path, make_table
):
    """``HTTPS=1 BEHIND_PROXY=1`` on a real uvicorn: ``X-Forwarded-Proto: https`` from a peer
    that is not in ``--forwarded-allow-ips`` changes nothing (the redirect to https, no Secure
    cookie, an https page's websocket refused); from the proxy it makes the request https. A
    request with a wrong ``Host`` is a 400, logged in one line without a traceback."""
    table, seats = make_table(players=2)
    token = seat_token(seats[0])
    https = {"X-Forwarded-Proto": "https"}
    cases = [("10.20.30.40", False), ("127.0.0.1", True)]  # (the proxy's address, we are it)
    ports = [free_port() for _ in cases]
    logs = [open(tmp_path / f"server-{port}.log", "w") for port in ports]  # noqa: SIM115
    env = _server_env(HTTPS="1", BEHIND_PROXY="1")
    with ThreadPoolExecutor(len(cases)) as pool:
        procs = list(
            pool.map(
                lambda c: start_web(c[0], env, c[1], forwarded_allow_ips=c[2]),
                zip(ports, logs, [proxy for proxy, _ in cases], strict=True),
            )
        )
    try:
        for port, (proxy, trusted) in zip(ports, cases, strict=True):
            url = f"http://127.0.0.1:{port}/join/"
            status, headers = _answer(url, https)
            if trusted:
                assert status == 200, (proxy, status)
                assert "secure" in (headers.get("Set-Cookie") or "").lower(), headers
            else:
                assert status == 301, (proxy, status)
                assert (headers.get("Location") or "").startswith("https://"), headers
            # Without the header the request is plain http whoever sends it: to https.
            assert _answer(url)[0] == 301
            assert _socket_opens(port, table.code, token, https) is trusted, proxy
        assert _answer(f"http://127.0.0.1:{ports[0]}/join/", {"Host": "evil.example"})[0] == 400
    finally:
        for proc in procs:
            stop(proc)
        for log in logs:
            log.close()
    text = (tmp_path / f"server-{ports[0]}.log").read_text()
    lines = [line for line in text.splitlines() if "evil.example" in line]
    assert len(lines) == 1, text
    assert "Invalid HTTP_HOST" in lines[0] and "Traceback" not in text, text

"""A tap during a Redis outage (a Redis of this test's own, really stopped, asserted) is never
lost without a word: the page shows it applied, or marks it "Not sent yet" at its control and
sends it again (same idempotency key) until the server answers; once Redis is back the tap is
applied exactly once and both phones show it (DemLoc rulebook 7.2: Next: pass). The throttle
fails open while Redis is down (tabletop/gate.py), so the page's own requests need only
PostgreSQL; pushes (the channel layer) wait for Redis."""

import os
import socket

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, open_table
from tests.faults import PrivateRedis
from tests.servers import OPEN_GATE, database_url, free_port, start_web, stop


def redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.3) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def outage_server(django_db_blocker, transactional_db):
    """``(url, redis)``: a web server (uvicorn, as bin/run) whose cache and channel layer are
    a Redis of this test only."""
    redis = PrivateRedis()
    with django_db_blocker.unblock():
        db = database_url()
    port = free_port()
    env = {
        **os.environ,
        **OPEN_GATE,
        "DATABASE_URL": db,
        "REDIS_URL": redis.url,
        "DEBUG": "0",
        "TABLETOP_RNG_SEED": "e2e",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"server-redis-outage-{os.getpid()}.log", "w") as log:
        proc = start_web(port, env, log)
        try:
            yield f"http://127.0.0.1:{port}", redis
        finally:
            stop(proc)
            redis.close()


def test_a_tap_during_a_redis_outage_is_applied_or_marked_and_sent_again(outage_server, phone_at):
    url, redis = outage_server
    phone = lambda: phone_at(url)  # noqa: E731

    phones = open_table(phone, "demloc")
    acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    other = next(p for p in phones if p is not acting)
    before = int(acting.locator("#live").get_attribute("data-version"))

    redis.stop()
    assert not redis_up(redis.port)  # the fault really happened
    next_pass = acting.get_by_role("button", name="Next: pass")
    next_pass.tap()
    # Either applied at once (the page path needs no Redis), or marked at its control.
    acting.wait_for_function(
        f"() => +document.getElementById('live').dataset.version > {before}"
        " || !!document.getElementById('unsent')",
        timeout=5_000,
    )
    unsent = acting.locator("#unsent")
    marked = unsent.count() > 0
    if marked:
        expect(unsent).to_be_in_viewport()
        print(f"during the outage: marked at its control: {unsent.inner_text()!r}")
    else:
        print("during the outage: applied at once")
    acting.screenshot(path="test-artifacts/redis-outage-tap.png")
    assert not redis_up(redis.port)  # still down while the tap was answered or marked

    redis.start()
    assert redis_up(redis.port)
    # Applied exactly once: one step further, on both phones, the mark gone.
    for p in (acting, other):
        expect(p.locator("#live")).to_have_attribute(
            "data-version", str(before + 1), timeout=20_000
        )
    expect(acting.locator("#unsent")).to_have_count(0)
    expect(acting.locator("#dl-log")).to_contain_text("passes")
    acting.wait_for_timeout(1_000)
    assert int(acting.locator("#live").get_attribute("data-version")) == before + 1
    print(
        f"after Redis is back: version {before} -> {before + 1} on both phones"
        f" ({'re-sent' if marked else 'applied during the outage'})"
    )

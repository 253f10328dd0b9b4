"""Two web processes, as production runs one per CPU: two uvicorn servers as ``bin/run``
starts them (``tests.servers``), each with its own cache of the tables it last wrote
(``tabletop.services.SNAPSHOTS``). A random game of Demon Espionage is played through the JSON
page's command path (``POST /t/<code>/command/``, the seat in the phone's cookie: the path
that decides on the server's cache), each command sent to the other server than the one
before, so each server's cache is mostly behind the table. Every refusal is decided again here on the committed row (in a
transaction rolled back): 0 refusals that a fresh decision would accept (a command is never
refused on state older than the table's committed version)."""

from __future__ import annotations

import json
import os
import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tabletop.models import Seat, Table
from tabletop.registry import get_ruleset
from tabletop.rules import Command
from tabletop.seats import cookie_name
from tests.servers import OPEN_GATE, database_url, free_port, start_web, stop
from tests.tabletop.test_two_process_refusals import accepted_fresh, next_move

pytestmark = [pytest.mark.django_db(transaction=True)]

CSRF = "c" * 32  # a CSRF secret of the phone's own (cookie and header agree)
SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))


@pytest.fixture
def two_servers(tmp_path):
    env = {**os.environ, **OPEN_GATE, "DATABASE_URL": database_url(), "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    ports = [free_port(), free_port()]
    logs = [open(tmp_path / f"web-{n}.log", "w") for n in range(2)]  # noqa: SIM115
    with ThreadPoolExecutor(2) as pool:  # both start at once (each takes seconds)
        started = [pool.submit(start_web, port, env, log) for port, log in zip(ports, logs, strict=True)]
    try:
        for s in started:
            s.result()  # raises when a server did not start
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for s in started:
            if s.exception() is None:
                stop(s.result())
        for log in logs:
            log.close()


def test_two_server_processes_never_refuse_on_a_stale_copy(two_servers):
    a, b = (httpx.Client(base_url=url, timeout=10) for url in two_servers)
    players = 4
    host = a.post("/api/tables/", json={"ruleset": "espionage", "name": "P1"}).json()
    code = host["code"]
    tokens = {host["seat"]: host["seat_token"]}
    for n in range(2, players + 1):
        joined = b.post(f"/api/tables/{code}/join", json={"name": f"P{n}"}).json()
        tokens[joined["seat"]] = joined["seat_token"]
    assert sorted(tokens) == list(range(players))
    started = a.post(f"/api/tables/{code}/commands", json={"type": "table.start"},
                     headers={"X-Seat-Token": tokens[0]})
    assert started.status_code == 200, started.text
    game = get_ruleset("espionage")
    table = Table.objects.get(code=code)
    seats = {s.number: s for s in Seat.objects.filter(table=table)}
    cookie = cookie_name(table.pk)  # a seat token in the phone's cookie, as a phone holds it
    phones = {
        number: [httpx.Client(base_url=url, timeout=10,
                              cookies={cookie: token, "csrftoken": CSRF}) for url in two_servers]
        for number, token in tokens.items()
    }
    sent, refused, stale = 0, 0, []
    for seed in range(SEEDS):
        rnd = random.Random(seed)
        for n in range(30):
            table.refresh_from_db()
            if table.status == Table.Status.FINISHED:
                break
            move = next_move(game, table, players, rnd)
            assert move is not None
            number, command = move
            phone = phones[number][sent % 2]
            sent += 1
            answer = phone.post(
                f"/t/{code}/command/",
                data={"type": command.type, "data": json.dumps(command.data)},
                headers={"X-CSRFToken": CSRF, "HX-Request": "true"},
            )
            assert answer.status_code < 500, answer.text[:500]
            assert answer.status_code != 403 or "CSRF" not in answer.text
            if answer.status_code != 200:
                refused += 1
                if accepted_fresh(table.pk, seats[number], Command(command.type, command.data)):
                    stale.append((n, command.type, answer.status_code))
    print("\nTWO SERVERS", {"sent": sent, "refused": refused, "stale_refusals": len(stale)})
    assert sent > 20
    assert stale == [], stale


def test_undo_then_another_seat_rolls_the_same_roll_through_two_servers_pages(two_servers):
    """Undoing a roll never re-rolls it, whoever rolls next (docs/playing.md "Undo"): the
    counter's roll, its Undo and the roll again tapped on the pages of three phones (the page's
    command path, the phone's cookie, its expected version and a fresh idempotency key per
    tap, as the page script sends them), the three taps spread over two server processes.
    Half the rounds the roller rolls again, half another seat; the Undo is the roller's or
    a third seat's. A fresh d6 would match 12 times in a row once in 2 billion."""
    api = httpx.Client(base_url=two_servers[0], timeout=10)
    host = api.post("/api/tables/", json={"ruleset": "counter", "name": "P1"}).json()
    code = host["code"]
    tokens = {host["seat"]: host["seat_token"]}
    for n in (2, 3):
        joined = api.post(f"/api/tables/{code}/join", json={"name": f"P{n}"}).json()
        tokens[joined["seat"]] = joined["seat_token"]
    assert api.post(f"/api/tables/{code}/commands", json={"type": "table.start"},
                    headers={"X-Seat-Token": tokens[0]}).status_code == 200
    table = Table.objects.get(code=code)
    cookie = cookie_name(table.pk)
    phones = {
        number: [httpx.Client(base_url=url, timeout=10,
                              cookies={cookie: token, "csrftoken": CSRF}) for url in two_servers]
        for number, token in tokens.items()
    }
    taps = 0

    def tap(number: int, server: int, type_: str, data: dict | None = None) -> None:
        nonlocal taps
        taps += 1
        table.refresh_from_db()  # the version the phone shows once the push arrived
        answer = phones[number][server].post(
            f"/t/{code}/command/",
            data={"type": type_, "data": json.dumps(data or {}),
                  "expected_version": str(table.version), "idempotency_key": f"tap-{taps}"},
            headers={"X-CSRFToken": CSRF, "HX-Request": "true"},
        )
        assert answer.status_code == 200, answer.text[:300]

    outcomes = []
    for n in range(24):
        roller, other = n % 3, (n + 1) % 3
        again = roller if n % 2 else other  # odd rounds: the same seat, even: another
        undoer = roller if n % 4 < 2 else (n + 2) % 3
        tap(roller, n % 2, "counter.roll")
        first = Table.objects.get(pk=table.pk).state["last"]
        tap(undoer, (n + 1) % 2, "table.undo")
        tap(again, (n // 2) % 2, "counter.roll")
        second = Table.objects.get(pk=table.pk).state["last"]
        assert first["seat"] == roller and second["seat"] == again
        outcomes.append((again == roller, first["amount"] == second["amount"]))
        tap(roller, n % 2, "counter.add", {"amount": -second["amount"]})  # far from the goal
    same = sum(s for mine, s in outcomes if mine)
    others = sum(s for mine, s in outcomes if not mine)
    print("\nUNDO THEN ROLL AGAIN", {"same seat": f"{same}/12", "another seat": f"{others}/12"})
    assert (same, others) == (12, 12), outcomes

"""The soak's load generator: ``TABLES`` tables x 4 phones against a running server,
for ``SECONDS``, in a process of its own (no Django, no pytest: one event loop on uvloop when
it is installed, aiohttp for HTTP and websockets, keep-alive connections, nothing per request
but the POST and a status check), so that the generator is not what is measured.

Each phone, as the page (frontend/app.js) does: holds its table's websocket with
permessage-deflate (as browsers ask), sends ``{"ping": <version shown>}`` every 2.5 s, treats
6.5 s without a message as a dead socket (closes it and opens a new one, as the page), opens a
new socket whenever one closes (0.25 to 2 s later); and taps every ``TAP_EVERY`` s at a random
phase through the JSON API (a fresh idempotency key per tap), on a fixed schedule: a tap that leaves late is counted in ``generator_lag_ms`` (the generator, not
the server, fell behind) and is sent anyway.

Figures (one JSON object on stdout): taps offered and answered by status, 5xx, unanswered
(no status: a timeout after ``ANSWER_TIMEOUT`` s or a broken connection), answers slower than
5 s, tap p50/p99, frame p50/p99/max (a tap's POST to the first frame showing its version or a
later one at each of the table's three other phones; a delta frame ``<!--delta FROM TO-->``
counts as version TO), frames missing, reconnects (every socket opened after a phone's first),
silences (a socket the page would have given up: 6.5 s without a message), the generator's
schedule lag p50/p99/max and its CPU seconds.

The game (``--game``): ``counter`` (the kit's counter, ``counter.add``) or ``demloc`` (the main
job: four-player DemLoc quick missions, each phone tapping its own characters in an evening's
mix, ``bench.live.demloc_tap``, from the view its last answer carried; a tap the table refuses
because it moved on, such as another phone's pending shot, is counted in ``refused`` by its
error code, is not an error, and makes the phone read its view again, as the page would show
what the pushes brought).

    .venv/bin/python -m tests.drills.soak_load http://127.0.0.1:8000 --tables 20 --seconds 300 \\
        --game demloc --tap-every 5
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import random
import re
import resource
import sys
import time

import aiohttp

from bench.live import demloc_tap

PHONES = 4
TAP_EVERY = 2.0  # s, per phone
PING_EVERY = 2.5  # s, as frontend/app.js
DEAD_AFTER = 6.5  # s, as frontend/app.js
ANSWER_TIMEOUT = 30.0  # s: no answer by then is "unanswered"
VERSION = re.compile(r'data-version="(\d+)"')
DELTA = re.compile(r"^<!--delta \d+ (\d+)-->")


def pct(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (nearest rank) of ``values``, rounded to 0.1; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _refusal_code(body: bytes) -> str:
    """The error code of a refused command's JSON answer (``{"code": ...}``), or ``"?"``."""
    try:
        answer = json.loads(body)
    except ValueError:
        return "?"
    return str(answer.get("code") or "?") if isinstance(answer, dict) else "?"


class Phone:
    """One seat's socket: the versions it was shown, when (running maximum: bisect-able)."""

    def __init__(self, code: str, seat: int, token: str) -> None:
        self.code, self.seat, self.token = code, seat, token
        self.versions: list[int] = []
        self.times: list[float] = []
        self.shown = 0
        self.opened = 0
        self.view: dict = {}  # DemLoc: the seat's view from its last answer

    def saw(self, message: str, now: float) -> None:
        m = DELTA.match(message) or VERSION.search(message, 0, 600)
        if m:
            version = int(m.group(1))
            if version > self.shown:
                self.shown = version
                self.versions.append(version)
                self.times.append(now)

    def first_at(self, version: int) -> float | None:
        i = bisect.bisect_left(self.versions, version)
        return self.times[i] if i < len(self.versions) else None


async def open_table(http: aiohttp.ClientSession, base: str, n: int,
                     game: str = "counter") -> tuple[str, list[str]]:
    """A ``game`` table with ``PHONES`` seats, started: its code and the seats' tokens."""
    async with http.post(f"{base}/api/tables/", json={"ruleset": game, "name": f"A{n}"}) as r:
        host = await r.json()
    tokens = [host["seat_token"]]
    for k in range(2, PHONES + 1):
        async with http.post(f"{base}/api/tables/{host['code']}/join", json={"name": f"P{k}"}) as r:
            tokens.append((await r.json())["seat_token"])
    async with http.post(f"{base}/api/tables/{host['code']}/commands",
                         json={"type": "table.start"}, headers={"X-Seat-Token": tokens[0]}) as r:
        assert r.status == 200, await r.text()
    return host["code"], tokens


async def soak(base: str, tables: int, seconds: float, seed: int = 35, game: str = "counter",
               tap_every: float = TAP_EVERY) -> dict:
    ws_base = base.replace("http://", "ws://")
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0, keepalive_timeout=30)
    timeout = aiohttp.ClientTimeout(total=ANSWER_TIMEOUT)
    answers: dict[str, int] = {}
    tap_ms: list[float] = []
    lag_ms: list[float] = []
    sent: list[tuple[Phone, int, float]] = []
    figures = {"reconnects": 0, "silences": 0, "stalls_over_5s": 0, "refused": 0}
    refused_codes: dict[str, int] = {}  # why the table refused (a DemLoc tap it moved past)
    stop = asyncio.Event()

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        opened = [await open_table(http, base, n, game) for n in range(tables)]
        phones = [Phone(code, seat, token) for code, tokens in opened
                  for seat, token in enumerate(tokens)]
        if game == "demloc":
            for p in phones:  # each phone knows its characters, then learns from its answers
                async with http.get(f"{base}/api/tables/{p.code}/view",
                                    headers={"X-Seat-Token": p.token}) as r:
                    p.view = (await r.json())["view"]
        by_table: dict[str, list[Phone]] = {}
        for p in phones:
            by_table.setdefault(p.code, []).append(p)

        async def hold_socket(phone: Phone) -> None:
            retry = 0
            while not stop.is_set():
                try:
                    async with http.ws_connect(
                        f"{ws_base}/ws/tables/{phone.code}/", origin=base,
                        headers={"X-Seat-Token": phone.token}, max_msg_size=2**22,
                        timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5),
                        autoping=True, heartbeat=None,
                    ) as ws:
                        phone.opened += 1
                        if phone.opened > 1:
                            figures["reconnects"] += 1
                        retry = 0
                        last_message = last_ping = time.perf_counter()
                        while not stop.is_set():
                            wait = max(0.05, last_ping + PING_EVERY - time.perf_counter())
                            try:
                                msg = await ws.receive(timeout=wait)
                            except TimeoutError:
                                msg = None
                            now = time.perf_counter()
                            if msg is not None:
                                if msg.type != aiohttp.WSMsgType.TEXT:
                                    break  # closed by the server or the network
                                last_message = now
                                phone.saw(msg.data, now)
                            if now - last_message > DEAD_AFTER:
                                figures["silences"] += 1  # the page gives such a socket up
                                break
                            if now - last_ping >= PING_EVERY:
                                last_ping = now
                                await ws.send_str(json.dumps({"ping": phone.shown}))
                except (aiohttp.ClientError, TimeoutError, ConnectionError):
                    pass
                if not stop.is_set():
                    await asyncio.sleep(min(0.25 * 2**retry, 2.0) * (0.5 + random.random() / 2))
                    retry += 1

        async def tap(phone: Phone, n: int) -> None:
            t0 = time.perf_counter()
            status = "unanswered"
            version = None
            if game == "demloc":
                body = demloc_tap(phone.view, n)
            else:
                body = {"type": "counter.add", "data": {"amount": 1 if n % 2 else -1}}
            body["idempotency_key"] = f"{phone.code}-{phone.seat}-{n}"
            try:
                async with http.post(
                    f"{base}/api/tables/{phone.code}/commands", json=body,
                    headers={"X-Seat-Token": phone.token},
                ) as r:
                    status = str(r.status)
                    if r.status == 200:
                        answer = await r.json(loads=json.loads)
                        version = answer["version"]
                        if game == "demloc" and answer.get("view"):
                            phone.view = answer["view"]
                    elif game == "demloc" and r.status in (400, 403, 409):
                        # the table moved on (a phone's next tap): not an error
                        code = _refusal_code(await r.read())
                        refused_codes[code] = refused_codes.get(code, 0) + 1
                        status = "refused"
                        figures["refused"] += 1
                        # A phone's page shows what the pushes brought before its next tap (a
                        # shot applied by another phone, a phase passed); the generator reads
                        # the frames' versions only, so it reads its seat's view again instead
                        # (else it keeps tapping Apply on a calculation that is gone).
                        async with http.get(
                            f"{base}/api/tables/{phone.code}/view",
                            headers={"X-Seat-Token": phone.token},
                        ) as v:
                            if v.status == 200:
                                phone.view = (await v.json())["view"]
                    else:
                        await r.read()
            except (aiohttp.ClientError, TimeoutError, ConnectionError):
                status = "unanswered"
            took = time.perf_counter() - t0
            answers[status] = answers.get(status, 0) + 1
            if took > 5.0:
                figures["stalls_over_5s"] += 1
            if version is not None:
                tap_ms.append(took * 1000)
                sent.append((phone, version, t0))

        async def tapping(phone: Phone, phase: float, start: float, end: float) -> None:
            pending = []
            n = 0
            while True:
                due = start + phase + n * tap_every
                if due >= end:
                    break
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                lag_ms.append(max(0.0, time.perf_counter() - due) * 1000)
                pending.append(asyncio.create_task(tap(phone, n)))
                n += 1
            await asyncio.gather(*pending)

        sockets = [asyncio.create_task(hold_socket(p)) for p in phones]
        await asyncio.sleep(3)  # every phone connected and shown its table
        cpu0, wall0 = cpu_seconds(), time.perf_counter()
        rnd = random.Random(seed)
        start = time.perf_counter()
        await asyncio.gather(*(tapping(p, rnd.uniform(0, tap_every), start, start + seconds)
                               for p in phones))
        await asyncio.sleep(3)  # the last frames arrive
        cpu, wall = cpu_seconds() - cpu0, time.perf_counter() - wall0
        stop.set()
        for s in sockets:
            s.cancel()
        await asyncio.gather(*sockets, return_exceptions=True)

    frame_ms: list[float] = []
    missing = 0
    for phone, version, t0 in sent:
        for other in by_table[phone.code]:
            if other is phone:
                continue
            when = other.first_at(version)
            if when is None:
                missing += 1
            else:
                frame_ms.append(max(0.0, when - t0) * 1000)
    offered = sum(answers.values())
    fivexx = sum(n for a, n in answers.items() if a.isdigit() and int(a) >= 500)
    return {
        "drill": f"soak {tables} {game} tables x {PHONES} phones, a tap every {tap_every:g} s a "
                 f"phone, {seconds:g} s",
        "game": game,
        "taps": offered,
        "answers": answers,
        "5xx": fivexx,
        "unanswered": answers.get("unanswered", 0),
        "refused": figures["refused"],
        "refused_codes": dict(sorted(refused_codes.items(), key=lambda kv: -kv[1])),
        "stalls_over_5s": figures["stalls_over_5s"],
        "tap_ms_p50_p99": [pct(tap_ms, 0.5), pct(tap_ms, 0.99)],
        "frame_ms_p50_p99_max": [pct(frame_ms, 0.5), pct(frame_ms, 0.99),
                                 round(max(frame_ms), 1) if frame_ms else None],
        "frames_missing": missing,
        "reconnects": figures["reconnects"],
        "silences_over_6_5s": figures["silences"],
        "generator_lag_ms_p50_p99_max": [pct(lag_ms, 0.5), pct(lag_ms, 0.99),
                                         round(max(lag_ms), 1) if lag_ms else None],
        "generator_cpu_share": round(cpu / wall, 3) if wall else None,
    }


def run(base: str, tables: int, seconds: float, game: str = "counter",
        tap_every: float = TAP_EVERY) -> dict:
    """``soak`` on uvloop when it is installed (uvicorn's standard extra brings it)."""
    main = soak(base, tables, seconds, game=game, tap_every=tap_every)
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] installs it
        return asyncio.run(main)
    return asyncio.run(main, loop_factory=uvloop.new_event_loop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--game", choices=("counter", "demloc"), default="counter")
    parser.add_argument("--tap-every", type=float, default=TAP_EVERY, help="s, per phone")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.url.rstrip("/"), args.tables, args.seconds, args.game,
                         args.tap_every)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

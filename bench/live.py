"""Benchmark of the live path: table commands against a bare one-row insert.

Starts the web server under test (``--server daphne|uvicorn|gunicorn``, ``--workers N``) on
PostgreSQL and Redis (``DATABASE_URL``/``REDIS_URL``; migrated first; ``DB_POOL=1``) with
``bench.settings`` (the product plus ``POST /bench/bare``, a plain Django view inserting one
row), and drives it with aiohttp (cheap enough not to be the bottleneck). Scenarios:

- ``saturation``: ``--connections`` (16, 64) HTTP connections over 16 tables of the kit's
  counter game, each POSTing ``counter.add`` as fast as it can for ``--duration`` seconds, all
  four seats of each table listening on their websockets; then the same connections POST the
  bare endpoint as fast as they can for the same time;
- ``evening``: ``--tables`` (100) tables x 4 phones, all listening, each phone one tap every
  ``--period`` (5 s) at a random phase: 80 commands/s offered; then the bare endpoint on the
  same schedule. Also the RSS of the server processes before and with all phones connected,
  and, before the taps begin, the server's CPU at rest: ``--idle`` (10) s with every phone
  connected and beating, nobody tapping.

Every listening phone sends frontend/app.js's heartbeat ``{"ping": <version shown>}`` every
``--ping-every`` (2.5) s at its own phase, as a phone on the table page does (``0``: none, as
every sitting before 2026-12-07 21:07; docs/performance.md "DemLoc at an evening's scale").

``--tap page`` (default ``api``): each phone taps as the table page does, the htmx
``POST /t/<code>/command/`` with its seat cookie (``/bench/seat-cookie`` gives the phones made
by the API the cookie a join by the page gives), answered with its live region, instead of
the JSON API's ``POST /api/tables/<code>/commands`` answered with its seat's view.

``--game demloc`` plays four-player DemLoc quick missions instead of the counter: each phone
taps its own characters in a realistic mix (damage on and off, a bleeding token on and off,
mana in and out, a fate point gained and spent, a shot worked out and applied, the phase
passed when it is its turn, Next turn at the turn end; ``demloc_tap``); a refused tap (the
table moved on: another phone's pending shot, not its turn any more) is counted apart.

Each run prints throughput, p50/p99 of the command (POST to answer) and of POST -> frame at the
table's other three seats (a frame carries ``data-version``; a coalesced frame with a later
version covers the earlier one), frames missing, and the ratios to the bare endpoint.
``--runs N`` repeats a scenario and prints min/median/max of each figure.

Each phone offers per-message deflate as a phone's browser does (Chromium:
``permessage-deflate; client_max_window_bits``); ``--no-deflate`` offers none (aiohttp's
default, and every sitting before the s24-mem one). The mean frame is given as text and as the
bytes its socket received (``TCP_INFO``: compressed when deflate was negotiated).

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/live.py saturation \\
        --server uvicorn --workers 2 --connections 64 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import multiprocessing
import os
import random
import re
import shlex
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/ run as a script
from bench.figures import merge, mmm, share, summary  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.compile(r'data-version="(\d+)"')
DELTA = re.compile(r"^<!--delta \d+ (\d+)-->")  # tabletop/blocks.py: the changed blocks only
GAME = "counter"  # --game (set before the client processes fork)
TAP = "api"  # --tap: "page" taps as the table page does (htmx POST with the seat cookie)
DEFLATE = 15  # --no-deflate: 0 (aiohttp offers permessage-deflate only when asked)
PING_EVERY = 2.5  # --ping-every: frontend/app.js's heartbeat {"ping": <version shown>}; 0: none
PONG = '{"pong"'  # the answer to a heartbeat when the phone is up to date (not a frame)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(extra=None):
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://demloc:demloc@127.0.0.1:5432/demloc_bench"
        ),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/5"),
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DB_POOL": os.environ.get("DB_POOL", "1"),
        "PYTHONPATH": str(ROOT),
        # every phone of the benchmark is 127.0.0.1: the gate's throttles would add up
        "TABLETOP_TABLE_CREATE_RATE": "1000000/min",
        "TABLETOP_SEAT_JOIN_RATE": "1000000/min",
        "TABLETOP_CODE_GUESS_RATE": "1000000/min",
    }
    env.update(extra or {})
    return env


#: uvicorn's websocket options as production has them (``config/supervisord.conf``; checked by
#: tests/test_run.py): the phones' protocol (per-message deflate without context takeover).
PRODUCTION_WS = ("--ws", "config.websocket:PhoneWebSocket", "--ws-max-size", "4096")


def server_command(server: str, workers: int, port: int) -> list[str]:
    """The command line of ``server`` with ``workers`` processes on 127.0.0.1:``port``."""
    py = sys.executable
    if server == "daphne":
        if workers != 1:
            raise SystemExit("daphne runs one process (--workers 1)")
        return [py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    if server == "uvicorn":
        return [py, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--workers", str(workers), "--lifespan", "off",
                "--no-access-log", "--log-level", "warning", *PRODUCTION_WS]
    if server == "gunicorn":
        return [py, "-m", "gunicorn", "config.asgi:application", "-k",
                "uvicorn_worker.UvicornWorker", "-w", str(workers), "-b", f"127.0.0.1:{port}",
                "--log-level", "warning"]
    raise SystemExit(f"unknown server {server}")


def start_server(server: str, workers: int, env: dict, extra: list[str] = ()):
    """Start ``server`` (``server_command`` plus the ``extra`` arguments) on a free port;
    returns ``(process, url)`` once the port answers."""
    port = free_port()
    proc = subprocess.Popen(
        [*server_command(server, workers, port), *extra], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120  # a loaded machine imports Django slowly
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
            time.sleep(5.0 if workers > 1 else 0.1)  # let every worker finish importing
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def bytes_received(ws) -> int:
    """The bytes the kernel received so far on the TCP connection of ``ws`` (an aiohttp
    websocket): ``tcpi_bytes_received`` of ``struct tcp_info`` (Linux >= 4.1, offset 128)."""
    sock = ws._response.connection.transport.get_extra_info("socket")
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return struct.unpack_from("Q", info, 128)[0]


def stop_server(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its children (the server's workers), in KiB."""
    total = 0
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


async def make_table(http, url):
    async with http.post(f"{url}/api/tables/", json={"ruleset": GAME, "name": "S1"}) as r:
        if r.status != 201:
            raise SystemExit(f"table create: {r.status} {await r.text()}")
        host = await r.json()
    tid = host["code"]
    tokens = [host["seat_token"]]
    for n in range(2, 5):
        async with http.post(f"{url}/api/tables/{tid}/join", json={"name": f"S{n}"}) as r:
            tokens.append((await r.json())["seat_token"])
    async with http.post(f"{url}/api/tables/{tid}/commands", json={"type": "table.start"},
                         headers={"X-Seat-Token": tokens[0]}) as r:
        r.raise_for_status()
    if GAME == "demloc":
        for token in tokens:  # each phone knows its characters (and then learns from answers)
            async with http.get(f"{url}/api/tables/{tid}/view",
                                headers={"X-Seat-Token": token}) as r:
                KNOWN[(tid, token)] = (await r.json())["view"]
    if TAP == "page":
        for token in tokens:  # the seat cookie a phone holds once joined by the join page
            async with http.post(f"{url}/bench/seat-cookie",
                                 headers={"X-Seat-Token": token}) as r:
                r.raise_for_status()
                csrf = (await r.json())["csrf"]
                cookie = "; ".join(f"{k}={v.value}" for k, v in r.cookies.items())
            PAGE[(tid, token)] = {"Cookie": cookie, "X-CSRFToken": csrf, "HX-Request": "true"}
    return tid, tokens


#: The last view each DemLoc phone was answered with, by (table, seat token).
KNOWN: dict[tuple, dict] = {}
#: DemLoc taps refused (the table moved on), per client process.
REFUSED: list = []
#: The headers of each phone's page taps (``--tap page``), by (table, seat token): its seat
#: and CSRF cookies, the CSRF token, htmx's ``HX-Request``.
PAGE: dict[tuple, dict] = {}
_PHASE = re.compile(r'id="dl-phase"[^>]*>([^<]*)<')
_PHASES = {"Strategic": "strategic", "Brawl": "brawl", "Turn end": "end"}


def learned(view: dict, region: str) -> dict:
    """What a phone tapping through the page knows after an answer (``region``, the live
    region): ``view`` with what ``demloc_tap`` reads that the region shows (a pending
    calculation, its turn, the phase); its characters are the ones it started with."""
    phase = _PHASE.search(region)
    return {**view, "pending": 'id="dl-pending"' in region,
            "my_turn": "<strong>Your move</strong>" in region,
            "phase": _PHASES.get(phase.group(1).strip(), "") if phase else view.get("phase")}


def demloc_tap(view: dict, n: int) -> dict:
    """The ``n``-th tap of a DemLoc phone whose seat's view is ``view``: a realistic mix on
    its own characters (twelve taps, then again)."""
    mine = [p for p in view.get("my_pieces", []) if p["status"] == "in_play"] or \
        view.get("my_pieces", [])
    p = mine[(n // 12) % len(mine)] if mine else {"id": "", "arcane": 0}
    pid = p["id"]
    arcane = next((q for q in mine if q.get("arcane")), None)
    step = n % 12
    if view.get("pending"):
        return {"type": "demloc.calc.apply", "data": {}}
    if step == 0:
        return {"type": "demloc.damage.assign", "data": {"piece": pid, "amount": 1,
                                                         "mode": "general"}}
    if step == 1:
        return {"type": "demloc.damage.remove", "data": {"piece": pid, "amount": 1,
                                                         "step": "armor"}}
    if step in (2, 3):
        return {"type": "demloc.tokens.adjust", "data": {"piece": pid, "token": "bleeding",
                                                         "delta": 1 if step == 2 else -1}}
    if step in (4, 5) and arcane is not None:
        return {"type": "demloc.mana.adjust", "data": {"piece": arcane["id"], "colour": "common",
                                                       "delta": 1 if step == 4 else -1}}
    if step in (4, 5):
        return {"type": "demloc.tokens.adjust", "data": {"piece": pid, "token": "poison",
                                                         "delta": 1 if step == 4 else -1}}
    if step == 6:
        return {"type": "demloc.fate.gain", "data": {"amount": 1, "reason": "bench"}}
    if step == 7:
        return {"type": "demloc.fate.spend", "data": {"amount": 1, "reason": "bench"}}
    if step == 8:
        targets = [t for t in view.get("other_pieces", []) if t["status"] == "in_play"]
        weapon = next((w for w in p.get("weapon_refs", []) if w.get("range")), None)
        if targets and weapon is not None:
            return {"type": "demloc.shot.propose", "data": {
                "shooter": f"{pid}:{weapon['index']}", "target": targets[n % len(targets)]["id"],
                "test_roll": 2, "fate": 0, "dice": " ".join(["4"] * p.get("shoot_dice", 1)),
                "cover": 0, "extra": 0}}
        return {"type": "demloc.fate.gain", "data": {"amount": 1, "reason": "bench"}}
    if step == 9:  # the shot's calculation applied (or a token when there was none)
        return {"type": "demloc.tokens.adjust", "data": {"piece": pid, "token": "poison",
                                                         "delta": 1}}
    if step == 10:
        if view.get("phase") == "end":
            return {"type": "demloc.turn.next", "data": {}}
        if view.get("my_turn"):
            return {"type": "demloc.phase.next", "data": {}}
    return {"type": "demloc.tokens.adjust", "data": {"piece": pid, "token": "poison",
                                                     "delta": -1}}


class Listener:
    """All four seats of every table on their websockets; records (version, time) per seat."""

    def __init__(self):
        self.frames: dict[tuple[int, int], list[tuple[int, float]]] = {}
        self.sockets = []
        self.tasks = []
        self.first_bytes: list[int] = []  # the whole region each phone got on connecting
        self.bytes: list[int] = []  # every frame after it
        self.wire = 0  # the bytes the sockets received after the first frame
        self.shown: dict[tuple[int, int], int] = {}  # the version each phone shows
        self.pings = 0  # heartbeats sent
        self.pongs = 0  # heartbeats answered "up to date" (a behind phone gets a frame)

    async def connect(self, http, url, tables):
        ws_url = url.replace("http://", "ws://")

        async def one(tid, seat, token):
            ws = await http.ws_connect(
                f"{ws_url}/ws/tables/{tid}/", origin=url, max_msg_size=2**22,
                headers={"X-Seat-Token": token}, compress=DEFLATE,
            )
            first = await ws.receive()  # the catch-up frame
            version = VERSION.search(first.data)
            assert version, first
            self.shown[(tid, seat)] = int(version.group(1))
            self.wire -= bytes_received(ws)
            self.first_bytes.append(len(first.data.encode()))
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self.listen(tid, seat, ws)))
            if PING_EVERY:
                self.tasks.append(asyncio.create_task(self.beat(tid, seat, ws)))

        for i in range(0, len(tables), 25):  # not 400 handshakes at once
            await asyncio.gather(*(one(tid, seat, tok) for tid, tokens in tables[i:i + 25]
                                   for seat, tok in enumerate(tokens)))

    async def listen(self, tid, seat, ws):
        seen = self.frames.setdefault((tid, seat), [])
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            if msg.data.startswith(PONG):
                self.pongs += 1
                continue
            self.bytes.append(len(msg.data.encode()))
            m = DELTA.match(msg.data) or VERSION.search(msg.data, 0, 400)
            if m:
                seen.append((int(m.group(1)), now))
                self.shown[(tid, seat)] = max(self.shown[(tid, seat)], int(m.group(1)))

    async def beat(self, tid, seat, ws):
        """The phone's heartbeat as frontend/app.js sends it: ``{"ping": <version shown>}``
        every ``PING_EVERY`` s (each phone at its own phase). The server answers a phone that
        is up to date with a pong and one that is behind with the live region."""
        await asyncio.sleep(random.uniform(0, PING_EVERY))
        while not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps({"ping": self.shown[(tid, seat)]}))
                self.pings += 1
            await asyncio.sleep(PING_EVERY)

    async def close(self):
        for ws in self.sockets:
            self.wire += bytes_received(ws)
        for ws in self.sockets:
            await ws.close()
        for t in self.tasks:
            t.cancel()

    def latencies(self, sent):
        """POST -> first frame at each other seat showing that version or a later one (ms);
        and how many of those frames never came."""
        index = {k: ([v for v, _ in f], [t for _, t in f]) for k, f in self.frames.items()}
        out, missing = [], 0
        for tid, version, seat, t0 in sent:
            for other in range(4):
                if other == seat:
                    continue
                versions, times = index.get((tid, other), ([], []))
                i = bisect.bisect_left(versions, version)
                if i == len(versions):
                    missing += 1
                else:
                    out.append((times[i] - t0) * 1000)
        return out, missing


async def post_command(http, url, tid, token, seat, n, sent, cmd_lat, errors):
    t0 = time.perf_counter()
    if GAME == "demloc":
        body = demloc_tap(KNOWN.get((tid, token), {}), n)
    else:
        body = {"type": "counter.add", "data": {"amount": 1 if n % 2 == 0 else -1}}
    if TAP == "page":
        await post_page(http, url, tid, token, seat, body, t0, sent, cmd_lat, errors)
        return
    try:
        async with http.post(f"{url}/api/tables/{tid}/commands", json=body,
                             headers={"X-Seat-Token": token}) as r:
            data = await r.json()
            if GAME == "demloc" and r.status in (400, 403, 409):
                REFUSED.append(data.get("code"))  # the table moved on: a phone's next tap
                return
            if r.status != 200:
                errors.append(r.status)
                return
            if GAME == "demloc" and data.get("view"):
                KNOWN[(tid, token)] = data["view"]
    except aiohttp.ClientError as exc:
        errors.append(type(exc).__name__)
        return
    cmd_lat.append((time.perf_counter() - t0) * 1000)
    sent.append((tid, data["version"], seat, t0))


async def post_page(http, url, tid, token, seat, body, t0, sent, cmd_lat, errors):
    """A tap through the table page: the htmx ``POST /t/<code>/command/`` of its form (the
    command's data as ``d.<name>`` fields) with the phone's seat cookie, answered with the
    seat's live region (a refusal: the region with the message, status 400/403/409)."""
    form = {"type": body["type"], **{f"d.{k}": str(v) for k, v in body["data"].items()}}
    try:
        async with http.post(f"{url}/t/{tid}/command/", data=form,
                             headers=PAGE[(tid, token)]) as r:
            region = await r.text()
            if GAME == "demloc" and (tid, token) in KNOWN:
                KNOWN[(tid, token)] = learned(KNOWN[(tid, token)], region)
            if r.status in (400, 403, 409):
                REFUSED.append(r.status)  # the table moved on: a phone's next tap
                return
            if r.status != 200:
                errors.append(r.status)
                return
    except aiohttp.ClientError as exc:
        errors.append(type(exc).__name__)
        return
    cmd_lat.append((time.perf_counter() - t0) * 1000)
    sent.append((tid, int(VERSION.search(region, 0, 400).group(1)), seat, t0))


async def post_bare(http, url, lat, errors):
    t0 = time.perf_counter()
    try:
        async with http.post(f"{url}/bench/bare") as r:
            await r.read()
            if r.status != 200:
                errors.append(r.status)
                return
    except aiohttp.ClientError as exc:
        errors.append(type(exc).__name__)
        return
    lat.append((time.perf_counter() - t0) * 1000)


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its children (the server's
    workers), from /proc; 0.0 for a process that is gone."""
    total = 0
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


class Phases:
    """The client processes' meeting points: every process and the coordinator wait at each
    step (``STEPS``: tables made, RSS read, phones connected, RSS read, the evening's idle
    phones (``--idle`` s, the server's CPU read at both ends) and its start, commands played with
    the phones still connected, phones gone, bare endpoint done), so the processes load the
    server at the same time and the coordinator reads the server's RSS and CPU between the
    phases. Without a barrier (a scenario run in-process) nothing waits."""

    STEPS = ("tables", "rss_before", "listening", "rss_with", "idle", "go", "played",
             "commands", "bare")

    def __init__(self, barrier=None):
        self.barrier = barrier

    def reached(self, step: str) -> None:
        if self.barrier is not None:
            self.barrier.wait(timeout=300)


async def saturation(url, connections, duration, part=0, parts=1, phases=None, tables=16,
                     listen=True):
    """One client process's share of the saturation scenario: the tables ``part::parts`` of
    ``tables`` and the connections that post to them; with ``listen`` false no phone listens
    (the command's own cost, without its fan-out). Returns the raw figures
    (``client_result``)."""
    phases = phases or Phases()
    mine = share(list(range(tables)), part, parts)
    conn = aiohttp.TCPConnector(limit=0)
    # no shared cookie jar: each phone's page taps carry its own cookies (``PAGE``)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(60),
                                     cookie_jar=aiohttp.DummyCookieJar()) as http:
        setups = {k: await make_table(http, url) for k in mine}
        phases.reached("tables")
        phases.reached("rss_before")
        listener = Listener()
        if listen:
            await listener.connect(http, url, list(setups.values()))
        phases.reached("listening")
        phases.reached("rss_with")
        sent, cmd_lat, errors = [], [], []
        posters = [k for k in range(connections) if k % tables in setups]
        cpu0 = time.process_time()
        start = time.perf_counter()
        stop = start + duration

        async def poster(k):
            tid, tokens = setups[k % tables]
            seat = (k // tables) % 4
            n = 0
            while time.perf_counter() < stop:
                await post_command(http, url, tid, tokens[seat], seat, n, sent, cmd_lat, errors)
                n += 1

        await asyncio.gather(*(poster(k) for k in posters))
        elapsed = time.perf_counter() - start
        cmd_cpu = time.process_time() - cpu0
        await asyncio.sleep(3.0)  # the last frames
        phases.reached("played")
        await listener.close()
        frames, missing = listener.latencies(sent) if listen else ([], 0)
        phases.reached("commands")

        bare_lat, bare_err = [], []
        cpu0 = time.process_time()
        start = time.perf_counter()
        stop = start + duration

        async def bare_poster():
            while time.perf_counter() < stop:
                await post_bare(http, url, bare_lat, bare_err)

        await asyncio.gather(*(bare_poster() for _ in posters))
        bare_elapsed = time.perf_counter() - start
        bare_cpu = time.process_time() - cpu0
        phases.reached("bare")
    return client_result(sent, cmd_lat, errors, elapsed, cmd_cpu, frames, missing,
                         bare_lat, bare_err, bare_elapsed, bare_cpu, listener)


def client_result(sent, cmd_lat, errors, elapsed, cmd_cpu, frames, missing,
                  bare_lat, bare_err, bare_elapsed, bare_cpu, listener=None) -> dict:
    """What one client process hands back (plain lists and numbers: it crosses processes)."""
    return {"first_bytes": listener.first_bytes if listener else [],
            "frame_bytes": listener.bytes if listener else [], "refused": len(REFUSED),
            "pings": listener.pings if listener else 0,
            "wire_bytes": listener.wire if listener else 0,
            "commands": len(sent), "cmd_lat": cmd_lat, "errors": [str(e) for e in errors],
            "elapsed": elapsed, "cmd_cpu": cmd_cpu, "frames": frames, "missing": missing,
            "bare_lat": bare_lat, "bare_err": [str(e) for e in bare_err],
            "bare_elapsed": bare_elapsed, "bare_cpu": bare_cpu}


async def evening(url, tables, period, duration, part=0, parts=1, phases=None, idle=0.0):
    """One client process's share of the evening: the tables ``part::parts`` of ``tables``,
    4 phones each, every phone one tap every ``period`` s at a random phase; then the bare
    endpoint on the same schedule. Returns the raw figures (``client_result``)."""
    phases = phases or Phases()
    mine = share(list(range(tables)), part, parts)
    conn = aiohttp.TCPConnector(limit=0)
    # no shared cookie jar: each phone's page taps carry its own cookies (``PAGE``)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(60),
                                     cookie_jar=aiohttp.DummyCookieJar()) as http:
        setups = [await make_table(http, url) for _ in mine]
        phases.reached("tables")
        phases.reached("rss_before")
        listener = Listener()
        await listener.connect(http, url, setups)
        phases.reached("listening")
        phases.reached("rss_with")
        # the phones connected, beating, nobody tapping: the coordinator reads the server's
        # CPU at both ends (``run_clients``)
        pings0 = listener.pings
        await asyncio.sleep(idle)
        idle_pings = listener.pings - pings0
        phases.reached("idle")
        phases.reached("go")
        sent, cmd_lat, errors = [], [], []
        rng = random.Random(19 + part)

        async def phone(tid, seat, token, phase):
            await asyncio.sleep(phase)
            n, begin = 0, time.perf_counter()
            tasks = []
            while True:
                at = begin + n * period
                if at - start > duration:
                    break
                await asyncio.sleep(max(0.0, at - time.perf_counter()))
                # a tap does not wait for the previous one: the offered load stays 80/s
                tasks.append(asyncio.create_task(
                    post_command(http, url, tid, token, seat, n, sent, cmd_lat, errors)))
                n += 1
            await asyncio.gather(*tasks)

        cpu0 = time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(phone(tid, seat, tok, rng.uniform(0, period))
                               for tid, tokens in setups for seat, tok in enumerate(tokens)))
        elapsed = time.perf_counter() - start
        cmd_cpu = time.process_time() - cpu0
        await asyncio.sleep(3.0)
        phases.reached("played")
        await listener.close()
        frames, missing = listener.latencies(sent)
        phases.reached("commands")

        bare_lat, bare_err = [], []

        async def bare_phone(phase):
            await asyncio.sleep(phase)
            n, begin, tasks = 0, time.perf_counter(), []
            while begin + n * period - start <= duration:
                await asyncio.sleep(max(0.0, begin + n * period - time.perf_counter()))
                tasks.append(asyncio.create_task(post_bare(http, url, bare_lat, bare_err)))
                n += 1
            await asyncio.gather(*tasks)

        cpu0 = time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(bare_phone(rng.uniform(0, period)) for _ in range(len(setups) * 4)))
        bare_elapsed = time.perf_counter() - start
        bare_cpu = time.process_time() - cpu0
        phases.reached("bare")
    return {**client_result(sent, cmd_lat, errors, elapsed, cmd_cpu, frames, missing,
                            bare_lat, bare_err, bare_elapsed, bare_cpu, listener),
            "idle_pings": idle_pings}


def client_main(args, url, part, parts, barrier, results):
    """A client process: its share of the scenario on its own event loop; the figures go to
    the ``results`` queue (an exception's text instead if it failed)."""
    phases = Phases(barrier)
    try:
        if args.scenario == "saturation":
            out = asyncio.run(saturation(url, args.connections, args.duration, part, parts,
                                         phases, listen=not args.no_listeners))
        else:
            out = asyncio.run(evening(url, args.tables, args.period, args.duration, part,
                                      parts, phases, idle=args.idle))
    except BaseException as exc:  # the coordinator must not wait for a dead client
        barrier.abort()
        results.put((part, f"{type(exc).__name__}: {exc}"))
        raise
    results.put((part, out))


def snapshot(pid: int) -> None:
    """Ask ``pid`` and its children (the server's workers) for a tracemalloc snapshot
    (``BENCH_TRACEMALLOC=DIR`` set: ``bench.settings`` dumps one per SIGUSR1 into DIR) and
    give them time to."""
    if not os.environ.get("BENCH_TRACEMALLOC"):
        return
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    for p in [pid, *(int(p) for p in out.split())]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGUSR1)
    time.sleep(20.0)


def run_clients(args, url, server_pid):
    """Run one scenario with ``args.clients`` client processes (fork) against ``url``; read
    the server's RSS (before the phones, with them, after the commands) and its CPU per phase
    between the processes' steps. Returns ``(command row, bare row)`` (``summary``, plus the
    client's and the server's CPU per request and, for the evening, the RSS figures)."""
    ctx = multiprocessing.get_context("fork")
    parts = args.clients
    barrier = ctx.Barrier(parts + 1)
    results = ctx.Queue()
    procs = [ctx.Process(target=client_main, args=(args, url, p, parts, barrier, results))
             for p in range(parts)]
    for p in procs:
        p.start()
    seen = {"rss_before": 0, "rss_with": 0, "rss_played": 0}
    cpu0 = cpu1 = cpu2 = 0.0
    try:
        barrier.wait(timeout=300)  # tables made
        time.sleep(1.0)
        seen["rss_before"] = rss_kb(server_pid) if server_pid else 0
        snapshot(server_pid)
        barrier.wait(timeout=300)
        barrier.wait(timeout=300)  # phones listening
        time.sleep(1.0)
        seen["rss_with"] = rss_kb(server_pid) if server_pid else 0
        snapshot(server_pid)
        cpu0 = proc_cpu(server_pid) if server_pid else 0.0
        if args.scenario == "evening":
            barrier.wait(timeout=300)  # the phones beat for --idle s, nobody tapping
            idle_at, cpu0 = time.perf_counter(), proc_cpu(server_pid) if server_pid else 0.0
            barrier.wait(timeout=300)  # idle done
            seen["idle_s"] = time.perf_counter() - idle_at
            seen["idle_cpu"] = (proc_cpu(server_pid) if server_pid else 0.0) - cpu0
            cpu0 = proc_cpu(server_pid) if server_pid else 0.0
        barrier.wait(timeout=300)  # the commands start
        barrier.wait(timeout=300)  # commands done (and 3 s of last frames)
        seen["rss_played"] = rss_kb(server_pid) if server_pid else 0
        snapshot(server_pid)
        barrier.wait(timeout=300)  # the phones hung up
        cpu1 = proc_cpu(server_pid) if server_pid else 0.0
        barrier.wait(timeout=300)  # bare done
        cpu2 = proc_cpu(server_pid) if server_pid else 0.0
    except threading.BrokenBarrierError:
        pass  # a client process failed: its error is in the queue
    got = dict(results.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(30)
    failed = {k: v for k, v in got.items() if isinstance(v, str)}
    if failed:
        raise SystemExit(f"client process failed: {failed}")
    m = merge([got[p] for p in range(parts)])
    first_bytes = [b for p in range(parts) for b in got[p]["first_bytes"]]
    frame_bytes = [b for p in range(parts) for b in got[p]["frame_bytes"]]
    refused = sum(got[p]["refused"] for p in range(parts))
    cmd = summary("command", m["commands"], m["elapsed"], m["cmd_lat"], m["frames"],
                  m["missing"], m["errors"])
    bare = summary("bare", len(m["bare_lat"]), m["bare_elapsed"], m["bare_lat"],
                   errors=m["bare_err"])
    for row, cpu, core, server in ((cmd, m["cmd_cpu"], m["cmd_core"], cpu1 - cpu0),
                                   (bare, m["bare_cpu"], m["bare_core"], cpu2 - cpu1)):
        row["client_cpu_ms"] = 1000 * cpu / max(1, row["count"])
        row["client_core"] = core
        row["server_cpu_ms"] = 1000 * server / max(1, row["count"])
    cmd["refused"] = refused
    cmd["region_bytes"] = sum(first_bytes) / max(1, len(first_bytes))
    cmd["frame_bytes"] = sum(frame_bytes) / max(1, len(frame_bytes))
    cmd["wire_frame_bytes"] = (sum(got[p]["wire_bytes"] for p in range(parts))
                               / max(1, len(frame_bytes)))
    cmd["pings"] = sum(got[p]["pings"] for p in range(parts))
    if args.scenario == "evening":
        phones = args.tables * 4
        cmd["offered"] = phones / args.period
        idle_s = max(1e-9, seen.get("idle_s", 0.0))
        cmd["idle_s"] = seen.get("idle_s", 0.0)
        cmd["idle_cpu_ms_per_s"] = 1000 * seen.get("idle_cpu", 0.0) / idle_s
        idle_pings = sum(got[p]["idle_pings"] for p in range(parts))
        cmd["idle_pings_per_s"] = idle_pings / idle_s
        cmd["idle_cpu_ms_per_ping"] = (1000 * seen.get("idle_cpu", 0.0) / idle_pings
                                       if idle_pings else float("nan"))
        cmd["rss_before_mb"] = seen["rss_before"] / 1024
        cmd["rss_with_mb"] = seen["rss_with"] / 1024
        cmd["rss_per_phone_kb"] = (seen["rss_with"] - seen["rss_before"]) / phones
        cmd["rss_played_mb"] = seen["rss_played"] / 1024
        cmd["rss_played_per_phone_kb"] = (seen["rss_played"] - seen["rss_before"]) / phones
    return cmd, bare


def fmt(row):
    s = (f"{row['name']:8s} {row['count']:6d} in all, {row['throughput']:7.1f}/s, "
         f"answer p50 {row['p50']:7.1f} ms p99 {row['p99']:7.1f} ms")
    if "frame_p50" in row:
        s += (f"; POST -> 3 other seats p50 {row['frame_p50']:7.1f} ms "
              f"p99 {row['frame_p99']:7.1f} ms ({row['missing']} missing)")
    if row.get("errors"):
        s += f"; {row['errors']} errors"
    if row.get("refused"):
        s += f"; {row['refused']} taps refused (the table moved on)"
    if row.get("frame_bytes"):
        s += (f"; mean frame {row['frame_bytes'] / 1024:.1f} KiB, "
              f"{row['wire_frame_bytes'] / 1024:.1f} KiB on the wire (whole region "
              f"{row['region_bytes'] / 1024:.1f} KiB)")
    return s


def parse_servers(text: str) -> list[tuple[str, int]]:
    """``daphne:1,uvicorn:2,gunicorn:2`` -> ``[("daphne", 1), ...]`` (workers default to 1)."""
    out = []
    for item in text.split(","):
        name, _, workers = item.strip().partition(":")
        if name not in ("daphne", "uvicorn", "gunicorn"):
            raise SystemExit(f"unknown server {name!r} (daphne, uvicorn, gunicorn)")
        out.append((name, int(workers or 1)))
    return out


def report(args, server, workers, run, cmd, bare):
    """Print one run's figures; returns them as a dict (for --json and the summary)."""
    if args.scenario == "saturation":
        label = f"{args.game}: {args.connections} connections over 16 tables"
        if args.no_listeners:
            label += ", no phone listening"
    else:
        label = (f"{args.game}: {args.tables} tables x 4 phones, a tap every {args.period} s "
                 f"({cmd['offered']:.0f} commands/s offered)")
    label += f"; taps by the {'table page' if args.tap == 'page' else 'JSON API'}"
    ratio = cmd["throughput"] / bare["throughput"]
    frame_vs_cmd = cmd["frame_p99"] / cmd["p99"]
    load = os.getloadavg()[0]
    print(f"run {run + 1}, {server} x {workers}: {label}; {args.clients} client process(es); "
          f"load average {load:.2f}")
    print("  " + fmt(cmd))
    print("  " + fmt(bare))
    for row in (cmd, bare):
        print(f"  {row['name']:8s} CPU per request: client {row['client_cpu_ms']:.2f} ms "
              f"(busiest client process {100 * row['client_core']:.0f}% of a core), "
              f"server {row['server_cpu_ms']:.2f} ms")
    print(f"  ratios: command/bare throughput {ratio:.2f}x; "
          f"frame p99 / command p99 {frame_vs_cmd:.2f}x; "
          f"command p99 / bare p99 {cmd['p99'] / bare['p99']:.2f}x")
    if "rss_per_phone_kb" in cmd:
        print(f"  server RSS {cmd['rss_before_mb']:.0f} MiB before the phones, "
              f"{cmd['rss_with_mb']:.0f} MiB with {args.tables * 4} connected: "
              f"{cmd['rss_per_phone_kb']:.0f} KiB per phone; {cmd['rss_played_mb']:.0f} MiB "
              f"after the commands, phones still connected: "
              f"{cmd['rss_played_per_phone_kb']:.0f} KiB per phone")
    if "idle_cpu_ms_per_s" in cmd and args.idle:
        print(f"  at rest ({cmd['idle_s']:.1f} s, {args.tables * 4} phones connected, "
              f"{cmd['idle_pings_per_s']:.0f} heartbeats/s, nobody tapping): server CPU "
              f"{cmd['idle_cpu_ms_per_s']:.0f} ms per second, "
              f"{cmd['idle_cpu_ms_per_ping']:.2f} ms per heartbeat (the sockets' own idle "
              f"work included: --ping-every 0 measures it alone)")
    if max(cmd["client_core"], bare["client_core"]) > 0.8:
        print(f"  WARNING: a client process used over 80% of a core: the client may be the "
              f"bottleneck (try --clients {args.clients * 2})")
    return {"cmd": cmd, "bare": bare, "ratio": ratio, "frame_vs_cmd": frame_vs_cmd,
            "load": load}


def print_summary(server, workers, runs):
    """min / median / max over the runs of one server and worker count."""
    print(f"{server} x {workers}, over {len(runs)} runs (min / median / max):")
    for key in ("throughput", "p50", "p99", "frame_p50", "frame_p99", "frame_bytes",
                "wire_frame_bytes", "region_bytes"):
        print(f"  command {key}: {mmm([r['cmd'][key] for r in runs])}")
    for key in ("throughput", "p50", "p99"):
        print(f"  bare {key}: {mmm([r['bare'][key] for r in runs])}")
    print(f"  ratio command/bare throughput: {mmm([r['ratio'] for r in runs])}")
    print(f"  frame p99 / command p99: {mmm([r['frame_vs_cmd'] for r in runs])}")
    for name in ("cmd", "bare"):
        print(f"  {name} CPU per request ms: client "
              f"{mmm([r[name]['client_cpu_ms'] for r in runs])}, server "
              f"{mmm([r[name]['server_cpu_ms'] for r in runs])}; busiest client process's "
              f"share of a core {mmm([r[name]['client_core'] for r in runs])}")
    if "rss_per_phone_kb" in runs[0]["cmd"]:
        print(f"  RSS per phone KiB: {mmm([r['cmd']['rss_per_phone_kb'] for r in runs], '.0f')}"
              f"; RSS with the phones MiB: "
              f"{mmm([r['cmd']['rss_with_mb'] for r in runs], '.0f')}; after the commands "
              f"{mmm([r['cmd']['rss_played_mb'] for r in runs], '.0f')} MiB, "
              f"{mmm([r['cmd']['rss_played_per_phone_kb'] for r in runs], '.0f')} KiB per phone")
    if "idle_cpu_ms_per_s" in runs[0]["cmd"] and runs[0]["cmd"]["idle_s"] > 0.5:
        print(f"  at rest: server CPU ms per second "
              f"{mmm([r['cmd']['idle_cpu_ms_per_s'] for r in runs], '.0f')}, per heartbeat (idle "
              f"sockets' work included) "
              f"{mmm([r['cmd']['idle_cpu_ms_per_ping'] for r in runs])} ms")
    print(f"  load average: {mmm([r['load'] for r in runs])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["saturation", "evening"])
    parser.add_argument("--game", choices=["counter", "demloc"], default="counter",
                        help="the kit's counter game, or four-player DemLoc quick missions")
    parser.add_argument("--tap", choices=["api", "page"], default="api",
                        help="how a phone taps: the JSON API (answered with the seat's view) "
                             "or the table page (htmx POST /t/<code>/command/ with its seat "
                             "cookie, answered with the live region: the players' phones)")
    parser.add_argument("--server", default="uvicorn",
                        help="daphne, uvicorn or gunicorn; or a list such as "
                             "daphne:1,uvicorn:2,gunicorn:2 (name:workers), measured in turn "
                             "within every run so a change in the machine's load hits all")
    parser.add_argument("--workers", type=int, default=1, help="processes (a single --server)")
    parser.add_argument("--connections", type=int, default=16, help="saturation: connections")
    parser.add_argument("--no-listeners", action="store_true",
                        help="saturation: no phone listens (the command without its fan-out)")
    parser.add_argument("--tables", type=int, default=100, help="evening: tables")
    parser.add_argument("--period", type=float, default=5.0, help="evening: s between taps")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds per phase")
    parser.add_argument("--idle", type=float, default=10.0,
                        help="evening: seconds the connected phones only beat before the "
                             "taps begin (the server's CPU at rest)")
    parser.add_argument("--ping-every", type=float, default=2.5,
                        help="s between a phone's heartbeats (frontend/app.js: 2.5); 0: none "
                             "(every sitting before 2026-12-07 21:07)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--clients", type=int, default=1,
                        help="client processes sharing the tables (their latencies pooled)")
    parser.add_argument("--server-args", default="",
                        help="more arguments for the server's command line, e.g. "
                             "'--ws-per-message-deflate false' (uvicorn)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="the phones offer no per-message deflate (a phone's browser does)")
    parser.add_argument("--url", help="a running server (its /bench/bare too) instead")
    parser.add_argument("--json", help="append each run's figures to this file")
    args = parser.parse_args()
    global GAME, TAP, DEFLATE, PING_EVERY
    GAME, TAP, DEFLATE = args.game, args.tap, 0 if args.no_deflate else 15
    PING_EVERY = args.ping_every
    if "," in args.server or ":" in args.server:
        servers = parse_servers(args.server)
    else:
        servers = parse_servers(f"{args.server}:{args.workers}")
    env = server_env()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before the runs")
    print(f"servers: {', '.join(f'{s} x {w}' for s, w in servers)}; "
          f"DB {env['DATABASE_URL'].split('@')[-1]}; Redis {env['REDIS_URL'].split('@')[-1]}; "
          f"DB_POOL={env['DB_POOL']}; {args.clients} client process(es); "
          f"deflate {'not ' if args.no_deflate else ''}offered; "
          + (f"a heartbeat every {args.ping_every} s a phone" if args.ping_every
             else "no heartbeats")
          + (f"; server arguments: {args.server_args}" if args.server_args else ""))
    runs: dict[tuple[str, int], list[dict]] = {sw: [] for sw in servers}
    for run in range(args.runs):
        for server, workers in servers:
            proc, url = ((None, args.url) if args.url
                         else start_server(server, workers, env, shlex.split(args.server_args)))
            try:
                cmd, bare = run_clients(args, url, proc.pid if proc else None)
            finally:
                if proc:
                    stop_server(proc)
            figures = report(args, server, workers, run, cmd, bare)
            runs[(server, workers)].append(figures)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps({"scenario": args.scenario, "server": server,
                                        "workers": workers, "connections": args.connections,
                                        "clients": args.clients, **figures}) + "\n")
    if args.runs > 1:
        for (server, workers), rows in runs.items():
            print_summary(server, workers, rows)


if __name__ == "__main__":
    main()

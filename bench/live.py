"""Benchmark of the live path (issue 19): table commands against a bare one-row insert.

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
  same schedule. Also the RSS of the server processes before and with all phones connected.

Each run prints throughput, p50/p99 of the command (POST to answer) and of POST -> frame at the
table's other three seats (a frame carries ``data-version``; a coalesced frame with a later
version covers the earlier one), frames missing, and the ratios to the bare endpoint.
``--runs N`` repeats a scenario and prints min/median/max of each figure.

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/live.py saturation \\
        --server uvicorn --workers 2 --connections 64 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.compile(r'data-version="(\d+)"')


def pct(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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
                "--no-access-log", "--log-level", "warning"]
    if server == "gunicorn":
        return [py, "-m", "gunicorn", "config.asgi:application", "-k",
                "uvicorn_worker.UvicornWorker", "-w", str(workers), "-b", f"127.0.0.1:{port}",
                "--log-level", "warning"]
    raise SystemExit(f"unknown server {server}")


def start_server(server: str, workers: int, env: dict):
    port = free_port()
    proc = subprocess.Popen(
        server_command(server, workers, port), cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
            time.sleep(0.5 if workers > 1 else 0.1)  # let every worker finish importing
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


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
    async with http.post(f"{url}/api/tables/", json={"ruleset": "counter", "name": "S1"}) as r:
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
    return tid, tokens


class Listener:
    """All four seats of every table on their websockets; records (version, time) per seat."""

    def __init__(self):
        self.frames: dict[tuple[int, int], list[tuple[int, float]]] = {}
        self.sockets = []
        self.tasks = []

    async def connect(self, http, url, tables):
        ws_url = url.replace("http://", "ws://")

        async def one(tid, seat, token):
            ws = await http.ws_connect(
                f"{ws_url}/ws/tables/{tid}/", origin=url, max_msg_size=2**22,
                headers={"X-Seat-Token": token},
            )
            first = await ws.receive()  # the catch-up frame
            assert VERSION.search(first.data), first
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self.listen(tid, seat, ws)))

        for i in range(0, len(tables), 25):  # not 400 handshakes at once
            await asyncio.gather(*(one(tid, seat, tok) for tid, tokens in tables[i:i + 25]
                                   for seat, tok in enumerate(tokens)))

    async def listen(self, tid, seat, ws):
        seen = self.frames.setdefault((tid, seat), [])
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            m = VERSION.search(msg.data, 0, 400)
            if m:
                seen.append((int(m.group(1)), now))

    async def close(self):
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
    body = {"type": "counter.add", "data": {"amount": 1 if n % 2 == 0 else -1}}
    try:
        async with http.post(f"{url}/api/tables/{tid}/commands", json=body,
                             headers={"X-Seat-Token": token}) as r:
            data = await r.json()
            if r.status != 200:
                errors.append(r.status)
                return
    except aiohttp.ClientError as exc:
        errors.append(type(exc).__name__)
        return
    cmd_lat.append((time.perf_counter() - t0) * 1000)
    sent.append((tid, data["version"], seat, t0))


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


def summary(name, count, elapsed, lat, frames=None, missing=0, errors=()):
    row = {"name": name, "count": count, "throughput": count / elapsed,
           "p50": pct(lat, 0.5), "p99": pct(lat, 0.99), "errors": len(errors)}
    if frames is not None:
        row.update(frame_p50=pct(frames, 0.5), frame_p99=pct(frames, 0.99),
                   frames=len(frames), missing=missing)
    return row


async def saturation(url, connections, duration, tables=16):
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(60)) as http:
        setups = [await make_table(http, url) for _ in range(tables)]
        listener = Listener()
        await listener.connect(http, url, setups)
        sent, cmd_lat, errors = [], [], []
        stop = time.perf_counter() + duration

        async def poster(k):
            tid, tokens = setups[k % tables]
            seat = (k // tables) % 4
            n = 0
            while time.perf_counter() < stop:
                await post_command(http, url, tid, tokens[seat], seat, n, sent, cmd_lat, errors)
                n += 1

        start = time.perf_counter()
        await asyncio.gather(*(poster(k) for k in range(connections)))
        elapsed = time.perf_counter() - start
        await asyncio.sleep(3.0)  # the last frames
        await listener.close()
        frames, missing = listener.latencies(sent)
        cmd = summary("command", len(sent), elapsed, cmd_lat, frames, missing, errors)

        bare_lat, bare_err = [], []
        stop = time.perf_counter() + duration

        async def bare_poster():
            while time.perf_counter() < stop:
                await post_bare(http, url, bare_lat, bare_err)

        start = time.perf_counter()
        await asyncio.gather(*(bare_poster() for _ in range(connections)))
        bare = summary("bare", len(bare_lat), time.perf_counter() - start, bare_lat,
                       errors=bare_err)
    return cmd, bare


async def evening(url, tables, period, duration, server_pid):
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(60)) as http:
        setups = [await make_table(http, url) for _ in range(tables)]
        await asyncio.sleep(1.0)
        rss_before = rss_kb(server_pid)
        listener = Listener()
        await listener.connect(http, url, setups)
        await asyncio.sleep(1.0)
        rss_with = rss_kb(server_pid)
        phones = tables * 4
        sent, cmd_lat, errors = [], [], []
        rng = random.Random(19)

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

        start = time.perf_counter()
        await asyncio.gather(*(phone(tid, seat, tok, rng.uniform(0, period))
                               for tid, tokens in setups for seat, tok in enumerate(tokens)))
        elapsed = time.perf_counter() - start
        await asyncio.sleep(3.0)
        await listener.close()
        frames, missing = listener.latencies(sent)
        cmd = summary("command", len(sent), elapsed, cmd_lat, frames, missing, errors)
        cmd["offered"] = phones / period
        cmd["rss_before_mb"] = rss_before / 1024
        cmd["rss_with_mb"] = rss_with / 1024
        cmd["rss_per_phone_kb"] = (rss_with - rss_before) / phones

        bare_lat, bare_err = [], []

        async def bare_phone(phase):
            await asyncio.sleep(phase)
            n, begin, tasks = 0, time.perf_counter(), []
            while begin + n * period - start <= duration:
                await asyncio.sleep(max(0.0, begin + n * period - time.perf_counter()))
                tasks.append(asyncio.create_task(post_bare(http, url, bare_lat, bare_err)))
                n += 1
            await asyncio.gather(*tasks)

        start = time.perf_counter()
        await asyncio.gather(*(bare_phone(rng.uniform(0, period)) for _ in range(phones)))
        bare = summary("bare", len(bare_lat), time.perf_counter() - start, bare_lat,
                       errors=bare_err)
    return cmd, bare


def fmt(row):
    s = (f"{row['name']:8s} {row['count']:6d} in all, {row['throughput']:7.1f}/s, "
         f"answer p50 {row['p50']:7.1f} ms p99 {row['p99']:7.1f} ms")
    if "frame_p50" in row:
        s += (f"; POST -> 3 other seats p50 {row['frame_p50']:7.1f} ms "
              f"p99 {row['frame_p99']:7.1f} ms ({row['missing']} missing)")
    if row.get("errors"):
        s += f"; {row['errors']} errors"
    return s


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["saturation", "evening"])
    parser.add_argument("--server", default="uvicorn", choices=["daphne", "uvicorn", "gunicorn"])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--connections", type=int, default=16, help="saturation: connections")
    parser.add_argument("--tables", type=int, default=100, help="evening: tables")
    parser.add_argument("--period", type=float, default=5.0, help="evening: s between taps")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds per phase")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--url", help="a running server (its /bench/bare too) instead")
    parser.add_argument("--json", help="append each run's figures to this file")
    args = parser.parse_args()
    env = server_env()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before the runs")
    print(f"server: {args.server} x {args.workers}; DB {env['DATABASE_URL'].split('@')[-1]}; "
          f"Redis {env['REDIS_URL'].split('@')[-1]}; DB_POOL={env['DB_POOL']}")
    runs = []
    for run in range(args.runs):
        proc, url = (None, args.url) if args.url else start_server(args.server, args.workers, env)
        self0 = resource.getrusage(resource.RUSAGE_SELF)
        try:
            if args.scenario == "saturation":
                cmd, bare = asyncio.run(saturation(url, args.connections, args.duration))
                label = f"{args.connections} connections over 16 tables"
            else:
                cmd, bare = asyncio.run(evening(url, args.tables, args.period, args.duration,
                                                proc.pid if proc else os.getpid()))
                label = (f"{args.tables} tables x 4 phones, a tap every {args.period} s "
                         f"({cmd['offered']:.0f} commands/s offered)")
        finally:
            if proc:
                stop_server(proc)
        self1 = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
        ratio = cmd["throughput"] / bare["throughput"]
        frame_vs_cmd = cmd["frame_p99"] / cmd["p99"]
        print(f"run {run + 1}: {label}; load average {os.getloadavg()[0]:.2f}; "
              f"client CPU {client_cpu:.1f} s")
        print("  " + fmt(cmd))
        print("  " + fmt(bare))
        print(f"  ratios: command/bare throughput {ratio:.2f}x; "
              f"frame p99 / command p99 {frame_vs_cmd:.2f}x; "
              f"command p99 / bare p99 {cmd['p99'] / bare['p99']:.2f}x")
        if "rss_per_phone_kb" in cmd:
            print(f"  server RSS {cmd['rss_before_mb']:.0f} MiB before the phones, "
                  f"{cmd['rss_with_mb']:.0f} MiB with {args.tables * 4} connected: "
                  f"{cmd['rss_per_phone_kb']:.0f} KiB per phone")
        runs.append({"cmd": cmd, "bare": bare, "ratio": ratio, "frame_vs_cmd": frame_vs_cmd,
                     "client_cpu": client_cpu, "load": os.getloadavg()[0]})
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps({"scenario": args.scenario, "server": args.server,
                                    "workers": args.workers, "connections": args.connections,
                                    **runs[-1]}) + "\n")
    if len(runs) > 1:
        def mmm(values):
            return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"

        print(f"over {len(runs)} runs (min / median / max):")
        for key in ("throughput", "p50", "p99", "frame_p50", "frame_p99"):
            print(f"  command {key}: {mmm([r['cmd'][key] for r in runs])}")
        for key in ("throughput", "p50", "p99"):
            print(f"  bare {key}: {mmm([r['bare'][key] for r in runs])}")
        print(f"  ratio command/bare throughput: {mmm([r['ratio'] for r in runs])}")
        print(f"  frame p99 / command p99: {mmm([r['frame_vs_cmd'] for r in runs])}")


if __name__ == "__main__":
    main()

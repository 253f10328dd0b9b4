"""Benchmark: N tables x 4 seats, each seat POSTs commands and listens on its websocket.

Prints throughput and p50/p99 latency from a command's POST to its frame arriving at the
*other three* seats of the table, then the same load against a bare endpoint that inserts one
row (``POST /api/health``), and the ratio. Starts its own daphne server on PostgreSQL and Redis
(``DATABASE_URL``/``REDIS_URL``, defaults below; migrated first) unless ``--url`` is given.

    .venv/bin/python bench/table_commands.py --tables 10 --commands 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import websockets

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


def start_server(env):
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


async def make_table(client):
    host = (await client.post("/api/tables/", json={"ruleset": "counter", "name": "S1"})).json()
    tid = host["code"]
    tokens = [host["seat_token"]]
    for n in range(2, 5):
        tokens.append(
            (await client.post(f"/api/tables/{tid}/join", json={"name": f"S{n}"})).json()[
                "seat_token"
            ]
        )
    r = await client.post(
        f"/api/tables/{tid}/commands",
        json={"type": "table.start"},
        headers={"X-Seat-Token": tokens[0]},
    )
    r.raise_for_status()
    return tid, tokens


async def run_tables(url, tables, commands, think=0.0):
    ws_url = url.replace("http://", "ws://")
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=tables * 4 + 4)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        setups = [await make_table(client) for _ in range(tables)]
        sent: dict[tuple[str, int], tuple[float, int]] = {}  # (table, version) -> (t0, seat)
        arrivals: dict[tuple[str, int], list[float]] = {}
        sockets = []
        for tid, tokens in setups:
            for seat, token in enumerate(tokens):
                ws = await websockets.connect(
                    f"{ws_url}/ws/tables/{tid}/",
                    origin=url,
                    additional_headers={"X-Seat-Token": token},
                    max_size=2**22,
                )
                await ws.recv()  # catch-up frame
                sockets.append((tid, seat, ws))
        expected = tables * 4 * commands
        asyncio.Event()
        received = 0

        async def listen(tid, seat, ws):
            nonlocal received
            try:
                async for frame in ws:
                    now = time.perf_counter()
                    m = VERSION.search(frame)
                    if not m:
                        continue
                    key = (tid, int(m.group(1)))
                    arrivals.setdefault(key, []).append((now, seat))
            except websockets.ConnectionClosed:
                pass

        async def play(tid, seat, token):
            for n in range(commands):
                t0 = time.perf_counter()
                # +1 and -1 in turn: the counter game ends at 50, the benchmark must not.
                r = await client.post(
                    f"/api/tables/{tid}/commands",
                    json={"type": "counter.add", "data": {"amount": 1 if n % 2 == 0 else -1}},
                    headers={"X-Seat-Token": token},
                )
                r.raise_for_status()
                sent[(tid, r.json()["version"])] = (t0, seat)
                if think:
                    await asyncio.sleep(think)

        listeners = [asyncio.create_task(listen(t, s, w)) for t, s, w in sockets]
        start = time.perf_counter()
        await asyncio.gather(
            *(play(tid, seat, tok) for tid, tokens in setups for seat, tok in enumerate(tokens))
        )
        elapsed = time.perf_counter() - start
        await asyncio.sleep(5.0)  # let the last frames arrive
        for _, _, ws in sockets:
            await ws.close()
        for task in listeners:
            task.cancel()
        missing = 0
        for key, (t0, seat) in sent.items():
            others = [(t, s) for t, s in arrivals.get(key, []) if s != seat]
            got = {s for _, s in others}
            missing += 3 - len(got)
            latencies.extend((t - t0) * 1000 for t, s in others)
            # a frame may skip a version when updates coalesce: count the next one that covers it
            if len(got) < 3:
                later = sorted(
                    (v, ts) for (tid2, v), ts in arrivals.items() if tid2 == key[0] and v > key[1]
                )
                for s in {0, 1, 2, 3} - got - {seat}:
                    for _, ts in later:
                        hit = [t for t, ss in ts if ss == s]
                        if hit:
                            latencies.append((hit[0] - t0) * 1000)
                            missing -= 1
                            break
        return {
            "commands": len(sent),
            "elapsed": elapsed,
            "throughput": len(sent) / elapsed,
            "p50": pct(latencies, 0.50),
            "p99": pct(latencies, 0.99),
            "deliveries": len(latencies),
            "missing": missing,
            "expected": expected,
        }


async def run_bare(url, clients, requests):
    latencies = []
    limits = httpx.Limits(max_connections=clients + 4)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:

        async def one():
            for _ in range(requests):
                t0 = time.perf_counter()
                r = await client.post("/api/health")
                r.raise_for_status()
                latencies.append((time.perf_counter() - t0) * 1000)

        start = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(clients)))
        elapsed = time.perf_counter() - start
    return {
        "requests": len(latencies),
        "throughput": len(latencies) / elapsed,
        "p50": pct(latencies, 0.5),
        "p99": pct(latencies, 0.99),
    }


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--commands", type=int, default=20, help="commands per seat")
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each seat waits between its commands (0: as fast as possible)")
    args = parser.parse_args()
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://demloc:demloc@127.0.0.1:5432/demloc"
        ),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "DEBUG": "0",
        "SECRET_KEY": "bench-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DB_POOL": os.environ.get("DB_POOL", "1"),
    }
    proc = None
    url = args.url
    if not url:
        proc, url = start_server(env)
    try:
        tables = asyncio.run(run_tables(url, args.tables, args.commands, args.think))
        bare = asyncio.run(run_bare(url, args.tables * 4, args.commands))
    finally:
        if proc:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"machine: {os.cpu_count()} cores, {sys.platform}, Python {sys.version.split()[0]}")
    print(f"server: one daphne process; DB {env['DATABASE_URL'].split('@')[-1]}; Redis layer")
    print(
        f"tables: {args.tables} x 4 seats, {args.commands} commands per seat, think {args.think} s, "
        f"{tables['commands']} commands in {tables['elapsed']:.2f} s"
    )
    print(
        f"  throughput {tables['throughput']:.1f} commands/s; POST -> frame at the 3 other seats: "
        f"p50 {tables['p50']:.1f} ms, p99 {tables['p99']:.1f} ms "
        f"({tables['deliveries']} deliveries, {tables['missing']} missing)"
    )
    print(
        f"bare insert-one-row endpoint, same concurrency: {bare['throughput']:.1f} req/s, "
        f"p50 {bare['p50']:.1f} ms, p99 {bare['p99']:.1f} ms"
    )
    print(
        f"ratio (table command p50 / bare p50): {tables['p50'] / bare['p50']:.1f}x; "
        f"throughput ratio bare/table: {bare['throughput'] / tables['throughput']:.1f}x"
    )


if __name__ == "__main__":
    main()

"""What one connected phone costs the server apart from the caches: its socket.

Starts one web server process as ``bench/live.py`` does (``bench.settings`` on PostgreSQL and
Redis, ``--server-args`` appended to uvicorn's command line), makes ``--tables`` four-player
DemLoc tables and opens ``--sockets`` websockets spread over their seats, many to each seat:
the caches hold those few tables' renders once whatever the number of sockets, so what grows
with the sockets is the connection itself (uvicorn's protocol object and its buffers, the
Channels consumer, its channel-layer subscription, per-message deflate when the phone offers
it). Reads the server's RSS before the sockets, with them idle, and after ``--commands``
rounds of taps (each socket is sent a frame per command: a compressor is touched only then),
and, with ``--tracemalloc``, the Python allocations that grew, by file and line (zlib's state
is allocated through Python's raw allocator, so it is counted there too).

``--deflate`` makes every socket offer ``permessage-deflate; client_max_window_bits`` as
Chromium (a phone) does; without it, as aiohttp's default, none. The bytes on the wire per
frame are the socket's received bytes (``TCP_INFO``) over the frames it got.

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/socket_memory.py \\
        --sockets 400 --deflate --server-args '--ws websockets'
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import shlex
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import aiohttp
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/ run as a script
import bench.live as live  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def snapshot(pid: int, into: str) -> str:
    """A tracemalloc snapshot of the server (``BENCH_TRACEMALLOC``: ``bench.settings``)."""
    before = set(glob.glob(f"{into}/*.pickle"))
    os.kill(pid, 10)  # SIGUSR1
    for _ in range(600):
        time.sleep(0.1)
        new = set(glob.glob(f"{into}/*.pickle")) - before
        if new:
            path = new.pop()
            size = -1
            while size != os.path.getsize(path):  # written out
                size = os.path.getsize(path)
                time.sleep(0.5)
            return path
    raise SystemExit("no tracemalloc snapshot")


def top(old: str, new: str, per: int, limit: int = 14, frames: int = 1) -> None:
    a, b = tracemalloc.Snapshot.load(old), tracemalloc.Snapshot.load(new)
    stats = b.compare_to(a, "lineno")
    total = sum(s.size_diff for s in stats)
    print(f"    Python allocations grew {total / 1024 / per:.1f} KiB a socket; the largest:")
    for s in stats[:limit]:
        frame = s.traceback[0]
        name = frame.filename.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
        print(f"    {s.size_diff / 1024 / per:7.2f} KiB a socket  {s.count_diff / per:5.1f} "
              f"blocks  {name}:{frame.lineno}")
    if frames > 1:  # where the largest ones were allocated from
        for s in b.compare_to(a, "traceback")[:3]:
            print(f"    {s.size_diff / 1024 / per:7.2f} KiB a socket, allocated from:")
            for line in s.traceback.format()[-2 * frames:]:
                print(f"      {line.replace(str(ROOT) + '/', '')}")


async def run(args, url, pid, snaps):
    live.GAME = "demloc"
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(120),
                                     cookie_jar=aiohttp.DummyCookieJar()) as http:
        tables = [await live.make_table(http, url) for _ in range(args.tables)]
        seats = [(tid, seat, tok) for tid, tokens in tables for seat, tok in enumerate(tokens)]
        sockets, got = [], {}

        async def one(k):
            tid, _, tok = seats[k % len(seats)]
            ws = await http.ws_connect(f"{url.replace('http', 'ws')}/ws/tables/{tid}/",
                                       origin=url, headers={"X-Seat-Token": tok},
                                       max_msg_size=2**22, compress=15 if args.deflate else 0)
            await ws.receive()  # the whole region
            sockets.append(ws)
            got[ws] = 0

        async def listen(ws):
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                got[ws] += 1

        for k in range(len(seats)):  # the caches warm: every seat's region rendered once
            await one(k)
        for ws in sockets:
            await ws.close()
        sockets.clear()
        got.clear()
        await asyncio.sleep(1.0)
        info = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/5"))
        conns0 = info.info("stats")["total_connections_received"]
        rss0 = live.rss_kb(pid)
        snap0 = snapshot(pid, snaps) if snaps else None
        for i in range(0, args.sockets, 25):
            await asyncio.gather(*(one(k) for k in range(i, min(i + 25, args.sockets))))
        ext = sockets[0]._response.headers.get("Sec-WebSocket-Extensions", "none")
        await asyncio.sleep(1.0)
        rss1 = live.rss_kb(pid)
        conns1 = info.info("stats")["total_connections_received"]
        snap1 = snapshot(pid, snaps) if snaps else None
        wire0 = {ws: live.bytes_received(ws) for ws in sockets}
        listeners = [asyncio.create_task(listen(ws)) for ws in sockets]
        sent, lat, errors = [], [], []
        cpu0 = live.proc_cpu(pid)
        for n in range(args.commands):
            await asyncio.gather(*(live.post_command(http, url, tid, tok, seat, n, sent, lat,
                                                     errors) for tid, seat, tok in seats))
            await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)
        cpu = live.proc_cpu(pid) - cpu0
        frames = sum(got.values())
        wire = sum(live.bytes_received(ws) - wire0[ws] for ws in sockets)
        rss2 = live.rss_kb(pid)
        conns2 = info.info("stats")["total_connections_received"]
        snap2 = snapshot(pid, snaps) if snaps else None
        n = args.sockets
        print(f"  negotiated: {ext}")
        print(f"  RSS {rss0 / 1024:.1f} MiB before the sockets, {rss1 / 1024:.1f} with "
              f"{n} idle, {rss2 / 1024:.1f} after {len(sent)} commands ({len(errors)} errors, "
              f"{len(live.REFUSED)} refused): {(rss1 - rss0) / n:.1f} KiB a socket idle, "
              f"{(rss2 - rss0) / n:.1f} after")
        print(f"  {frames} frames ({frames / n:.1f} a socket), {wire / max(1, frames):.0f} "
              f"bytes on the wire a frame; server CPU {1000 * cpu / max(1, len(sent)):.2f} ms "
              f"a command (its frames to {n / len(seats):.0f} sockets a seat included)")
        print(f"  connections Redis accepted: {conns1 - conns0} while the sockets connected, "
              f"{conns2 - conns1} during the commands")
        if snaps:
            print("  idle:")
            top(snap0, snap1, n, frames=args.frames)
            print("  after the commands:")
            top(snap0, snap2, n, frames=args.frames)
        for ws in sockets:
            await ws.close()
        for t in listeners:
            t.cancel()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--commands", type=int, default=5, help="rounds: each seat taps once")
    parser.add_argument("--deflate", action="store_true",
                        help="offer per-message deflate as Chromium does")
    parser.add_argument("--server-args", default="", help="more uvicorn arguments")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="the Python allocations that grew (slows the server down)")
    parser.add_argument("--frames", type=int, default=1,
                        help="with --tracemalloc: the stack depth kept; > 1 also prints where "
                             "the three largest growths were allocated from")
    args = parser.parse_args()
    env = live.server_env()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    snaps = tempfile.mkdtemp(prefix="socket-memory-") if args.tracemalloc else None
    if snaps:
        env["BENCH_TRACEMALLOC"], env["BENCH_TRACEMALLOC_FRAMES"] = snaps, str(args.frames)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.sockets} sockets over "
          f"{args.tables * 4} seats; deflate offered: {args.deflate}; server arguments: "
          f"{args.server_args or '(none)'}")
    proc, url = live.start_server("uvicorn", 1, env, shlex.split(args.server_args))
    try:
        asyncio.run(run(args, url, proc.pid, snaps))
    finally:
        live.stop_server(proc)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

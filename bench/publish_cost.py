"""What handing table versions to the channel layer costs, against a bare
redis-py ``PUBLISH`` of the same messages in the same run.

Publishes ``--tables`` tables' new versions at once (a batch, as a busy server sees them),
``--batches`` times, and prints the CPU time of this process (``time.process_time``) per
message, for three senders one after the other in each of ``--runs`` runs:

- ``bare``: the baseline, one plain ``redis.Redis.publish`` per message of the very channel
  and bytes the publisher sends (what any code on this stack pays for a message to Redis);
- ``direct``: ``tabletop.publisher.Publisher`` with its connection without replies open (the
  caller writes each ``PUBLISH`` itself: ``_DirectConnection``);
- ``thread``: the same with ``TABLETOP_PUBLISH_DIRECT`` off (every message handed to the
  sender thread, batches pipelined; the wait for it, ``flush``, polls every 5 ms and is counted).

Then min / median / max of each and of each publisher's ratio to ``bare``. Needs ``REDIS_URL``
(the pub/sub layer). Nobody subscribes: it is the sender's cost.

    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/publish_cost.py --tables 1 --runs 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.conf import settings  # noqa: E402

from tabletop.publisher import Publisher  # noqa: E402

BASE = 10**9


def publisher(direct: bool) -> Publisher:
    """A publisher whose sender thread runs, with its direct connection open when ``direct``."""
    settings.TABLETOP_PUBLISH_DIRECT = direct
    made = Publisher()
    made.publish(BASE, 0)
    assert made.flush(5)
    sender = made._redis_sender()
    if sender is None:
        sys.exit("needs REDIS_URL: the Redis pub/sub channel layer")
    deadline = time.monotonic() + 5
    while direct and sender._direct is None:  # the thread opens it on start
        assert time.monotonic() < deadline, "the direct connection did not open"
        time.sleep(0.01)
    return made


def timed(send, args, version: int) -> tuple[float, int]:
    """CPU us per message of ``args.batches`` batches of ``args.tables`` tables through
    ``send(table_id, version)`` (then ``send(None, None)``: wait until all was sent)."""
    t0 = time.process_time()
    for _ in range(args.batches):
        for n in range(args.tables):
            send(BASE + n, version)
        send(None, None)
        version += 1
    return (time.process_time() - t0) * 1e6 / (args.batches * args.tables), version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables per batch")
    parser.add_argument("--batches", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    direct, thread = publisher(True), publisher(False)
    sender = direct._redis_sender()
    client = redis.Redis.from_url(settings.REDIS_URL)

    def bare(table_id, version):
        if table_id is not None:
            client.publish(*sender._packed(table_id, (version, False, None, None)))

    def through(pub):
        def send(table_id, version):
            if table_id is None:
                assert pub.flush(5)
            else:
                pub.publish(table_id, version)
        return send

    figures: dict[str, list[float]] = {"bare": [], "direct": [], "thread": []}
    version = 1
    for run in range(args.runs):
        written = direct.direct
        for name, send in (("bare", bare), ("direct", through(direct)),
                           ("thread", through(thread))):
            cost, version = timed(send, args, version)
            figures[name].append(cost)
        assert direct.direct - written == args.batches * args.tables, "not all went direct"
        assert direct.failed == thread.failed == 0
        print(f"run {run + 1}: " + ", ".join(f"{k} {v[-1]:.0f} us" for k, v in figures.items())
              + f" CPU per message (load {os.getloadavg()[0]:.1f})")

    def mmm(values):
        return " / ".join(f"{v:.2f}" if v < 10 else f"{v:.0f}"
                          for v in (min(values), statistics.median(values), max(values)))

    print(f"{args.tables} table(s) per batch, min / median / max over {args.runs} runs:")
    for name, values in figures.items():
        ratio = "" if name == "bare" else (
            f"; {mmm([v / b for v, b in zip(values, figures['bare'], strict=True)])}x bare")
        print(f"  {name}: {mmm(values)} us CPU per message{ratio}")


if __name__ == "__main__":
    main()

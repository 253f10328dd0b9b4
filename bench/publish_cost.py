"""What handing table versions to the channel layer costs (issue 19 point 1).

Publishes ``--tables`` tables' new versions at once (a batch, as a busy server's loop sees
them), ``--batches`` times, through one ``tabletop.publisher.Publisher`` (its own loop thread,
as in a worker), with the configured channel layer (``REDIS_URL``: Redis pub/sub), and prints
the CPU time of this process (``time.process_time``) per message handed to Redis, min / median
/ max over ``--runs`` runs, and how many of them the caller wrote itself on the connection
without replies (``direct``; the others went through the sender thread). Nobody subscribes: it
is the sender's cost. ``TABLETOP_PUBLISH_DIRECT=0`` measures the thread alone.

    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/publish_cost.py --tables 20 --runs 3
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

from tabletop.publisher import Publisher  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables per batch")
    parser.add_argument("--batches", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    publisher = Publisher()
    publisher.publish(10**9, 0)
    assert publisher.flush(5)
    sender = publisher._redis_sender()
    deadline = time.monotonic() + 3
    while sender is not None and sender._direct_kwargs and sender._direct is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.01)  # the thread opens its direct connection on start
    figures = []
    version = 1
    for run in range(args.runs):
        sent, direct = publisher.sent, publisher.direct
        t0 = time.process_time()
        for _ in range(args.batches):
            for n in range(args.tables):
                publisher.publish(10**9 + n, version)
            version += 1
            assert publisher.flush(5)
        cpu = time.process_time() - t0
        count = publisher.sent - sent
        figures.append(cpu * 1e6 / count)
        print(f"run {run + 1}: {count} messages, {figures[-1]:.0f} us CPU per message "
              f"({publisher.direct - direct} direct, failed {publisher.failed})")
    print(f"{args.tables} tables per batch: min / median / max {min(figures):.0f} / "
          f"{statistics.median(figures):.0f} / {max(figures):.0f} us per message "
          f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

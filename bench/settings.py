"""The product's settings plus the benchmark's bare endpoint (``bench.urls``)."""

import os

# Every phone of a benchmark is 127.0.0.1: the gate's throttles would add up (an in-process
# bench such as bench/command_cost.py; bench/live.py gives its servers the same).
for _name in ("TABLETOP_TABLE_CREATE_RATE", "TABLETOP_SEAT_JOIN_RATE", "TABLETOP_CODE_GUESS_RATE"):
    os.environ.setdefault(_name, "1000000/min")

from config.settings import *  # noqa: E402, F403

ROOT_URLCONF = "bench.urls"

if os.environ.get("BENCH_TRACEMALLOC"):  # a directory: BENCH_TRACEMALLOC=DIR bench/live.py ...
    import signal
    import time
    import tracemalloc

    tracemalloc.start(int(os.environ.get("BENCH_TRACEMALLOC_FRAMES", "12")))

    def _dump(signum, frame):  # a snapshot per SIGUSR1 (the RSS readings of bench/live.py)
        tracemalloc.take_snapshot().dump(
            f"{os.environ['BENCH_TRACEMALLOC']}/snap-{os.getpid()}-{time.time():.0f}.pickle")

    signal.signal(signal.SIGUSR1, _dump)

"""The product's settings plus the benchmark's bare endpoint (``bench.urls``)."""

import os

from config.settings import *  # noqa: F403

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

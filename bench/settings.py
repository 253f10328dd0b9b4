"""The product's settings plus the benchmark's bare endpoint (``bench.urls``)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

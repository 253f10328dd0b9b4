"""The benchmarks' arithmetic, kept apart from their clients (no aiohttp, no Django) so the
unit suite can check it: percentiles, min/median/max, how ``bench/live.py`` splits a
scenario's tables between its client processes and how it pools what they measured."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def pct(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank from below; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mmm(values: Sequence[float], spec: str = ".2f", sep: str = " / ") -> str:
    """``min / median / max`` of ``values``, each formatted with ``spec``."""
    return sep.join(format(v, spec) for v in (min(values), statistics.median(values), max(values)))


def share(items: Sequence, part: int, parts: int) -> list:
    """The items client process ``part`` (0-based) of ``parts`` owns: every ``parts``-th one
    from ``part``. The shares are disjoint and together hold every item once."""
    if not 0 <= part < parts:
        raise ValueError(f"part {part} of {parts}")
    return list(items[part::parts])


def merge(parts: Sequence[dict]) -> dict:
    """One run's figures from its client processes' raw figures (``bench.live.client_result``):
    the latency lists pooled (percentiles are taken over every request of every process),
    counts summed, a phase as long as its longest process's (throughput = all requests / that),
    the clients' CPU summed, and the busiest process's share of one core per phase
    (``cmd_core``, ``bare_core``: near 1.0 that process, not the server, sets the pace)."""
    if not parts:
        raise ValueError("no client process reported")
    out: dict = {}
    for key in ("cmd_lat", "frames", "bare_lat", "errors", "bare_err"):
        out[key] = [v for p in parts for v in p[key]]
    for key in ("commands", "missing"):
        out[key] = sum(p[key] for p in parts)
    for key in ("elapsed", "bare_elapsed"):
        out[key] = max(p[key] for p in parts)
    out["cmd_cpu"] = sum(p["cmd_cpu"] for p in parts)
    out["bare_cpu"] = sum(p["bare_cpu"] for p in parts)
    out["cmd_core"] = max(p["cmd_cpu"] / p["elapsed"] for p in parts)
    out["bare_core"] = max(p["bare_cpu"] / p["bare_elapsed"] for p in parts)
    return out


def summary(name, count, elapsed, lat, frames=None, missing=0, errors=()) -> dict:
    """A phase's row: ``count`` requests in ``elapsed`` s, answer p50/p99 (ms) of ``lat``;
    with ``frames`` (POST -> frame at another seat, ms) their p50/p99 and ``missing``."""
    row = {"name": name, "count": count, "throughput": count / elapsed,
           "p50": pct(lat, 0.5), "p99": pct(lat, 0.99), "errors": len(errors)}
    if frames is not None:
        row.update(frame_p50=pct(frames, 0.5), frame_p99=pct(frames, 0.99),
                   frames=len(frames), missing=missing)
    return row

"""The benchmarks' arithmetic (``bench/figures.py``): a scenario split
between several client processes measures every table once, and their figures pool into one
run's figures (latencies over every request, throughput over the longest process's phase,
the busiest process's share of a core). Benchmarks themselves are never run by the tests."""

import math

import pytest

from bench.figures import merge, mmm, pct, share, summary


def part(commands, elapsed, cmd_cpu, bare, bare_elapsed, bare_cpu, frames=(), missing=0):
    return {"commands": len(commands), "cmd_lat": list(commands), "errors": [],
            "elapsed": elapsed, "cmd_cpu": cmd_cpu, "frames": list(frames), "missing": missing,
            "bare_lat": list(bare), "bare_err": [], "bare_elapsed": bare_elapsed,
            "bare_cpu": bare_cpu}


@pytest.mark.parametrize("parts", [1, 2, 3, 5])
def test_the_client_processes_share_the_tables_once_each(parts):
    tables = list(range(16))
    shares = [share(tables, p, parts) for p in range(parts)]
    assert sorted(t for s in shares for t in s) == tables
    assert max(map(len, shares)) - min(map(len, shares)) <= 1
    with pytest.raises(ValueError):
        share(tables, parts, parts)


def test_two_processes_pool_their_latencies_and_time_by_the_longest_phase():
    a = part([10.0] * 99, 8.0, 0.4, [1.0] * 300, 8.0, 0.8, frames=[20.0] * 297, missing=0)
    b = part([10.0] * 98 + [500.0, 600.0], 8.4, 2.1, [2.0] * 100, 8.2, 0.41,
             frames=[30.0] * 298, missing=2)
    m = merge([a, b])
    assert m["commands"] == 199 and m["missing"] == 2
    assert m["elapsed"] == 8.4 and m["bare_elapsed"] == 8.2
    row = summary("command", m["commands"], m["elapsed"], m["cmd_lat"], m["frames"],
                  m["missing"], m["errors"])
    assert row["throughput"] == pytest.approx(199 / 8.4)
    # the slow answers of process b are in the pooled p99 (one process's p99 would hide them)
    assert row["p99"] == 500.0 and row["p50"] == 10.0
    assert row["frame_p50"] == 30.0 and row["frames"] == 595
    assert m["cmd_cpu"] == pytest.approx(2.5)
    assert m["cmd_core"] == pytest.approx(2.1 / 8.4)  # the busiest process, not the mean
    assert m["bare_core"] == pytest.approx(0.1)
    assert summary("bare", len(m["bare_lat"]), m["bare_elapsed"], m["bare_lat"])["p50"] == 1.0


def test_percentiles_and_min_median_max():
    assert math.isnan(pct([], 0.5))
    assert pct([3, 1, 2], 0.5) == 2 and pct(range(100), 0.99) == 99
    assert mmm([3.0, 1.0, 2.0, 10.0]) == "1.00 / 2.50 / 10.00"
    with pytest.raises(ValueError):
        merge([])

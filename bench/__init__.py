"""Benchmarks (run on demand, never by ``make test``): see docs/performance.md."""

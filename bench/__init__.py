"""Benchmarks (run on demand, never by ``make test``): see README "Performance"."""

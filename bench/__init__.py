"""Benchmarks: ``python -m bench`` (see README, Performance)."""

"""Benchmarks, demo and maintenance scripts (installed as memrepo.scripts)."""

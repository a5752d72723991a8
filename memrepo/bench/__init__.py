"""Benchmarks and their generators (`memrepo bench perf | memory`): synthetic
repositories, the memory benchmark's history, timing helpers."""

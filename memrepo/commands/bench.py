"""`memrepo bench perf | memory`: the benchmarks (memrepo.bench.perf, .bench_memory).

The benchmark modules are imported only when a benchmark runs, so every other command
starts as fast as before.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

PERF_MODULE = "memrepo.bench.perf"
MEMORY_MODULE = "memrepo.bench.memory"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench", help="measure speed (perf) or recall quality (memory) on a synthetic memory",
        description="Benchmarks. `perf` generates (or reuses) a large synthetic memory "
                    "repository and prints each figure beside a floor measured in the same "
                    "run, with the ratio and the target.")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    perf = kinds.add_parser(
        "perf", help="timings: cache rebuild and sync, hooks, recall, search, remember",
        description="Generate a synthetic memory (or reuse --dir) and print a markdown "
                    "table: metric | value | floor | ratio | target | met?")
    add_perf_arguments(perf)
    memory = kinds.add_parser(
        "memory", prefix_chars="+", add_help=False,
        help="recall-quality benchmark (its own options: memrepo bench memory --help)")
    memory.add_argument("arguments", nargs="*", help="passed to the memory benchmark")


def add_perf_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--notes", type=_at_least(100), default=10_000, metavar="N",
                        help="notes to generate (default 10,000)")
    parser.add_argument("--events", type=_at_least(100), default=100_000, metavar="M",
                        help="fact events to generate (default 100,000)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="measure this repository; generated there when it holds no "
                             "memory yet; always kept")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated temporary repository and print its path")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions: a smoke run, not a measurement")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the rows as one JSON document")


def run(args: argparse.Namespace) -> int:
    if args.kind == "perf":
        return int(importlib.import_module(PERF_MODULE).run(args))
    try:
        module = importlib.import_module(MEMORY_MODULE)
    except ModuleNotFoundError as err:
        if err.name != MEMORY_MODULE:
            raise
        print("memrepo bench memory: not available yet (memrepo.bench.memory is "
              "not part of this installation)", file=sys.stderr)
        return 2
    return int(module.main(args.arguments))


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number ≥ minimum (the generator samples from the notes)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse

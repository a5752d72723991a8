"""`memrepo bench perf | writes | memory | locomo | retrieval | fleet | crashes | world |
secrets`: the benchmarks (memrepo.bench.*).

Each benchmark parses its own options (`memrepo bench perf --help`); its module is imported
only when it runs, so every other command starts as fast as before.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench", help="measure speed (perf, retrieval, fleet), crash safety (crashes) or "
                      "retrieval quality (memory, locomo)",
        description="Benchmarks. `perf` generates (or reuses) a large synthetic memory "
                    "repository and prints each figure beside a floor measured in the same "
                    "run, with the ratio and the target.")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for kind, about in (
            ("perf", "timings: cache rebuild and sync, hooks, recall, search, remember"),
            ("writes", "where one API remember's time goes, at several sizes of its month"),
            ("memory", "recall-quality benchmark: questions asked as people ask them"),
            ("locomo", "session recall on LoCoMo conversations (--data DIR)"),
            ("retrieval", "speed of retrieval from the question on a repository (--dir)"),
            ("fleet", "many clones writing and syncing through one bare repository"),
            ("crashes", "kill -9 a remember at a random moment, retry it: facts lost or "
                        "duplicated"),
            ("world", "question worlds (dev and held out) through recall and the context "
                      "block"),
            ("secrets", "the secret detector: formats and credential words found, false "
                        "alarms on real text and ordinary values")):
        bench = kinds.add_parser(kind, prefix_chars="+", add_help=False,
                                 help=f"{about} (its own options: memrepo bench {kind} --help)")
        bench.add_argument("arguments", nargs="*", help=f"passed to the {kind} benchmark")


def run(args: argparse.Namespace) -> int:
    if args.kind == "perf":
        from memrepo.bench.perf import main
    elif args.kind == "writes":
        from memrepo.bench.write_parts import main
    elif args.kind == "locomo":
        from memrepo.bench.locomo import main
    elif args.kind == "retrieval":
        from memrepo.bench.retrieval import main
    elif args.kind == "fleet":
        from memrepo.bench.fleet import main
    elif args.kind == "crashes":
        from memrepo.bench.crashes import main
    elif args.kind == "world":
        from memrepo.bench.world import main
    elif args.kind == "secrets":
        from memrepo.bench.secrets import main
    else:
        from memrepo.bench.memory import main
    return int(main(args.arguments))

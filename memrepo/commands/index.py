"""`memrepo index [--check] [--full]`: regenerate (or check) the category indexes (SPEC §3).

Writes only the INDEX.md files whose text changes (memrepo.maintenance.indexes);
`--check` writes nothing and exits 1 on drift.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memrepo.core.problems import InputError, Problem
from memrepo.repo_root import find_root

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "index", help="regenerate (or check) the category indexes memory/<category>/INDEX.md",
        description="Regenerate memory/<category>/INDEX.md from the notes of the working "
                    "tree: one line per note, sorted by name, with its description.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list indexes that differ and exit 1 if any do")
    parser.add_argument("--full", action="store_true",
                        help="read every note instead of only those changed since HEAD")


def run(args: argparse.Namespace) -> int:
    from memrepo.maintenance.indexes import (
        build_indexes,
        changed_notes,
        index_drift,
        regenerate_indexes,
    )

    root = find_root(args.repo)
    if not (root / "memory").is_dir():
        raise InputError(Problem(str(root), "no memory/ folder here",
                                 "run inside a memory repository or pass --repo PATH"))
    if args.check:
        texts, problems = build_indexes(root, None if args.full else changed_notes(root))
        problems.extend(index_drift(root, texts))
    else:
        regenerated = regenerate_indexes(root, full=args.full)
        for path, entries in regenerated.written:
            print(f"wrote {path} ({entries} entries)")
        problems = regenerated.problems
    for problem in problems:
        print(problem.render(), file=sys.stderr)
    return EXIT_REFUSED if problems else EXIT_OK

"""`memrepo verify [RANGE] [--require-signatures]`: re-run the §6 checks on history
(memrepo.checks.history).

Hooks can be turned off (`git -c core.hooksPath=/dev/null`) or never run (git older than
2.28 has no reference-transaction hook); verify cannot be skipped: for CI, pre-push or a
server's pre-receive.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify", help="re-check committed history (hooks can be skipped; this cannot)",
        description="Re-run the commit-time checks on every commit of RANGE. Prints one "
                    "problem per line, commit id first; exit code 1 when there are any.")
    parser.add_argument("range", nargs="?", metavar="RANGE",
                        help="A..B, or a revision whose whole history is checked "
                             "(default: HEAD)")
    parser.add_argument("--require-signatures", action="store_true",
                        help="commits changing rules/config must be SSH-signed by a key in "
                             ".memrepo-allowed-signers")


def run(args: argparse.Namespace) -> int:
    from memrepo.checks.history import verify_history

    count = commits = 0
    for short_id, problems in verify_history(args.repo, args.range, args.require_signatures):
        commits += 1
        for problem in problems:
            count += 1
            print(f"{short_id} {problem.render()}", file=sys.stdout)
    if count:
        print(f"memrepo verify: {count} problem(s)", file=sys.stderr)
    else:
        print(f"memrepo verify: {commits} commit(s), no problems", file=sys.stderr)
    return 1 if count else 0

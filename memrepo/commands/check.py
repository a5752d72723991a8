"""`memrepo check [--all] [--message-file F] [--stage S]`: the §6 commit-time checks on
what is staged — exactly what the commit hooks run. During a merge (MERGE_HEAD exists) it
also checks every merged-in commit.

Without `--message-file` the checks that need a commit message (approval, counts,
recorded_at against the commit) are skipped: there is no message to read yet.
"""

from __future__ import annotations

import argparse
from typing import Any

from memrepo.check_support import read_message_file, report
from memrepo.checks.entry import staged_problems
from memrepo.checks.runner import STAGES, check_name, registered_checks
from memrepo.cli import UsageError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check", help="run the commit-time checks on what is staged",
        description="Run the commit-time checks (SPEC §6) on the index git would commit. "
                    "Problems are printed as `path[:line]: problem` with a `To fix:` line; "
                    "exit code 1 when there are any.")
    parser.add_argument("--all", action="store_true",
                        help="check everything staged, not only what changed since HEAD")
    parser.add_argument("--message-file", metavar="F",
                        help="commit message file (the commit-msg hook passes it)")
    parser.add_argument("--stage", choices=STAGES, default="all",
                        help="pre-commit: checks without the message; commit-msg: checks "
                             "that read the message; all (default): both")
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help="run only these checks (tracked_paths, config_file, headers, "
                             "links, indexes, secrets, hidden_text, fact_logs, approval, "
                             "message_secrets, counts, fact_times, near_duplicates): what "
                             "each hook of .pre-commit-hooks.yaml runs")


def run(args: argparse.Namespace) -> int:
    message = None if args.message_file is None else read_message_file(args.message_file)
    only = None if args.only is None else _chosen_checks(args.only)
    return report(staged_problems(args.repo, message, args.stage, everything=args.all,
                                  only=only))


def _chosen_checks(names: str) -> frozenset[str]:
    known = [check_name(module) for module in registered_checks()]
    chosen = frozenset(name.strip() for name in names.split(",") if name.strip())
    unknown = sorted(chosen - set(known))
    if unknown or not chosen:
        raise UsageError(f"--only: no check named {', '.join(unknown) or 'nothing'}; "
                         f"the checks are {', '.join(known)}")
    return chosen

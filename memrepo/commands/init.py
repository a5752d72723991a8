"""`memrepo init DIR [--approver "Name <email>"]`: a new memory repository (SPEC §2)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "init", help="create a new memory repository with hooks and a first commit",
        description="Create DIR (or use an empty one, or an existing git repository) with "
                    "the memory/ and schema/ skeleton, memory/config.yaml, the pre-commit "
                    "hooks installed for all stages, and a first commit checked by them.")
    parser.add_argument("directory", metavar="DIR", help="the new memory repository")
    parser.add_argument("--approver", metavar='"NAME <EMAIL>"',
                        help="who may approve rule and config changes (default: your git "
                             "identity)")


def run(args: argparse.Namespace) -> int:
    from memrepo.core.problems import InputError, Problem
    from memrepo.maintenance.init import (  # only when run: keeps --help fast
        committer_fallback,
        create_memory_repo,
    )

    if not args.directory.strip():  # Path("") is the working directory
        raise InputError(Problem("DIR", "is empty", "name the memory's folder, e.g. "
                                 "`memrepo init ~/memory` (`memrepo init .` for this one)"))
    directory = Path(args.directory)
    no_identity = committer_fallback(directory)
    commit = create_memory_repo(directory, args.approver)
    print(f"memory repository ready in {directory.resolve()} (commit {commit[:7]})")
    if no_identity:
        print("note: git has no identity on this machine, so the first commit was made as the "
              "approver; before you commit, run `git config --global user.name \"Your Name\"` "
              "and `git config --global user.email you@example.com`", file=sys.stderr)
    return 0

"""`memrepo init DIR [--approver "Name <email>"]`: a new memory repository (SPEC §2)."""

from __future__ import annotations

import argparse
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
    from memrepo.maintenance.init import create_memory_repo  # only when run: keeps --help fast

    if not args.directory.strip():  # Path("") is the working directory
        raise InputError(Problem("DIR", "is empty", "name the memory's folder, e.g. "
                                 "`memrepo init ~/memory` (`memrepo init .` for this one)"))
    commit = create_memory_repo(Path(args.directory), args.approver)
    print(f"memory repository ready in {Path(args.directory).resolve()} (commit {commit[:7]})")
    return 0

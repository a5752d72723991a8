"""memrepo demo [DIR]: a fresh memory repository, end to end."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo", help="create a fresh memory repository and walk through it end to end",
        description="Creates a memory repository (default: a new temporary directory), "
                    "imports the demo memory and shows accepted and refused commits, "
                    "bitemporal recall, search, the context block and quarantine.")
    parser.add_argument("directory", metavar="DIR", nargs="?",
                        help="where to create the repository (new or empty)")


def run(args: argparse.Namespace) -> int:
    from memrepo.maintenance.demo import run_demo

    return run_demo(Path(args.directory) if args.directory else None)

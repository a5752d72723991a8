"""`memrepo retract`: withdraw a wrong assert or end in system time (SPEC §4, §5)."""

from __future__ import annotations

import argparse
from typing import Any

from memrepo.repo_root import find_root


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "retract", help="withdraw the event ID: it was wrong (appends a 'retract')",
        description="Append a 'retract' of event ID and commit it: from now on the memory "
                    "answers as if ID had never been written; `history` still shows it.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug)")
    parser.add_argument("id", metavar="ID", help="the id of an assert or end")
    parser.add_argument("--reason", required=True, metavar="R", help="why it was wrong")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted: withdraw only events of quarantine-<scope>")
    parser.add_argument("--session", default="cli", metavar="ID", help=argparse.SUPPRESS)
    parser.add_argument("--source", default="manual", metavar="SRC", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "id", "commit"}')


def run(args: argparse.Namespace) -> int:
    from memrepo.commands.remember import print_result
    from memrepo.facts import writes

    result = writes.retract(find_root(args.repo), scope=args.scope, target=args.id,
                            reason=args.reason, session=args.session, source=args.source,
                            trust=args.trust)
    print_result(result, args.json, f"retract of {args.id}")
    return 0

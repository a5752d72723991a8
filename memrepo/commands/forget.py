"""`memrepo forget`: append an `end` — from --valid-to on the key holds no value (§4, §8).

Nothing is deleted. A key that was never recorded is refused (exit 1), so a misspelt
subject is not mistaken for success; a known key that already holds nothing answers
'unchanged'.
"""

from __future__ import annotations

import argparse
from typing import Any

from memrepo.repo_root import find_root


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "forget", help="end the value of SUBJECT.RELATION (appends an 'end'; never deletes)",
        description="Append an 'end' event and commit it: from --valid-to on the key (or, "
                    "with --object, that one value) holds nothing. History is kept.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug)")
    parser.add_argument("subject")
    parser.add_argument("relation")
    parser.add_argument("--reason", required=True, metavar="R", help="why it ends")
    parser.add_argument("--valid-to", metavar="T",
                        help="from when it no longer holds: YYYY-MM-DD, RFC 3339 or 'now' "
                             "(default)")
    parser.add_argument("--object", metavar="O",
                        help="the value that ends (required for many-valued relations)")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted: end only what quarantine-<scope> holds")
    parser.add_argument("--session", default="cli", metavar="ID", help=argparse.SUPPRESS)
    parser.add_argument("--source", default="manual", metavar="SRC", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "id", "commit", "subject", "relation"} '
                             '(the key as first recorded)')


def run(args: argparse.Namespace) -> int:
    from memrepo.commands.remember import key_text, print_result
    from memrepo.facts import writes

    result = writes.forget(
        find_root(args.repo), scope=args.scope, subject=args.subject,
        relation=args.relation, reason=args.reason, valid_to=args.valid_to,
        object=args.object, session=args.session, source=args.source, trust=args.trust)
    what = f"end of {key_text(result, args.subject, args.relation)}"
    if args.object is not None:
        what += f" = {args.object}"
    print_result(result, args.json, what)
    return 0

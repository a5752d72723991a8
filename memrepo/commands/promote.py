"""memrepo promote --scope S ID --by WHO --reason WHY: vouch for a quarantined fact."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "promote", help="move a quarantined fact into the host scope, recording who and why",
        description="Re-assert a fact an untrusted session wrote to quarantine-<scope> in "
                    "<scope>. --by must name an approver of the committed "
                    "memory/config.yaml; the commit carries Promoted-from, Approved-by and "
                    "Reason.")
    parser.add_argument("--scope", required=True, help="the host scope (not quarantine-…)")
    parser.add_argument("id", metavar="ID", help="id of the quarantined assert")
    parser.add_argument("--by", required=True,
                        help="the approver who vouches for it, 'Name <email>' or the email "
                             "(one of the approvers in memory/config.yaml)")
    parser.add_argument("--reason", required=True, help="why it is trustworthy")
    parser.add_argument("--confidence", type=float, default=1.0,
                        help="confidence of the promoted fact (default 1.0)")
    parser.add_argument("--new-key", action="store_true",
                        help="the fact's key is new in the host scope even though it looks "
                             "like a recorded one")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    from memrepo.agent.promote import promote
    from memrepo.commands.remember import print_result
    from memrepo.repo_root import find_root

    result = promote(find_root(args.repo), scope=args.scope, event_id=args.id, by=args.by,
                     reason=args.reason, confidence=args.confidence, new_key=args.new_key)
    what = f"promotion of {args.id}"
    if result.key is not None and result.object is not None:
        what += f": {result.key[0]}.{result.key[1]} = {result.object}"
    return print_result(result, args.json, what)

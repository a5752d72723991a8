"""memrepo context --scope S [--budget TOKENS] QUESTION: the context block for a model."""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.commands import warn_if_scope_is_empty

DEFAULT_BUDGET = 1500


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "context", help="print the memory context block for a question",
        description="Entities the question names (by name or alias), notes TRIGGERS.md "
                    "maps it to, and facts that hold now, within a hard token budget. "
                    "Budget arithmetic: a line costs its characters / 3 tokens, rounded up; "
                    "the header and the 'not recorded' instruction are paid first (a short "
                    "form of both when the answering facts would not fit beside the full "
                    "one, a shorter one still when they would not fit beside the short one; "
                    "the smallest budget that holds the short one is the minimum); then, in "
                    "this order, each answering fact (whole, else compact), the notes of "
                    "the entities named, the other notes by category precedence (whole, "
                    "else their description), and last the remarks ('did you mean', what "
                    "is recorded about a subject). What does not fit is left out and "
                    "counted in the block's last line.")
    parser.add_argument("--scope", required=True, help="the memory scope (host scopes only)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help=f"hard limit in estimated tokens (default {DEFAULT_BUDGET})")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("question", metavar="QUESTION", nargs="+", help="the question")


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.edits import query_root

    root = query_root(args.repo)  # git looks for in-place saves while the rest imports
    from memrepo.agent.context import build_context

    block = build_context(root, args.scope, " ".join(args.question), args.budget)
    if args.json:
        print(json.dumps({"context": block.text, "tokens": block.tokens,
                          "budget": args.budget, "included": block.included,
                          "left_out": block.left_out}, ensure_ascii=False))
    else:
        print(block.text, end="")
    if not block.included:
        warn_if_scope_is_empty("context", root, args.scope)
    return 0

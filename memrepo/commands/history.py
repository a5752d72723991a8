"""`memrepo history`: every event of one key, with both time axes (SPEC §5.5, §11)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.commands import warn_if_scope_is_empty
from memrepo.core.display import shown
from memrepo.core.records import HistoryEntry


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "history", help="every event of SUBJECT.RELATION, superseded and retracted too",
        description="List every event of a key in the order it was recorded, with its "
                    "valid time, and for each assert the valid intervals it holds under "
                    "current knowledge.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug, e.g. michal)")
    parser.add_argument("subject")
    parser.add_argument("relation")
    parser.add_argument("--json", action="store_true", help='print {"events": [...]}')


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.edits import query_root

    root = query_root(args.repo)  # git looks for in-place saves while the rest imports
    from memrepo.agent.api import Memory

    entries = Memory(root).history(args.scope, args.subject, args.relation)
    if args.json:
        print(json.dumps({"events": [e.to_json() for e in entries]}, ensure_ascii=False))
    elif not entries:
        print("not recorded")
    else:
        print("\n".join(entry_line(e) for e in entries))
    if not entries:
        warn_if_scope_is_empty("history", root, args.scope)
    return 0


def entry_line(entry: HistoryEntry) -> str:
    parts = [entry.recorded_at, f"{entry.op:<7}", entry.id]
    if entry.op == "assert":
        until = f" to {entry.valid_to}" if entry.valid_to else ""
        parts.append(f"= {entry.object}  (valid from {entry.valid_from}{until}; "
                     f"confidence {entry.confidence:g}; source {entry.source})")
        parts.append(_held(entry))
    elif entry.op == "end":
        what = f" {entry.object}" if entry.object else ""
        parts.append(f"ends{what} at {entry.valid_to} ({entry.reason})")
    else:
        parts.append(f"withdraws {entry.target} ({entry.reason})")
    if entry.retracted_by:
        parts.append(f"[retracted by {entry.retracted_by}]")
    return shown("  ".join(p for p in parts if p), None)


def _held(entry: HistoryEntry) -> str:
    if not entry.held:
        return "holds: never (superseded or withdrawn)"
    spans = ", ".join(f"{start}..{end or 'open'}" for start, end in entry.held)
    return f"holds: {spans}"

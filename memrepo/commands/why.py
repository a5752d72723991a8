"""`memrepo why --scope S SUBJECT RELATION [--as-of t] [--known-at T] [--json]`: where the
value a key holds comes from (SPEC §7 "Every answer says why", §11)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from memrepo.commands import warn_if_scope_is_empty
from memrepo.core.display import shown

if TYPE_CHECKING:
    from memrepo.answer.why import Trace


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "why", help="trace the value of SUBJECT.RELATION to its event, commit and quote",
        description="For the value a key holds (now, or at --as-of as known at "
                    "--known-at): the event that says it, the commit that wrote it (author, "
                    "date, Approved-by), the session, source and verbatim quote, and the "
                    "values it replaced.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug, e.g. michal)")
    parser.add_argument("subject")
    parser.add_argument("relation")
    parser.add_argument("--as-of", metavar="T", help="valid time (default now)")
    parser.add_argument("--known-at", metavar="T", help="system time (default now)")
    parser.add_argument("--json", action="store_true", help='print {"values": [...]}')


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.edits import query_root

    root = query_root(args.repo)
    from memrepo.agent.api import Memory

    traces = Memory(root).why(args.scope, args.subject, args.relation, as_of=args.as_of,
                              known_at=args.known_at)
    if args.json:
        print(json.dumps({"values": [t.to_json() for t in traces]}, ensure_ascii=False))
    elif not traces:
        print("not recorded")
    else:
        print("\n\n".join(trace_text(t) for t in traces))
    if not traces:
        warn_if_scope_is_empty("why", root, args.scope)
    return 0


def trace_text(trace: Trace) -> str:
    fact = trace.fact
    until = f" until {fact.valid_to}" if fact.valid_to else ""
    lines = [f"{fact.subject}.{fact.relation} = {fact.object} (valid since "
             f"{fact.valid_from}{until})",
             f"  event   {fact.id}, recorded {fact.recorded_at}"
             + (f", {trace.path}:{trace.line}" if trace.path else ""),
             f"  said    {fact.quote!r}" if fact.quote else "  said    (no quote: typed in)",
             f"  source  {fact.source}, session {fact.session}, trust {fact.trust}, "
             f"confidence {fact.confidence:g}"]
    if trace.commit:
        lines.append(f"  commit  {trace.commit[:12]} by {trace.author} on {trace.committed}")
    else:
        lines.append("  commit  not committed yet")
    lines += [f"  approved by {name}" for name in trace.approved_by]
    lines += [f"  replaced {e.object!r} (valid from {e.valid_from}; recorded "
              f"{e.recorded_at})" for e in trace.replaced]
    return shown("\n".join(lines), None, lines=True)

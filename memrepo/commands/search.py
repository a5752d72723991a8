"""`memrepo search`: full-text search over notes and facts (SPEC §7, §11)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.core.records import SearchResult


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "search", help="find notes and facts by words (accents and case do not matter)",
        description="Search notes (name, description, aliases, body) and facts (subject, "
                    "relation, object, quote). Results carry their category and are ordered "
                    "by relevance, then by category precedence. Quarantined scopes are "
                    "searched only when named with --scope.")
    parser.add_argument("query", metavar="QUERY")
    parser.add_argument("--scope", metavar="S", help="facts of this scope only")
    parser.add_argument("--category", metavar="C",
                        help="rules, entities, references, project or facts")
    parser.add_argument("--limit", type=int, default=10, metavar="N",
                        help="at most N results (default 10)")
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "results", "suggestions"}')


def run(args: argparse.Namespace) -> int:
    from memrepo.agent.api import Memory

    result = Memory.open(args.repo).search(args.query, scope=args.scope,
                                           category=args.category, limit=args.limit)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(result))
    return 0


def render(result: SearchResult) -> str:
    if result.status == "not_recorded":
        lines = ["not recorded"]
        if result.suggestions:
            lines.append(f"did you mean: {', '.join(result.suggestions)}")
        return "\n".join(lines)
    lines = []
    for hit in result.results:
        title = hit.name if hit.kind == "note" else (hit.fact.scope if hit.fact else "")
        lines.append(f"[{hit.category}] {title} — {hit.snippet}  ({hit.path})")
    return "\n".join(lines)

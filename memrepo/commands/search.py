"""`memrepo search`: full-text search over notes and facts (SPEC §7, §11)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.core.display import shown
from memrepo.core.records import SearchResult


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "search", help="find notes and facts for a question or words (accents, case and "
                       "word endings do not matter)",
        description="Search notes (name, description, aliases, body) and facts (subject, "
                    "relation, values, quotes) for a question in plain words: any salient "
                    "word may match, rarer words weigh more, a misspelled word is searched "
                    "by its close spelling (and the answer says so), and only results about "
                    "what the question asks count. Results carry their category and are "
                    "ordered by relevance, then by category precedence. Quarantined scopes "
                    "are searched only when named with --scope.")
    parser.add_argument("query", metavar="QUERY")
    parser.add_argument("--scope", metavar="S", help="facts of this scope only")
    parser.add_argument("--category", metavar="C",
                        help="rules, entities, references, project or facts")
    parser.add_argument("--limit", type=int, default=10, metavar="N",
                        help="at most N results (default 10)")
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "results", "suggestions"}')


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.edits import query_root

    root = query_root(args.repo)  # git looks for in-place saves while the rest imports
    from memrepo.agent.api import Memory

    result = Memory(root).search(args.query, scope=args.scope, category=args.category,
                                 limit=args.limit)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(result))
    return 0


def render(result: SearchResult) -> str:
    from memrepo.commands.recall import respelled_lines

    lines = []
    for hit in result.results:
        title = hit.name if hit.kind == "note" else (hit.fact.scope if hit.fact else "")
        lines.append(f"[{hit.category}] {title} — {hit.snippet}  ({hit.path})")
    lines = lines or ["not recorded"]
    lines += respelled_lines(result.respelled, result.suggestions)
    return "\n".join(shown(line, None) for line in lines)  # values escaped

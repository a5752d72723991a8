"""`memrepo recall`: what holds at valid time t as known at system time T (SPEC §5, §11)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.commands import warn_if_scope_is_empty
from memrepo.core.display import shown
from memrepo.core.records import Fact, RecallResult


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "recall", help="what holds now (or at --as-of, as known at --known-at)",
        description="Recall facts of a scope by key (--subject --relation), by subject, or "
                    "for a question in plain words ('How much did I pay for electricity in "
                    "April?'): the keys it is about, at the time it asks about (a date, a "
                    "period, or the history for 'when did … change'), with the notes that "
                    "match it. Answers 'not recorded' (exit 0) with close spellings when "
                    "nothing holds — never the nearest fact.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug, e.g. michal)")
    parser.add_argument("query", nargs="?", metavar="QUERY", help="a question or words to look for")
    parser.add_argument("--subject", metavar="X")
    parser.add_argument("--relation", metavar="Y", help="needs --subject")
    parser.add_argument("--as-of", metavar="t",
                        help="valid time: YYYY-MM-DD, RFC 3339 or 'now' (default)")
    parser.add_argument("--known-at", metavar="T",
                        help="system time: what the memory knew then (default: now)")
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "facts", "suggestions"}')


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.edits import query_root

    root = query_root(args.repo)  # git looks for in-place saves while the rest imports
    from memrepo.agent.api import Memory

    result = Memory(root).recall(
        args.scope, args.query, subject=args.subject, relation=args.relation,
        as_of=args.as_of, known_at=args.known_at)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(result))
    if result.status == "not_recorded" and not result.suggestions:
        warn_if_scope_is_empty("recall", root, args.scope)
    return 0


def render(result: RecallResult) -> str:
    """One line per fact, note and respelling; values escaped (memrepo.core.display)."""
    lines = [line for fact in result.facts for line in (fact_line(fact), *why_line(fact))]
    lines = lines or [
        "no fact recorded; notes that match the question:" if result.notes else "not recorded"]
    lines += result.remarks
    lines += [f"[{n.category}] {n.name} — {n.snippet}  ({n.uri})" for n in result.notes]
    lines += respelled_lines(result.respelled, result.suggestions)
    return "\n".join(shown(line, None) for line in lines)


def respelled_lines(respelled: dict[str, str], suggestions: list[str]) -> list[str]:
    """ "searched 'kowalski' for 'kowalsky'" and "did you mean: …" lines."""
    lines = []
    if respelled:
        lines.append("searched " + ", ".join(f"'{used}' for '{word}'"
                                             for word, used in respelled.items()))
    if suggestions:
        lines.append(f"did you mean: {', '.join(suggestions)}")
    return lines


def why_line(fact: Fact) -> list[str]:
    """`  why: subject by …; relation by …` for a fact a question found."""
    if not fact.why:
        return []
    relation = "; ".join(fact.why.get("relation", [])) or "—"
    return [f"  why: {fact.why.get('subject', '')}; {relation}; quote {fact.quote!r}"
            if fact.quote else f"  why: {fact.why.get('subject', '')}; {relation}"]


def fact_line(fact: Fact) -> str:
    """`subject.relation = object  (valid from … [to …]; recorded …; confidence …; source …)`"""
    until = f" to {fact.valid_to}" if fact.valid_to else ""
    return (f"{fact.subject}.{fact.relation} = {fact.object}  (valid from {fact.valid_from}"
            f"{until}; recorded {fact.recorded_at}; confidence {fact.confidence:g}; "
            f"source {fact.source})")

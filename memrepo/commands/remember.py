"""`memrepo remember`: append an assert to a scope's fact log and commit it (SPEC §8, §11)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from memrepo.core.display import shown
from memrepo.core.problems import InputError, Problem
from memrepo.core.records import WriteResult
from memrepo.repo_root import find_root


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "remember", help="record that SUBJECT.RELATION = OBJECT (from --valid-from on)",
        description="Append an assert to memory/facts/<scope>/ and commit it. The value "
                    "that already holds writes nothing and answers 'unchanged'.")
    parser.add_argument("--scope", required=True, help="whose memory (a slug, e.g. michal)")
    parser.add_argument("subject", nargs="?")
    parser.add_argument("relation", nargs="?")
    parser.add_argument("object", nargs="?")
    parser.add_argument("--batch", metavar="FILE",
                        help="remember every fact of a JSONL file ('-' = stdin) in one "
                             "commit; a line: {subject, relation, object[, valid_from, "
                             "valid_to, quote, confidence, scope, new_key]}")
    parser.add_argument("--valid-from", metavar="T",
                        help="when it became true: YYYY-MM-DD, RFC 3339 or 'now' (default)")
    parser.add_argument("--valid-to", metavar="T", help="when it stops being true, if known")
    parser.add_argument("--quote", metavar="Q",
                        help="the verbatim text the fact comes from (required unless "
                             "--source manual)")
    parser.add_argument("--source", default="manual", metavar="SRC",
                        help="where it comes from (default: manual)")
    parser.add_argument("--session", default="cli", metavar="ID",
                        help="session id for the audit trail (default: cli)")
    parser.add_argument("--confidence", type=float, default=1.0, metavar="X",
                        help="0..1 (default 1.0; untrusted writes are capped at 0.3)")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted writes go to the scope quarantine-<scope>")
    parser.add_argument("--confirm", action="store_true",
                        help="re-assert the value that already holds (from --valid-from, "
                             "default now), so triage no longer lists it as unconfirmed")
    parser.add_argument("--new-key", action="store_true",
                        help="the key is new even though it looks like a recorded one "
                             "(without it such a write is refused: 'similar_key')")
    parser.add_argument("--json", action="store_true",
                        help='print {"status", "id", "commit", "subject", "relation"} '
                             '(the key as first recorded; "similar" too when the key '
                             'looks like recorded keys)')


def run(args: argparse.Namespace) -> int:
    from memrepo.facts import writes

    if args.batch is not None:
        return _run_batch(args)
    if args.object is None:
        raise InputError(Problem("remember", "SUBJECT RELATION OBJECT are required "
                                 "(or --batch FILE)", "e.g. `memrepo remember --scope "
                                 "michal electricity_bill amount '210 zł'`"))
    result = writes.remember(
        find_root(args.repo), scope=args.scope, subject=args.subject,
        relation=args.relation, object=args.object, valid_from=args.valid_from,
        valid_to=args.valid_to, quote=args.quote, source=args.source, session=args.session,
        confidence=args.confidence, trust=args.trust, new_key=args.new_key,
        confirm=args.confirm)
    key = result.key or (args.subject, args.relation)  # shown as first recorded
    what = f"{key[0]}.{key[1]} = {args.object}"
    if args.confirm and result.status == "added" and not args.json:
        print(f"confirmed {shown(what)} ({result.id}, commit {(result.commit or '')[:12]})")
        return 0
    return print_result(result, args.json, what, key)


def key_text(result: WriteResult, subject: str, relation: str) -> str:
    """`subject.relation` as the write recorded it (the form first recorded), else as
    typed."""
    subject, relation = result.key or (subject, relation)
    return f"{subject}.{relation}"


def print_result(result: WriteResult, as_json: bool, what: str,
                 key: tuple[str, str] | None = None) -> int:
    """The one line a write command prints (or its JSON document); `what` is echoed
    escaped and shortened. The exit code (1: the write gate stopped a new `key` that looks
    like recorded ones)."""
    what = shown(what)
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    elif result.status == "similar_key":
        print(f"memrepo: {similar_key_refusal(result, key)}", file=sys.stderr)
    elif result.status == "added":
        replaces = "".join(f" ({shown(r.text())})" for r in result.replaces)
        print(f"added {what}{replaces} ({result.id}, commit {(result.commit or '')[:12]})")
    else:
        held = f" (already recorded as {result.id})" if result.id else ""
        print(f"unchanged: {what}{held}; nothing written")
    return 1 if result.status == "similar_key" else 0


def similar_key_refusal(result: WriteResult, key: tuple[str, str] | None) -> str:
    """The write gate's answer for a person: which recorded keys, and how to insist."""
    from memrepo.facts.writes import similar_problem

    use = " or ".join(f"`{s.subject} {s.relation}`" for s in result.similar)
    subject, relation = key or ("the", "key")
    return shown(f"{similar_problem(subject, relation, result.similar)}\n  To fix: use {use} "
                 "if it is the same thing; if it is a different thing, pass --new-key", None,
                 lines=True)


def _run_batch(args: argparse.Namespace) -> int:
    from memrepo.facts import writes
    from memrepo.facts.batch import read_batch

    if args.subject is not None:
        raise InputError(Problem("--batch", "give either --batch FILE or SUBJECT RELATION "
                                 "OBJECT, not both", "drop the positional arguments"))
    facts = read_batch(args.batch, args.scope, args.valid_from, args.valid_to,
                       args.confidence, args.new_key)
    results = writes.remember_many(find_root(args.repo), facts, source=args.source,
                                   session=args.session, trust=args.trust)
    if args.json:
        print(json.dumps({"results": [r.to_json() for r in results]}, ensure_ascii=False))
    else:
        added = sum(r.status == "added" for r in results)
        commit = next((r.commit for r in results if r.commit), None)
        print(f"added {added}, unchanged {len(results) - added}"
              + (f" (commit {commit[:12]})" if commit else "; nothing written"))
    return 0

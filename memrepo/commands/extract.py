"""`memrepo extract`: facts from a conversation, through three filters, into memory (§8).

Candidates come from an OpenAI-compatible endpoint (`--endpoint URL --model M`) or from
a file (`--candidates FILE`). Every candidate is filtered and validated before the first
write; the report lists what was kept (added / unchanged, with ids), what was dropped and
why, and the scope each kept fact went to.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from memrepo.cli import UsageError
from memrepo.repo_root import find_root

DEFAULT_TIMEOUT = 120.0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract", help="extract facts from a conversation (model or candidates file)",
        description="Extract durable facts from a conversation. Candidates come from an "
                    "OpenAI-compatible endpoint (JSON-schema-constrained answer) or from a "
                    "file; a candidate is kept only if its quote occurs verbatim in the "
                    "conversation and it is neither about the assistant nor an instruction. "
                    "Untrusted sessions write to quarantine-<scope>.")
    parser.add_argument("conversation", nargs="?", metavar="CONVERSATION",
                        help="conversation text file ('-' or absent: stdin)")
    parser.add_argument("--scope", required=True, help="scope the facts belong to")
    parser.add_argument("--session", required=True, help="session id recorded with each fact")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted: write to quarantine-<scope>, confidence ≤ 0.3")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--endpoint", metavar="URL",
                        help="OpenAI-compatible server, e.g. http://127.0.0.1:8080")
    source.add_argument("--candidates", metavar="FILE",
                        help='JSON file {"facts": [...]} instead of a model')
    parser.add_argument("--model", metavar="M", help="model name (with --endpoint)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds to wait for the model (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--dry-run", action="store_true",
                        help="filter and report, write nothing")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from memrepo.agent.extract import (
        extract,
        load_candidates_file,
        model_candidates,
        prompt_keys,
        read_conversation,
    )
    from memrepo.core.policy.trust import write_scope

    _check_usage(args)
    root = find_root(args.repo)
    destination = write_scope(args.scope, args.trust)  # a bad scope: before any model
    conversation = read_conversation(args.conversation)
    if args.candidates is not None:
        candidates = load_candidates_file(args.candidates, root)
        source = f"extract:{Path(args.candidates).name}"
    else:
        candidates = model_candidates(args.endpoint, args.model, conversation, root,
                                      args.timeout, prompt_keys(root, destination,
                                                                conversation))
        source = f"extract:{args.model}"
    report = extract(root, scope=args.scope, session=args.session, trust=args.trust,
                     conversation=conversation, candidates=candidates, source=source,
                     dry_run=args.dry_run)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print(report.render())
    return 0


def _check_usage(args: argparse.Namespace) -> None:
    if args.endpoint is not None and not args.model:
        raise UsageError("--endpoint needs --model M")
    if args.candidates is not None and args.model:
        raise UsageError("--model goes with --endpoint, not with --candidates")
    if not args.timeout > 0:
        raise UsageError("--timeout must be a positive number of seconds")
    if not args.session.strip():
        raise UsageError("--session must not be empty")

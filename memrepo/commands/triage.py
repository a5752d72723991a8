"""`memrepo triage [--apply] [--report FILE] [--json]`: sleep-time maintenance (SPEC §9).

Finds near-duplicate notes, contradictions, facts not re-confirmed for `stale_after_days`,
dead links, orphan notes, categories over their limits and quarantined facts awaiting
review, and reports them for a person (markdown). Exit 0 even with findings (it is a
report); 1 only when an `--apply` action was refused by the checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "triage", help="report near-duplicates, contradictions, stale facts, dead links, "
                       "orphans, categories over limit and quarantine awaiting review",
        description="Sleep-time maintenance: a markdown report for a person. --apply "
                    "performs only safe, reversible actions (merging a near-duplicate note "
                    "into the other: archive + alias + trailers), each as its own commit "
                    "through the hooks; everything else is report-only.")
    parser.add_argument("--apply", action="store_true",
                        help="merge near-duplicate notes (never rules), one commit each")
    parser.add_argument("--report", metavar="FILE",
                        help="write the markdown report to FILE (atomically) instead of "
                             "printing it")
    parser.add_argument("--json", action="store_true",
                        help="print the findings (and actions) as one JSON document")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memrepo.core.duplicates.triage import triage
    from memrepo.maintenance.triage import (
        collection_paused,
        render_report,
        report_json,
        today,
        triage_input,
        write_report,
    )
    from memrepo.repo_root import find_root

    root = find_root(args.repo)
    day = today()
    actions = []
    if args.apply:
        from memrepo.maintenance.triage_apply import apply_merges

        with triage_input(root) as given:
            actions = apply_merges(root, given, day)
    with collection_paused():  # the report's dictionaries too
        with triage_input(root) as given:
            findings = triage(given)
        if args.report:
            write_report(Path(args.report), render_report(findings, day, actions))
        if args.json:
            _print_json(report_json(findings, day, actions))
        elif not args.report:
            print(render_report(findings, day, actions), end="")
    return EXIT_REFUSED if any(a.status == "refused" for a in actions) else EXIT_OK


_CHUNK = 1 << 20


def _print_json(document: dict[str, object]) -> None:
    """`json.dump(document, ensure_ascii=False, indent=2)` and a newline, byte for byte,
    encoded by orjson (the standard encoder with an indent is pure Python: a second per
    50k findings) and written a megabyte of whole lines at a time. A text orjson refuses
    (a lone surrogate) is left to the standard encoder."""
    import orjson

    try:
        data = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return
    start = 0
    while start < len(data):
        end = data.find(b"\n", start + _CHUNK)
        end = len(data) if end < 0 else end + 1
        sys.stdout.write(data[start:end].decode("utf-8"))
        start = end
    print()

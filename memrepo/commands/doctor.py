"""`memrepo doctor [--repair] [--deep] [--full] [--json]`: diagnose (and put right) what
an interrupted write left in this clone — partial or uncommitted log lines, an index
behind HEAD, stale git locks, killed writes' temporary index files, a broken cache,
INDEX.md drift. See
memrepo/maintenance/doctor/ for what is repaired how."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from memrepo.repo_root import find_root


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor", help="diagnose this clone after a crash; --repair puts it right",
        description="Find partial or uncommitted fact-log lines, index entries behind "
                    "HEAD, stale git lock files, temporary index files of killed writes, a "
                    "corrupt cache and INDEX.md drift (a "
                    "cache merely behind the files is synced, as any query would). "
                    "--repair moves partial lines aside to .memrepo/partial/ (never "
                    "dropped), commits complete uncommitted lines through the checks, "
                    "resets lagging index entries, removes stale locks and those files and "
                    "rebuilds the cache. The cache's audit is not run again while the cache is as "
                    "it was at the last clean one (--full runs it). Exit 0 when healthy "
                    "or repaired, 1 when problems remain.")
    parser.add_argument("--repair", action="store_true",
                        help="repair what is safe to repair, and say what was done")
    parser.add_argument("--deep", action="store_true",
                        help="compare the cache with a fresh build from the files (costs a "
                             "full build; the default compares a digest per log)")
    parser.add_argument("--full", action="store_true",
                        help="audit the cache even when it is unchanged since the last "
                             "clean audit (by default that audit's result is reported)")
    parser.add_argument("--json", action="store_true",
                        help='print {"healthy": bool, "findings": [...], "cache_audit": '
                             '{"status": "audited" | "unchanged" | "not run", '
                             '"clean_at": time | null}}')


def run(args: argparse.Namespace) -> int:
    from memrepo.cache.audit import EarlyAudit

    root = find_root(args.repo)
    # the cache's audit (mostly SQLite's work) starts before doctor's checks are imported
    early = None if args.repair or args.deep else EarlyAudit.start(root, args.full)

    from memrepo.core.display import shown
    from memrepo.maintenance.doctor import doctor

    report = doctor(root, repair=args.repair, deep=args.deep, early=early,
                    full=args.full)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        for finding in report.findings:
            print(shown(f"{finding.path}: {finding.problem}", None))
            if finding.repaired is not None:
                done = "Repaired" if args.repair else "Done"  # e.g. the cache synced
                print(f"  {done}: {shown(finding.repaired, None)}")
            else:
                print(f"  To fix: {shown(finding.fix, None)}")
        audit = report.cache_audit.said()
        if audit is not None:
            print(shown(audit, None))
        remaining = sum(f.repaired is None for f in report.findings)
        print("healthy" if not report.findings or not (remaining or args.repair) else
              "repaired" if not remaining else f"{remaining} problem(s) remain",
              file=sys.stdout)
    return 0 if report.healthy else 1

"""`memrepo sync [REMOTE] [--json]`: exchange memory with another clone (SPEC §10).

Fetch, merge (fact logs by union), run every check on what came in, push; then refresh
the cache. A note changed differently on both sides is a conflict: the merge is undone,
the files are named, exit 1 — nothing is lost. See memrepo/maintenance/sync.py and
docs/shared-server.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sync", help="fetch, merge, check and push: exchange memory with a git remote",
        description="Fetch REMOTE's branch, merge it (fact logs merge by union), run all "
                    "commit-time checks on every commit that came in, push. A conflict or "
                    "a failed check undoes the merge and exits 1; nothing is lost.")
    parser.add_argument("remote", nargs="?", metavar="REMOTE",
                        help="git remote name (default: the branch's upstream remote, "
                             "else origin)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    from memrepo.core.display import shown
    from memrepo.maintenance.sync import SyncRefused, sync
    from memrepo.repo_root import find_root

    root = find_root(args.repo)
    try:
        result = sync(root, args.remote)
    except SyncRefused as refused:
        if args.json:
            print(json.dumps({"status": "refused", "message": refused.summary,
                              "server_said": refused.said,
                              "problems": [_problem_json(p) for p in refused.problems]}))
        print(shown(str(refused), None, lines=True), file=sys.stderr)
        return 1
    _warn_about_hooks(result.hooks)
    if args.json:
        print(json.dumps({"status": "synced", **result.to_json()}))
    else:
        print(f"synced with {result.remote}/{result.branch}: {result.incoming} commit(s) "
              f"in, now at {result.after[:12]}")
    return 0


def _warn_about_hooks(state: str) -> None:
    if state == "installed":
        print("memrepo sync: installed the git hooks in this clone", file=sys.stderr)
    elif state == "missing":
        print("memrepo sync: warning: this clone has no memrepo git hooks and they could not "
              "be installed; run `memrepo hooks install` (commits are still checked by sync)",
              file=sys.stderr)


def _problem_json(problem: Any) -> dict[str, Any]:
    return {"path": problem.path, "line": problem.line, "problem": problem.problem,
            "fix": problem.fix}

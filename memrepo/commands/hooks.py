"""`memrepo hooks install | status | run TYPE`: memrepo's own git hook scripts.

`install` writes them into git's hooks folder for this clone (pre-commit,
pre-merge-commit, commit-msg, post-checkout, post-merge, post-rewrite,
reference-transaction), each running
`memrepo hooks run <type>` with the Python memrepo is installed in; a hook another program
put there is kept as `<type>.local` and still runs first. `status` says which are in place.
`run` is what the scripts call (see memrepo/maintenance/git_hooks.py).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from memrepo.maintenance.git_hooks import HOOK_STAGES


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hooks", help="install memrepo's git hooks in this clone (or show them)",
        description="memrepo's git hooks run the commit-time checks and refresh the cache. "
                    "`memrepo init` installs them; a fresh clone needs `memrepo hooks "
                    "install` once (`memrepo sync` and `memrepo doctor --repair` do it too).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("install", help="write the hook scripts into git's hooks folder")
    status = actions.add_parser("status", help="which hooks are in place")
    status.add_argument("--json", action="store_true", help="print one JSON document")
    run = actions.add_parser("run", help="run one hook (what the installed scripts call)")
    run.add_argument("hook_type", metavar="TYPE", choices=HOOK_STAGES)
    run.add_argument("arguments", nargs="*", help="the arguments git passes the hook")


def run(args: argparse.Namespace) -> int:
    if args.action == "run":
        from memrepo.maintenance.git_hooks import run_hook

        return run_hook(args.hook_type, args.arguments)
    from memrepo.git.hook_scripts import install, states
    from memrepo.repo_root import find_root

    root = find_root(args.repo)
    if args.action == "install":
        for path in install(root):
            print(f"installed {path}")
        return 0
    found = states(root)
    if args.json:
        print(json.dumps({"hooks": {s.hook_type: s.state for s in found}}))
    else:
        for state in found:
            print(f"{state.hook_type}: {state.state} ({state.path})")
    return 0 if all(s.runs_memrepo for s in found) else 1

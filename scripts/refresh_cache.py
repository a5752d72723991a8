"""Refresh the SQLite cache (SPEC §7) after git moved HEAD: what the post-checkout,
post-merge and post-rewrite hooks run (`memrepo-refresh-cache --quiet --hook`, installed by
`memrepo init`), and what a person runs to bring the cache up to date
(`memrepo-refresh-cache`, the same as `memrepo cache sync`).

Only what changed is re-indexed; a missing or damaged cache is built anew. With `--hook`
the files git changed between the two commits are trusted instead of scanning the work tree.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from memrepo.cli import guarded
from memrepo.progress import show_on_terminal


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="memrepo-refresh-cache", description="Re-index what changed in the memory "
        "(the git hooks run this after a checkout, merge or rewrite).")
    parser.add_argument("--repo", metavar="PATH",
                        help="memory repository (default: $MEMREPO_REPO, else the git "
                             "repository containing the working directory)")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    parser.add_argument("--hook", action="store_true",
                        help="after a checkout, merge or rewrite: re-index what changed "
                             "between commits without scanning the work tree")
    args = parser.parse_args(argv)
    if not args.hook:
        show_on_terminal()  # a rebuild can take a minute; never inside a git hook
    return guarded("memrepo-refresh-cache", lambda: refresh(args.repo, args.hook, args.quiet))


def refresh(repo: str | None, hook: bool, quiet: bool) -> int:
    from memrepo import cache
    from memrepo.repo_root import find_root

    root = find_root(repo)
    started = time.perf_counter()
    report = cache.sync(root, force=not hook, hook=hook)
    if not quiet:
        print(report.describe(time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Build the SQLite cache (SPEC §7) anew from the files and swap it in atomically
(`memrepo-build-cache`, the same as `memrepo cache rebuild`): for a fresh clone, or after
.memrepo/ was deleted. Queries build it themselves when it is missing; this does it ahead.
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
        prog="memrepo-build-cache",
        description="Build .memrepo/cache.sqlite anew from the work tree and swap it in.")
    parser.add_argument("--repo", metavar="PATH",
                        help="memory repository (default: $MEMREPO_REPO, else the git "
                             "repository containing the working directory)")
    args = parser.parse_args(argv)
    show_on_terminal()
    return guarded("memrepo-build-cache", lambda: build(args.repo))


def build(repo: str | None) -> int:
    from memrepo import cache
    from memrepo.repo_root import find_root

    root = find_root(repo)
    started = time.perf_counter()
    print(cache.rebuild(root).describe(time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())

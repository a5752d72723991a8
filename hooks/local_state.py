"""memrepo's local state is never committed: no tracked path under `.memrepo/` (the cache,
the write lock, the session journals, lines set aside by doctor). A committed file — or
symbolic link — there would arrive in every clone that pulls it, and memrepo would then
write the clone's journal or lock through it (a link can point anywhere, e.g. at a shell
start-up file)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.checks.entry import run_hook
from memrepo.core.change import Change
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False
LOCAL_STATE = ".memrepo/"


def check(change: Change) -> list[Problem]:
    return [Problem(f.path, "memrepo's local state (.memrepo/) is never committed",
                    f"take it out of the commit: git rm -r --cached -- {LOCAL_STATE}")
            for f in change.under(LOCAL_STATE) if f.status != "deleted"]


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

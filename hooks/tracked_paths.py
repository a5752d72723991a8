"""What a memory repository may track at all: nothing under .memrepo/ (the clone's own
state — cache, journals, write lock — which a pulled commit must never plant or redirect)
and no symbolic links where memrepo reads or writes: under memory/, schema/ and .memrepo/
and as a control file (a link would send reads and writes outside the repository).

Cost: the changed-file list.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.policy.approval import CONTROL_FILES, needs_approval
from memrepo.core.problems import Problem
from memrepo.local_state import STATE_DIR

NEEDS_MESSAGE: bool = False
LOCAL_STATE = f"{STATE_DIR}/"
LINK_FREE = ("memory/", "schema/", LOCAL_STATE)


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for file in (f for f in change.files if f.status != "deleted"):
        if file.path.startswith(LOCAL_STATE) or file.path == LOCAL_STATE.rstrip("/"):
            problems.append(Problem(
                file.path, "files under .memrepo/ are this clone's own state (cache, "
                "journals, locks) and are never committed",
                f"unstage it: git rm --cached -- {file.path} (.gitignore lists .memrepo/)"))
        elif file.is_symlink and _link_free(file.path, change.config.control_files):
            problems.append(Problem(
                file.path, "is a symbolic link; memrepo never reads or writes through one",
                f"commit a regular file or folder instead: git rm --cached -- {file.path}"))
    return problems


def _link_free(path: str, control_files: Sequence[str]) -> bool:
    return path.startswith(LINK_FREE) or needs_approval(path, (*CONTROL_FILES, *control_files))


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

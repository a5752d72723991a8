"""The check stages of memrepo's git hooks (pre-commit, pre-merge-commit, commit-msg), as
memrepo.maintenance.git_hooks runs them: under the write lock, the running git command
registered (memrepo.git.activity), index entries a killed write left behind pointed at
HEAD, the checks of memrepo.checks.entry.hook_checks, and the commit the commit-msg hook
checked recorded (`record_checked`). Apart from git_hooks, so that the hooks that only
refresh the cache after a checkout import none of it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from memrepo.checks.entry import hook_checks
from memrepo.facts.write_lock import hook_lock, lock_held_by_caller
from memrepo.git.activity import mark_checked, register
from memrepo.git.porcelain import head_ref_and_commit


def check_stage(root: Path, hook_type: str, argv: Sequence[str]) -> int:
    """pre-commit, pre-merge-commit or commit-msg, in the clone at `root`."""
    with hook_lock(root):
        if hook_type != "commit-msg" and not lock_held_by_caller():
            register(root, os.getppid())
            _repair_index(root)
        refused = hook_checks(hook_type, argv)
        if hook_type == "commit-msg" and not refused:
            record_checked(root, os.getppid())
        return refused


def _repair_index(root: Path) -> None:
    """Point index entries a killed write left behind at HEAD (pre-commit and
    pre-merge-commit, which reach Python only when their shell test finds such a trace or
    a held lock): the write path's code, pygit2 with it, is loaded only then."""
    from memrepo.facts.appender import refresh_behind

    index_file = os.environ.get("GIT_INDEX_FILE")
    refresh_behind(root, Path(index_file).absolute() if index_file else None)


def record_checked(root: Path, git_pid: int) -> None:
    """After the commit-msg hook passed: the commit git process `git_pid` makes moves
    HEAD's branch on from HEAD, and its checks ran — the reference-transaction hook lets
    exactly that update through (memrepo.git.activity.mark_checked; the shell test of
    memrepo.git.hook_scripts.settled_test). Nothing is recorded on an unborn or detached
    HEAD: memrepo.checks.rewrites then checks the update itself."""
    head = head_ref_and_commit(root)
    if head is not None:
        mark_checked(root, git_pid, *head)

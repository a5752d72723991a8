"""What memrepo's git hooks do when git runs them (`memrepo hooks run <type>`; the scripts
are written by `memrepo.git.hook_scripts`).

- pre-commit, pre-merge-commit: take the write lock (an agent's write in progress ends
  first), register the running `git` process (so that no library write moves HEAD under
  it: `memrepo.git.activity`), point index entries a killed write left behind at HEAD,
  then the checks of `memrepo.checks.entry.hook_checks` for that stage (none: they all
  run at commit-msg). The script runs none of this when its shell test
  (`memrepo.git.hook_scripts.fast_path`) finds nothing else to do.
- commit-msg: under the write lock, `hook_checks` — every §6 check, with the message.
  One stage runs them all (git runs commit-msg for every commit and merge the pre-commit
  hook runs for): one process per commit instead of two.
  Once they pass, the registration of the git process records the commit they checked
  (`record_checked`), which the reference-transaction hook then
  lets through without checking it again.
- reference-transaction (git ≥ 2.28), in its `prepared` state: a move of the branch that
  git ran no commit-msg hook for — revert, cherry-pick, rebase, am, an amend, a reset, a
  fast-forward — checked like the commits it brings (memrepo.checks.rewrites); only the
  moves the script's shell test cannot vouch for reach Python. No write lock: it reads
  commits, which never change.
- post-checkout, post-merge, post-rewrite: refresh the cache; silent unless it fails (and
  then only a warning: the cache is derived data, the git command succeeded).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from memrepo.core.problems import InputError
from memrepo.git.activity import mark_checked, register
from memrepo.git.hook_scripts import REFRESHING
from memrepo.git.porcelain import head_ref_and_commit

CHECK_STAGES = ("pre-commit", "pre-merge-commit", "commit-msg")
REFRESH_STAGES = REFRESHING
TRANSACTION_STAGE = "reference-transaction"
HOOK_STAGES = (*CHECK_STAGES, *REFRESH_STAGES, TRANSACTION_STAGE)


def run_hook(hook_type: str, argv: Sequence[str]) -> int:
    root = Path.cwd()  # git runs a hook at the root of the work tree
    if hook_type in REFRESH_STAGES:
        return _refresh(root, hook_type)
    if hook_type == TRANSACTION_STAGE:
        from memrepo.checks.rewrites import reference_transaction

        return reference_transaction(argv, sys.stdin)
    from memrepo.checks.entry import hook_checks
    from memrepo.facts.write_lock import hook_lock, lock_held_by_caller

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


def _refresh(root: Path, hook_type: str) -> int:
    """What `memrepo-refresh-cache --quiet --hook` does (scripts/refresh_cache.py)."""
    from memrepo import cache

    try:
        cache.sync(root, hook=True)
    except InputError as err:  # e.g. a link where the cache lives: a person must act
        print(f"memrepo {hook_type}: the cache was not refreshed: {err}", file=sys.stderr)
    except Exception as err:  # derived data: the checkout itself succeeded
        print(f"memrepo {hook_type}: warning: the cache was not refreshed ({err}); the next "
              "query refreshes it", file=sys.stderr)
    return 0

"""What memrepo's git hooks do when git runs them (`memrepo hooks run <type>`; the scripts
are written by `memrepo.git.hook_scripts`).

- pre-commit, pre-merge-commit (memrepo.maintenance.hook_checks): take the write lock (an
  agent's write in progress ends first), register the running `git` process (so that no
  library write moves HEAD under it: `memrepo.git.activity`), point index entries a killed
  write left behind at HEAD, then the checks of `memrepo.checks.entry.hook_checks` for
  that stage (none: they all run at commit-msg). The script runs none of this when its
  shell test (`memrepo.git.hook_scripts.fast_path`) finds nothing else to do.
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
  then only a warning: the cache is derived data, the git command succeeded). This module
  imports nothing else of the hooks: a refresh loads no check, lock or git-activity code.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from memrepo.core.problems import InputError
from memrepo.git.hook_types import REFRESHING

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
    from memrepo.maintenance.hook_checks import check_stage  # only here: a refresh loads none of it

    return check_stage(root, hook_type, argv)


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

"""What an entry point of the checks needs (`memrepo check`, each hook's `main`): the staged
change, the commit message file git hands the commit-msg hook, and the report."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.check_support import read_message_file, report
from memrepo.checks.runner import Stage, prepare_checks, run_checks
from memrepo.core.problems import InputError, Problem
from memrepo.repo_root import start_directory

if TYPE_CHECKING:
    from memrepo.core.change import Change

def collect_change(repo_path: str | Path | None, message: str | None,
                   everything: bool = False) -> Change:
    """The staged change (or with `everything`, all that is staged) of the repository; the
    checks are imported while git lists it."""
    from memrepo.git.staged import staged_change

    return staged_change(start_directory(repo_path), message, everything=everything,
                         meanwhile=prepare_checks)


def staged_problems(repo_path: str | Path | None, message: str | None, stage: Stage,
                    everything: bool = False, only: frozenset[str] | None = None,
                    ) -> list[Problem]:
    """What `memrepo check` reports: the checks of `stage` on the staged change; during a
    merge (MERGE_HEAD exists) at a stage that reads the message, also every merged-in commit
    and the merged logs (memrepo.checks.merges) — `git merge` runs no pre-commit hook, so
    the merge's own change gets every check then too."""
    change = collect_change(repo_path, message, everything)
    if stage == "pre-commit" or only is not None:
        return run_checks(change, stage, only=only)
    dated = _future_dated(start_directory(repo_path), change.config.clock_skew_seconds)
    if not change.merge:
        return dated + run_checks(change, stage)
    from memrepo.checks.merges import merge_problems

    return dated + run_checks(change, "all") + merge_problems(start_directory(repo_path))


def _future_dated(root: Path, skew_seconds: int) -> list[Problem]:
    """The commit being made, when git was given a date for it (GIT_COMMITTER_DATE, in any
    format git reads: git says which), dated after this machine's clock; without one git
    dates it by that clock."""
    if not os.environ.get("GIT_COMMITTER_DATE"):
        return []
    from memrepo.checks.dates import RETRY, date_git_gives, future_dated
    from memrepo.git.command import run_git

    done = run_git(root, "var", "GIT_COMMITTER_IDENT")
    when = date_git_gives(done.stdout) if done.returncode == 0 else None
    return [] if when is None else future_dated(when, skew_seconds, "this commit", RETRY)


def hook_checks(hook_type: str, argv: Sequence[str]) -> int:
    """What memrepo's own git hooks check (`memrepo hooks run <type>`); the exit code.

    Everything runs at commit-msg, the one stage git runs for every commit it makes with
    hooks — `git merge` / `git pull` merge commits included, whose merged-in commits are
    checked then too (MERGE_HEAD exists from prepare-commit-msg on; at pre-merge-commit it
    does not yet, so nothing could tell there what is being merged). One Python process per
    commit. A refusal after the editor keeps the message: git leaves it in
    .git/COMMIT_EDITMSG."""
    if hook_type != "commit-msg":
        return 0
    if not argv:
        print("memrepo: the commit-msg hook was run without the message file",
              file=sys.stderr)
        return 1
    try:
        message = read_message_file(argv[0])
        problems = staged_problems(None, message, "all")
    except InputError as err:
        print(err, file=sys.stderr)
        return 1
    refused = report(problems)
    if refused:
        print(f"memrepo: commit refused; your message is kept: after fixing, `git commit -e "
              f"-F {argv[0]}` reuses it", file=sys.stderr)
    return refused

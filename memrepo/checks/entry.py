"""What an entry point of the checks needs (`memrepo check`, each hook's `main`): the staged
change, the commit message file git hands the commit-msg hook, and the report."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from memrepo.checks.runner import Check, Stage, guarded, prepare_checks, run_checks
from memrepo.core.problems import InputError, Problem

if TYPE_CHECKING:
    from memrepo.core.change import Change

SCISSORS = "------------------------ >8 ------------------------"


def repository(repo_path: str | Path | None) -> Path:
    """Where to look for the repository: --repo, else $MEMREPO_REPO, else the working
    directory (git finds the repository above it)."""
    return Path(repo_path or os.environ.get("MEMREPO_REPO") or os.getcwd())


def collect_change(repo_path: str | Path | None, message: str | None,
                   everything: bool = False) -> Change:
    """The staged change (or with `everything`, all that is staged) of the repository; the
    checks are imported while git lists it."""
    from memrepo.git.staged import staged_change

    return staged_change(repository(repo_path), message, everything=everything,
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
    dated = _future_dated(repository(repo_path), change.config.clock_skew_seconds)
    if not change.merge:
        return dated + run_checks(change, stage)
    from memrepo.checks.merges import merge_problems

    return dated + run_checks(change, "all") + merge_problems(repository(repo_path))


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


def read_message_file(path: str | Path) -> str:
    """The commit message git hands the commit-msg hook, without a `git commit -v` diff."""
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError as err:
        raise InputError(Problem(str(path), f"cannot read the commit message ({err.strerror})",
                                 "pass the message file git gives the commit-msg hook"),
                         ) from None
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.startswith("#") and SCISSORS in line:
            return "".join(lines[:number])
    return text


def report(problems: Sequence[Problem], stream: TextIO | None = None,
           prefix: str = "") -> int:
    """Print each problem (`path[:line]: problem` + `To fix:`); 1 when there are any."""
    out = sys.stderr if stream is None else stream
    for problem in problems:
        print(prefix + problem.render(), file=out)
    if problems:
        print(f"memrepo: {len(problems)} problem(s) found", file=out)
    return 1 if problems else 0


def run_hook(check: Check, argv: Sequence[str] | None = None) -> int:
    """`main` of one hook module: check what is staged; argv may hold the commit message
    file (pre-commit passes it at the commit-msg stage)."""
    parser = argparse.ArgumentParser(description="one memrepo commit-time check")
    parser.add_argument("message_file", nargs="?", help="commit message file (commit-msg)")
    args = parser.parse_args(argv)
    name = getattr(check, "__module__", "check").rpartition(".")[2]
    try:
        message = None if args.message_file is None else read_message_file(args.message_file)
        change = collect_change(None, message)
    except InputError as err:
        print(err, file=sys.stderr)
        return 1
    return report(guarded(f"memrepo.hooks.{name}", check, change))

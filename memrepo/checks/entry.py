"""What an entry point of the checks needs (`memrepo check`, each hook's `main`): the staged
change, the commit message file git hands the commit-msg hook, and the report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from memrepo.checks.runner import Check, guarded, run_checks
from memrepo.core.problems import InputError, Problem

if TYPE_CHECKING:
    from memrepo.core.change import Change

SCISSORS = "------------------------ >8 ------------------------"


def collect_change(repo_path: str | Path | None, message: str | None,
                   everything: bool = False) -> Change:
    """The staged change (or with `everything`, all that is staged) of the repository."""
    from memrepo.git.read import full_change, open_repository, staged_change

    repo = open_repository(repo_path)
    return full_change(repo, message) if everything else staged_change(repo, message)


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


def hook_checks(hook_type: str, argv: Sequence[str]) -> int:
    """The checks memrepo's git hook of `hook_type` runs (memrepo/maintenance/git_hooks.py
    calls this under the write lock); the exit code, problems printed. Every check runs at
    commit-msg — git runs it for every commit and merge commit the other two stages run
    for — so pre-commit and pre-merge-commit check nothing here."""
    if hook_type != "commit-msg":
        return 0
    if not argv:
        raise InputError(Problem("commit-msg", "no commit message file was given",
                                 "git passes it to the commit-msg hook"))
    change = collect_change(None, read_message_file(argv[0]))
    code = report(run_checks(change, "all"))
    if code:
        print("memrepo: your message is kept; to retry with it: "
              "git commit -e -F .git/COMMIT_EDITMSG", file=sys.stderr)
    return code


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

"""What every check module shares, and what runs one on its own: the `CheckModule` shape,
a check run so that a crash is a `Problem` (`guarded`), the paths a check will look up
announced to the snapshot (`expect_files`), the notes of a change parsed once however many
checks read them (`read_note`: headers, links and indexes all do; libyaml,
`fast`: the same result as the strict reader, SPEC §3), the commit message git hands the
commit-msg hook, the report, and `run_hook` — each module's `main`.

The runner (memrepo.checks.runner) imports this module and the registry; nothing here
imports the runner back.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TextIO

from memrepo.core.notes.headers import Note, parse_note
from memrepo.core.problems import InputError, Problem
from memrepo.crashlog import write_crash_log
from memrepo.git.staged import staged_change
from memrepo.repo_root import start_directory

if TYPE_CHECKING:
    from memrepo.core.change import Change, Snapshot

Check = Callable[["Change"], list[Problem]]
SCISSORS = "------------------------ >8 ------------------------"


class CheckModule(Protocol):
    """One module of memrepo.hooks (hooks/ in the source tree)."""

    __name__: str
    NEEDS_MESSAGE: bool

    def check(self, change: Change) -> list[Problem]: ...


def guarded(name: str, check: Check, change: Change) -> list[Problem]:
    """Run one check (`name`: its module); an exception inside it becomes a Problem."""
    try:
        return list(check(change))
    except InputError as err:  # e.g. the repository's own schema/ is unusable
        return [err.detail]
    except Exception as err:  # the one place a check's crash is caught
        return [crash_problem(name, err)]


def crash_problem(module: str, err: BaseException) -> Problem:
    name = module.rpartition(".")[2]
    write_crash_log(f"memrepo check: {name}")
    return Problem(module, f"the {name} check failed unexpectedly "
                   f"({type(err).__name__}: {err})",
                   "this is a bug in memrepo, not in your change; report it (the commit "
                   "was refused to be safe; `git -c core.hooksPath=/dev/null commit` skips "
                   "the checks)")


def read_note(change: Change, path: str) -> Note | Problem | None:
    """The note at `path` in the new snapshot; None when there is no such file."""
    data = change.new.read(path)
    return None if data is None else _parsed(path, data)


@lru_cache(maxsize=256)
def _parsed(path: str, data: bytes) -> Note | Problem:
    return parse_note(path, data, fast=True)


def expect_files(snapshot: Snapshot, paths: Iterable[str]) -> None:
    """Tell a snapshot which paths a check is about to ask `exists` of, so that one that
    reads through git (memrepo.git.staged) asks them all at once; others need no warning."""
    expect = getattr(snapshot, "expect", None)
    if expect is not None:
        expect(paths)


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
        change = staged_change(start_directory(None), message)
    except InputError as err:
        print(err, file=sys.stderr)
        return 1
    return report(guarded(f"memrepo.hooks.{name}", check, change))

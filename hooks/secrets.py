"""§6.6 secrets: no credential-looking text in changed notes or appended fact lines (each
event read whole: a key that names a credential, `wifi.password`, holds no value at all).

Only what the commit adds is scanned, so the cost follows the change: a new text file
whole, a modified one by the lines its old version did not have (an INDEX.md of 100k lines
that gains one line costs one line of regexes), and for a fact log the appended bytes.
INDEX.md files are skipped: their lines are the notes' descriptions, scanned in the notes,
and the indexes check refuses any other line.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.policy.secrets import jsonl_secret_problems, secret_problems
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False
TEXT_SUFFIXES = (".md", ".yaml", ".yml", ".txt")


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for path in (f.path for f in change.files if f.status != "deleted"):
        if not path.startswith("memory/") or path.endswith("/INDEX.md"):
            continue
        if path.endswith(".jsonl"):
            problems.extend(_log_problems(change, path))
        elif path.endswith(TEXT_SUFFIXES):
            problems.extend(_text_problems(change, path))
    return problems


def _text_problems(change: Change, path: str) -> list[Problem]:
    data = change.new.read(path)
    if data is None:
        return []
    text = data.decode("utf-8", "replace")
    old = change.old.read(path)
    if old is None:
        return secret_problems(path, text)
    before = set(old.decode("utf-8", "replace").split("\n"))
    return [problem for number, line in enumerate(text.split("\n"), 1) if line not in before
            for problem in secret_problems(path, line, number)]


def _log_problems(change: Change, path: str) -> list[Problem]:
    new = change.new.read(path)
    if new is None:
        return []
    old = change.old.read(path) or b""
    if not new.startswith(old):
        old = b""  # not append-only: the fact-log check refuses it; scan everything
    start = old.rfind(b"\n") + 1 if old else 0
    found = jsonl_secret_problems(path, new[start:])
    if found:  # lines are counted only to report a problem (a log holds megabytes)
        found = jsonl_secret_problems(path, new[start:], old.count(b"\n", 0, start) + 1)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

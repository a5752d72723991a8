"""§6.6 secrets: no credential-looking text in changed notes or appended fact lines.

Text files under memory/ are scanned whole; for a fact log only the appended bytes (new
content minus the old prefix) are scanned, so the cost follows what the commit adds.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.change import Change
from memrepo.core.problems import Problem
from memrepo.core.secrets import jsonl_secret_problems, secret_problems

NEEDS_MESSAGE: bool = False
TEXT_SUFFIXES = (".md", ".yaml", ".yml", ".txt")


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for path in (f.path for f in change.files if f.status != "deleted"):
        if not path.startswith("memory/"):
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
    return secret_problems(path, data.decode("utf-8", "replace"))


def _log_problems(change: Change, path: str) -> list[Problem]:
    new = change.new.read(path)
    if new is None:
        return []
    old = change.old.read(path) or b""
    if not new.startswith(old):
        old = b""  # not append-only: the fact-log check refuses it; scan everything
    start = old.rfind(b"\n") + 1 if old else 0
    return jsonl_secret_problems(path, new[start:], old[:start].count(b"\n") + 1)


def main(argv: Sequence[str] | None = None) -> int:
    from memrepo.checking import run_hook

    return int(run_hook(check, argv))

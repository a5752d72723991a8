"""No invisible text in what a commit adds: Unicode tag characters outside the three flag
emoji, zero-width spaces, word joiners, byte order marks, runs of variation selectors
(core.display.invisible_character) — text a person reviewing the diff cannot see but a
model reads. Checked in added note and config lines and in appended fact-log lines, at
commit time only (`IN_HISTORY = False`): what was committed before stays valid and is
shown escaped.

Cost: the lines the commit adds (INDEX.md files, 11 MB at 100k notes, are left to the notes
whose descriptions they list and to the indexes check, which refuses any other line).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

import orjson

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.display import INVISIBLE_FIX, describe_character, invisible_character
from memrepo.core.facts.line_rules import hidden_field, hidden_reason
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False
IN_HISTORY: bool = False
SUFFIXES = (".md", ".yaml", ".yml", ".txt", ".jsonl")


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for path in (f.path for f in change.files if f.status != "deleted"):
        if path.startswith("memory/") and path.endswith(SUFFIXES) and not path.endswith(
                "/INDEX.md"):  # its lines are the notes' descriptions, checked in the notes
            problems.extend(Problem(path, reason, INVISIBLE_FIX, number)
                            for number, line in _added(change, path)
                            if (reason := _hidden(path, line)) is not None)
    return problems


def _hidden(path: str, line: str) -> str | None:
    """Why the line hides text: a log line's JSON string values are read decoded
    (`\\u200b` in the file is the character itself in every answer)."""
    char = invisible_character(line)
    if path.endswith(".jsonl") and (char is not None or "\\u" in line):
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError:
            raw = None
        if isinstance(raw, dict):
            found = hidden_field(raw)
            return None if found is None else hidden_reason(*found)
    return None if char is None else f"contains an invisible character ({describe_character(char)})"


def _added(change: Change, path: str) -> Iterator[tuple[int, str]]:
    """(number, text) of each line the commit adds: a log's appended lines, a text file's
    lines its old version did not have."""
    new, old = change.new.read(path) or b"", change.old.read(path) or b""
    if path.endswith(".jsonl") and new.startswith(old):
        first, new = old.count(b"\n") + 1, new[len(old):]
        known: set[str] = set()
    else:
        first, known = 1, set(old.decode("utf-8", "replace").split("\n"))
    for number, line in enumerate(new.decode("utf-8", "replace").split("\n"), first):
        if line not in known:
            yield number, line


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

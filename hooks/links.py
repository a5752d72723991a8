"""§6.2 links: links in changed notes resolve in the new snapshot; no ephemeral paths.

Only changed notes are read. A note deleted or archived by this change may leave links to
it in unchanged notes; `memrepo check --all` and `memrepo triage` report those.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import read_note, run_hook
from memrepo.core.change import Change
from memrepo.core.notes.headers import classify, decode_text
from memrepo.core.notes.links import ephemeral_problems, link_problems
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for path in (f.path for f in change.files if f.status != "deleted"):
        if classify(path)[0] == "note":
            problems.extend(_note_problems(change, path))
    return problems


def _note_problems(change: Change, path: str) -> list[Problem]:
    data = change.new.read(path)
    if data is None:
        return []
    text = decode_text(path, data)
    if isinstance(text, Problem):
        return []  # the headers check reports unreadable notes
    problems = ephemeral_problems(path, text, change.config.ephemeral_paths)
    note = read_note(change, path)
    if note is not None and not isinstance(note, Problem):
        problems.extend(link_problems(note, change.new.exists))
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

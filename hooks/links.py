"""§6.2 links: links in changed notes resolve in the new snapshot; no ephemeral paths.

Only changed notes are read. A note deleted or archived by this change may leave links to
it in unchanged notes; `memrepo check --all` and `memrepo triage` report those.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import expect_files, read_note, run_hook
from memrepo.core.change import Change
from memrepo.core.notes.headers import Note, classify, decode_text
from memrepo.core.notes.links import ephemeral_problems, link_lookups, link_problems
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    paths = [f.path for f in change.files
             if f.status != "deleted" and classify(f.path)[0] == "note"]
    notes = [note for path in paths
             if isinstance(note := read_note(change, path), Note)]
    expect_files(change.new, [p for note in notes for p in link_lookups(note)])
    problems: list[Problem] = []
    for path in paths:
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

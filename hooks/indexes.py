"""§6.3 indexes: each touched category's INDEX.md matches its notes exactly.

When the category had an INDEX before, the check is incremental (the old INDEX matched
the old notes — the previous commit was checked, and `memrepo verify` re-checks history):
only lines that differ, their neighbours and the changed notes are examined. Otherwise
(a first INDEX, `check --all`) the whole folder is compared.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import read_note, run_hook
from memrepo.core.change import Change
from memrepo.core.notes.headers import classify, index_path, note_path, stem
from memrepo.core.notes.index_file import (
    NoteChange,
    drift_problems,
    incremental_notes,
    incremental_problems,
    index_problems,
    parse_index,
)
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    problems: list[Problem] = []
    for category in sorted(touched_categories(change)):
        problems.extend(category_problems(change, category))
    return problems


def touched_categories(change: Change) -> set[str]:
    touched = set()
    for f in change.files:
        kind, category = classify(f.path)
        if kind in ("note", "index") and category is not None:
            touched.add(category)
    return touched


def folder_notes(change: Change, category: str) -> list[str]:
    names = change.new.list_dir(f"memory/{category}")
    return [stem(n) for n in names if n.endswith(".md") and n != "INDEX.md"]


def category_problems(change: Change, category: str) -> list[Problem]:
    old = change.old.read(index_path(category))
    new = change.new.read(index_path(category))
    if old is not None and new is not None and not change.merge:
        return incremental_problems(
            category, old, new, _note_changes(change, category),
            lambda name: _description(change, note_path(category, name)))
    return _full_problems(change, category)


def _note_changes(change: Change, category: str) -> list[NoteChange]:
    return [NoteChange(stem(f.path), f.status,
                       None if f.status == "deleted" else _description(change, f.path))
            for f in change.files if classify(f.path) == ("note", category)]


def _full_problems(change: Change, category: str) -> list[Problem]:
    data = change.new.read(index_path(category))
    folder = folder_notes(change, category)
    if data is None:
        return index_problems(category, None, dict.fromkeys(folder))
    index = parse_index(category, data)
    if isinstance(index, list):
        return index
    notes = incremental_notes(index, _old_lines(change, category), folder,
                              _changed_descriptions(change, category),
                              lambda name: _description(change, note_path(category, name)))
    return drift_problems(category, index, data, notes)


def _old_lines(change: Change, category: str) -> frozenset[str]:
    """The raw lines of the INDEX before this change (not parsed: only compared)."""
    data = change.old.read(index_path(category))
    return frozenset(data.decode("utf-8", "replace").split("\n")) if data else frozenset()


def _changed_descriptions(change: Change, category: str) -> dict[str, str | None]:
    return {stem(f.path): _description(change, f.path) for f in change.files
            if f.status != "deleted" and classify(f.path) == ("note", category)}


def _description(change: Change, path: str) -> str | None:
    note = read_note(change, path)
    return None if note is None or isinstance(note, Problem) else note.description


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

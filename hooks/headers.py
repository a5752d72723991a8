"""§6.1 headers: every added or modified note has a valid header (SPEC §3), by the note
schemas of the parent commit (`Change.rules`).

Cost: one read per changed note plus three `exists` look-ups for name uniqueness.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import expect_files, read_note, run_hook
from memrepo.core.change import Change
from memrepo.core.config import TYPE_OF_CATEGORY
from memrepo.core.notes.headers import (
    SchemaCheck,
    classify,
    duplicate_name_problem,
    header_problems,
    other_category_paths,
    stem,
    stray_problem,
)
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    expect_files(change.new, [other for f in change.files if f.status != "deleted"
                              for kind, category in [classify(f.path)]
                              if kind == "note" and category is not None
                              for other in other_category_paths(category, stem(f.path))])
    problems: list[Problem] = []
    for path in (f.path for f in change.files if f.status != "deleted"):
        kind, category = classify(path)
        if kind == "stray":
            problems.append(stray_problem(path, category))
        elif kind in ("note", "archived"):
            problems.extend(_note_problems(change, path))
    return problems


def note_schema_check(change: Change, category: str) -> SchemaCheck:
    from memrepo.schemas import checker, note_schema_name

    return checker(note_schema_name(TYPE_OF_CATEGORY[category]), change.rules)


def _note_problems(change: Change, path: str) -> list[Problem]:
    note = read_note(change, path)
    if note is None:
        return []
    if isinstance(note, Problem):
        return [note]
    problems = header_problems(note, note_schema_check(change, note.category), change.config)
    if not note.archived:
        existing = [p for p in other_category_paths(note.category, note.name)
                    if change.new.exists(p)]
        clash = duplicate_name_problem(note, existing)
        if clash:
            problems.append(clash)
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

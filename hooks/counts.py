"""§6.3 counts: every note a commit removes from a category is accounted for — moved to
memory/archive/<category>/<name>.md (or to another category under the same name), or named
in a trailer `Removed: <name>: <reason>`. Silently "fixing" a count would destroy the
evidence that something was lost. (Whether INDEX.md matches is the indexes check.)

Cost: the changed-file list and one `exists` per removed note.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.config import CATEGORIES
from memrepo.core.notes.headers import archive_path, classify, note_path, stem
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

NEEDS_MESSAGE: bool = True
TRAILER = "Removed"


def removed_note(path: str) -> tuple[str, str] | None:
    """(category, name) when `path` is a note in a category folder, else None."""
    kind, category = classify(path)
    return (category, stem(path)) if kind == "note" and category is not None else None


def check(change: Change) -> list[Problem]:
    explained = explained_names(change.message or "")
    problems = []
    for deleted in (f for f in change.files if f.status == "deleted"):
        note = removed_note(deleted.path)
        if note is not None and not _accounted(change, *note, explained):
            problems.append(_refusal(deleted.path, *note))
    return problems


def explained_names(message: str) -> set[str]:
    """Names given in `Removed: <name>: <reason>` trailers that carry a reason."""
    names = set()
    for value in trailer_values(message, TRAILER):
        name, colon, reason = value.partition(":")
        if colon and name.strip() and reason.strip():
            names.add(name.strip())
    return names


def _accounted(change: Change, category: str, name: str, explained: set[str]) -> bool:
    if name in explained or change.new.exists(archive_path(category, name)):
        return True
    return any(change.new.exists(note_path(other, name)) for other in CATEGORIES)


def _refusal(path: str, category: str, name: str) -> Problem:
    return Problem(path, f"note '{name}' is removed from {category} without an explanation",
                   f"move it to memory/archive/{category}/{name}.md instead (git mv), or "
                   f"add the trailer '{TRAILER}: {name}: <why>' to the commit message")


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

"""§3 one note per thing (issue 11): a NEW note whose name, aliases or description nearly
matches an existing note is refused, naming the existing note and how to insist: the
trailer `Not-a-duplicate-of: <name>` (repeatable; names compared exactly).

The existing notes are the old INDEX.md lines of every category (names are unique across
categories); new notes of one commit are compared with each other too. A note moved to
another category or restored from the archive (`git revert` of a merge) is not new, and a
renamed note is not a duplicate of its old name. The rule is
memrepo.core.duplicates.near_duplicates' (the write gate's, with longer words for a typo):
"jan-kowalsky" beside "jan-kowalski" is refused, "anna-kowalska", "jana-novakova",
"vat-return-q3-2026" beside "…-q2-2026" are not.

Not judged: merge commits (`git merge`, `memrepo sync`: each side was checked when it was
committed) and history (`memrepo verify`). Cost: none for a commit that adds no note (the
comparison code, rapidfuzz included, is imported only then); per new note, a bisection of
each old INDEX to the lines sharing the name's first two letters
(memrepo.core.duplicates.note_duplicates) and one byte search for its description — 25–45 ms at 100k
notes.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.config import CATEGORIES
from memrepo.core.notes.headers import Note, classify, index_path, parse_note, stem
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

if TYPE_CHECKING:  # the comparison code is imported only when a note is added
    from memrepo.core.duplicates.near_duplicates import SimilarNote
    from memrepo.core.duplicates.note_duplicates import NewNote

NEEDS_MESSAGE: bool = True
IN_HISTORY: bool = False
"""A judgement for the person committing, not an integrity rule: `memrepo verify` does not
re-judge history by it (notes committed before it existed stay valid; triage finds them)."""
TRAILER = "Not-a-duplicate-of"


def check(change: Change) -> list[Problem]:
    if change.merge:
        return []  # notes each clone already committed: triage's business, not a refusal
    gone = {stem(f.path) for f in change.files if f.status == "deleted"
            and classify(f.path)[0] in ("note", "archived")}
    paths = [f.path for f in change.files if f.status == "added"
             and classify(f.path)[0] == "note"
             and stem(f.path) not in gone]  # moved or restored from the archive: not new
    added = [(path, note) for path in paths
             for note in [_new_note(change, path)] if note is not None]
    if not added:
        return []
    from memrepo.core.duplicates.note_duplicates import (
        same_descriptions,
        similar_existing,
        similar_new,
    )

    insisted = {v.strip() for v in trailer_values(change.message or "", TRAILER)}
    indexes = {c: change.old.read(index_path(c)) or b"" for c in CATEGORIES}
    among = similar_new([note for _, note in added])
    described = same_descriptions(indexes, [note.description for _, note in added])
    problems = []
    for path, note in added:
        similar = [s for s in (*similar_existing(indexes, note, described),
                               *among.get(note.name, ()))
                   if s.name not in gone and s.name not in insisted and s.name != note.name]
        if similar:
            problems.append(_refusal(path, similar))
    return problems


def _new_note(change: Change, path: str) -> NewNote | None:
    kind, category = classify(path)
    data = change.new.read(path) if kind == "note" and category is not None else None
    note = None if data is None else parse_note(path, data, fast=True)
    if not isinstance(note, Note):
        return None  # not a note of a category, or one the headers check refuses
    description = note.header.get("description")
    aliases = note.header.get("aliases")
    from memrepo.core.duplicates.note_duplicates import NewNote

    return NewNote(note.name, description if isinstance(description, str) else "",
                   tuple(a for a in (aliases if isinstance(aliases, list) else [aliases])
                         if isinstance(a, str)))


def _refusal(path: str, similar: Sequence[SimilarNote]) -> Problem:
    shown = "; ".join(f"{s.name} ({s.how})" for s in similar)  # e.g. "'kowalsky' and …"
    names = ", ".join(s.name for s in similar)
    trailers = " and ".join(f"'{TRAILER}: {s.name}'" for s in similar)
    return Problem(path, f"looks like the existing note {shown}",
                   f"edit {names} instead; if they are different things, add the trailer "
                   f"{trailers} to the commit message")


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())

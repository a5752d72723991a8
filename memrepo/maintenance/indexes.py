"""The category indexes memory/<category>/INDEX.md (SPEC §3): built from the notes of the
work tree, checked, and regenerated — the one way to write them (`memrepo index`, `memrepo
sync` after a merge, `triage --apply` after a merge of notes).

Writes only the INDEX.md files whose text changes, each atomically (temporary file +
rename). Incremental by default: the committed INDEX.md describes the committed notes (the
commit hook refused anything else), so only the notes git reports as changed since HEAD are
read — at 100k notes that is the difference between seconds and half a minute. `full` (and
a repository without commits, or a committed INDEX that does not parse) reads every note.

Nothing is read through a symbolic link (it could lead outside the repository): a note,
INDEX.md or category folder that is one refuses the whole run (InputError naming it) before
anything is written.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from memrepo.cache.gitstate import dirty_paths, head_commit
from memrepo.core.config import CATEGORIES, SLUG
from memrepo.core.notes.headers import classify, index_path, note_path, parse_note, stem
from memrepo.core.notes.index_file import index_fix, index_problems, parse_index, render_index
from memrepo.core.problems import InputError, Problem
from memrepo.files import read_beneath, write_atomically
from memrepo.git.command import run_git_bytes


@dataclass(frozen=True, slots=True)
class Regenerated:
    """What `regenerate_indexes` did: the index text of every category whose notes all
    parse, the files written (path, entries) and the notes' problems."""

    texts: dict[str, str]
    written: list[tuple[str, int]]
    problems: list[Problem]


def regenerate_indexes(root: Path, *, full: bool = False,
                       categories: Collection[str] | None = None) -> Regenerated:
    """Write the INDEX.md of every category (or of `categories`) whose text changes."""
    texts, problems = build_indexes(root, None if full else changed_notes(root))
    chosen = {c: t for c, t in texts.items() if categories is None or c in categories}
    return Regenerated(texts, write_indexes(root, chosen), problems)


def build_indexes(root: Path, changed: set[str] | None = None,
                  ) -> tuple[dict[str, str], list[Problem]]:
    """The INDEX.md text of every category whose notes all parse, and the notes' problems.

    `changed`: paths of notes that may differ from HEAD (None: read every note). A category
    with an unreadable note gets no text: its index cannot be known.
    """
    texts: dict[str, str] = {}
    problems: list[Problem] = []
    for category in CATEGORIES:
        committed = None if changed is None else committed_descriptions(root, category)
        if committed is None:
            descriptions, broken = category_descriptions(root, category)
        else:
            descriptions, broken = _updated(root, category, committed, changed or set())
        problems.extend(broken)
        if not broken:
            texts[category] = render_index(category, descriptions)
    return texts, problems


def write_indexes(root: Path, texts: dict[str, str]) -> list[tuple[str, int]]:
    """Write each category's INDEX.md whose text differs; (path, entries) of each written.
    Every index is read before any is written (a link refuses the run, writing nothing)."""
    changed = {category: text for category, text in texts.items()
               if current_index(root, category) != text.encode("utf-8")}
    for category in changed:
        if (root / index_path(category)).is_dir():
            raise InputError(Problem(index_path(category), "a folder is in the index's place",
                                     "move the folder out of memory/ and run `memrepo index` "
                                     "again"))
    written = []
    for category, text in changed.items():
        write_atomically(root / index_path(category), text.encode("utf-8"))
        written.append((index_path(category), text.count("\n- [")))
    return written


def index_drift(root: Path, texts: dict[str, str]) -> list[Problem]:
    """Why each category's INDEX.md differs from `texts` (`memrepo index --check`)."""
    problems: list[Problem] = []
    for category, text in texts.items():
        current = current_index(root, category)
        if current == text.encode("utf-8"):
            continue
        found = _explain(root, category, current)
        what = "missing" if current is None else "differs from the notes"
        problems.extend(found or [Problem(index_path(category), what, index_fix(category))])
    return problems


def category_descriptions(root: Path, category: str) -> tuple[dict[str, str], list[Problem]]:
    descriptions: dict[str, str] = {}
    problems: list[Problem] = []
    for name in _note_files(root, category):
        described, problem = _describe(root, note_path(category, name[:-3]))
        descriptions.update(described)
        problems.extend(problem)
    return descriptions, problems


def known_descriptions(root: Path, category: str, indexed: Mapping[str, str],
                       ) -> tuple[dict[str, str], list[Problem]]:
    """`category_descriptions` without reading every note: `indexed` holds, by file name,
    the description of each note as a cache current with the work tree read it. Only the
    notes it cannot vouch for are read: one it left out (unparsable, new, a symbolic
    link), one whose description is not text, one whose name is not a slug."""
    descriptions: dict[str, str] = {}
    problems: list[Problem] = []
    for name in _note_files(root, category):
        known = indexed.get(name)
        if known and SLUG.fullmatch(name[:-3]):
            descriptions[name[:-3]] = known
            continue
        described, problem = _describe(root, note_path(category, name[:-3]))
        descriptions.update(described)
        problems.extend(problem)
    return descriptions, problems


def _note_files(root: Path, category: str) -> list[str]:
    """The *.md names of a category's folder but INDEX.md, symbolic links included: reading
    one (or through a linked folder) refuses."""
    try:
        with os.scandir(root / "memory" / category) as entries:
            return sorted(entry.name for entry in entries if entry.name.endswith(".md")
                          and entry.name != "INDEX.md"
                          and not entry.is_dir(follow_symlinks=False))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _describe(root: Path, path: str) -> tuple[dict[str, str], list[Problem]]:
    """name → description of the note at `path`; nothing for a missing note."""
    try:
        data = read_beneath(root, path)
    except OSError as err:
        return {}, [Problem(path, f"cannot be read: {err.strerror}", "make it a readable file")]
    if data is None:
        return {}, []
    note = parse_note(path, data)
    if isinstance(note, Problem):
        return {}, [note]
    if note.description is None or not SLUG.fullmatch(note.name):
        return {}, [Problem(path, "no usable name or description for the index",
                            "give the note a slug file name and a description")]
    return {note.name: note.description}, []


def changed_notes(root: Path) -> set[str] | None:
    """Paths under memory/ that differ from HEAD (staged, unstaged or untracked); None when
    there is no commit to compare with."""

    return None if head_commit(root) is None else set(dirty_paths(root))


def committed_descriptions(root: Path, category: str) -> dict[str, str] | None:
    """name → description from HEAD's INDEX.md; None when it is missing or unreadable."""
    done = run_git_bytes(root, "show", f"HEAD:{index_path(category)}")
    if done.returncode != 0:
        return {} if not _committed_notes_exist(root, category) else None
    index = parse_index(category, done.stdout)
    return None if isinstance(index, list) else {e.name: e.description for e in index.lines}


def _committed_notes_exist(root: Path, category: str) -> bool:
    done = run_git_bytes(root, "ls-tree", "--name-only", "HEAD", f"memory/{category}/")
    return done.returncode != 0 or bool(done.stdout.strip())


def _updated(root: Path, category: str, committed: dict[str, str], changed: set[str],
             ) -> tuple[dict[str, str], list[Problem]]:
    """The committed descriptions with the notes changed since HEAD re-read."""
    descriptions = dict(committed)
    problems: list[Problem] = []
    for path in sorted(changed):
        kind, where = classify(path)
        if kind != "note" or where != category:
            continue
        descriptions.pop(stem(path), None)
        described, problem = _describe(root, path)
        descriptions.update(described)
        problems.extend(problem)
    return descriptions, problems


def current_index(root: Path, category: str) -> bytes | None:
    """The category's INDEX.md as it is; None when there is none (or a folder is in its
    place: `write_indexes` refuses that). InputError for a symbolic link."""
    try:
        return read_beneath(root, index_path(category))
    except IsADirectoryError:
        return None


def _explain(root: Path, category: str, current: bytes | None) -> list[Problem]:
    descriptions, _ = category_descriptions(root, category)
    return index_problems(category, current, dict(descriptions))

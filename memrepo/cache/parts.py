"""A full build cut into parts (a chunk of notes, one scope's logs), each parsed into rows
and loaded in job order, so rowids are the same however the jobs are shared out between
processes (memrepo.cache.build: the notes on one, the logs on another)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memrepo.cache.digests import rows_digest
from memrepo.cache.rows import (
    KeyRows,
    NoteRows,
    Row,
    Skipped,
    event_row,
    event_signature,
    group_by_key,
    key_of,
    key_rows,
    keys_of,
    note_rows,
    parse_events,
    skipped_rows,
    unfinished_line,
)
from memrepo.cache.worktree import log_paths_by_scope, note_paths
from memrepo.core.facts.line_rules import LineRules
from memrepo.core.record_base import Record, init_field, replace
from memrepo.core.text import key_slug
from memrepo.files import blob_id, complete_lines, read_files

NOTES_PER_PART = 500
PARALLEL_MIN_FILES = 2_000
"""Smaller builds are loaded in one process: starting another would cost more than it
saves."""


class NotesPart(Record):
    __slots__ = ("files", "notes")
    files: list[Row]  # (path, kind, blob, size) of each note read
    notes: list[tuple[str, NoteRows | Skipped]]  # (path, rows or why it is left out)

    def __init__(self, files: list[Row], notes: list[tuple[str, NoteRows | Skipped]]) -> None:
        init_field(self, "files", files)
        init_field(self, "notes", notes)


class ScopePart(Record):
    """Rows of one scope; event rowids are 0-based within the part (the indexer offsets
    them); keys get their rowids there too."""

    __slots__ = ("digests", "events", "files", "holdings", "keys", "skipped")
    files: list[Row]
    events: list[Row]
    holdings: list[Row]
    keys: list[KeyRows]  # their holdings are in `holdings`
    skipped: list[Row]
    digests: list[Row]

    def __init__(self, files: list[Row], events: list[Row], holdings: list[Row],
                 keys: list[KeyRows], skipped: list[Row], digests: list[Row]) -> None:
        init_field(self, "files", files)
        init_field(self, "events", events)
        init_field(self, "holdings", holdings)
        init_field(self, "keys", keys)
        init_field(self, "skipped", skipped)
        init_field(self, "digests", digests)


Part = NotesPart | ScopePart
Job = tuple[str, str, tuple[str, ...]]
"""("notes", "", paths) or ("scope", scope, paths)."""


def build_jobs(root: Path) -> list[Job]:
    jobs: list[Job] = []
    paths = list(note_paths(root))
    for start in range(0, len(paths), NOTES_PER_PART):
        jobs.append(("notes", "", tuple(paths[start:start + NOTES_PER_PART])))
    for scope, logs in log_paths_by_scope(root).items():
        jobs.append(("scope", scope, tuple(logs)))
    return jobs


def job_files(jobs: Iterable[Job]) -> int:
    return sum(len(paths) for _, _, paths in jobs)


def by_kind(jobs: Iterable[Job]) -> tuple[list[Job], list[Job]]:
    """(the notes' jobs, the logs' jobs), each in job order: they fill disjoint tables."""
    jobs = list(jobs)
    return ([job for job in jobs if job[0] == "notes"],
            [job for job in jobs if job[0] != "notes"])


def parse_part(root: Path, job: Job, many: frozenset[str], rules: LineRules | None,
               ) -> Part:
    """`rules`: what log lines are judged by (needed for a scope's job only)."""
    kind, scope, paths = job
    if kind == "notes":
        return notes_part(root, paths)
    if rules is None:
        raise ValueError("a scope's logs need the rules their lines are judged by")
    return scope_part(root, scope, paths, many, rules)


def notes_part(root: Path, paths: Iterable[str]) -> NotesPart:
    part = NotesPart([], [])
    paths = list(paths)
    for path, data in zip(paths, read_files(root, paths), strict=True):
        if data is not None:
            part.files.append((path, "note", blob_id(data), len(data)))
            part.notes.append((path, note_rows(path, data)))
    return part


def scope_part(root: Path, scope: str, paths: Iterable[str], many: frozenset[str],
               rules: LineRules) -> ScopePart:
    """All logs of one scope: events, then the timeline of every key. Ids are unique in
    a scope: of a repeated id only the first line (by path, then line) is indexed."""
    part = ScopePart([], [], [], [], [], [])
    per_file = []
    seen: set[str] = set()
    paths = list(paths)
    for path, data in zip(paths, read_files(root, paths), strict=True):
        if data is None:
            continue
        part.skipped.extend(skipped_rows(path, filter(None, [unfinished_line(data)])))
        data = complete_lines(data)
        part.files.append((path, "log", blob_id(data), len(data)))
        parsed = parse_events(data, path, rules, seen=seen)
        part.skipped.extend(skipped_rows(path, parsed.skipped))
        per_file.append((path, parsed.events))
    key_of_id = keys_of(event for _, events in per_file for _, event in events)
    for path, events in per_file:
        first = len(part.events)
        for line, event in events:
            part.events.append(event_row(len(part.events), event, path, line,
                                         key_of(event, key_of_id)))
        signatures = (event_signature(event, path, line, row) for (line, event), row
                      in zip(events, part.events[first:], strict=True))
        part.digests.append((path, *rows_digest(signatures)))
    everything = (event for _, events in per_file for _, event in events)
    many_keys = frozenset(key_slug(relation) for relation in many)
    for key, key_events in group_by_key(everything, key_of_id).items():
        rows = key_rows(key, key_events, many_keys.__contains__)
        if rows is not None:
            part.holdings.extend(rows.holdings)
            part.keys.append(replace(rows, holdings=[]))
    return part

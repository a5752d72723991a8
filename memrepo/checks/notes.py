"""The notes of a change, each parsed once however many checks read it (headers, links and
indexes all do), with libyaml (`fast`: the same result as the strict reader, SPEC §3)."""

from __future__ import annotations

from functools import lru_cache

from memrepo.core.change import Change
from memrepo.core.notes.headers import Note, parse_note
from memrepo.core.problems import Problem


def read_note(change: Change, path: str) -> Note | Problem | None:
    """The note at `path` in the new snapshot; None when there is no such file."""
    data = change.new.read(path)
    return None if data is None else _parsed(path, data)


@lru_cache(maxsize=256)
def _parsed(path: str, data: bytes) -> Note | Problem:
    return parse_note(path, data, fast=True)

"""What one commit changes, independent of where it comes from.

The same `Change` describes a commit being made (HEAD tree → the index git is committing),
a historical commit under `memrepo verify` (parent tree → commit tree), a commit the library
is about to make (HEAD tree → HEAD tree plus new blobs), or a full check (`--all`: nothing →
everything). Checks look only at `files` and read what they need from the snapshots, so
their cost follows the size of the change, not of the repository.

The rules a change is checked by — `config` and the JSON Schemas under schema/ — come from
`rules`, the parent commit (SPEC §6.4): no commit can loosen the rules it is checked by. A
first commit has no parent and brings its own (bootstrap).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol

from memrepo.core.config import Config
from memrepo.core.facts.times import Instant
from memrepo.core.record_base import Record, init_field

Status = Literal["added", "modified", "deleted"]


class Snapshot(Protocol):
    """A read-only view of a tree of files (a commit, the index, a dict in tests)."""

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when there is no such file."""

    def exists(self, path: str) -> bool:
        """True when a file (not a directory) is at `path`."""

    def list_dir(self, directory: str) -> list[str]:
        """Names of the files directly inside `directory` (no sub-directories)."""


REGULAR_MODE = 0o100644
SYMLINK_MODE = 0o120000


class FileChange(Record):
    """One changed path; a rename is reported as `deleted` old path + `added` new path.
    `mode`: the git file mode of the new version (of the old one when deleted)."""

    __slots__ = ("mode", "path", "status")
    status: Status
    path: str
    mode: int

    def __init__(self, status: Status, path: str, mode: int = REGULAR_MODE) -> None:
        init_field(self, "status", status)
        init_field(self, "path", path)
        init_field(self, "mode", mode)

    @property
    def is_symlink(self) -> bool:
        return self.mode == SYMLINK_MODE


class Change(Record):
    old: Snapshot
    new: Snapshot
    files: tuple[FileChange, ...]
    config: Config  # read from `rules`
    commit_time: Instant
    parent_time: Instant | None
    message: str | None
    rules: Snapshot | None  # where schema/ is read from; None: memrepo's own copy
    merge: bool  # a merge commit: logs keep each parent's lines in order,
    # not necessarily as a byte prefix (fact_logs; `memrepo verify` checks every parent)

    def __init__(self, old: Snapshot, new: Snapshot, files: tuple[FileChange, ...],
                 config: Config, commit_time: Instant, parent_time: Instant | None = None,
                 message: str | None = None, rules: Snapshot | None = None,
                 merge: bool = False) -> None:
        init_field(self, "old", old)
        init_field(self, "new", new)
        init_field(self, "files", files)
        init_field(self, "config", config)
        init_field(self, "commit_time", commit_time)
        init_field(self, "parent_time", parent_time)
        init_field(self, "message", message)
        init_field(self, "rules", rules)
        init_field(self, "merge", merge)

    def under(self, prefix: str) -> list[FileChange]:
        return [f for f in self.files if f.path.startswith(prefix)]


class DictSnapshot(Record):
    """A snapshot held in memory: for tests and for `--all` style checks."""

    files: Mapping[str, bytes]

    def __init__(self, files: Mapping[str, bytes] | None = None) -> None:
        init_field(self, "files", {} if files is None else files)

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)

    def exists(self, path: str) -> bool:
        return path in self.files

    def list_dir(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return sorted(p[len(prefix):] for p in self.files
                      if p.startswith(prefix) and "/" not in p[len(prefix):])


def diff_snapshots(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> tuple[FileChange, ...]:
    """The file changes between two in-memory snapshots (for tests)."""
    changes: list[FileChange] = []
    for path in sorted(set(old) | set(new)):
        if path not in new:
            changes.append(FileChange("deleted", path))
        elif path not in old:
            changes.append(FileChange("added", path))
        elif old[path] != new[path]:
            changes.append(FileChange("modified", path))
    return tuple(changes)

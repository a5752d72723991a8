"""What the checks read, through pygit2: snapshots of trees and of the index, and the
`Change` of a commit being made (`staged_change`), of a historical commit (`commit_change`)
or of everything staged (`full_change`).

Cost: a change is one tree-to-index diff (done in C by libgit2); reading a file is one
path lookup; listing a directory of the index is the HEAD tree's directory adjusted by the
diff. Nothing walks the whole tree except `full_change`, whose job that is.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2 import Blob, Commit, Diff, Index, IndexEntry, Repository, Tree
from pygit2.enums import DeltaStatus, RepositoryOpenFlag

from memrepo import clock
from memrepo.checks.config import load_config
from memrepo.core.change import Change, DictSnapshot, FileChange, Snapshot, Status
from memrepo.core.config import CONFIG_PATH
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import Instant, TimeFormatError, parse_instant

GITLINK_MODE = 0o160000
_SECOND = 1_000_000
_STATUS: dict[int, Status] = {DeltaStatus.ADDED: "added", DeltaStatus.DELETED: "deleted"}
_GIT_EPOCH_DATE = re.compile(r"@?(\d{9,})(?:\s+[+-]\d{4})?")


def open_repository(path: str | Path | None = None) -> Repository:
    """The repository at or above `path` (default: $MEMREPO_REPO, else the working
    directory). Opened from the environment as git sets it for hooks: GIT_DIR, and
    GIT_INDEX_FILE — the temporary index of `git commit -a` / `git commit <path>`."""
    _absolute_index_file()
    start = str(path or os.environ.get("MEMREPO_REPO") or os.getcwd())
    try:
        return pygit2.Repository(start, flags=RepositoryOpenFlag.FROM_ENV)
    except (pygit2.GitError, KeyError, OSError):
        raise InputError(Problem(start, "not inside a git repository",
                                 "run in a memory repository, pass --repo PATH or set "
                                 "MEMREPO_REPO (`memrepo init DIR` makes one)")) from None


def _absolute_index_file() -> None:
    """Resolve a relative GIT_INDEX_FILE now, against the directory git started us in."""
    index_file = os.environ.get("GIT_INDEX_FILE")
    if index_file and not os.path.isabs(index_file):
        os.environ["GIT_INDEX_FILE"] = os.path.abspath(index_file)


def work_root(repo: Repository) -> Path | None:
    return Path(repo.workdir) if repo.workdir else None


class TreeSnapshot:
    """A commit's tree (or the empty tree when `tree` is None).

    Directory trees are kept once loaded: a lookup by full path would parse every tree on
    the way again, and memory/entities/ can hold 100k entries (≈10 ms a parse)."""

    def __init__(self, repo: Repository, tree: Tree | None) -> None:
        self._repo = repo
        self._tree = tree
        self._dirs: dict[str, Tree | None] = {"": tree}
        self._read: dict[str, bytes | None] = {}

    def know(self, path: str, data: bytes | None) -> None:
        """What `path` holds, when the caller has its bytes already (a library write)."""
        self._read[path] = data

    def read(self, path: str) -> bytes | None:
        if path not in self._read:  # several checks read the same (possibly 8 MB) INDEX
            found = self._lookup(path)
            self._read[path] = bytes(found.data) if isinstance(found, Blob) else None
        return self._read[path]

    def exists(self, path: str) -> bool:
        return isinstance(self._lookup(path), Blob)

    def blob_id(self, path: str) -> bytes | None:
        """The raw id of the blob at `path` (None when there is none)."""
        found = self._lookup(path)
        return found.id.raw if isinstance(found, Blob) else None

    def list_dir(self, directory: str) -> list[str]:
        key = directory.strip("/")
        found = self._tree if key in ("", ".") else self._lookup(key)
        if not isinstance(found, Tree):
            return []
        return sorted(str(entry.name) for entry in found if entry.type_str == "blob")

    def _lookup(self, path: str) -> Tree | Blob | None:
        if self._tree is None or not path:
            return None
        directory, _, name = path.strip("/").rpartition("/")
        parent = self._dir(directory)
        if parent is None:
            return None
        try:
            return parent[name]
        except (KeyError, ValueError, pygit2.GitError):
            return None

    def _dir(self, directory: str) -> Tree | None:
        if directory not in self._dirs:
            found = self._lookup(directory)
            self._dirs[directory] = found if isinstance(found, Tree) else None
        return self._dirs[directory]


class IndexSnapshot:
    """The index git is committing: HEAD's tree with the staged changes on top."""

    def __init__(self, repo: Repository, index: Index, base: TreeSnapshot,
                 files: Iterable[FileChange]) -> None:
        self._repo = repo
        self._index = index
        self._base = base
        self._read: dict[str, bytes | None] = {}
        self._added: dict[str, set[str]] = defaultdict(set)
        self._deleted: dict[str, set[str]] = defaultdict(set)
        for change in files:
            directory, _, name = change.path.rpartition("/")
            if change.status == "added":
                self._added[directory].add(name)
            elif change.status == "deleted":
                self._deleted[directory].add(name)

    def read(self, path: str) -> bytes | None:
        if path not in self._read:
            entry = self._entry(path)
            self._read[path] = None if entry is None else _blob_bytes(self._repo, entry)
        return self._read[path]

    def exists(self, path: str) -> bool:
        return self._entry(path) is not None

    def list_dir(self, directory: str) -> list[str]:
        key = directory.strip("/")
        names = set(self._base.list_dir(key)) | self._added.get(key, set())
        return sorted(names - self._deleted.get(key, set()))

    def _entry(self, path: str) -> IndexEntry | None:
        try:
            entry = self._index[path]
        except (KeyError, ValueError):
            return None
        return None if entry.mode == GITLINK_MODE else entry


def staged_change(repo: Repository, message: str | None = None,
                  commit_time: Instant | None = None) -> Change:
    """HEAD's tree → the index being committed (root commit: nothing → the index).

    During a merge only what differs from every parent is the merge's own change (each
    side was checked when it was committed); renames are a delete plus an add."""
    index = repo.index
    head = None if repo.head_is_unborn else repo.head.peel(Commit)
    base = TreeSnapshot(repo, head.tree if head is not None else None)
    files = _index_files(head, index)
    new = IndexSnapshot(repo, index, base, files)
    others = [TreeSnapshot(repo, repo[oid].tree) for oid in repo.listall_mergeheads()]
    if others:
        files = _own_merge_files(files, new, others)
    parent_time = _instant(head.commit_time) if head is not None and not others else None
    when = committer_time() if commit_time is None else commit_time
    return _change(repo, base, new, files, message, when, parent_time, bool(others))


def commit_change(repo: Repository, commit: Commit) -> Change:
    """What a historical commit changed: its first parent's tree → its tree.

    For a merge, only files that differ from every parent count, and `parent_time` is
    None: lines merged in from another branch were time-checked in their own commits."""
    parents = list(commit.parents)
    old_tree = parents[0].tree if parents else None
    old, new = TreeSnapshot(repo, old_tree), TreeSnapshot(repo, commit.tree)
    files = _tree_files(old_tree, commit.tree)
    if len(parents) > 1:
        files = _own_merge_files(files, new, [TreeSnapshot(repo, p.tree) for p in parents[1:]])
    parent_time = _instant(parents[0].commit_time) if len(parents) == 1 else None
    return _change(repo, old, new, files, commit.message, _instant(commit.commit_time),
                   parent_time, len(parents) > 1)


def changed_paths(old: Commit, new: Commit) -> list[str]:
    """Paths that differ between two commits (e.g. a merge's parent and the merge)."""
    return [f.path for f in _tree_files(old.tree, new.tree)]


def full_change(repo: Repository, message: str | None = None,
                commit_time: Instant | None = None) -> Change:
    """Nothing → everything in the index: `memrepo check --all`."""
    index = repo.index
    files = tuple(FileChange("added", entry.path) for entry in index
                  if entry.mode != GITLINK_MODE)
    new = IndexSnapshot(repo, index, TreeSnapshot(repo, None), files)
    when = committer_time() if commit_time is None else commit_time
    return _change(repo, DictSnapshot(), new, files, message, when, None)


def _change(repo: Repository, old: Snapshot, new: Snapshot, files: Sequence[FileChange],
            message: str | None, commit_time: Instant, parent_time: Instant | None,
            merge: bool = False) -> Change:
    root = work_root(repo)
    config_changed = any(f.path == CONFIG_PATH for f in files)
    config, _ = load_config(new, root, validate=config_changed)
    return Change(old=old, new=new, files=tuple(files), config=config,
                  commit_time=commit_time, parent_time=parent_time, message=message,
                  root=root, merge=merge)


def _index_files(head: Commit | None, index: Index) -> tuple[FileChange, ...]:
    if head is None:
        return tuple(FileChange("added", entry.path) for entry in index
                     if entry.mode != GITLINK_MODE)
    return _delta_files(head.tree.diff_to_index(index))


def _tree_files(old_tree: Tree | None, new_tree: Tree) -> tuple[FileChange, ...]:
    if old_tree is None:
        return _delta_files(new_tree.diff_to_tree(swap=True))
    return _delta_files(old_tree.diff_to_tree(new_tree))


def _delta_files(diff: Diff) -> tuple[FileChange, ...]:
    files = []
    for delta in diff.deltas:
        status = _STATUS.get(delta.status, "modified")
        path = delta.old_file.path if status == "deleted" else delta.new_file.path
        files.append(FileChange(status, path))
    return tuple(files)


def _own_merge_files(files: Iterable[FileChange], new: Snapshot,
                     others: Sequence[Snapshot]) -> tuple[FileChange, ...]:
    """The files whose merged version differs from every other parent's version too."""
    return tuple(f for f in files
                 if all(other.read(f.path) != new.read(f.path) for other in others))


def committer_time() -> Instant:
    """The time of the commit being made: GIT_COMMITTER_DATE when git was given one,
    else the memrepo clock (MEMREPO_NOW or now)."""
    pinned = os.environ.get("GIT_COMMITTER_DATE", "").strip()
    epoch = _GIT_EPOCH_DATE.fullmatch(pinned)
    if epoch:
        return int(epoch.group(1)) * _SECOND
    if pinned:
        try:
            return parse_instant(pinned)
        except TimeFormatError:
            pass  # a format only git understands: the clock is close enough
    return clock.now()


def _instant(seconds: int) -> Instant:
    return int(seconds) * _SECOND


def commits_in(repo: Repository, revision_range: str | None) -> list[Commit]:
    """Commits of `A..B` (reachable from B, not from A) or of everything reachable from
    one revision (default HEAD), oldest first."""
    from pygit2.enums import SortMode

    spec = revision_range or "HEAD"
    if repo.head_is_unborn and spec == "HEAD":
        return []
    hidden, _, tip = spec.partition("..") if ".." in spec else ("", "", spec)
    walker = repo.walk(_resolve(repo, tip or "HEAD").id,
                       SortMode.TOPOLOGICAL | SortMode.REVERSE)
    if hidden:
        walker.hide(_resolve(repo, hidden).id)
    return list(walker)


def _resolve(repo: Repository, revision: str) -> Commit:
    try:
        return repo.revparse_single(revision).peel(Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        raise InputError(Problem(revision, "no such commit",
                                 "give a commit, a branch or a range A..B")) from None


def _blob_bytes(repo: Repository, entry: IndexEntry) -> bytes:
    blob = repo[entry.id]
    return bytes(blob.data) if isinstance(blob, Blob) else b""


@dataclass(frozen=True)
class HistoryCommit:
    """One commit of a range, as `memrepo verify` checks it: its change from the first
    parent, each parent's tree, and for a merge the paths that differ from any parent."""

    id: str
    short_id: str
    change: Change
    parents: tuple[TreeSnapshot, ...]
    merge_paths: tuple[str, ...]
    git_dir: Path


def history_commits(repo: Repository, revision_range: str | None) -> Iterator[HistoryCommit]:
    """`commits_in` as HistoryCommits, oldest first, each read when it is reached."""
    for commit in commits_in(repo, revision_range):
        parents = commit.parents
        merge_paths = (sorted({path for parent in parents
                               for path in changed_paths(parent, commit)})
                       if len(parents) > 1 else [])
        yield HistoryCommit(str(commit.id), commit.short_id, commit_change(repo, commit),
                            tuple(TreeSnapshot(repo, parent.tree) for parent in parents),
                            tuple(merge_paths), Path(repo.path or "."))

"""What `memrepo verify` reads, through pygit2: snapshots of commits' trees and the `Change`
of a historical commit (`commit_change`), checked by the rules of its first parent. (The
commit being made is read through git's plumbing: memrepo.git.staged.)

Cost: a change is one tree-to-tree diff (done in C by libgit2); reading a file is one path
lookup.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2 import Blob, Commit, Diff, Repository, Tree
from pygit2.enums import DeltaStatus, RepositoryOpenFlag

from memrepo.core.change import Change, FileChange, Snapshot, Status
from memrepo.core.config import parent_config
from memrepo.core.facts.times import Instant
from memrepo.core.problems import InputError, Problem

GITLINK_MODE = 0o160000
_SECOND = 1_000_000
_STATUS: dict[int, Status] = {DeltaStatus.ADDED: "added", DeltaStatus.DELETED: "deleted"}


def open_repository(path: str | Path | None = None) -> Repository:
    """The repository at or above `path` (default: $MEMREPO_REPO, else the working
    directory), or the one GIT_DIR names (a server's pre-receive hook)."""
    start = str(path or os.environ.get("MEMREPO_REPO") or os.getcwd())
    try:
        return pygit2.Repository(start, flags=RepositoryOpenFlag.FROM_ENV)
    except (pygit2.GitError, KeyError, OSError):
        raise InputError(Problem(start, "not inside a git repository",
                                 "run in a memory repository, pass --repo PATH or set "
                                 "MEMREPO_REPO (`memrepo init DIR` makes one)")) from None


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

    @property
    def has_tree(self) -> bool:
        return self._tree is not None

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
    return _change(old, new, files, commit.message, _instant(commit.commit_time),
                   parent_time, len(parents) > 1)


def changed_paths(old: Commit, new: Commit) -> list[str]:
    """Paths that differ between two commits (e.g. a merge's parent and the merge)."""
    return [f.path for f in _tree_files(old.tree, new.tree)]


def _change(old: TreeSnapshot, new: TreeSnapshot,
            files: Sequence[FileChange], message: str | None, commit_time: Instant,
            parent_time: Instant | None, merge: bool = False) -> Change:
    """The rules come from the first parent (`old`); a first commit brings its own."""
    rules = old if old.has_tree else new
    return Change(old=old, new=new, files=tuple(files), config=parent_config(rules, new),
                  commit_time=commit_time, parent_time=parent_time, message=message,
                  rules=rules, merge=merge)


def _tree_files(old_tree: Tree | None, new_tree: Tree) -> tuple[FileChange, ...]:
    if old_tree is None:
        return _delta_files(new_tree.diff_to_tree(swap=True))
    return _delta_files(old_tree.diff_to_tree(new_tree))


def _delta_files(diff: Diff) -> tuple[FileChange, ...]:
    files = []
    for delta in diff.deltas:
        status = _STATUS.get(delta.status, "modified")
        side = delta.old_file if status == "deleted" else delta.new_file
        if side.mode != GITLINK_MODE:
            files.append(FileChange(status, side.path, side.mode))
    return tuple(files)


def _own_merge_files(files: Iterable[FileChange], new: Snapshot,
                     others: Sequence[Snapshot]) -> tuple[FileChange, ...]:
    """The files whose merged version differs from every other parent's version too."""
    return tuple(f for f in files
                 if all(other.read(f.path) != new.read(f.path) for other in others))


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


def history_commit(repo: Repository, commit: Commit | str) -> HistoryCommit:
    """One commit (or revision) as `memrepo verify` checks it."""
    if isinstance(commit, str):
        commit = _resolve(repo, commit)
    parents = commit.parents
    merge_paths = (sorted({path for parent in parents for path in changed_paths(parent, commit)})
                   if len(parents) > 1 else [])
    return HistoryCommit(str(commit.id), commit.short_id, commit_change(repo, commit),
                         tuple(TreeSnapshot(repo, parent.tree) for parent in parents),
                         tuple(merge_paths), Path(repo.path or "."))


# --- a branch update (the reference-transaction hook, memrepo.checks.rewrites) -------------

REBASE_HEAD_NAMES = ("rebase-merge/head-name", "rebase-apply/head-name")


def branch_of_work_tree(repo: Repository) -> str | None:
    """The branch (`refs/heads/…`) this work tree has checked out, or the one a rebase in
    progress moves when it finishes (HEAD is detached meanwhile); None otherwise."""
    try:
        head = repo.references["HEAD"]
    except (KeyError, pygit2.GitError):
        return None
    target = head.target
    if isinstance(target, str):
        return target if target.startswith("refs/heads/") else None
    for name in REBASE_HEAD_NAMES:
        try:
            text = (Path(repo.path) / name).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        return text if text.startswith("refs/heads/") else None
    return None


def ref_commit(repo: Repository, ref: str) -> str | None:
    """The commit `ref` points at now, or None when there is no such ref."""
    try:
        return str(repo.references[ref].peel(Commit).id)
    except (KeyError, ValueError, pygit2.GitError):
        return None


def descends_from(repo: Repository, new: str, old: str) -> bool:
    """Whether `old` is `new` or one of its ancestors (the branch only gains commits)."""
    try:
        return new == old or bool(repo.descendant_of(new, old))
    except (KeyError, ValueError, pygit2.GitError):
        return False


def gained_commits(repo: Repository, old: str | None, new: str) -> list[Commit]:
    """The commits a branch gains moving from `old` to `new` (reachable from `new`, not
    from `old`), oldest first; a branch being created (`old` None) gains those no other
    local branch holds."""
    from pygit2.enums import SortMode

    walker = repo.walk(_resolve(repo, new).id, SortMode.TOPOLOGICAL | SortMode.REVERSE)
    hidden = [old] if old is not None else [
        ref for name in repo.references if name.startswith("refs/heads/")
        if (ref := ref_commit(repo, name)) is not None]
    for commit in hidden:
        walker.hide(_resolve(repo, commit).id)
    return list(walker)


def tips_change(repo: Repository, old: str, new: str) -> Change:
    """What the files become when a branch moves from commit `old` to commit `new` (any
    two commits: a rewrite need not descend from what it replaces)."""
    before, after = _resolve(repo, old), _resolve(repo, new)
    return _change(TreeSnapshot(repo, before.tree), TreeSnapshot(repo, after.tree),
                   _tree_files(before.tree, after.tree), after.message,
                   _instant(after.commit_time), _instant(before.commit_time))


def commit_message(repo: Repository, commit: str) -> str:
    return str(_resolve(repo, commit).message)

"""Library commits over pygit2: new blobs on top of HEAD's tree, committed without hooks.

The tree is built from HEAD's tree plus the changed blobs only — never from the user's
index, so whatever the user has staged stays staged and out of our commit — and only the
trees along the changed paths are rewritten (a repository may hold 100k notes).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2 import Blob, Commit, Oid, Repository, Signature, Tree
from pygit2.enums import FileMode

from memrepo.core.change import Change, FileChange
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import Instant


@dataclass(frozen=True)
class Base:
    """What a library commit is built on: HEAD's commit and tree (None on an unborn branch)."""

    repo: Repository
    commit: Commit | None
    tree: Tree | None

    @property
    def commit_time(self) -> Instant | None:
        return None if self.commit is None else int(self.commit.commit_time) * 1_000_000


_OPEN: dict[tuple[str, int], Repository] = {}


def open_repo(root: Path) -> Repository:
    """The repository whose work tree is `root`; InputError when there is none.

    Kept open per process: libgit2 then re-reads the index only when it changed on disk,
    which in a 100k-note repository saves a quarter of a second per write."""
    try:
        key = (str(root), os.stat(root / ".git").st_ino)
    except OSError:
        key = (str(root), -1)
    repo = _OPEN.get(key)
    if repo is None:
        try:
            repo = pygit2.Repository(str(root))
        except pygit2.GitError:
            raise InputError(Problem(str(root), "not a git repository",
                                     "run `memrepo init DIR` or pass --repo PATH")) from None
        _OPEN[key] = repo
    return repo


def head_base(repo: Repository) -> Base:
    if repo.head_is_unborn:
        return Base(repo, None, None)
    if repo.head_is_detached:
        raise InputError(Problem("HEAD", "HEAD is detached; memrepo commits to a branch",
                                 "check out a branch first: `git switch main`"))
    commit = repo.head.peel(Commit)
    return Base(repo, commit, commit.tree)


def blob_at(base: Base, path: str) -> bytes | None:
    """The bytes of `path` in HEAD's tree, or None when HEAD has no such file."""
    if base.tree is None:
        return None
    try:
        obj = base.tree[path]
    except KeyError:
        return None
    return bytes(obj.data) if isinstance(obj, Blob) else None


def write_blobs(repo: Repository, files: Mapping[str, bytes]) -> dict[str, Oid]:
    """Store file contents as blobs; the oid of each path."""
    return {path: repo.create_blob(data) for path, data in files.items()}


def tree_with(repo: Repository, base_tree: Tree | None, blobs: Mapping[str, Oid]) -> Oid:
    """The oid of `base_tree` with `blobs` (path → blob oid) put in, touching only the trees
    along those paths."""
    return _rewrite(repo, base_tree, {tuple(p.split("/")): oid for p, oid in blobs.items()})


def _rewrite(repo: Repository, tree: Tree | None, blobs: Mapping[tuple[str, ...], Oid]) -> Oid:
    builder = repo.TreeBuilder(tree) if tree is not None else repo.TreeBuilder()
    below: dict[str, dict[tuple[str, ...], Oid]] = {}
    for parts, oid in blobs.items():
        if len(parts) == 1:
            builder.insert(parts[0], oid, FileMode.BLOB)
        else:
            below.setdefault(parts[0], {})[parts[1:]] = oid
    for name, inner in below.items():
        builder.insert(name, _rewrite(repo, _subtree(tree, name), inner), FileMode.TREE)
    return builder.write()


def _subtree(tree: Tree | None, name: str) -> Tree | None:
    if tree is None or name not in tree:
        return None
    entry = tree[name]
    return entry if isinstance(entry, Tree) else None


def change_to(base: Base, tree_oid: Oid, paths: Sequence[str], message: str, when: Instant,
              root: Path) -> Change:
    """The `Change` HEAD → `tree_oid` (not committed yet) for the §6 checks, with the
    commit time the commit will carry."""
    from memrepo.checks.config import load_config
    from memrepo.git.read import TreeSnapshot

    old = TreeSnapshot(base.repo, base.tree)
    new = TreeSnapshot(base.repo, base.repo[tree_oid].peel(Tree))
    files = tuple(FileChange("modified" if old.exists(p) else "added", p) for p in paths)
    config, _ = load_config(new, root)  # a broken config is the config check's to report
    return Change(old=old, new=new, files=files, config=config,
                  commit_time=commit_seconds(when) * 1_000_000,
                  parent_time=base.commit_time, message=message, root=root)


def commit_seconds(when: Instant) -> int:
    """A commit's time in seconds, rounded up: a commit is never older than its events."""
    return -(-when // 1_000_000)


def commit(base: Base, tree_oid: Oid, message: str, when: Instant) -> str:
    """Commit `tree_oid` on HEAD's branch (creating it when unborn); the new commit's hex.

    libgit2 refuses when the branch moved since `base` was read (a concurrent `git commit`),
    so nothing committed by someone else is ever overwritten."""
    repo = base.repo
    author, committer = signatures(repo, when)
    parents = [] if base.commit is None else [base.commit.id]
    try:
        oid = repo.create_commit("HEAD", author, committer, message, tree_oid, parents)
    except pygit2.GitError as err:
        raise InputError(Problem("HEAD", f"could not commit: {err}",
                                 "someone committed at the same moment; run the command again"),
                         ) from None
    return str(oid)


def signatures(repo: Repository, when: Instant) -> tuple[Signature, Signature]:
    """Author and committer as git would pick them: GIT_AUTHOR_* / GIT_COMMITTER_* from the
    environment, else user.name / user.email from git config."""
    seconds = commit_seconds(when)
    offset = time.localtime(seconds).tm_gmtoff // 60
    return (_signature(repo, "AUTHOR", seconds, offset),
            _signature(repo, "COMMITTER", seconds, offset))


def _signature(repo: Repository, role: str, seconds: int, offset: int) -> Signature:
    name = os.environ.get(f"GIT_{role}_NAME") or _config(repo, "user.name")
    email = os.environ.get(f"GIT_{role}_EMAIL") or _config(repo, "user.email")
    if not name or not email:
        raise InputError(Problem("git config", "no identity to commit with (user.name / "
                                 "user.email are not set)",
                                 'run `git config user.name "Your Name"` and '
                                 '`git config user.email you@example.com`'))
    return Signature(name, email, seconds, offset)


def _config(repo: Repository, key: str) -> str | None:
    try:
        return str(repo.config[key])
    except KeyError:
        return None


def stage_committed(repo: Repository, blobs: Mapping[str, Oid]) -> None:
    """Point the on-disk index entries of `blobs` at what was just committed, so `git status`
    stays clean; every other entry (the user's staged work) is left as it is."""
    try:
        index = repo.index
        index.read(False)  # only when it changed on disk since this process last saw it
        for path, oid in blobs.items():
            index.add(path)  # from the work tree: fills in stat data too
            if index[path].id != oid:  # the file changed after we read it
                index.add(pygit2.IndexEntry(path, oid, FileMode.BLOB))
        index.write()
    except pygit2.GitError as err:
        paths = " ".join(blobs)
        raise InputError(Problem(
            "index", f"committed, but the index could not be updated: {err}",
            f"run `git reset -q -- {paths}` to match the index to the commit")) from None

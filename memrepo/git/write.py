"""Library commits over pygit2: new blobs on top of HEAD's tree, committed without hooks.

The tree is built from HEAD's tree plus the changed blobs only — never from the user's
index, so whatever the user has staged stays staged and out of our commit — and only the
trees along the changed paths are rewritten (a repository may hold 100k notes).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pygit2
from isal import isal_zlib
from pygit2 import Blob, Commit, Oid, Repository, Tree
from pygit2.enums import FileMode

from memrepo.core.change import Change, FileChange, Snapshot
from memrepo.core.config import CONFIG_PATH, Config, parent_config
from memrepo.core.facts.times import Instant
from memrepo.core.problems import InputError, Problem
from memrepo.files import blob_digest, prefix_blob_digest
from memrepo.git.porcelain import unfinished_operation
from memrepo.git.read import TreeSnapshot


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
    pinned = _PINNED.repos.get(str(root))
    if pinned is not None:
        return pinned
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
    pinned = _PINNED.bases.get(repo.path)
    if pinned is not None:
        return pinned
    if repo.head_is_unborn:
        return Base(repo, None, None)
    if repo.head_is_detached:
        raise InputError(Problem("HEAD", "HEAD is detached; memrepo commits to a branch",
                                 "check out a branch first: `git switch main`"))
    commit = repo.head.peel(Commit)
    return Base(repo, commit, commit.tree)


class _Pinned(threading.local):
    def __init__(self) -> None:
        self.repos: dict[str, Repository] = {}  # root → its repository
        self.bases: dict[str, Base] = {}  # repository path → HEAD as pinned


_PINNED = _Pinned()


@contextmanager
def head_pinned(root: Path) -> Iterator[None]:
    """Within: `open_repo(root)` and `head_base` of it answer as on entry, without asking
    git again (a batch of 10,000 facts asked for HEAD 41,000 times to place its lines).
    Only where nothing commits meanwhile: a batch choosing its segments, under the write
    lock, before its commit."""
    repo = open_repo(root)
    base = head_base(repo)
    _PINNED.repos[str(root)], _PINNED.bases[repo.path] = repo, base
    try:
        yield
    finally:
        _PINNED.repos.pop(str(root), None)
        _PINNED.bases.pop(repo.path, None)


def refuse_unfinished_operation(repo: Repository) -> None:
    """A library commit on top of an unfinished merge would be a single-parent commit
    sweeping in the other side's changes: refused."""
    found = unfinished_operation(Path(repo.path))
    if found is not None:
        raise InputError(Problem(f".git/{found.file}", f"{found.what} is in progress in this "
                                 "clone; memrepo does not commit on top of it",
                                 "finish it (`git commit`) or abort it (`git merge --abort`, "
                                 "`git rebase --abort`, …); `memrepo doctor --repair` aborts "
                                 "a merge an interrupted `memrepo sync` left"))


def blob_id_at(base: Base, path: str) -> bytes | None:
    """The raw id of `path`'s blob in HEAD's tree (None when there is none)."""
    blob = _blob_in(base, path)
    return None if blob is None else blob.id.raw


def blob_size_at(base: Base, path: str) -> int | None:
    """The size of `path`'s blob in HEAD's tree, read from its header (not inflated)."""
    oid = blob_id_at(base, path)
    return None if oid is None else int(base.repo.odb.read_header(Oid(raw=oid))[1])


def blob_names_at(base: Base, folder: str) -> list[str]:
    """The names of the files in HEAD's `folder` (a path without a trailing slash)."""
    if base.tree is None:
        return []
    try:
        entry = base.tree[folder]
    except KeyError:
        return []
    return sorted(obj.name for obj in entry if isinstance(obj, Blob) and obj.name) \
        if isinstance(entry, Tree) else []


def committed_bytes(base: Base, path: str, work: bytes) -> bytes | None:
    """`blob_at`, taken from the working file's bytes `work` when they begin with exactly
    HEAD's blob (checked by its id: hashing is several times cheaper than inflating)."""
    oid = blob_id_at(base, path)
    if oid is None:
        return None
    known = _KNOWN.get(oid)
    if known is not None:
        return known
    size = base.repo.odb.read_header(Oid(raw=oid))[1]
    if len(work) >= size and prefix_blob_digest(work, size) == oid:
        return work[:size]
    return blob_at(base, path)


_KNOWN: dict[bytes, bytes] = {}
"""The blobs this process wrote last (id → bytes): the next write reads HEAD's segment
from here."""


def head_rules(root: Path) -> Snapshot | None:
    """HEAD's tree: the rules (config, schema/) a library commit is checked by; None on an
    unborn branch or outside a repository (memrepo's own schemas)."""

    try:
        base = head_base(open_repo(root))
    except InputError:
        return None
    if base.commit is None:
        return None
    key = (str(root), str(base.commit.id))
    if key not in _RULES:
        _RULES.clear()
        _RULES[key] = TreeSnapshot(base.repo, base.tree)
    return _RULES[key]


_RULES: dict[tuple[str, str], Snapshot] = {}


def head_config(root: Path) -> Config:
    """HEAD's config: what a library commit made now is checked by — parsed once per config
    blob, not per commit (the defaults on an unborn branch, or when HEAD has none or a broken
    one)."""
    rules = head_rules(root)
    if not isinstance(rules, TreeSnapshot):
        return Config()
    key = (rules.blob_id(CONFIG_PATH), rules.blob_id(CONFIG_PATH))
    config = _CONFIGS.get(key)
    if config is None:
        config = _CONFIGS[key] = parent_config(rules, rules)
    return config


def blob_at(base: Base, path: str) -> bytes | None:
    """The bytes of `path` in HEAD's tree, or None when HEAD has no such file."""
    blob = _blob_in(base, path)
    return None if blob is None else bytes(blob.data)


def _blob_in(base: Base, path: str) -> Blob | None:
    if base.tree is None:
        return None
    try:
        obj = base.tree[path]
    except KeyError:
        return None
    return obj if isinstance(obj, Blob) else None


def write_blobs(repo: Repository, files: Mapping[str, bytes]) -> dict[str, Oid]:
    """Store file contents as blobs; the oid of each path. Written as loose objects the way
    git writes them (a zlib stream at level 1, git's `core.looseCompression` default) but
    deflated by ISA-L (`isal`, ~10× zlib's speed, the same format) and hashed with hashlib:
    libgit2's collision-detecting SHA-1 and zlib cost several times more per byte, and a
    fact-log segment can be megabytes."""
    _KNOWN.clear()
    objects = common_dir(Path(repo.path)) / "objects"  # a linked work tree has none
    written = {}
    for path, data in files.items():
        oid = _write_loose(objects, data) if _plain_sha1(repo) else repo.create_blob(data).raw
        _KNOWN[oid] = data
        written[path] = Oid(raw=oid)
    return written


def _write_loose(objects: Path, data: bytes) -> bytes:
    oid = blob_digest(data)
    name = oid.hex()
    folder = objects / name[:2]
    target = folder / name[2:]
    if target.exists():
        return oid
    packer = isal_zlib.compressobj(1)
    body = packer.compress(b"blob %d\0" % len(data)) + packer.compress(data) + packer.flush()
    folder.mkdir(exist_ok=True)
    temporary = folder / f"tmp_obj_memrepo_{os.getpid()}"
    with open(temporary, "wb") as out:
        out.write(body)
    os.chmod(temporary, 0o444)
    os.replace(temporary, target)
    return oid


def _plain_sha1(repo: Repository) -> bool:
    """A repository with SHA-1 ids whose objects live in .git/objects (no other odb)."""
    try:
        return str(repo.config["extensions.objectformat"]).lower() == "sha1"
    except KeyError:
        return "GIT_OBJECT_DIRECTORY" not in os.environ


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
              known: Mapping[str, tuple[bytes, bytes]] | None = None) -> Change:
    """The `Change` HEAD → `tree_oid` (not committed yet) for the §6 checks, with the
    commit time the commit will carry; checked by HEAD's rules (config, schemas). `known`:
    path → (old, new) bytes the writer holds already, so the checks do not inflate those
    blobs again."""

    old = TreeSnapshot(base.repo, base.tree)
    new = TreeSnapshot(base.repo, base.repo[tree_oid].peel(Tree))
    for path, (before, after) in (known or {}).items():
        old.know(path, before if old.exists(path) else None)
        new.know(path, after)
    files = tuple(FileChange("modified" if old.exists(p) else "added", p) for p in paths)
    rules = old if old.has_tree else new
    key = (rules.blob_id(CONFIG_PATH), new.blob_id(CONFIG_PATH))
    config = _CONFIGS.get(key)
    if config is None:  # a broken config is the config check's to report
        config = _CONFIGS[key] = parent_config(rules, new)
    return Change(old=old, new=new, files=files, config=config,
                  commit_time=commit_seconds(when) * 1_000_000,
                  parent_time=base.commit_time, message=message, rules=rules)


_CONFIGS: dict[tuple[bytes | None, bytes | None], Config] = {}
"""Rules configs parsed by this process, by the blob ids of HEAD's and the new config."""


def commit_seconds(when: Instant) -> int:
    """A commit's time in seconds, rounded up: a commit is never older than its events."""
    return -(-when // 1_000_000)


def common_dir(git_dir: Path) -> Path:
    """Where the objects and refs of `git_dir` live (a linked work tree's: its main one's)."""
    try:
        pointer = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir
    return (git_dir / pointer).resolve()


def index_with_entries(data: bytes | None, entries: Mapping[str, bytes], target: Path) -> bool:
    """The index patcher's fallback (memrepo.git.staging): libgit2 reads the index `data`
    (None: starts an empty one), sets `entries` (path → raw blob id) and writes `target`."""
    try:
        target.unlink(missing_ok=True)
        if data is not None:
            target.write_bytes(data)
        index = pygit2.Index(str(target))
        for path, oid in entries.items():
            index.add(pygit2.IndexEntry(path, Oid(raw=oid), FileMode.BLOB))
        index.write()
        return True
    except (pygit2.GitError, OSError, ValueError):
        target.unlink(missing_ok=True)
        return False

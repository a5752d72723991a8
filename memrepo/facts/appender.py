"""Appending to fact logs and committing them: the crash-safe half of the write path.

One writer at a time per clone (`write_lock`: flock on .memrepo/write.lock; the kernel
drops it when a process dies, so a killed writer never leaves a stale lock). Inside the
lock a write: reads HEAD, checks each segment it appends to (no partial last line; the
file still starts with its committed bytes), appends its bytes with ONE `os.write` on an
O_APPEND descriptor + fsync, builds HEAD's tree + those files (only the trees along their
paths are rewritten), runs the §6 checks in-process, commits, then points the index
entries of those files at the commit.

What a kill -9 leaves, and who puts it right:
- before the append: nothing.
- inside the append: at worst a partial last line (a single small write is not split in
  practice, but a power cut can). The next write to that segment refuses, pointing to
  `memrepo doctor --repair`, which moves the partial line aside; never committed.
- after the append, before the commit: complete, valid lines not yet committed. The next
  write to that segment commits them with its own line (the checks judge them);
  `memrepo doctor --repair` commits them too.
- inside the commit: libgit2 writes objects atomically and the branch through
  `<ref>.lock` + rename; a kill leaves the old HEAD (and maybe a stale `.lock` that
  `memrepo doctor --repair` removes once no process holds it) or the new one.
- after the commit, before the index update: `git status` shows the log as changed in
  the index; the next write to that segment or `memrepo doctor --repair` resets those
  index entries to HEAD.
No kill can remove committed lines: the working file is only ever appended to, and cut
back only to the length it had before this write's own append.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.clock import now
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import Instant
from memrepo.facts.segments import REPAIR_HINT

if TYPE_CHECKING:
    from memrepo.core.change import Change

LOCK_PATH = ".memrepo/write.lock"


@contextmanager
def write_lock(root: Path) -> Iterator[None]:
    """Serialise writers of one clone (§10): an exclusive flock on .memrepo/write.lock."""
    path = root / LOCK_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    timeout = float(os.environ.get("MEMREPO_LOCK_TIMEOUT", "30"))
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _acquire(fd, timeout, path)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _acquire(fd: int, timeout: float, path: Path) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise InputError(Problem(str(path), f"another memrepo write has held the "
                                         f"lock for {timeout:g} s",
                                         "wait for it to finish and retry (raise "
                                         "MEMREPO_LOCK_TIMEOUT to wait longer)")) from None
            time.sleep(0.01)


def recorded_now(root: Path) -> Instant:
    """The `recorded_at` of an event: taken INSIDE the write lock, so events of one clone
    are recorded in the order they are committed and none is older than its parent commit
    (whose time is its own latest event rounded up to the second: with
    clock_skew_seconds 0 a write in that same second is refused by the §6.5 check —
    keep the skew ≥ 1 s). Moving the time forward instead would hide the event from a
    recall made right after it."""
    return now()


def append_and_commit(root: Path, path: str, line: bytes, message: str, when: Instant) -> str:
    """Append one line to the segment at `path` and commit the segment; the commit's hex.

    The committed content is the whole working file: complete lines a crash left between
    an append and its commit are valid events and are committed too (the checks judge
    them). On any refusal the file is cut back to its previous length."""
    return append_many_and_commit(root, {path: line}, message, when)


def append_many_and_commit(root: Path, appends: Mapping[str, bytes], message: str,
                           when: Instant) -> str:
    """Append bytes (whole lines) to several segments and commit them in ONE commit."""
    from memrepo.git import write as gitw  # pygit2 stays out of the query path

    repo = gitw.open_repo(root)
    base = gitw.head_base(repo)
    opened: list[_Append] = []
    try:
        try:  # a refusal at any segment (e.g. a partial line in the second) undoes them all
            for path, data in sorted(appends.items()):
                opened.append(_open_and_append(root, path, data, gitw.blob_at(base, path)))
            blobs = gitw.write_blobs(repo, {a.path: a.before + a.data for a in opened})
            tree = gitw.tree_with(repo, base.tree, blobs)
            change = gitw.change_to(base, tree, [a.path for a in opened], message, when, root)
            run_commit_checks(change, {a.path: a.leftover_lines for a in opened})
            commit = gitw.commit(base, tree, message, when)
        except BaseException:
            for append in reversed(opened):
                append.undo()
            raise
    finally:
        for append in opened:
            os.close(append.fd)
    gitw.stage_committed(repo, blobs)
    return commit


@dataclass
class _Append:
    path: str
    file: Path
    fd: int
    before: bytes
    data: bytes
    existed: bool
    leftover_lines: range  # line numbers of complete lines found uncommitted
    created_dirs: list[Path] = field(default_factory=list)

    def undo(self) -> None:
        os.ftruncate(self.fd, len(self.before))
        os.fsync(self.fd)
        if not self.existed:
            self.file.unlink(missing_ok=True)
        for directory in self.created_dirs:
            with suppress(OSError):
                directory.rmdir()


def _open_and_append(root: Path, path: str, data: bytes, committed: bytes | None) -> _Append:
    file = root / path
    created_dirs = _missing_dirs(file.parent)
    file.parent.mkdir(parents=True, exist_ok=True)
    existed = file.exists()
    fd = os.open(file, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        before = _read_all(fd)
        _check_appendable(path, before, committed or b"")
        _append(fd, data, len(before))
    except BaseException:
        os.close(fd)
        if not existed:
            file.unlink(missing_ok=True)
        raise
    first = (committed or b"").count(b"\n") + 1
    leftover = range(first, before.count(b"\n") + 1)
    return _Append(path, file, fd, before, data, existed, leftover, created_dirs)


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""


def _check_appendable(path: str, before: bytes, committed: bytes) -> None:
    if before and not before.endswith(b"\n"):
        line = before.count(b"\n") + 1
        raise InputError(Problem(path, "the last line is incomplete (a write was cut off)",
                                 REPAIR_HINT, line))
    if not before.startswith(committed):
        raise InputError(Problem(path, "the file in the working tree no longer starts with "
                                 "its committed content (lines were changed or removed)",
                                 f"restore it with `git checkout -- {path}`; "
                                 "logs are append-only"))


def _append(fd: int, data: bytes, size: int) -> None:
    """One os.write on an O_APPEND fd: concurrent readers see the whole bytes or none."""
    written = os.write(fd, data)
    if written != len(data):
        os.ftruncate(fd, size)
        raise OSError(f"short write: {written} of {len(data)} bytes")
    os.fsync(fd)


def _missing_dirs(directory: Path) -> list[Path]:
    """The directories that creating `directory` creates, deepest first."""
    missing: list[Path] = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    return missing


def run_commit_checks(change: Change, leftovers: Mapping[str, range] | None = None) -> None:
    """The §6 checks, in-process, on HEAD → the tree about to be committed (pygit2
    commits run no hooks); the first problem refuses the write. A problem in a line an
    interrupted write left uncommitted says so and points to `memrepo doctor --repair`."""
    from memrepo.checks.runner import run_checks

    problems = run_checks(change, "all")
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        text, fix = first.problem + more, first.fix
        if first.line is not None and first.line in (leftovers or {}).get(first.path, ()):
            text = f"{text} — in a line an interrupted write left uncommitted"
            fix = "run `memrepo doctor --repair` (it sets such lines aside)"
        raise InputError(Problem(first.path, text, fix, first.line))

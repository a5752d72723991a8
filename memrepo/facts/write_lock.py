"""The write lock: one writer at a time per clone (SPEC §10).

`write_lock`: an exclusive flock on .memrepo/write.lock (the kernel drops it when a process
dies), taken once no person's git command works in the clone (`memrepo.git.activity`).
memrepo's git hooks take the same lock (`hook_lock`), so no write lands while a hook checks
a commit.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.problems import InputError, MemoryBusy, Problem
from memrepo.faults import fault_problem
from memrepo.files import open_beneath
from memrepo.git.activity import HOLDER_VARIABLE, git_at_work, process_alive
from memrepo.git.command import git_dir, passed_to_git
from memrepo.local_state import WRITE_LOCK

if TYPE_CHECKING:
    from memrepo.git.activity import GitAtWork

_HELD: dict[str, int] = {}  # root → the descriptor holding the lock in this process


def lock_timeout() -> float:
    """MEMREPO_LOCK_TIMEOUT (seconds, default 30): how long a write waits for another."""
    text = os.environ.get("MEMREPO_LOCK_TIMEOUT", "30")
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e9:
        raise InputError(Problem("MEMREPO_LOCK_TIMEOUT", f"{text!r} is not a number of "
                                 "seconds", "set it to e.g. 30, or unset it"))
    return value


@contextmanager
def write_lock(root: Path) -> Iterator[None]:
    """Serialise the writers of one clone (§10): wait while a person's git command works in
    the clone, then take an exclusive flock on .memrepo/write.lock."""

    deadline = time.monotonic() + lock_timeout()
    wait_for_git(root, deadline)
    fd = _lock_file(root)
    try:
        _acquire(fd, deadline, root / WRITE_LOCK, "another memrepo write")
        _HELD[str(root)] = fd
        with passed_to_git(root, **{HOLDER_VARIABLE: str(os.getpid())}):
            yield
    finally:
        _HELD.pop(str(root), None)
        os.close(fd)  # closing releases the lock


@contextmanager
def hook_lock(root: Path) -> Iterator[None]:
    """The write lock as a git hook takes it: no waiting for git (its own git command is
    at work), and none at all when the memrepo process that runs this git command holds
    it already (sync's merge)."""
    if _holder_is_running():
        yield
        return
    fd = _lock_file(root)
    try:
        _acquire(fd, time.monotonic() + lock_timeout(), root / WRITE_LOCK,
                 "a memrepo write")
        yield
    finally:
        os.close(fd)


def lock_held_by_caller() -> bool:
    """Whether the memrepo process that ran this git command holds the write lock."""
    return _holder_is_running()


def _holder_is_running() -> bool:
    holder = os.environ.get(HOLDER_VARIABLE, "")
    return holder.isdigit() and process_alive(int(holder))


def _lock_file(root: Path) -> int:
    # a read-only or full .memrepo: every write refuses here
    with local_state_faults(WRITE_LOCK):
        return open_beneath(root, WRITE_LOCK, os.O_RDWR | os.O_CREAT, make_dirs=True)


def _acquire(fd: int, deadline: float, path: Path, other: str) -> None:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise MemoryBusy(Problem(str(path), f"{other} has held the lock for "
                                         f"{lock_timeout():g} s",
                                         "wait for it to finish and retry (raise "
                                         "MEMREPO_LOCK_TIMEOUT to wait longer)")) from None
            time.sleep(0.01)


def wait_for_git(root: Path, deadline: float) -> None:
    """Return once no person's git command works in the clone; refuse at `deadline`."""

    git_dir = _git_dir(root)
    while (found := git_at_work(root, git_dir)) is not None:
        if time.monotonic() >= deadline:
            raise _busy(found)
        time.sleep(0.02)


def _busy(found: GitAtWork) -> MemoryBusy:
    return MemoryBusy(Problem(
        "git", f"{found.describe()} has been working in this clone for "
        f"{lock_timeout():g} s; memrepo does not commit under it",
        "let it finish (an editor waiting for a commit message?) and retry; a stale "
        ".git/index.lock is removed by `memrepo doctor --repair`"))


def _git_dir(root: Path) -> Path:
    """The clone's git directory, from its files: the git hooks take this module's lock, and
    pygit2's import would cost each hooked commit ≈30 ms."""
    found = git_dir(root)
    if found is None:
        raise InputError(Problem(str(root), "not a git repository",
                                 "run `memrepo init DIR` or pass --repo PATH"))
    return found


def pause_for_git(root: Path) -> None:
    """Release the write lock while a person's git command works, then take it again."""
    fd = _HELD.get(str(root))
    deadline = time.monotonic() + lock_timeout()
    if fd is None:
        wait_for_git(root, deadline)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
    try:
        wait_for_git(root, deadline)
    finally:
        _acquire(fd, deadline, root / WRITE_LOCK, "another memrepo write")


@contextmanager
def local_state_faults(path: str) -> Iterator[None]:
    """A fault of the environment writing `path` (under .memrepo) refuses the write."""
    try:
        yield
    except OSError as err:  # a read-only or full .memrepo
        problem = fault_problem(err)
        if problem is None:
            raise
        raise InputError(Problem(path, problem.problem, problem.fix)) from None

"""One push verified at a time on a shared server (the pre-receive hook's lock).

Many clones pushing at once all expect the branch at the commit they fetched; only the
first to land can be right, every other one must fetch, merge and push again. Verifying
them all at once would spend the server's CPU on pushes that are lost anyway (and make
the one that lands slower). So the hook takes an exclusive lock on `memrepo-push.lock` in
the repository's git folder, looks at the branch again — moved: the push lost, refused at
once — and only then verifies.

git moves the branch after the hook has exited, so a lock released with the hook would let
the next push look at the branch a moment before it moves, verify, and lose anyway. An
accepted push therefore hands the lock to a small child process that keeps it until the
git process that ran the hook (receive-pack: it moves the branch, then exits) has finished,
at most `HOLD_SECONDS`. flock belongs to the open file, so the child's copy keeps it and
the lock is released by the kernel whenever the last holder ends, however it ends: a
crashed hook never leaves a stale lock.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memrepo.git.activity import process_alive

LOCK_NAME = "memrepo-push.lock"
WAIT_SECONDS = 120.0
"""How long a push waits for the one being verified before it is sent back to retry."""
HOLD_SECONDS = 30.0
"""The longest an accepted push keeps the lock after its hook exited (git moving the ref)."""
POLL_SECONDS = 0.01


class PushLock:
    """The lock, held (by this process's open file `fd`)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def hold_until_exit(self, receive_pack: int) -> None:
        """Keep the lock, in a child process of its own, until `receive_pack` has exited
        (or HOLD_SECONDS passed); this process may exit at once."""
        if os.fork() != 0:
            return
        try:  # the child: nothing of git's (its pipes) kept open, so git never waits for it
            os.setsid()
            quiet = os.open(os.devnull, os.O_RDWR)
            for stream in (0, 1, 2):
                os.dup2(quiet, stream)
            deadline = time.monotonic() + HOLD_SECONDS
            while process_alive(receive_pack) and time.monotonic() < deadline:
                time.sleep(POLL_SECONDS)
        finally:
            os._exit(0)


@contextmanager
def push_lock(git_dir: Path, wait: float = WAIT_SECONDS) -> Iterator[PushLock | None]:
    """The server's push lock while the block runs; None when another push held it for
    `wait` seconds."""
    fd = os.open(git_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o664)
    try:
        yield PushLock(fd) if _acquired(fd, time.monotonic() + wait) else None
    finally:
        os.close(fd)  # a child holding the lock on (hold_until_exit) keeps its own copy


def _acquired(fd: int, deadline: float) -> bool:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_SECONDS)

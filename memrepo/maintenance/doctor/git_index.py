"""Doctor: index entries of fact logs left behind HEAD; stale git lock files."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memrepo.core.problems import InputError
from memrepo.facts.appender import refresh_behind
from memrepo.facts.segments import FACTS_DIR
from memrepo.files import read_beneath
from memrepo.git import activity

from .findings import Finding, done, git_checked
from .logs import committed_bytes

_LOCK_GRACE_SECONDS = 1.0  # git closes a lock file an instant before renaming it


def index_behind_head(root: Path, repair: bool) -> list[Finding]:
    """Fact logs whose index entry differs from HEAD while the work file equals HEAD."""
    if repair:
        refresh_behind(root)
    out = git_checked(root, "diff", "--cached", "--name-only", "-z", "--no-renames", "--",
                      FACTS_DIR)
    behind = [p for p in out.split("\0") if p and _work_equals_head(root, p)]
    if not behind:
        return []
    finding = Finding(" ".join(behind), "the index was not updated after memrepo "
                      "committed (an interrupted write): `git status` shows a change",
                      f"run `git reset -q -- {' '.join(behind)}`")
    if not repair:
        return [finding]
    git_checked(root, "reset", "-q", "--", *behind)
    return [done(finding, "reset the index entries to HEAD")]


def _work_equals_head(root: Path, path: str) -> bool:
    try:
        data = read_beneath(root, path)
    except InputError:
        return False
    return data is not None and data == committed_bytes(root, path)


def git_locks(root: Path, repair: bool) -> list[Finding]:
    git_dir = root / ".git"
    if not git_dir.is_dir():
        return []
    findings = []
    for lock in _lock_files(git_dir):
        findings.append(_lock_finding(root, lock, repair))
    return findings


def _lock_files(git_dir: Path) -> list[Path]:
    found = [git_dir / name for name in ("index.lock", "HEAD.lock", "packed-refs.lock",
                                         "config.lock") if (git_dir / name).exists()]
    for sub in ("refs", "logs"):
        if (git_dir / sub).is_dir():
            found.extend(sorted((git_dir / sub).rglob("*.lock")))
    return found


def _lock_finding(root: Path, lock: Path, repair: bool) -> Finding:
    path = lock.relative_to(root).as_posix()
    if _lock_in_use(lock):
        return Finding(path, "a git lock file held by a running process",
                       "wait for that git command to finish")
    finding = Finding(path, "a stale git lock file (no process holds it; a git or memrepo "
                      "command was killed)", f"remove it: `rm {path}` "
                      "(or `memrepo doctor --repair`)")
    if not repair:
        return finding
    lock.unlink(missing_ok=True)
    return done(finding, "removed it")


def _lock_in_use(lock: Path) -> bool:
    """Whether a process holds the lock file open (git and libgit2 keep it open while they
    write). Without /proc, only a lock older than ten minutes counts as stale."""
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    if not (activity.PROC / "self" / "fd").is_dir():
        return age < 600
    if age < _LOCK_GRACE_SECONDS:
        time.sleep(_LOCK_GRACE_SECONDS - age)
    return _open_by_any_process(lock)


def _open_by_any_process(file: Path) -> bool:
    target = str(file.resolve())
    for fd_dir in activity.PROC.glob("[0-9]*/fd"):
        try:
            fds = list(fd_dir.iterdir())
        except OSError:
            continue  # another user's process, or gone
        if any(_link(fd) == target for fd in fds):
            return True
    return False


def _link(fd: Path) -> str | None:
    try:
        return os.readlink(fd)
    except OSError:
        return None  # closed meanwhile

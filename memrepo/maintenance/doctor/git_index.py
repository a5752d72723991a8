"""Doctor: index entries of fact logs left behind HEAD; stale git lock files; the
temporary index files of killed writes."""

from __future__ import annotations

from pathlib import Path

from memrepo.core.problems import InputError
from memrepo.facts.appender import refresh_behind
from memrepo.facts.segments import FACTS_DIR
from memrepo.files import read_beneath
from memrepo.git import activity, staging
from memrepo.git.porcelain import git

from .findings import GIT_FIX, Finding, done
from .logs import committed_bytes


def index_behind_head(root: Path, repair: bool) -> list[Finding]:
    """Fact logs whose index entry differs from HEAD while the work file equals HEAD."""
    if repair:
        refresh_behind(root)
    out = git(root, "diff", "--cached", "--name-only", "-z", "--no-renames", "--", FACTS_DIR,
              fix=GIT_FIX)
    behind = [p for p in out.split("\0") if p and _work_equals_head(root, p)]
    if not behind:
        return []
    finding = Finding(" ".join(behind), "the index was not updated after memrepo "
                      "committed (an interrupted write): `git status` shows a change",
                      f"run `git reset -q -- {' '.join(behind)}`")
    if not repair:
        return [finding]
    git(root, "reset", "-q", "--", *behind, fix=GIT_FIX)
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
    if activity.lock_in_use(lock):
        return Finding(path, "a git lock file held by a running process",
                       "wait for that git command to finish")
    finding = Finding(path, "a stale git lock file (no process holds it; a git or memrepo "
                      "command was killed)", f"remove it: `rm {path}` "
                      "(or `memrepo doctor --repair`)")
    if not repair:
        return finding
    lock.unlink(missing_ok=True)
    return done(finding, "removed it")


def index_leftovers(root: Path, repair: bool) -> list[Finding]:
    """The new indexes (and links to old ones) that memrepo writes killed before their
    index update left in .git (`staging.leftovers`: only those of dead processes): one
    finding for all of them — after many kills, hundreds of files of an index's size."""
    git_dir = root / ".git"
    found = staging.leftovers(git_dir) if git_dir.is_dir() else []
    if not found:
        return []
    size = sum(_size(path) for path in found)
    finding = Finding(".git", f"{len(found)} temporary index file(s) left by killed memrepo "
                      f"writes (memrepo-index.<pid>.tmp/.old, {size:,} bytes)",
                      "run `memrepo doctor --repair`")
    if not repair:
        return [finding]
    for path in found:
        path.unlink(missing_ok=True)
    return [done(finding, "removed them")]


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0

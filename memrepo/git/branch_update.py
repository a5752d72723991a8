"""HEAD's branch moved to a library commit: the commit object (its author and committer
as git picks them), then a compare-and-swap of the branch the way git moves it (git's
`<ref>.lock`, rename and reflog: `BranchUpdate`), or through libgit2 (`branch_mover`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2 import Oid, Repository, Signature

from memrepo.core.facts.times import Instant
from memrepo.core.problems import InputError, Problem
from memrepo.git.write import Base, commit_seconds, common_dir


def new_commit(base: Base, tree_oid: Oid, message: str, when: Instant) -> Oid:
    """The commit object of `tree_oid` on top of `base` — no ref moves yet (`move_branch`)."""
    author, committer = signatures(base.repo, when)
    parents = [] if base.commit is None else [base.commit.id]
    return base.repo.create_commit(None, author, committer, message, tree_oid, parents)


def branch_mover(base: Base, commit: Oid, message: str) -> Callable[[], bool]:
    """The update of HEAD's branch to `commit`, looked up in advance so that calling the
    result does only the compare-and-swap under git's ref lock (creating the branch when it
    is unborn): nothing committed by someone else is ever overwritten. The call answers
    False when the branch no longer points where `base` was read."""
    repo = base.repo
    name = str(repo.references["HEAD"].target)
    summary = message.split("\n", 1)[0]
    expected = None if base.commit is None else base.commit.id
    ref = None if expected is None else repo.references.get(name)

    def move() -> bool:
        try:
            if ref is None:
                if expected is not None:
                    return False
                repo.create_reference_direct(name, commit, False,
                                             message=f"commit (initial): {summary}")
                return True
            if ref.target != expected:
                return False
            ref.set_target(commit, f"commit: {summary}")  # libgit2 compares under the lock
        except (pygit2.AlreadyExistsError, pygit2.GitError, KeyError):
            if _head_id(repo) != expected:
                return False
            raise InputError(Problem("HEAD", "could not move the branch (its lock is held?)",
                                     "run `memrepo doctor` and the command again")) from None
        return True

    return move


class BranchLocked(InputError):
    """The branch's lock file exists: a git command at work, or one that was killed."""

    def __init__(self, lock: Path) -> None:
        super().__init__(Problem(str(lock), "the branch's lock file exists (a git command "
                                 "at work, or one that was killed)", "let it finish, or "
                                 "remove the stale lock, and run the command again"))
        self.lock = lock


@dataclass
class BranchUpdate:
    """HEAD's branch moved to a new commit the way git moves it (`<ref>.lock`, rename,
    reflog lines), in two steps so that the caller can look around once more between them:
    `lock()` takes the lock and compares the branch with what `base` read (a compare-and-
    swap: nothing committed by someone else is ever overwritten); `finish()` renames the
    lock into place — one system call after the caller's last look — and appends the
    reflog; `release()` gives the lock up instead."""

    common: Path
    name: str
    expected: str | None
    new: str
    reflog: str
    logs: tuple[Path, ...]
    locked: bool = False

    @property
    def ref(self) -> Path:
        return self.common / self.name

    @property
    def lock_path(self) -> Path:
        return self.common / f"{self.name}.lock"

    def lock(self) -> bool:
        """True when the lock is held and the branch is still where `base` read it."""
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if _branch_value(self.common, self.name) != self.expected:
                return False
            raise BranchLocked(self.lock_path) from None
        self.locked = True
        try:
            os.write(fd, f"{self.new}\n".encode())
        finally:
            os.close(fd)
        if _branch_value(self.common, self.name) != self.expected:
            self.release()
            return False
        return True

    def finish(self) -> bool:
        """Rename the lock into place (after `lock()` answered True), then the reflog."""
        os.rename(self.lock_path, self.ref)
        self.locked = False
        for log in self.logs:
            with suppress(OSError):  # the commit stands without its reflog line
                log.parent.mkdir(parents=True, exist_ok=True)
                with open(log, "a", encoding="utf-8") as out:
                    out.write(self.reflog)
        return True

    def release(self) -> None:
        if self.locked:
            self.lock_path.unlink(missing_ok=True)
            self.locked = False


def branch_update(base: Base, commit: Oid, message: str) -> BranchUpdate | None:
    """The update of HEAD's branch to `commit` (BranchUpdate); None when HEAD is detached
    or the refs are not plain files (then `branch_mover` does it through libgit2)."""
    repo = base.repo
    git_dir = Path(repo.path)
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not head.startswith("ref: refs/heads/") or "extensions.refstorage" in repo.config:
        return None
    name = head[len("ref: "):]
    common = common_dir(git_dir)
    expected = None if base.commit is None else str(base.commit.id)
    who = repo[commit].committer
    minutes = who.offset
    zone = f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
    kind = "commit" if expected is not None else "commit (initial)"
    reflog = (f"{expected or '0' * 40} {commit} {who.name} <{who.email}> {who.time} {zone}"
              f"\t{kind}: {message.split(chr(10), 1)[0]}\n")
    logs = tuple(log for log in (common / "logs" / name, git_dir / "logs" / "HEAD")
                 if log.exists() or _log_all_ref_updates(repo))
    return BranchUpdate(common, name, expected, str(commit), reflog, logs)


def _branch_value(common: Path, name: str) -> str | None:
    """The commit `name` points at, read as git reads it: the loose file, else packed-refs."""
    try:
        return (common / name).read_text(encoding="ascii").strip() or None
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError):
        return "?"  # unreadable: never equal to what was expected
    try:
        packed = (common / "packed-refs").read_bytes()
    except FileNotFoundError:
        return None
    for line in packed.splitlines():
        if line.endswith(b" " + name.encode()) and not line.startswith((b"#", b"^")):
            return line.split(b" ", 1)[0].decode("ascii", "replace")
    return None


def _log_all_ref_updates(repo: Repository) -> bool:
    try:
        value = str(repo.config["core.logAllRefUpdates"]).lower()
    except KeyError:
        return not repo.is_bare
    return value in ("true", "always", "yes", "on", "1")


def _head_id(repo: Repository) -> Oid | None:
    try:
        return None if repo.head_is_unborn else repo.head.target  # type: ignore[return-value]
    except pygit2.GitError:
        return None


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

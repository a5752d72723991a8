"""The little the cache asks git: HEAD, what changed between two commits, what is dirty.

`git diff` / `git status` run as subprocesses (cheap, and they honour every git setting);
HEAD is read from the files under .git when that is simple, else from `git rev-parse`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.git.command import git_dir, start_git

if TYPE_CHECKING:
    import subprocess

MEMORY = "memory/"


def head_commit(root: Path) -> str | None:
    """The commit id HEAD points to; None on an unborn branch."""
    directory = git_dir(root)
    if directory is not None and not (directory / "commondir").exists():
        fast = _head_from_files(directory)
        if fast is not None:
            return fast or None
    from memrepo.git import porcelain  # only when git's files do not say: off the query path

    return porcelain.head_commit(root)


def _head_from_files(directory: Path) -> str | None:
    """HEAD from .git/HEAD and the ref it names; '' = unborn; None = ask git."""
    try:
        head = (directory / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head
    ref = head.removeprefix("ref:").strip()
    try:
        return (directory / ref).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return _packed_ref(directory, ref)
    except OSError:
        return None


def _packed_ref(directory: Path, ref: str) -> str | None:
    try:
        lines = (directory / "packed-refs").read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return ""
    except OSError:
        return None
    for line in lines:
        parts = line.split(" ", 1)
        if len(parts) == 2 and parts[1] == ref:
            return parts[0]
    return ""


def index_file(root: Path) -> Path | None:
    directory = git_dir(root)
    return None if directory is None else directory / "index"


def changed_between(root: Path, old: str, new: str) -> list[str] | None:
    """Paths under memory/ that differ between two commits; None when git cannot tell
    (e.g. `old` was garbage-collected) — the caller then rebuilds."""
    return ChangedQuery(root, old, new).paths()


class ChangedQuery:
    """`changed_between`, asked at construction and answered by `paths()`: git compares
    the two trees while the caller imports and opens what it needs (the hooks' refresh)."""

    def __init__(self, root: Path, old: str, new: str) -> None:
        self.old, self.new = old, new
        known = _COMMITTED.get(str(root))
        self._answer: list[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        if known is not None and known[:2] == (old, new):
            self._answer = [path for path in known[2] if path.startswith(MEMORY)]
        else:
            self._process = start_git(root, "diff", "--name-only", "--no-renames", "-z",
                                      old, new, "--", MEMORY)

    def paths(self) -> list[str] | None:
        if self._process is not None and self._process.returncode is None:
            out = _output(self._process)
            self._answer = [p for p in out.split("\0") if p] \
                if self._process.returncode == 0 else None
        return self._answer


_COMMITTED: dict[str, tuple[str, str, list[str]]] = {}
"""Per work tree: the last commit this process made, its parent and the files it changed."""


def note_commit(root: Path, parent: str, commit: str, paths: list[str]) -> None:
    """Remember that `commit` (of `parent`) changed exactly `paths` (a library write,
    which commits its parent's tree plus those files): a sync from `parent` to `commit`
    then needs no `git diff` (commit ids name their content, so this cannot go stale)."""
    _COMMITTED[str(root)] = (parent, commit, sorted(paths))


def dirty_paths(root: Path) -> list[str]:
    """Paths under memory/ whose work-tree content differs from HEAD (incl. untracked)."""
    query = DirtyQuery(root)
    try:
        return query.paths()
    finally:
        query.close()


class DirtyQuery:
    """What `git status --untracked-files=all -- memory/` lists, asked as two commands that
    run at the same time (the tracked files' stat pass and the untracked scan take about
    as long each on a large memory) and in the background from construction until
    `paths()`. `--no-optional-locks`: status would otherwise rewrite the whole index after
    a checkout (0.1-0.2 s at 100k notes) just to refresh stat data."""

    def __init__(self, root: Path) -> None:
        self._tracked = start_git(root, "--no-optional-locks", "status", "--porcelain",
                                  "-z", "--no-renames", "--untracked-files=no", "--", MEMORY)
        self._untracked = start_git(root, "ls-files", "-z", "--others",
                                    "--exclude-standard", "--", MEMORY)

    def paths(self) -> list[str]:
        changed = [e[3:] for e in _output(self._tracked).split("\0") if len(e) > 3]
        return sorted({*changed, *(p for p in _output(self._untracked).split("\0") if p)})

    def close(self) -> None:
        """Reap both commands (an answer not read is not needed)."""
        for process in (self._tracked, self._untracked):
            if process.stdout is not None:
                process.stdout.close()
            process.wait()


class KnownDirty:
    """The dirty set as the cache last saw it, without asking git: what the post-checkout,
    post-merge and post-rewrite hooks use. Git only moved HEAD; it made no file dirty, and
    `git status` is the one O(memory) step of a sync (≈0.2 s at 100k notes)."""

    def __init__(self, paths: list[str]) -> None:
        self._paths = sorted(paths)

    def paths(self) -> list[str]:
        return list(self._paths)

    def close(self) -> None:
        return None


def _output(process: subprocess.Popen[bytes]) -> str:
    out, _ = process.communicate()
    return out.decode("utf-8", "surrogateescape")


"""The git command line, for what is simplest asked of git itself (status, diff, show,
merge, push, verify-commit): every git process memrepo starts goes through here. pygit2
does the rest (memrepo.git.read / write).

Each runs as `git -C ROOT …` with the hook variables below removed, so it works on the
repository named by ROOT even when memrepo itself runs inside a git hook.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

_HOOK_VARIABLES = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE")
"""Set when memrepo runs inside a git hook; they would point git at the hook's repository
or temporary index instead of the work tree named by `root`."""

_PASSED_ON: dict[str, dict[str, str]] = {}
"""Resolved root → variables every git process this process starts there gets (see
`passed_to_git`)."""


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree `root` (following the `.git` file of a linked
    worktree or a submodule), read from the files: no process, no pygit2. None when `root`
    holds no `.git`."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():
        text = dot_git.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            target = Path(text.removeprefix("gitdir:").strip())
            return target if target.is_absolute() else (root / target).resolve()
    return None


def run_git(root: Path, *args: str, stdin: str | None = None,
            env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`git -C root ARGS` with text output (undecodable bytes kept as surrogates); the
    caller looks at returncode and decides what a failure means. `env`: the environment
    to run in (default: this process's)."""
    return subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                          text=True, errors="surrogateescape", check=False,
                          env=_environment(root, env))


def run_git_bytes(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """`run_git` with the output as bytes (a blob, a listing of any encoding)."""
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False,
                          env=_environment(root, None))


def start_git(root: Path, *args: str, feed: bool = False, capture: bool = True,
              index_file: str | None = None) -> subprocess.Popen[bytes]:
    """`git -C root ARGS` running in the background: its stdout to read (`capture`; stderr
    dropped; else both go to this process's) and, with `feed`, its stdin to write.
    `index_file`: the index git should read (a hook's GIT_INDEX_FILE, made absolute)."""
    output = subprocess.PIPE if capture else None
    env = _environment(root, None)
    if index_file is not None:
        env["GIT_INDEX_FILE"] = index_file
    return subprocess.Popen(["git", "-C", str(root), *args], stdout=output,
                            stderr=subprocess.DEVNULL if capture else None,
                            stdin=subprocess.PIPE if feed else None, env=env)


@contextmanager
def passed_to_git(root: Path, **variables: str) -> Iterator[None]:
    """While the block runs, every git process started on `root` through this module gets
    `variables` (the write lock's holder, for the hooks of sync's own merge). Not through
    os.environ: a git command of another thread or another clone would inherit it too."""
    key = str(root.resolve())
    previous = _PASSED_ON.get(key)
    _PASSED_ON[key] = {**(previous or {}), **variables}
    try:
        yield
    finally:
        if previous is None:
            _PASSED_ON.pop(key, None)
        else:
            _PASSED_ON[key] = previous


def _environment(root: Path, env: Mapping[str, str] | None) -> dict[str, str]:
    source = os.environ if env is None else env
    result = {k: v for k, v in source.items() if k not in _HOOK_VARIABLES}
    if _PASSED_ON:
        result.update(_PASSED_ON.get(str(root.resolve()), {}))
    return result


def commit_of_line(root: Path, path: str, line: int) -> dict[str, str] | None:
    """The commit that wrote line `line` (1-based) of `path` as HEAD has it (fact logs are
    append-only: the commit that added it): its id, author date, author and message;
    None when the line is not committed or git cannot tell."""
    done = run_git(root, "blame", "--porcelain", "-L", f"{line},{line}", "HEAD", "--", path)
    if done.returncode != 0 or not done.stdout:
        return None
    sha = done.stdout.split(" ", 1)[0]
    if set(sha) == {"0"}:
        return None
    shown = run_git(root, "show", "-s", "--format=%H%x00%aI%x00%an <%ae>%x00%B", sha)
    if shown.returncode != 0:
        return None
    commit, date, author, message = [*shown.stdout.split("\0"), "", "", "", ""][:4]
    return {"commit": commit, "date": date, "author": author, "message": message}

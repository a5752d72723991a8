"""Which memory repository a command works on (SPEC §11): `--repo`, else `MEMREPO_REPO`,
else the git repository containing the working directory."""

from __future__ import annotations

import os
from pathlib import Path

from memrepo.core.problems import InputError, NotAMemory, Problem
from memrepo.git.command import run_git

_FIX = "run the command inside a memory repository, pass --repo PATH or set MEMREPO_REPO"


def find_root(arg: str | None) -> Path:
    """The work tree root of the memory repository to use."""
    given = arg or os.environ.get("MEMREPO_REPO")
    if given:
        return _toplevel(Path(given).expanduser(), "--repo" if arg else "MEMREPO_REPO")
    return _toplevel(Path.cwd(), "working directory")


def _toplevel(start: Path, what: str) -> Path:
    if not start.is_dir():
        raise NotAMemory(Problem(str(start), f"{what} is not a directory", _FIX))
    try:
        done = run_git(start, "rev-parse", "--show-toplevel")
    except FileNotFoundError:
        raise InputError(Problem("git", "git is not installed", "install git")) from None
    if done.returncode != 0 or not done.stdout.strip():
        raise NotAMemory(Problem(str(start), f"{what} is not inside a git repository", _FIX))
    return Path(done.stdout.strip())

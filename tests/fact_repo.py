"""A small real memory repository for the fact write-path tests (git init + skeleton)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

IDENTITY = {
    "GIT_AUTHOR_NAME": "Test Person", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test Person", "GIT_COMMITTER_EMAIL": "test@example.com",
}
CONFIG = "approvers:\n  - Test Person <test@example.com>\nmany_valued_relations:\n  - likes\n"
FIRST_COMMIT_DATE = "2025-12-01T00:00:00Z"  # before every date of the worked example


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True, env={**os.environ, **IDENTITY})
    return done.stdout


def make_repo(root: Path, monkeypatch: pytest.MonkeyPatch, commit: bool = True) -> Path:
    """git init + memory/config.yaml + .gitignore, committed on 2025-12-01 (unless not)."""
    set_identity(monkeypatch)
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    (root / "memory").mkdir()
    (root / "memory" / "config.yaml").write_text(CONFIG, encoding="utf-8")
    (root / ".gitignore").write_text(".memrepo/\n", encoding="utf-8")
    if commit:
        git(root, "add", "-A")
        monkeypatch.setenv("GIT_COMMITTER_DATE", FIRST_COMMIT_DATE)
        monkeypatch.setenv("GIT_AUTHOR_DATE", FIRST_COMMIT_DATE)
        subprocess.run(["git", "commit", "-q", "-m", "skeleton"], cwd=root, check=True)
        monkeypatch.delenv("GIT_COMMITTER_DATE")
        monkeypatch.delenv("GIT_AUTHOR_DATE")
    return root


def set_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """A git identity in the environment and no pinned clock or repository."""
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMREPO_NOW", raising=False)
    monkeypatch.delenv("MEMREPO_REPO", raising=False)


def commit_count(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD").strip())


def status(root: Path) -> str:
    return git(root, "status", "--porcelain")

"""memrepo's own git hook scripts (memrepo.git.hook_scripts): written with the interpreter
memrepo runs in, another program's hook kept and still run, states doctor reports."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from memrepo.core.problems import InputError
from memrepo.git.hook_scripts import HOOK_TYPES, install, states
from tests.support import git, write

BAD_NOTE = "no header at all\n"


def hook(repo: Path, name: str) -> Path:
    return repo / ".git" / "hooks" / name


def make_executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_init_installs_every_hook_and_they_run_memrepo(memory_repo: Path) -> None:
    assert [s.state for s in states(memory_repo)] == ["ok"] * len(HOOK_TYPES)
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    refused = git(memory_repo, "commit", "-q", "-m", "bad", check=False)
    assert refused.returncode == 1 and "To fix:" in refused.stderr
    assert "git commit -e -F .git/COMMIT_EDITMSG" in refused.stderr  # the message is kept


def test_another_programs_hook_is_kept_and_runs_first(memory_repo: Path) -> None:
    make_executable(hook(memory_repo, "pre-commit"),
                    "#!/bin/sh\necho 'team policy: no commits today' >&2\nexit 1\n")
    install(memory_repo)
    assert "team policy" in hook(memory_repo, "pre-commit.local").read_text()
    assert "memrepo hooks run pre-commit" in hook(memory_repo, "pre-commit").read_text()
    done = git(memory_repo, "commit", "-q", "--allow-empty", "-m", "x", check=False)
    assert done.returncode == 1 and "team policy" in done.stderr
    install(memory_repo)  # again: memrepo's own script is simply rewritten
    assert "team policy" in hook(memory_repo, "pre-commit.local").read_text()
    make_executable(hook(memory_repo, "pre-commit"), "#!/bin/sh\nexit 0\n")
    with pytest.raises(InputError, match=r"pre-commit\.local"):
        install(memory_repo)  # two foreign hooks: a person merges them


def test_a_hook_whose_python_is_gone_is_stale_and_says_how_to_fix(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    install(memory_repo, python="/nonexistent/python3")
    assert {s.state for s in states(memory_repo)} == {"stale"}
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    env = {**git_env, "PATH": "/usr/bin:/bin"}  # no memrepo on PATH either
    done = git(memory_repo, "commit", "-q", "-m", "bad", check=False, env=env)
    assert done.returncode == 1 and "memrepo hooks install" in done.stderr


def test_a_missing_or_foreign_hook_is_reported(memory_repo: Path) -> None:
    hook(memory_repo, "commit-msg").unlink()
    make_executable(hook(memory_repo, "post-merge"), "#!/bin/sh\nexit 0\n")
    found = {s.hook_type: s.state for s in states(memory_repo)}
    assert found["commit-msg"] == "missing" and found["post-merge"] == "foreign"
    assert not any(s.runs_memrepo for s in states(memory_repo)
                   if s.hook_type in ("commit-msg", "post-merge"))


def test_hooks_go_where_core_hooks_path_points(memory_repo: Path) -> None:
    git(memory_repo, "config", "core.hooksPath", "team-hooks")
    install(memory_repo)
    assert "memrepo hooks run" in (memory_repo / "team-hooks" / "commit-msg").read_text()
    assert [s.state for s in states(memory_repo)] == ["ok"] * len(HOOK_TYPES)

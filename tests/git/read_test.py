from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memrepo.core.change import FileChange
from memrepo.core.problems import InputError
from memrepo.git.read import (
    commit_change,
    commits_in,
    full_change,
    open_repository,
    staged_change,
)
from tests.support import CONFIG, git, write


@pytest.fixture()
def repo(tmp_path: Path, git_env: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "memory/config.yaml", CONFIG)
    write(root, "memory/entities/a.md", "a")
    write(root, "memory/entities/b.md", "b")
    return root


def test_a_root_commit_changes_everything_from_nothing(repo: Path) -> None:
    git(repo, "add", "-A")
    change = staged_change(open_repository(repo), "first")
    assert {f.path for f in change.files} == {"memory/config.yaml", "memory/entities/a.md",
                                               "memory/entities/b.md"}
    assert {f.status for f in change.files} == {"added"}
    assert change.old.read("memory/entities/a.md") is None and change.parent_time is None
    assert change.new.read("memory/entities/a.md") == b"a"
    assert change.config.approvers == ("Ann Example <ann@example.com>",)
    assert change.root == repo.resolve() or change.root == repo


def test_staged_changes_with_a_rename_as_delete_plus_add(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "mv", "memory/entities/a.md", "memory/entities/c.md")
    write(repo, "memory/entities/b.md", "b2")
    write(repo, "memory/entities/d.md", "d")
    write(repo, "memory/entities/unstaged.md", "u")
    git(repo, "add", "memory/entities/b.md", "memory/entities/d.md")
    change = staged_change(open_repository(repo), "two")
    assert set(change.files) == {
        FileChange("deleted", "memory/entities/a.md"), FileChange("added", "memory/entities/c.md"),
        FileChange("modified", "memory/entities/b.md"), FileChange("added", "memory/entities/d.md"),
    }
    assert change.new.list_dir("memory/entities") == ["b.md", "c.md", "d.md"]
    assert change.old.list_dir("memory/entities/") == ["a.md", "b.md"]
    assert change.old.list_dir("memory") == ["config.yaml"]
    assert change.new.exists("memory/entities/c.md") and not change.new.exists("memory/entities")
    assert change.old.read("memory/entities/b.md") == b"b"
    assert change.new.read("memory/entities/b.md") == b"b2"
    assert change.parent_time is not None and change.message == "two"


def test_the_index_named_by_git_index_file_is_read(repo: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/entities/z.md", "z")
    other_index = repo / ".git" / "other-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(other_index)}
    for args in (["read-tree", "HEAD"], ["update-index", "--add", "memory/entities/z.md"]):
        assert not subprocess.run(["git", *args], cwd=repo, env=env).returncode
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/other-index")  # relative, as git may set it
    change = staged_change(open_repository(), "z")
    assert change.files == (FileChange("added", "memory/entities/z.md"),)
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert staged_change(open_repository(repo), "z").files == ()


def test_a_historical_commit_and_ranges(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/entities/a.md", "a2")
    git(repo, "commit", "-q", "-am", "two\n\nApproved-by: x")
    repository = open_repository(repo)
    first, second = commits_in(repository, None)
    change = commit_change(repository, second)
    assert change.files == (FileChange("modified", "memory/entities/a.md"),)
    assert change.message.startswith("two") and change.parent_time == first.commit_time * 10**6
    root_change = commit_change(repository, first)
    assert len(root_change.files) == 3 and root_change.parent_time is None
    assert [c.id for c in commits_in(repository, "HEAD~1..HEAD")] == [second.id]
    assert [c.id for c in commits_in(repository, "HEAD~1..")] == [second.id]
    with pytest.raises(InputError):
        commits_in(repository, "nope..HEAD")


def test_full_change_holds_everything_staged(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    change = full_change(open_repository(repo))
    assert len(change.files) == 3 and change.old.read("memory/config.yaml") is None
    assert change.new.list_dir("memory/entities") == ["a.md", "b.md"]


def test_a_broken_staged_config_gives_defaults(repo: Path) -> None:
    write(repo, "memory/config.yaml", "approvers: [unclosed\n")
    git(repo, "add", "-A")
    assert staged_change(open_repository(repo)).config.approvers == ()


def test_outside_a_repository_is_an_input_error(tmp_path: Path,
                                                git_env: dict[str, str]) -> None:
    with pytest.raises(InputError, match="not inside a git repository"):
        open_repository(tmp_path)

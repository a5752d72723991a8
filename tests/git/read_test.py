from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.core.change import FileChange
from memrepo.core.problems import InputError
from memrepo.git.read import commit_change, commits_in, open_repository
from tests.support import git, two_note_repo, write


@pytest.fixture()
def repo(tmp_path: Path, git_env: dict[str, str]) -> Path:
    return two_note_repo(tmp_path / "repo")


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


def test_a_historical_commit_is_checked_by_its_parents_rules(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/config.yaml", 'approvers: ["Eve <eve@example.com>"]\n')
    git(repo, "commit", "-q", "-am", "take over")
    repository = open_repository(repo)
    first, second = commits_in(repository, None)
    assert commit_change(repository, second).config.approvers == (
        "Ann Example <ann@example.com>",)
    root_change = commit_change(repository, first)
    assert root_change.config.approvers == ("Ann Example <ann@example.com>",)
    assert root_change.rules is not None and root_change.rules.exists("memory/config.yaml")


def test_outside_a_repository_is_an_input_error(tmp_path: Path,
                                                git_env: dict[str, str]) -> None:
    with pytest.raises(InputError, match="not inside a git repository"):
        open_repository(tmp_path)

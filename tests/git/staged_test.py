"""The commit being made, read through git's plumbing (memrepo.git.staged): what the
commit hooks and `memrepo check` check."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memrepo.core.change import Change, FileChange
from memrepo.core.problems import InputError
from memrepo.git.staged import staged_change as staged
from tests.support import git, two_note_repo, write


def staged_change(path: Path | None = None, message: str | None = None) -> Change:
    return staged(Path(path or "."), message)


def full_change(path: Path) -> Change:
    return staged(path, None, everything=True)



@pytest.fixture()
def repo(tmp_path: Path, git_env: dict[str, str]) -> Path:
    return two_note_repo(tmp_path / "repo")


def test_a_root_commit_changes_everything_from_nothing(repo: Path) -> None:
    git(repo, "add", "-A")
    change = staged_change(repo, "first")
    assert {f.path for f in change.files} == {"memory/config.yaml", "memory/entities/a.md",
                                               "memory/entities/b.md"}
    assert {f.status for f in change.files} == {"added"}
    assert change.old.read("memory/entities/a.md") is None and change.parent_time is None
    assert change.new.read("memory/entities/a.md") == b"a"
    assert change.config.approvers == ("Ann Example <ann@example.com>",)


def test_work_given_for_meanwhile_runs_once_and_the_change_is_the_same(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/entities/b.md", "b2")
    git(repo, "add", "-A")
    ran: list[str] = []
    change = staged(repo, "two", meanwhile=lambda: ran.append("imports"))
    assert ran == ["imports"]
    assert change.files == staged_change(repo, "two").files == (
        FileChange("modified", "memory/entities/b.md"),)
    assert change.new.read("memory/entities/b.md") == b"b2"
    assert change.config.approvers == ("Ann Example <ann@example.com>",)


def test_staged_changes_with_a_rename_as_delete_plus_add(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "mv", "memory/entities/a.md", "memory/entities/c.md")
    write(repo, "memory/entities/b.md", "b2")
    write(repo, "memory/entities/d.md", "d")
    write(repo, "memory/entities/unstaged.md", "u")
    git(repo, "add", "memory/entities/b.md", "memory/entities/d.md")
    change = staged_change(repo, "two")
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
    change = staged_change(None, "z")
    assert change.files == (FileChange("added", "memory/entities/z.md"),)
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert staged_change(repo, "z").files == ()


def test_full_change_holds_everything_staged(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    change = full_change(repo)
    assert len(change.files) == 3 and change.old.read("memory/config.yaml") is None
    assert change.new.list_dir("memory/entities") == ["a.md", "b.md"]


def test_a_broken_staged_config_gives_defaults(repo: Path) -> None:
    write(repo, "memory/config.yaml", "approvers: [unclosed\n")
    git(repo, "add", "-A")
    assert staged_change(repo).config.approvers == ()


def test_outside_a_repository_is_an_input_error(tmp_path: Path,
                                                git_env: dict[str, str]) -> None:
    with pytest.raises(InputError, match="not inside a git repository"):
        staged_change(tmp_path)


def test_modes_are_kept_so_symlinks_can_be_refused(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    (repo / "memory" / "facts").mkdir()
    (repo / "memory" / "facts" / "ext").symlink_to("/tmp")
    git(repo, "add", "-A")
    [link] = staged_change(repo, "link").files
    assert link.path == "memory/facts/ext" and link.is_symlink


def test_check_all_takes_its_rules_from_head_not_from_the_index(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/config.yaml", 'approvers: ["Eve <eve@example.com>"]\n')
    git(repo, "add", "-A")
    change = full_change(repo)
    assert change.config.approvers == ("Ann Example <ann@example.com>",)
    assert change.new.read("memory/config.yaml") == b'approvers: ["Eve <eve@example.com>"]\n'
    assert staged_change(repo).config.approvers == ("Ann Example <ann@example.com>",)


def test_a_merge_in_progress_changes_only_what_differs_from_every_parent(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "switch", "-q", "-c", "other")
    write(repo, "memory/entities/theirs.md", "t")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "theirs")
    git(repo, "switch", "-q", "main")
    write(repo, "memory/entities/a.md", "a2")
    git(repo, "commit", "-q", "-am", "ours")
    git(repo, "merge", "-q", "--no-commit", "other")
    write(repo, "memory/entities/both.md", "made while merging")
    git(repo, "add", "-A")
    change = staged_change(repo, "merge")
    assert change.merge and change.parent_time is None
    assert [f.path for f in change.files] == ["memory/entities/both.md"]
    assert change.new.read("memory/entities/theirs.md") == b"t"


def test_paths_expected_together_are_answered_as_one_by_one(repo: Path) -> None:
    """`expect` asks git about many paths in one exchange (the headers and links checks
    announce theirs); `exists` then answers exactly as it does path by path: files of the
    index, files the change adds or deletes, folders, missing paths, names git cannot be
    asked about — also past one exchange's slice."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    write(repo, "memory/entities/c.md", "c")
    git(repo, "rm", "-q", "memory/entities/b.md")
    git(repo, "add", "-A")
    paths = ["memory/entities/a.md", "memory/entities/b.md", "memory/entities/c.md",
             "memory/entities", "memory/config.yaml", "memory/rules/a.md", "nope\nline",
             "nope\rline", "", "memory/entities/a.md",
             *(f"memory/project/n-{number}.md" for number in range(300))]
    one_by_one = staged_change(repo, "two")
    expected = {path: one_by_one.new.exists(path) for path in paths}
    assert [path for path, found in expected.items() if found] == [
        "memory/entities/a.md", "memory/entities/c.md", "memory/config.yaml"]
    together = staged_change(repo, "two")
    together.new.expect(paths)  # type: ignore[attr-defined]
    assert {path: together.new.exists(path) for path in paths} == expected
    assert together.new.read("memory/entities/a.md") == b"a"  # the exchange stays in step


@pytest.mark.parametrize("afterwards", ["as staged", "edited", "removed", "a link"])
def test_an_index_file_is_the_staged_blob_wherever_it_is_read_from(repo: Path,
                                                                   afterwards: str) -> None:
    """A staged INDEX.md is read from the work tree only when the file there hashes to the
    staged blob; edited after `git add`, removed or replaced by a symbolic link, the
    staged bytes come from git. Either way the change holds exactly what is committed."""
    index = "memory/entities/INDEX.md"
    write(repo, index, "old\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    staged_bytes = "- [a](/memory/entities/a.md) — new\n" * 2000
    write(repo, index, staged_bytes)
    git(repo, "add", "-A")
    if afterwards == "as staged":  # git's own copy gone: only the work tree's can be read
        oid = git(repo, "rev-parse", f":{index}").stdout.strip()
        (repo / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    elif afterwards == "edited":
        write(repo, index, staged_bytes + "- [z](/memory/entities/z.md) — unstaged\n")
    elif afterwards == "removed":
        (repo / index).unlink()
    elif afterwards == "a link":
        (repo / "elsewhere.md").write_text(staged_bytes, encoding="utf-8")
        (repo / index).unlink()
        (repo / index).symlink_to(repo / "elsewhere.md")
    change = staged_change(repo, "two")
    assert change.new.read(index) == staged_bytes.encode()
    assert change.old.read(index) == b"old\n"
    if afterwards != "as staged":
        assert git(repo, "cat-file", "blob", f":{index}").stdout == staged_bytes
